"""The Enrichment Center: the four metals by level 0' to 4', each cube its owner's letter."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.text import Text

from rules.seat import METALS

from ..board_items import centre_key
from ..scene import Scene
from .note import Panel
from .renderables import Flow, WideOnly, render_keys
from .spotlight import tagged_text
from .words import CHANGED_MARK, CHANGED_NOTE, EMPTY_SLOT, muted


class CentreGrid:
    """Metals by levels as a grid when it fits the width; else one wrapped line per metal.

    Either way every cube is drawn: nothing is cut off in a narrow panel.
    """

    def __init__(self, headers: list[str], rows: list[tuple[str, list[Text]]]):
        self.headers, self.rows = headers, rows

    def key(self) -> tuple | None:
        parts = (part for metal, cells in self.rows for part in (metal, *cells))
        return render_keys(("CentreGrid", *self.headers), *parts)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(min(20, options.max_width), min(self._width(), options.max_width))

    def _widths(self) -> list[int]:
        return [max([len(h)] + [cells[i].cell_len for _, cells in self.rows]) for i, h in enumerate(self.headers)]

    def _width(self, gap: int = 2) -> int:
        name = max(len(m) for m, _ in self.rows)
        return name + sum(w + gap for w in self._widths())

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        name = max(len(m) for m, _ in self.rows)
        gap = next((g for g in (2, 1) if self._width(g) <= options.max_width), None)
        if gap is None:  # too narrow for a grid
            for metal, cells in self.rows:
                yield Flow(
                    [tagged_text(Text(metal + ":", style="bold"), centre_key(metal))]
                    + [Text.assemble((h + " ", "bold"), cell) for h, cell in zip(self.headers, cells)],
                    "  ",
                )
            return
        widths = self._widths()
        head = Text("metal".ljust(name), style="bold")
        for h, w in zip(self.headers, widths):
            head.append(" " * gap + h.ljust(w), style="bold")
        yield head
        for metal, cells in self.rows:
            line = tagged_text(Text(metal.ljust(name), style="bold"), centre_key(metal))
            for cell, w in zip(cells, widths):
                line.append(" " * gap)
                line.append_text(cell)
                line.append(" " * (w - cell.cell_len))
            yield line


class EnrichmentCenterPanel(Panel):
    """Metals as rows, levels as columns; a cube is drawn as its owner's marker (coloured letter)."""

    DEFAULT_CSS = """
    EnrichmentCenterPanel {
        border: round $panel-lighten-2;
    }
    """

    def __init__(self, **kwargs: str | None) -> None:
        super().__init__(**kwargs)
        self.set_titles("Enrichment Center", "Enrichment")

    def show(self, scene: Scene) -> None:
        board = scene.content.board
        centre = scene.view.get("centre") or {}
        levels = max((len(rows) for rows in centre.values()), default=5)
        changed = {(metal, level) for metal in METALS for level in range(levels) if scene.centre_changed(metal, level)}
        if self.unchanged(scene, (centre, [(p["name"], p["colour"]) for p in scene.players], changed)):
            return
        rows = []
        for metal in METALS:
            cells = []
            for level, owners in enumerate(centre.get(metal) or [[] for _ in range(levels)]):
                cell = CHANGED_MARK.copy() if (metal, level) in changed else Text()
                for owner in owners:
                    cell.append_text(scene.marker(owner))
                if level == 0:
                    cell.append(EMPTY_SLOT * max(0, board.zero_line_capacity - len(owners)), style="dim")
                elif not owners:
                    cell.append(EMPTY_SLOT, style="dim")
                cells.append(cell)
            rows.append((metal, cells))
        table = CentreGrid([f"{level}'" for level in range(levels)], rows)
        legend = Flow([Text.assemble(scene.marker(p["seat"]), " = ", p["name"]) for p in scene.players], "  ")
        help_text = muted(
            f"0' holds {board.zero_line_capacity} per metal and can't be bought. Each round end "
            f"every cube rises a level; past 4' it leaves. Buying pays the level in $ to "
            f"the owner (free if yours), who scores {board.owner_vp} VP."
        )
        # the rules in a sentence where there is room (a page of its own); the rules screen has them too
        marks = [CHANGED_NOTE] if changed else []
        self.update(Group(table, legend, *marks, WideOnly(help_text, 60)))
