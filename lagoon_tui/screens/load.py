"""The Load screen: every saved game with its date, players, round, scores and status.

Enter resumes an unfinished game (or replays a finished one), `p` replays
any game, `v` opens a finished game's score sheet, `d` deletes one after asking. The screen dismisses with
("resume" | "replay", game id) and the app does the rest.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from rules.host import Content, GameInfo, Host, Store, StoreError, printable

from ..saved_words import plain, players_text, shown_names, status_text, when
from ..widgets.keys_footer import KeysFooter
from .confirm import ConfirmScreen
from .help import show_help
from .sheet import NOT_OVER, SheetScreen


class LoadScreen(Screen[tuple[str, int] | None]):
    """The saved games, most recently played first."""

    HELP_TITLE = "Load a game"
    HELP_EXTRA = [("↑ / ↓", "Move in the list")]
    BINDINGS = [
        Binding("enter", "open", "Resume / replay", priority=True),
        Binding("p", "replay", "Replay"),
        Binding("v", "sheet", "Scores"),  # (a longer word would push Rules off the footer at 80 columns)
        Binding("d", "delete", "Delete"),
        Binding("escape", "back", "Back"),
        Binding("question_mark", "help", "Keys", key_display="?"),
    ]
    DEFAULT_CSS = """
    LoadScreen { align: center top; }
    LoadScreen #load-table { height: 1fr; }
    LoadScreen #load-empty { padding: 1 2; }
    """

    def __init__(self, store: Store, content: Content | None = None) -> None:
        """`content`: the decks, to read a finished game's score sheet again (without them, `v` does nothing)."""
        super().__init__()
        self.store = store
        self.content = content
        self.games: list[GameInfo] = []

    def compose(self) -> ComposeResult:
        yield Static("Saved games", classes="screen-title")
        yield Static(
            "Enter: resume (or replay a finished game) · p: replay · v: score sheet · d: delete · Esc: back",
            classes="hint",
        )
        yield DataTable(id="load-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="load-empty", classes="hint")
        yield KeysFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for name in ("#", "Last played", "Players", "Round", "Scores", "Status"):
            table.add_column(name, key=name)
        self.fill()
        table.focus()

    def fill(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        try:
            self.games = self.store.games()
        except StoreError as error:
            self.games = []
            self.notify(printable(str(error)), title="Saved games", severity="error", timeout=15, markup=False)
        for g in self.games:
            scores = " ".join(f"{n[:6]} {vp}" for n, vp in zip(g.names, g.scores)) or "—"
            table.add_row(
                *map(
                    plain,
                    (str(g.id), when(g.updated), players_text(g), str(g.round or "setup"), scores, status_text(g)),
                ),
                key=str(g.id),
            )
        self.query_one("#load-empty", Static).update("" if self.games else f"No saved games yet in {self.store.path}.")

    @property
    def selected(self) -> GameInfo | None:
        table = self.query_one(DataTable)
        if not self.games or table.cursor_row is None or not 0 <= table.cursor_row < len(self.games):
            return None
        return self.games[table.cursor_row]

    def action_open(self) -> None:
        g = self.selected
        if g is not None:
            self.dismiss(("replay" if g.over else "resume", g.id))

    def action_replay(self) -> None:
        g = self.selected
        if g is not None:
            self.dismiss(("replay", g.id))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "sheet" and self.content is None:
            return False
        return super().check_action(action, parameters)

    def action_sheet(self) -> None:
        """The chosen game's score sheet, as its end screen showed it; an unfinished game's is not shown."""
        g = self.selected
        if g is None or self.content is None:
            return
        if not g.over:
            self.notify(NOT_OVER, title=f"Game {g.id}")
            return
        try:
            results = Host.replay_saved(self.store, g.id, self.content).results
        except StoreError as error:
            self.notify(printable(str(error)), title="Cannot read it", severity="error", timeout=15, markup=False)
            return
        if results is not None:  # (a game the list calls over always has them)
            self.app.push_screen(SheetScreen(results, f"Final ranking of game {g.id}", dict(g.computers)))

    def action_delete(self) -> None:
        g = self.selected
        if g is None:
            return

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            try:
                self.store.delete(g.id)
            except StoreError as error:
                self.notify(printable(str(error)), title="Not deleted", severity="error", timeout=15, markup=False)
                return
            self.notify(f"Deleted game {g.id}.")
            self.fill()

        self.app.push_screen(ConfirmScreen(f"Delete game {g.id} ({shown_names(g.names)})?"), answered)

    def action_back(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        show_help(self)
