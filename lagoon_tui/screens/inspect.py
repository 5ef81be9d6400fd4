"""A window with the full text of a card, tile or action, opened with `i`."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static


class InspectScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    InspectScreen { align: center middle; }
    InspectScreen > Vertical { width: 64; max-width: 100%; height: auto; max-height: 100%;
                               border: round $accent; padding: 1 2; background: $surface; }
    InspectScreen #inspect-title { text-style: bold; color: $accent; }
    InspectScreen #inspect-hint { color: $text-muted; margin-top: 1; }
    """
    BINDINGS = [Binding("escape,enter,i", "close", "Close")]

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title_text, self.body = title, text

    def compose(self) -> ComposeResult:
        with Vertical():
            # (plain text: a player's letter tag "[Y]" or a card name is not markup)
            yield Static(self.title_text, id="inspect-title", markup=False)
            yield Static(self.body, id="inspect-body", markup=False)
            yield Static("Esc, Enter or i to close", id="inspect-hint")

    def action_close(self) -> None:
        self.dismiss(None)
