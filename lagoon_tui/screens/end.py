"""The end of the game: the score sheet (`widgets/score_sheet.py`), then what to do next.

The sheet is the ranking, with every player's VP broken down by source. The
screen dismisses with "title", "new" or "replay", and the app decides what
follows. All of it is read from the finished game's seat message
(`SeatScene.results`), so a seat in another process gets the same screen.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, OptionList, Static
from textual.widgets.option_list import Option

from lagoon_tui.scene import Scene
from lagoon_tui.screens.help import show_help
from lagoon_tui.widgets.keys_footer import KeysFooter
from lagoon_tui.widgets.score_sheet import SHEET_KEYS, ScoreSheet
from rules.seat import GameResults


class EndScreen(Screen[str]):
    """The final ranking; b or Esc goes back to the title, n starts a new game."""

    HELP_TITLE = "Final ranking"
    HELP_EXTRA = [*SHEET_KEYS, ("tab", "Go to the choices below it, then enter to choose")]
    BINDINGS = [
        Binding("b", "title", "Back to title"),
        Binding("escape", "title", "Back to title", show=False),
        Binding("n", "new_game", "New game"),
        Binding("p", "replay", "Replay"),
        Binding("question_mark", "help", "Keys", key_display="?"),
    ]

    def __init__(self, scene: Scene, *, away: bool = False, levels: Mapping[int, str] | None = None) -> None:
        """`scene`: a message of the finished game (any seat's or a spectator's: their `results` are the same).

        `away`: a game hosted elsewhere (a player at their own terminal): no new game or replay from here.
        `levels`: the seats computers played, by level (`SeatHost.levels`), marked so where a name shows.
        """
        super().__init__()
        self.away = away
        self.levels = levels
        if scene.message.results is None:
            raise ValueError("the game is not over yet; there is no final ranking to show")
        self.results: GameResults = scene.message.results

    def compose(self) -> ComposeResult:
        with Vertical(id="end-box"):
            yield Static("Final ranking", classes="screen-title")
            yield ScoreSheet(self.results, self.levels)
            yield Static("↑ ↓ scroll the sheet · Tab to the choices below", classes="hint", id="end-hint")
            yield OptionList(*self._choices(), id="end-menu", compact=True)
        yield KeysFooter()

    def _choices(self) -> list[Option]:
        if self.away:
            return [Option("Leave  (b)", id="title")]
        return [Option("Back to title  (b)", id="title"), Option("New game  (n)", id="new")]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.away and action in ("new_game", "replay"):
            return False
        return super().check_action(action, parameters)

    def on_mount(self) -> None:
        self.query_one("#end-menu", OptionList).highlighted = 0
        self.query_one("#end-table", DataTable).focus()

    # -- leaving ------------------------------------------------------------------------------

    @on(OptionList.OptionSelected, "#end-menu")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.chosen(event.option.id or "title")

    def chosen(self, choice: str) -> None:
        """A choice of the menu below the sheet, by its id."""
        self.dismiss("new" if choice == "new" else "title")

    def action_title(self) -> None:
        self.dismiss("title")

    def action_new_game(self) -> None:
        self.dismiss("new")

    def action_replay(self) -> None:
        """Watch the game again, event by event (the app opens the replay)."""
        self.dismiss("replay")

    def action_help(self) -> None:
        show_help(self)
