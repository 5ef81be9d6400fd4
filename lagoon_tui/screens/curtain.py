"""The hot-seat curtain: hides the board while the keyboard changes hands."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Footer, Static


class CurtainScreen(Screen[None]):
    """A full screen with nothing of the game on it but whose turn comes next."""

    DEFAULT_CSS = """
    CurtainScreen { align: center middle; background: $background; }
    CurtainScreen #curtain-card { width: auto; max-width: 70; height: auto; padding: 1 4;
                                  border: heavy $accent; text-align: center; }
    """
    BINDINGS = [Binding("enter", "ready", "I am ready", priority=True)]

    def __init__(self, name_tag: Text) -> None:
        super().__init__()
        self.name_tag = name_tag

    def compose(self) -> ComposeResult:
        name = self.name_tag.plain
        text = Text.assemble("Pass the keyboard to ", self.name_tag, "\n\n",
                             (f"Press Enter when only {name.split(' [')[0]} can see the screen.", "dim"))
        with Middle():
            with Center():
                yield Static(text, id="curtain-card")
        yield Footer()

    def action_ready(self) -> None:
        self.dismiss(None)
