"""The hot-seat curtain: hides the board while the keyboard changes hands."""
from __future__ import annotations

from typing import Callable

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Static

from ..widgets.keys_footer import KeysFooter


class CurtainScreen(Screen[None]):
    """A full screen with nothing of the game on it but whose turn comes next.

    One curtain serves the whole game (`CurtainScreen.shown_for`): it is built
    once and only its text changes from one hand-over to the next. When it is
    passed, the board is drawn for the next player while the curtain still
    hides it, so the board appears once, already theirs.
    """

    DEFAULT_CSS = """
    CurtainScreen { align: center middle; background: $background; }
    CurtainScreen #curtain-card { width: auto; max-width: 70; height: auto; padding: 1 4;
                                  border: heavy $accent; text-align: center; }
    """
    BINDINGS = [Binding("enter", "ready", "I am ready", priority=True)]
    NAME = "curtain"  # the app keeps the one curtain installed under this name

    def __init__(self) -> None:
        super().__init__()
        self.name_tag = Text()
        self.ready: Callable[[], None] | None = None

    @classmethod
    def shown_for(cls, app: App, name_tag: Text, ready: Callable[[], None]) -> str:
        """The app's curtain, made to name `name_tag`; returns the name to push it by.

        `ready` is called when the curtain is passed, before it goes.
        """
        if not app.is_screen_installed(cls.NAME):
            app.install_screen(cls(), cls.NAME)
        curtain = app.get_screen(cls.NAME)
        curtain.name_tag, curtain.ready = name_tag, ready
        if curtain.is_mounted:
            curtain.query_one("#curtain-card", Static).update(curtain.card())
        return cls.NAME

    def card(self) -> Text:
        name = self.name_tag.plain
        return Text.assemble("Pass the keyboard to ", self.name_tag, "\n\n",
                             (f"Press Enter when only {name.split(' [')[0]} can see the screen.", "dim"))

    def compose(self) -> ComposeResult:
        with Middle():
            with Center():
                yield Static(self.card(), id="curtain-card")
        yield KeysFooter()

    def action_ready(self) -> None:
        ready, self.ready = self.ready, None
        if ready is not None:
            ready()
        self.dismiss(None)
