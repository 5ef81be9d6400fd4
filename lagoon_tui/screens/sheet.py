"""A finished game's score sheet, opened again after its end screen: from Load or from its replay.

The same sheet as the end screen's (`widgets/score_sheet.py`), from the game's
final results; Esc (or b) goes back to where it was opened.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Static

from rules.seat import GameResults

from ..widgets.keys_footer import KeysFooter
from ..widgets.score_sheet import SHEET_KEYS, ScoreSheet
from .help import show_help

NOT_OVER = "This game is not over: its score sheet comes at its end."
"""What the key that opens the sheet says of an unfinished game (nothing of it is shown)."""


class SheetScreen(Screen[None]):
    """The final ranking of a finished game, to read again."""

    HELP_TITLE = "Score sheet"
    HELP_EXTRA = SHEET_KEYS
    BINDINGS = [
        Binding("escape,b", "back", "Back"),
        Binding("question_mark", "help", "Keys", key_display="?"),
    ]
    DEFAULT_CSS = """
    SheetScreen { background: $background; }
    SheetScreen #sheet-box { height: 1fr; padding: 0 1; }
    SheetScreen #sheet-hint { text-align: center; }
    """

    def __init__(
        self, results: GameResults, title: str = "Final ranking", levels: Mapping[int, str] | None = None
    ) -> None:
        """`levels`: the seats computers played, by level (from the save file), marked so on the sheet."""
        super().__init__()
        self.results = results
        self.sheet_title = title
        self.levels = levels

    def compose(self) -> ComposeResult:
        with Vertical(id="sheet-box"):
            yield Static(self.sheet_title, classes="screen-title")
            yield ScoreSheet(self.results, self.levels)
            yield Static("↑ ↓ scroll the sheet · Esc back", classes="hint", id="sheet-hint")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#end-table", DataTable).focus()

    def action_back(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        show_help(self)
