"""The end of the game: the ranking, with every player's VP broken down by source.

The table is a score sheet: one column per player in final order, one row per
source of points. Players are named with their colour *and* letter, and each
objective says in words whether it was met. The screen dismisses with "title"
or "new", and the app decides what follows. All of it is read from the
finished game's seat message (`SeatScene.results`), so a seat in another
process gets the same screen.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.events import Resize
from textual.screen import Screen
from textual.widgets import DataTable, OptionList, Static
from textual.widgets.option_list import Option

from lagoon_tui.scene import COLOUR_LETTERS, COLOUR_STYLES, Scene
from lagoon_tui.screens.help import show_help
from lagoon_tui.widgets.keys_footer import KeysFooter
from rules.seat import PLAY_SOURCES, GameResults, PlayerResult, ordinal, tiebreak_lines

SHORT_SOURCES = {
    "equipment": "Equipment",
    "shipments": "Shipments",
    "deals": "Deals",
    "enriched cubes sold": "Cubes sold",
    "equipment effects": "Card effects",
    "wages": "Wages",
}
"""Row labels for narrow terminals (the full words are in PLAY_SOURCES)."""

WIDE = 120


def player_tag(p: PlayerResult) -> Text:
    """Name and letter in the player's colour: identity never rests on colour alone."""
    return Text(f"{p.name} [{COLOUR_LETTERS.get(p.colour, '?')}]", style=COLOUR_STYLES.get(p.colour, "bold"))


def _number(n: int, style: str = "") -> Text:
    return Text(str(n), style=style)


def winners_line(results: GameResults) -> Text:
    first = [p for p in results.ranking if p.place == 1]
    line = Text()
    for i, p in enumerate(first):
        if i:
            line.append(" and " if i == len(first) - 1 else ", ")
        line.append_text(player_tag(p))
    if len(first) == 1:
        line.append(f" wins with {first[0].total} VP.")
    else:
        line.append(f" share the victory with {first[0].total} VP.")
    return line


class EndScreen(Screen[str]):
    """The final ranking; b or Esc goes back to the title, n starts a new game."""

    HELP_TITLE = "Final ranking"
    HELP_EXTRA = [
        ("↑ / ↓ / pgup / pgdn", "Scroll the score sheet"),
        ("^home / ^end", "Its top / its bottom"),
        ("tab", "Go to the choices below it, then enter to choose"),
    ]
    BINDINGS = [
        Binding("b", "title", "Back to title"),
        Binding("escape", "title", "Back to title", show=False),
        Binding("n", "new_game", "New game"),
        Binding("p", "replay", "Replay"),
        Binding("question_mark", "help", "Keys", key_display="?"),
    ]

    def __init__(self, scene: Scene, *, away: bool = False) -> None:
        """`scene`: a message of the finished game (any seat's or a spectator's: their `results` are the same).

        `away`: a game hosted elsewhere (a player at their own terminal): no new game or replay from here.
        """
        super().__init__()
        self.away = away
        if scene.message.results is None:
            raise ValueError("the game is not over yet; there is no final ranking to show")
        self.results: GameResults = scene.message.results
        self._built_for: int | None = None

    def compose(self) -> ComposeResult:
        r = self.results
        with Vertical(id="end-box"):
            yield Static("Final ranking", classes="screen-title")
            yield Static(winners_line(r), id="end-winners")
            yield Static(f"After round {r.rounds}. {r.end_reason_text}", id="end-reason", classes="hint")
            # no cursor: the arrows scroll the sheet, whose header (the players) stays in view
            yield DataTable(
                id="end-table", cursor_type="none", zebra_stripes=True, header_height=2, show_row_labels=False
            )
            lines = tiebreak_lines(r)
            # (the lines name players: plain text, never markup)
            yield VerticalScroll(
                Static(Text("\n".join(lines))), id="end-ties", classes="-shown" if lines else "", can_focus=False
            )
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
        self._build_table()
        self.query_one("#end-menu", OptionList).highlighted = 0
        self.query_one("#end-table", DataTable).focus()

    def on_resize(self, event: Resize) -> None:
        self._build_table()

    # -- the score sheet --------------------------------------------------------------------

    def _rows(self, wide: bool) -> list[tuple[str, str, list[Text], bool]]:
        """(key, label, one cell per player in ranking order, multi-line?) for every row."""
        ranking = self.results.ranking
        rows: list[tuple[str, str, list[Text], bool]] = []
        labels = PLAY_SOURCES if wide else SHORT_SOURCES
        sources = list(ranking[0].vp_by_source) if ranking else []
        for source in sources:
            label = labels.get(source, source.capitalize())
            rows.append((f"source:{source}", label, [_number(p.vp_by_source.get(source, 0)) for p in ranking], False))
        rows.append(("play", "During play", [_number(p.play_vp, "bold") for p in ranking], False))
        count = max((len(p.objectives) for p in ranking), default=0)
        for i in range(count):
            cells = []
            for p in ranking:
                if i >= len(p.objectives):
                    cells.append(Text("—"))
                    continue
                o = p.objectives[i]
                verdict = f"✓ met, +{o.vp} VP" if o.met else "✗ not met, 0"
                cells.append(Text.assemble((o.name, "bold"), "\n", o.measure_text, "\n", verdict))
            rows.append((f"objective:{i + 1}", f"Objective {i + 1}", cells, True))
        rows.append(
            ("artifacts", "Artifacts", [Text(f"{p.artifacts_vp} ({p.artifacts} kept)") for p in ranking], False)
        )
        rows.append(("total", "Total VP", [_number(p.total, "bold reverse") for p in ranking], False))
        return rows

    def _build_table(self) -> None:
        width = self.size.width or self.app.size.width
        if width == self._built_for:
            return
        self._built_for = width
        table = self.query_one("#end-table", DataTable)
        table.clear(columns=True)
        rows = self._rows(wide=width >= WIDE)
        ranking = self.results.ranking
        label_width = max(len(label) for _, label, _, _ in rows)
        players = max(1, len(ranking))
        # share what is left between the players: 2 columns of padding each, plus the scrollbar
        column = (width - (label_width + 2) - 2 * players - 4) // players
        column = max(10, min(24, column))
        table.add_column("", key="what", width=label_width)
        for p in ranking:
            place = f"{ordinal(p.place)}, shared" if p.shared_place else f"{ordinal(p.place)} place"
            header = Text.assemble(player_tag(p), "\n", place)
            table.add_column(header, key=f"seat-{p.seat}", width=column)
        for key, label, cells, multi in rows:
            style = "bold" if key in ("total", "play") else ""
            table.add_row(Text(label, style=style), *cells, height=None if multi else 1, key=key)

    # -- leaving ------------------------------------------------------------------------------

    @on(OptionList.OptionSelected, "#end-menu")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss("new" if event.option.id == "new" else "title")

    def action_title(self) -> None:
        self.dismiss("title")

    def action_new_game(self) -> None:
        self.dismiss("new")

    def action_replay(self) -> None:
        """Watch the game again, event by event (the app opens the replay)."""
        self.dismiss("replay")

    def action_help(self) -> None:
        show_help(self)
