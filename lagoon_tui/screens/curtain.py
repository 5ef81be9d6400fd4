"""The hot-seat curtain: hides the board while the keyboard changes hands."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from rich.console import RenderableType
from rich.measure import Measurement
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen

from ..quiet_gc import collector
from ..turbo.compositor import paint_spots
from ..turbo.screens import SteadyScreen
from ..widgets.keys_footer import KeysFooter
from ..widgets.note import Note

CARD_ROWS = 10  # rows of the screen the card (border, padding, its three lines) and the footer take, and a margin
MEANWHILE_ROWS = 14  # at most, so the card stays near the middle of a tall screen
MEANWHILE_WIDTH = 66  # columns the sentences of what happened meanwhile wrap at
COLLECT_AFTER = 0.2  # seconds a curtain stays up before garbage is collected behind it


class Card(Note):
    """The curtain's words: another name re-arranges the screen only if the card must change size.

    (A Static arranges the screen anew at every change, and a new arrangement
    of the curtain was painted on its own before the whole curtain was.)
    """

    def update(self, content: RenderableType = "", *, layout: bool = True) -> None:  # type: ignore[override]  # (as Note's)
        if self.is_mounted and self._lines is not None:
            app = self.app
            wanted = Measurement.get(
                app.console, app.console_options, Text(content) if isinstance(content, str) else content
            ).maximum
            if wanted != self.content_size.width:
                self._lines = None  # laid out again at its new width
        super().update(content, layout=layout)


class Meanwhile(Note):
    """Below the card: what the others did since the player it calls last moved, in the log's public words."""


class CurtainScreen(SteadyScreen, Screen[None]):
    """A full screen with nothing of the game on it but whose turn comes next, and what happened meanwhile.

    One curtain serves the whole game (`CurtainScreen.shown_for`): it is built
    once and only its text changes from one hand-over to the next. While it is
    up, the board underneath is drawn for the player it names (`prepare`), and
    garbage is collected, since nobody waits for the screen; when it is passed
    (`ready`), the board is made theirs if it is not yet, before the curtain
    goes: the board appears once, already theirs.
    """

    DEFAULT_CSS = """
    CurtainScreen { align: center middle; background: $background; }
    CurtainScreen #curtain-card { width: auto; max-width: 70; height: auto; padding: 1 4; border: heavy $accent; }
    CurtainScreen #curtain-box { width: 66; max-width: 100%; height: auto; }
    CurtainScreen #curtain-meanwhile { width: 66; max-width: 100%; height: auto; }
    """
    BINDINGS = [Binding("enter", "ready", "I am ready", priority=True)]
    HELP_TITLE = "Curtain"
    NAME = "curtain"  # the app keeps the one curtain installed under this name

    def __init__(self) -> None:
        super().__init__()
        paint_spots(self)
        self.name_tag = Text()
        self.since: list[str] = []  # what the others did since this player's last move (public sentences)
        self.prepare: Callable[[], None] | None = None
        self.ready: Callable[[], None] | None = None

    @classmethod
    def shown_for(
        cls,
        app: App[Any],
        name_tag: Text,
        prepare: Callable[[], None],
        ready: Callable[[], None],
        since: Sequence[str] = (),
    ) -> str:
        """The app's curtain, made to name `name_tag`; returns the name to push it by.

        `prepare` is called once the curtain is on screen, `ready` when it is
        passed, before it goes. `since`: what everyone may know of the moves made
        since that player last moved, told on the card.
        """
        if not app.is_screen_installed(cls.NAME):
            app.install_screen(cls(), cls.NAME)
        curtain = cast("CurtainScreen", app.get_screen(cls.NAME))  # (installed under that name just above, or before)
        curtain.name_tag, curtain.prepare, curtain.ready = name_tag, prepare, ready
        curtain.since = list(since)
        if curtain.is_mounted:
            curtain.query_one(Card).update(curtain.card())
            curtain.query_one(Meanwhile).update(curtain.meanwhile())
        return cls.NAME

    def card(self) -> Text:
        name = self.name_tag.plain
        return Text.assemble(
            "Pass the keyboard to ",
            self.name_tag,
            "\n\n",
            (f"Press Enter when only {name.split(' [')[0]} can see the screen.", "dim"),
            justify="center",
        )

    def meanwhile(self) -> Text:
        """The latest of what the others did since this player last moved, as many sentences as fit.

        Always as many lines as the screen leaves below the card (blank where
        there is less to tell), so a new curtain keeps the size of the last
        and comes up without a new arrangement of the screen.
        """
        rows = max(0, min(MEANWHILE_ROWS, self.app.size.height - CARD_ROWS))
        lines: list[Text] = []
        told = 0
        for sentence in reversed(self.since):
            wrapped = list(Text(f"• {sentence}").wrap(self.app.console, MEANWHILE_WIDTH))
            if len(lines) + len(wrapped) > rows - 2:  # (room kept for the heading and a blank line)
                break
            lines[:0] = wrapped
            told += 1
        if lines:
            name = self.name_tag.plain.split(" [")[0]
            more = " (the latest; the log has all)" if told < len(self.since) else ""
            lines[:0] = [Text(""), Text(f"Since {name}'s last move{more}:", style="bold")]
        lines += [Text("")] * (rows - len(lines))
        return Text("\n").join(lines)

    def compose(self) -> ComposeResult:
        with Vertical(id="curtain-box"):
            with Center():
                yield Card(self.card(), id="curtain-card")
            yield Meanwhile(self.meanwhile(), id="curtain-meanwhile")
        yield KeysFooter()

    def on_resize(self) -> None:
        self.query_one(Meanwhile).update(self.meanwhile())  # as many lines as now fit

    def on_screen_resume(self, event: events.ScreenResume | None = None) -> None:
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
