"""What changed since the player's last move, in a window that `w` opens and closes: `SinceScreen`.

The sentences are the seat message's `since`: what happened since that seat
last moved, told in everyone's words (the same the hot-seat curtain shows),
never in a seat's private words. The game screen opens it for the seat at
the keyboard only (`GameKeys.action_since`), and while it is open hands it
the list again after every change of the game (`GameKeys.windows_follow`), so
a move a computer or another terminal makes meanwhile shows in it at once.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from .inspect import InspectScreen

SINCE_KEY = "w"
NOTHING = "Nothing has happened since your last move."


def since_text(sentences: Sequence[str]) -> Text:
    """One bullet per sentence, each wrapped under its own first word."""
    if not sentences:
        return Text(NOTHING, style="italic")
    return Text("\n").join(Text(f"• {sentence}") for sentence in sentences)


class SinceScreen(InspectScreen):
    """A window listing what happened since the player's last move; w, Esc or Enter closes it.

    (Laid out as the window `i` opens, whose styles it takes; its list scrolls when it is long.)"""

    DEFAULT_CSS = """
    SinceScreen #since-list { height: auto; max-height: 1fr; }
    SinceScreen #since-body { padding-right: 1; }
    """
    BINDINGS = [Binding(f"{SINCE_KEY},escape,enter", "close", "Close")]
    HELP_TITLE = "What changed"

    def __init__(self, title: str, sentences: Sequence[str], seat: int) -> None:
        super().__init__(title, "")
        self.sentences = list(sentences)
        self.seat = seat  # whose last move the list counts from

    def show(self, sentences: Sequence[str]) -> None:
        """The list as it is now (the game changed while the window was open)."""
        if list(sentences) != self.sentences:
            self.sentences = list(sentences)
            # (none yet if the move came before the window was put together: it is made from `sentences`)
            for body in self.query("#since-body").results(Static):
                body.update(since_text(self.sentences))

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, id="inspect-title", markup=False)
            with VerticalScroll(id="since-list"):
                yield Static(since_text(self.sentences), id="since-body", markup=False)
            yield Static(f"{SINCE_KEY}, Esc or Enter to close · ↑ ↓ scroll", id="inspect-hint")

    def on_mount(self) -> None:
        self.query_one("#since-list").focus()
