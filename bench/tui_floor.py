"""What Textual itself costs for a board shaped like Lagoon's, with no game behind it.

    python bench/tui_floor.py [--runs N] [--presses N]

A benchmark, not a test: it prints figures and never fails on time. It says
how much of the app's start-up and key-press time is the toolkit's own, so
the targets of bench/tui_bench.py can be read against what is possible.

Three apps run on a real pseudo-terminal exactly as in bench/tui_bench.py
(same `Terminal`, same bare app). None of them imports `rules` or
`lagoon_tui`:

- bare: the Header and Footer app that tui_bench.py measures against;
- panels: the game screen's shape, filled with fixed text: rows of
  bordered text panels (2, 4, 3 and 2 of them, 8 lines each) in a scrolling
  column, and beside it a prompt (12 lines) and a log (26 lines), all
  Textual `Static`s with a CSS border and padding, as the app's panels were
  before they kept their own lines;
- lines: the same shape, each panel a widget that draws its own border and
  text line by line (`render_line`), with no CSS border or padding.

(a) start-up: process start to the first frame (the last panel's text
    written), median of --runs runs, at 160x50 and 80x24, against the bare
    app measured in the same run.
(b) key press to updated screen at 160x50: "n" changes the prompt, the log
    and two board panels (54 lines, about what a choice in the game
    changes); timed as in tui_bench.py ('done' = last byte before 150 ms of
    quiet).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tui_bench import BARE_APP, PYTHON, QUIET, Terminal, percentile, start_bare  # noqa: E402

BOARD_APP = '''
import sys

from rich.segment import Segment
from rich.style import Style
from textual.app import App
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Footer, Header, Static

ROWS = (("r1", 2), ("r2", 4), ("r3", 3), ("r4", 2))
TEXT = Style(color="white", bgcolor="black")
EDGE = Style(color="cyan", bgcolor="black")


def line(y, turn):
    return f"line{y + turn}: {turn} iron, 2 copper, 1 gold"


class Panel(Static):
    DEFAULT_CSS = "Panel { border: round $accent; padding: 0 1; height: auto; }"

    def __init__(self, lines):
        super().__init__(self.text(lines, 0))
        self.lines = lines

    @staticmethod
    def text(lines, turn):
        return "\\n".join(line(y, turn) for y in range(lines))

    def turn(self, turn):
        self.update(self.text(self.lines, turn))


class LinePanel(Widget):
    DEFAULT_CSS = "LinePanel { height: auto; }"

    def __init__(self, lines):
        super().__init__()
        self.lines, self.turn_ = lines, 0

    def get_content_height(self, container, viewport, width):
        return self.lines + 2

    def render_line(self, y):
        width = self.size.width
        if y == 0 or y == self.lines + 1:
            left, right = ("\\u256d", "\\u256e") if y == 0 else ("\\u2570", "\\u256f")
            return Strip([Segment(left + "\\u2500" * (width - 2) + right, EDGE)], width)
        text = (" " + line(y - 1, self.turn_))[: width - 2].ljust(width - 2)
        return Strip([Segment("\\u2502", EDGE), Segment(text, TEXT), Segment("\\u2502", EDGE)], width)

    def turn(self, turn):
        self.turn_ = turn
        self.refresh()


class Board(App):
    TITLE = "Floor bench app"
    BINDINGS = [("q", "quit", "Quit"), ("n", "turn", "Turn")]
    CSS = """
    #main { height: 1fr; }
    #board { width: 1fr; height: 100%; }
    #side { width: 30%; height: 100%; }
    .row { layout: grid; grid-rows: auto; height: auto; }
    #r1 { grid-size: 2; } #r2 { grid-size: 4; } #r3 { grid-size: 3; } #r4 { grid-size: 2; }
    """
    PANEL = LinePanel if sys.argv[1] == "lines" else Panel
    turns = 0

    def compose(self):
        yield Header()
        with Horizontal(id="main"):
            with VerticalScroll(id="board"):
                for row, panels in ROWS:
                    with Grid(id=row, classes="row"):
                        for _ in range(panels):
                            yield self.PANEL(8)
            with Vertical(id="side"):
                yield self.PANEL(12)
                yield self.PANEL(26)
        yield Footer()

    def action_turn(self):
        self.turns += 1
        panels = list(self.query(self.PANEL))
        for panel in (panels[-1], panels[-2], panels[3], panels[7]):
            panel.turn(self.turns)


Board().run()
'''
BOARD_READY = ("Floor bench app", "Turn", "line7:")
KINDS = ("panels", "lines")


def start_board(script: Path, kind: str, size: tuple[int, int]) -> float:
    term = Terminal([str(PYTHON), str(script), kind], *size)
    try:
        return term.wait_for(*BOARD_READY) - term.started
    finally:
        term.close()


def startup(bare: Path, board: Path, runs: int) -> list[tuple]:
    rows = []
    for size in ((160, 50), (80, 24)):
        start_bare(bare, size)  # warm the file cache
        times: dict[str, list[float]] = {"bare": [], **{kind: [] for kind in KINDS}}
        for _ in range(runs):  # interleaved, so all see the same machine
            times["bare"].append(start_bare(bare, size))
            for kind in KINDS:
                times[kind].append(start_board(board, kind, size))
        rows.append((size, {name: statistics.median(values) for name, values in times.items()}))
    return rows


def presses(board: Path, kind: str, count: int) -> list[tuple[float, float]]:
    term = Terminal([str(PYTHON), str(board), kind], 160, 50)
    try:
        term.wait_for(*BOARD_READY)
        return [term.press(b"n") for _ in range(count)]
    finally:
        term.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="start-ups of each app per size (default 7)")
    parser.add_argument("--presses", type=int, default=60, help="key presses to time per app (default 60)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bare, board = Path(tmp) / "bare_app.py", Path(tmp) / "board_app.py"
        bare.write_text(BARE_APP)
        board.write_text(BOARD_APP)
        print(f"(a) start-up to the first frame, median of {args.runs} runs (ms)")
        print(f"{'terminal':>9} {'bare':>6} {'panels':>7} {'lines':>6} {'panels/bare':>12} {'lines/bare':>11}")
        for (w, h), median in startup(bare, board, args.runs):
            print(
                f"{f'{w}x{h}':>9} {median['bare'] * 1000:>6.0f} {median['panels'] * 1000:>7.0f} "
                f"{median['lines'] * 1000:>6.0f} {median['panels'] / median['bare']:>11.2f}x "
                f"{median['lines'] / median['bare']:>10.2f}x"
            )
        print()
        print(
            f"(b) key press to updated screen at 160x50, 54 lines changed "
            f"(ms; 'done' = last byte before {QUIET * 1000:.0f} ms quiet)"
        )
        print(f"{'app':>7} {'presses':>8} {'done p50':>9} {'done p95':>9}")
        for kind in KINDS:
            done = [d * 1000 for _, d in presses(board, kind, args.presses)]
            print(f"{kind:>7} {len(done):>8} {percentile(done, 0.5):>9.1f} {percentile(done, 0.95):>9.1f}")


if __name__ == "__main__":
    main()
