"""What a seat's terminal ends up showing, frame after frame of partial paints, is what a whole new paint shows.

The app paints a move as the cells that changed (`Note`, `SpotCompositor`),
and no more: a player board growing by a line makes the board area scroll a
line further, and the panels above it, which did not move, are not painted
again. Every frame the app would write is applied here, cell by cell, to a
picture of the terminal (what the terminal does with the bytes: the cursor
moved, the cells written); after many moves of a 4-player room at 160x50, in
which the boards grow past the screen, that picture must be the screen as a
whole new paint shows it, text and colours.
"""

from __future__ import annotations

from contextlib import contextmanager

from rich.cells import cell_len
from rich.segment import ControlType, Segment
from rich.style import Style
from textual._compositor import CompositorUpdate
from textual.app import App

from lagoon_tui.screens.game import GameScreen
from tests.tui.test_redraw import play_in_a_room_of_four

Cell = tuple[str, Style | None]


class Picture:
    """The cells of a terminal of `width` x `height`, as the frames written to it left them."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells: list[list[Cell]] = [[(" ", None)] * width for _ in range(height)]

    def write(self, app: App, update: CompositorUpdate) -> None:
        x = y = 0
        for segment in update.__rich_console__(app.console, app.console.options):
            if not isinstance(segment, Segment):
                continue
            if segment.control:
                for control in segment.control:
                    if control[0] == ControlType.CURSOR_MOVE_TO:
                        x, y = int(control[1]), int(control[2])
                continue
            if segment.text == "\n":
                x, y = 0, y + 1
                continue
            for char in segment.text:
                if 0 <= y < self.height and 0 <= x < self.width:
                    self.cells[y][x] = (char, segment.style)
                x += cell_len(char)

    def rows(self) -> list[str]:
        return ["".join(char for char, _ in row) for row in self.cells]


def whole_paint(app: App) -> Picture:
    """The screen as a new paint of every widget shows it."""
    screen = app.screen
    picture = Picture(*screen.size)
    picture.write(app, screen._compositor.render_full_update())
    return picture


async def test_many_moves_painted_as_they_come_leave_the_picture_a_whole_paint_shows():
    pictures: list[Picture] = []
    grew: list[int] = []  # the board area's scrollable heights

    @contextmanager
    def watch(app: App):
        picture = Picture(*app.size)
        picture.write(app, app.screen._compositor.render_full_update())  # the board as first shown
        display = App._display

        def written(self, screen, renderable):
            if self is app and isinstance(renderable, CompositorUpdate) and isinstance(screen, GameScreen):
                picture.write(app, renderable)
                grew.append(screen.query_one("#board").virtual_size.height)
            return display(self, screen, renderable)

        App._display = written  # (headless, the app writes nothing; what it would write is applied here)
        try:
            yield
        finally:
            App._display = display
        pictures.append(picture)
        pictures.append(whole_paint(app))

    await play_in_a_room_of_four(0, watch, moves=120)
    painted, whole = pictures
    assert len(set(grew)) > 1, "the boards never grew past the screen: this game does not test what it should"
    differ = [y for y, (a, b) in enumerate(zip(painted.cells, whole.cells)) if a != b]
    assert not differ, "\n".join(
        f"row {y}:\n  painted {painted.rows()[y]!r}\n  whole   {whole.rows()[y]!r}" for y in differ
    )
