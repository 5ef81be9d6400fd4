"""The hot-seat curtain: hides the board while the keyboard changes hands."""
from __future__ import annotations

from typing import Callable

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Static

from ..quiet_gc import collector
from ..widgets.keys_footer import KeysFooter

COLLECT_AFTER = 0.2  # seconds a curtain stays up before garbage is collected behind it


class CurtainScreen(Screen[None]):
    """A full screen with nothing of the game on it but whose turn comes next.

    One curtain serves the whole game (`CurtainScreen.shown_for`): it is built
    once and only its text changes from one hand-over to the next. While it is
    up, the board underneath is drawn for the player it names (`prepare`), and
    garbage is collected, since nobody waits for the screen; when it is passed
    (`ready`), the board is made theirs if it is not yet, before the curtain
    goes: the board appears once, already theirs.
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
        self.prepare: Callable[[], None] | None = None
        self.ready: Callable[[], None] | None = None

    @classmethod
    def shown_for(cls, app: App, name_tag: Text, prepare: Callable[[], None], ready: Callable[[], None]) -> str:
        """The app's curtain, made to name `name_tag`; returns the name to push it by.

        `prepare` is called once the curtain is on screen, `ready` when it is
        passed, before it goes.
        """
        if not app.is_screen_installed(cls.NAME):
            app.install_screen(cls(), cls.NAME)
        curtain = app.get_screen(cls.NAME)
        curtain.name_tag, curtain.prepare, curtain.ready = name_tag, prepare, ready
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

    def on_screen_resume(self) -> None:
        self.call_after_refresh(self._meanwhile)

    def _meanwhile(self) -> None:
        """The curtain is on screen: the board is drawn under it, and garbage collected if it stays up a moment."""
        prepare, self.prepare = self.prepare, None
        if prepare is not None and self.is_current:
            prepare()
        self.set_timer(COLLECT_AFTER, self._collect)

    def _collect(self) -> None:
        # A full collection takes 10-30 ms: an Enter pressed at once is never kept waiting for it
        # (the moves' own collections make up for one skipped: see lagoon_tui/quiet_gc.py)
        if self.is_current:
            collector.full()

    def action_ready(self) -> None:
        ready, self.ready = self.ready, None
        if ready is not None:
            ready()
        self.dismiss(None)
