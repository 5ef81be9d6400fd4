"""The score sheet of a finished game: the ranking, with every player's VP broken down by source.

One column per player in final order, one row per source of points. Players
are named with their colour *and* letter, and each objective says in words
whether it was met. Below the table: how ties were settled and which cards
gave the "Equipment used" ("Cards used") VP (the events of equipment cards a player
activated: from the results, the app works none of it out). Everything is read from the game's
`GameResults`; the same widget is the end screen's and the sheet opened again
from Load or a replay (`screens/sheet.py`).
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.events import Resize
from textual.widgets import DataTable, Static

from rules.host import computer_words
from rules.seat import PLAY_SOURCES, GameResults, PlayerResult, ordinal, tiebreak_lines

from ..scene import COLOUR_LETTERS, COLOUR_STYLES

EFFECTS = "equipment effects"
EFFECTS_WORDS = {True: "Equipment used", False: "Cards used"}
"""By width (wide or not): VP an equipment card gave when its owner activated it (the rulebook: "the event
on the card takes place"); the row points to the note below the table that names the cards."""

SHORT_SOURCES = {
    "equipment": "Equipment",
    "shipments": "Shipments",
    "deals": "Deals",
    "enriched cubes sold": "Cubes sold",
    EFFECTS: f"{EFFECTS_WORDS[False]} ↓",  # (no wider than the longest other label: the columns keep their room)
    "wages": "Wages",
}
"""Row labels for narrow terminals (the full words are in WIDE_SOURCES)."""

WIDE_SOURCES = {**PLAY_SOURCES, EFFECTS: f"{EFFECTS_WORDS[True]} (see below)"}
"""Row labels for wide terminals: the rules' words, the row the note below the table explains pointing to it."""

WIDE = 120

SHEET_KEYS = [("↑ / ↓ / pgup / pgdn", "Scroll the score sheet"), ("^home / ^end", "Its top / its bottom")]
"""The keys of the sheet's table, for the help of a screen that shows it."""


def player_tag(p: PlayerResult) -> Text:
    """Name and letter in the player's colour: identity never rests on colour alone."""
    return Text(f"{p.name} [{COLOUR_LETTERS.get(p.colour, '?')}]", style=COLOUR_STYLES.get(p.colour, "bold"))


def _number(n: int, style: str = "") -> Text:
    return Text(str(n), style=style)


def winners_line(results: GameResults, levels: Mapping[int, str] | None = None) -> Text:
    """Who won, with what; a computer marked as one, with its level (`levels`: the seats computers played)."""
    first = [p for p in results.ranking if p.place == 1]
    line = Text()
    for i, p in enumerate(first):
        if i:
            line.append(" and " if i == len(first) - 1 else ", ")
        line.append_text(player_tag(p))
        if levels and p.seat in levels:
            line.append(f" ({computer_words(levels[p.seat])})")
    if len(first) == 1:
        line.append(f" wins with {first[0].total} VP.")
    else:
        line.append(f" share the victory with {first[0].total} VP.")
    return line


def computer_header(levels: Mapping[int, str] | None, seat: int, width: int) -> str:
    """The line of a column's header that marks a computer: "computer, Hard", or "computer" in a
    narrow column; "" for a person."""
    if not levels or seat not in levels:
        return ""
    words = computer_words(levels[seat])
    return words if len(words) <= width else "computer"


def effects_line(results: GameResults, wide: bool) -> str:
    """What the row "Equipment used" was: each card whose activation scored, whose it was, its VP."""
    cards = [f"{p.name}'s {card} ({vp} VP)" for p in results.ranking for card, vp in p.effects]
    return f"{EFFECTS_WORDS[wide]}: {'; '.join(cards)}." if cards else ""


class ScoreSheet(Vertical):
    """Who won, why the game ended, the table, and the notes on ties and card effects."""

    DEFAULT_CSS = """
    ScoreSheet { height: 1fr; }
    ScoreSheet #end-effects { height: auto; }
    """

    def __init__(self, results: GameResults, levels: Mapping[int, str] | None = None) -> None:
        """`levels`: the seats computers played, by level (their winner is marked as a computer)."""
        super().__init__()
        self.results = results
        self.levels = levels
        self._built_for: int | None = None

    def compose(self) -> ComposeResult:
        r = self.results
        yield Static(winners_line(r, self.levels), id="end-winners")
        yield Static(f"After round {r.rounds}. {r.end_reason_text}", id="end-reason", classes="hint")
        # no cursor: the arrows scroll the sheet, whose header (the players) stays in view
        # (a third header line marks the computers: "computer, Hard")
        yield DataTable(
            id="end-table",
            cursor_type="none",
            zebra_stripes=True,
            header_height=3 if self.levels else 2,
            show_row_labels=False,
        )
        lines = tiebreak_lines(r)
        # (the lines name players: plain text, never markup)
        yield VerticalScroll(
            Static(Text("\n".join(lines))), id="end-ties", classes="-shown" if lines else "", can_focus=False
        )
        yield Static(id="end-effects", classes="hint", markup=False)  # (filled with the table: its row's label)

    def on_mount(self) -> None:
        self._build_table()

    def on_resize(self, event: Resize) -> None:
        self._build_table()

    @property
    def table(self) -> DataTable:
        return self.query_one("#end-table", DataTable)

    def _rows(self, wide: bool) -> list[tuple[str, str, list[Text], bool]]:
        """(key, label, one cell per player in ranking order, multi-line?) for every row."""
        ranking = self.results.ranking
        rows: list[tuple[str, str, list[Text], bool]] = []
        labels = WIDE_SOURCES if wide else SHORT_SOURCES
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
        """Fill the table for the screen's width (short labels and narrow columns below WIDE)."""
        width = self.screen.size.width or self.app.size.width
        if width == self._built_for:
            return
        self._built_for = width
        table = self.table
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
            if self.levels:
                header.append("\n" + computer_header(self.levels, p.seat, column))
            table.add_column(header, key=f"seat-{p.seat}", width=column)
        for key, label, cells, multi in rows:
            style = "bold" if key in ("total", "play") else ""
            table.add_row(Text(label, style=style), *cells, height=None if multi else 1, key=key)
        effects = effects_line(self.results, width >= WIDE)
        note = self.query_one("#end-effects", Static)
        note.update(effects)
        note.display = bool(effects)
