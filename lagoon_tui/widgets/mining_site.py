"""The mining site of an island: three columns of galleries on two levels, level 1 by the shore."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text

from ..board_items import gallery_key
from ..scene import Scene
from .note import Panel
from .renderables import Fit, Flow, draw, one_line_width, render_keys
from .spotlight import tagged
from .words import CHANGED_MARK, CHANGED_NOTE, CUBE, EMPTY_SLOT, SPENT, muted

FACE_DOWN = "?"
LEVELS = (2, 1)  # drawn top to bottom: level 2 above level 1, the shore below


def _same(cell: Text | Flow) -> Text | Flow:
    return cell


def marked(cell: Text | Flow) -> Text | Flow:
    """A slot that changed since the reader's last move, with the mark before it."""
    if isinstance(cell, Flow):
        return Flow([Text.assemble(CHANGED_MARK, cell.items[0]), *cell.items[1:]], cell.sep)
    return Text.assemble(CHANGED_MARK, cell)


def gallery_cell(scene: Scene, gallery: dict | None) -> Text | Flow:
    """One slot of the site as the seat at the keyboard may see it (wraps between its parts)."""
    if gallery is None:
        return Text(EMPTY_SLOT * 5, style="dim")
    tile_id = gallery.get("tile")
    if not gallery.get("face_up"):
        if tile_id is None:
            return Text.assemble((FACE_DOWN, "bold reverse"))
        hidden = scene.content.gallery(tile_id)
        what = f"{hidden.metal} {hidden.cubes}" if hidden.metal else "empty"
        # a face-down gallery its owner placed: the owner alone knows what is under it
        return Flow(
            [Text.assemble((FACE_DOWN, "bold reverse"), " ", (what, "italic")), Text("(yours)", style="dim")], " "
        )
    tile = scene.content.gallery(tile_id) if tile_id else None
    if tile is None or not tile.metal:
        return Text("empty", style="dim")
    left = gallery.get("cubes", 0)
    cubes = Text(CUBE * left)
    cubes.append(SPENT * max(0, tile.cubes - left), style="dim")
    return Flow([Text(tile.metal, style="bold"), cubes], " ")


def _shares(room: int, n: int) -> list[int]:
    """`room` cut into `n` shares as equal as can be, the first ones a cell wider."""
    shares = []
    for c in range(n):
        shares.append(-(-room // (n - c)))  # an equal share of what is left, rounded up
        room -= shares[-1]
    return shares


class SiteGrid:
    """The galleries as a grid (columns side by side) when there is room, else column by column.

    Either way level 2 is drawn above level 1, and nothing is cut short.
    Side by side, the grid is drawn as a Rich table with columns of the
    widths `widths` gives draws it (tests/tui/test_widgets.py compares the
    two), but a cell that fits on one line is drawn as it is, without Rich's
    wrapping: a changed gallery cost about 1 ms through the table.
    """

    MIN_CELL = 6
    LABEL = 3  # "L2" and the space after it

    def __init__(self, columns: list[dict[int, Text | Flow]]):
        self.columns = columns

    def key(self) -> tuple | None:
        return render_keys("SiteGrid", *(column[level] for column in self.columns for level in LEVELS))

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(min(16, options.max_width), options.max_width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        n = len(self.columns)
        if options.max_width >= self.LABEL + n * (self.MIN_CELL + 1):
            yield from self._side_by_side(console, options)
            return
        for c, column in enumerate(self.columns):
            yield Text(f"Column {c + 1}", style="bold")
            grid = Table.grid(padding=(0, 1, 0, 0))
            grid.add_column(no_wrap=True, style="bold")
            grid.add_column(ratio=1, overflow="fold")
            for level in LEVELS:
                grid.add_row(f"  L{level}", column[level])
            yield grid

    def widths(self, width: int) -> list[int]:
        """What each column takes of a grid `width` wide, the space after it included (the last has none).

        The columns share the room after the label column equally (the first
        ones get the odd cells) when every cell fits its share on one line.
        When one does not ("silver ●●●○" in a narrow panel), the columns get
        what their widest cells need, the narrowest first, as long as the
        others keep room for a cell; what is left is shared by the columns
        that did not get theirs (which wrap), or by all. A gallery is read at
        a glance on one line wherever the grid has room for it.
        """
        n, spare = len(self.columns), width - self.LABEL
        equal = _shares(spare, n)
        needs = [
            max(len(f"col {c + 1}"), *(one_line_width(column[level]) for level in LEVELS)) + int(c < n - 1)
            for c, column in enumerate(self.columns)
        ]
        if all(need <= share for need, share in zip(needs, equal)):
            return equal
        met: list[int] = []
        for c in sorted(range(n), key=needs.__getitem__):
            if sum(needs[m] for m in met) + needs[c] + (n - len(met) - 1) * (self.MIN_CELL + 1) <= spare:
                met.append(c)
        short = [c for c in range(n) if c not in met]
        shares = iter(_shares(spare - sum(needs[c] for c in met), len(short) or n))
        if short:
            return [needs[c] if c in met else next(shares) for c in range(n)]
        return [need + next(shares) for need in needs]

    def _side_by_side(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The label column, then the columns (see `widths`)."""
        n, widths = len(self.columns), self.widths(options.max_width)
        header, bold, plain = console.get_style("table.header"), console.get_style("bold"), Style.null()
        rows: list[Sequence[tuple[Text | Flow, Style, int, int]]] = [
            [(Text(""), header, self.LABEL, 1)]
            + [(Text(f"col {c + 1}"), header + bold, w, int(c < n - 1)) for c, w in enumerate(widths)]
        ]
        rows += [
            [(Text(f"L{level}"), bold, self.LABEL, 1)]
            + [(column[level], plain, w, int(c < n - 1)) for c, (column, w) in enumerate(zip(self.columns, widths))]
            for level in LEVELS
        ]
        new_line = Segment.line()
        for r, row in enumerate(rows):
            cells = [self._cell(console, options, *cell, no_wrap=c == 0) for c, cell in enumerate(row)]
            height = max(len(lines) for lines in cells)
            for lines, (_, style, width, _) in zip(cells, row):
                blank = [[Segment(" " * width, style)]] * (height - len(lines))
                if r == 0:  # a header cell sits at the bottom of its row, the others at the top
                    lines[:0] = blank
                else:
                    lines += blank
            for y in range(height):
                for lines in cells:
                    yield from lines[y]
                yield new_line

    @staticmethod
    def _cell(
        console: Console,
        options: ConsoleOptions,
        renderable: Text | Flow,
        style: Style,
        width: int,
        space: int,
        no_wrap: bool,
    ) -> list[list[Segment]]:
        """One cell's lines, `width` wide with the `space` after it, as a left-justified table column draws them."""
        inner = width - space
        after = [Segment(" " * space, style)] if space else []
        if one_line_width(renderable) <= inner:  # the usual case: one line, drawn without Rich's wrapping
            text = (renderable if isinstance(renderable, Text) else renderable.line()).copy()
            text.end = ""
            text.pad_right(inner - text.cell_len)  # (padded in the text's own style, as Rich justifies it)
            return [[*Segment.apply_style(draw(console, options.update_width(inner), text), style), *after]]
        wrap = options.update(
            width=inner,
            justify="left",
            no_wrap=no_wrap,
            overflow="ellipsis" if no_wrap else "fold",
            height=None,
            highlight=False,
        )
        return [[*line, *after] for line in console.render_lines(renderable, wrap, style=style, pad=True)]


class MiningSitePanel(Panel):
    """Galleries of island `island`'s mining site: face up with metal and cubes, face down as "?"."""

    DEFAULT_CSS = """
    MiningSitePanel {
        border: round $panel-lighten-2;
    }
    """

    def __init__(self, island: int, **kwargs: str | None) -> None:
        super().__init__(**kwargs)
        self.island = island
        self.set_titles(f"Mining site · island {island}", f"Mines · island {island}", f"Mines {island}")

    def show(self, scene: Scene) -> None:
        site = (scene.view.get("sites") or {}).get(str(self.island))
        changed = {
            (c, level)
            for c in range(len(site["columns"]) if site else 0)
            for level in LEVELS
            if scene.gallery_changed(self.island, c, level)
        }
        if self.unchanged(scene, (scene.seat, site, changed)):
            return
        if site is None:
            self.update(muted(f"Island {self.island} has no mining site."))
            return
        cells = [
            {
                level: (marked if (c, level) in changed else _same)(
                    tagged(
                        gallery_cell(scene, column[level - 1] if level - 1 < len(column) else None),
                        gallery_key(self.island, c, level),
                    )
                )
                for level in LEVELS
            }
            for c, column in enumerate(site["columns"])
        ]
        table = SiteGrid(cells)
        shore = Fit(
            muted(f"≈≈ shore ≈≈  L1: 1 miner a cube · L2: 2 miners a cube · {FACE_DOWN} face down"),
            muted(f"≈≈ shore ≈≈  L1: 1 miner/cube · L2: 2 · {FACE_DOWN} face down"),
            Flow([muted("≈≈ shore ≈≈"), muted(f"{FACE_DOWN} face down")], "  "),
        )
        if changed:
            self.update(Group(table, shore, CHANGED_NOTE))
        else:
            self.update(Group(table, shore))
