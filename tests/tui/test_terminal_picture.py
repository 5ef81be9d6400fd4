"""What a seat's terminal ends up showing, frame after frame of partial paints, is what a whole new paint shows.

The app paints a move as the cells that changed (`Note`, `SpotCompositor`),
and no more: a player board growing by a line makes the board area scroll a
line further, and the panels above it, which did not move, are not painted
again. Every frame the app would write is applied here, cell by cell, to a
picture of the terminal (what the terminal does with the bytes: the cursor
moved, the cells written); after many moves of a 4-player room at 160x50, in
which the boards grow past the screen, and after a toast has come and gone
(painted over in the column toasts show in, not the whole screen), that
picture must be the screen as a whole new paint shows it, text and colours.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from rich.cells import cell_len
from rich.console import RenderableType
from rich.segment import ControlType, Segment
from rich.style import Style
from textual._compositor import CompositorUpdate
from textual.app import App
from textual.geometry import Region
from textual.screen import Screen
from textual.widget import Widget

from lagoon_tui.app import LagoonApp
from lagoon_tui.settings import GameSettings
from lagoon_tui.turbo.compositor import ON as SPOTS
from tests.helpers.drive import game_screen, settle, start
from tests.helpers.rooms import play_in_a_room_of_four

Cell = tuple[str, Style | None]


class Picture:
    """The cells of a terminal of `width` x `height`, as the frames written to it left them."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells: list[list[Cell]] = [[(" ", None)] * width for _ in range(height)]

    def write(self, app: App, update: CompositorUpdate) -> set[tuple[int, int]]:
        """Apply a frame; the cells it wrote."""
        written: set[tuple[int, int]] = set()
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
                    written.add((x, y))
                x += cell_len(char)
        return written

    def rows(self) -> list[str]:
        return ["".join(char for char, _ in row) for row in self.cells]


def whole_paint(app: App) -> Picture:
    """The screen as a new paint of every widget shows it."""
    screen = app.screen
    picture = Picture(*screen.size)
    picture.write(app, screen._compositor.render_full_update())
    return picture


@contextmanager
def painting(app: App, then: Callable[[App, set[tuple[int, int]]], None] | None = None) -> Iterator[Picture]:
    """While in the block, every frame the app would write is applied to the picture (headless, the app
    writes nothing), starting from a whole paint of the screen shown; `then(app, the cells it wrote)` after
    each."""
    picture = Picture(*app.size)
    picture.write(app, app.screen._compositor.render_full_update())
    display = App._display

    def written(self: App, screen: Screen, renderable: RenderableType | None) -> None:
        if self is app and isinstance(renderable, CompositorUpdate) and screen is app.screen:
            cells = picture.write(app, renderable)
            if then is not None:
                then(app, cells)
        display(self, screen, renderable)

    App._display = written  # type: ignore[method-assign]
    try:
        yield picture
    finally:
        App._display = display  # type: ignore[method-assign]


async def test_many_moves_painted_as_they_come_leave_the_picture_a_whole_paint_shows():
    pictures: list[Picture] = []
    grew: list[int] = []  # the board area's scrollable heights

    @contextmanager
    def watch(app: App):
        with painting(app, lambda app, _: grew.append(app.screen.query_one("#board").virtual_size.height)) as picture:
            yield
        pictures.extend((picture, whole_paint(app)))

    await play_in_a_room_of_four(0, watch, moves=120)
    painted, whole = pictures
    assert len(set(grew)) > 1, "the boards never grew past the screen: this game does not test what it should"
    assert_same(painted, whole)


def assert_same(painted: Picture, whole: Picture) -> None:
    differ = [y for y, (a, b) in enumerate(zip(painted.cells, whole.cells)) if a != b]
    assert not differ, "\n".join(
        f"row {y}:\n  painted {painted.rows()[y]!r}\n  whole   {whole.rows()[y]!r}" for y in differ
    )


@pytest.mark.parametrize("size", [(160, 50), (80, 24)], ids=["160x50", "80x24"])
async def test_a_toast_gone_is_painted_over_where_toasts_show_and_the_board_beside_is_not_painted_again(size):
    """Once a toast's time is up, the column the toasts are shown in is painted again (Textual at times left
    a toast's letters on the terminal), not the whole screen: at 160x50 that was a frame of about 44 KB for
    every player a notice had reached. The terminal then shows what a whole new paint shows."""
    app = LagoonApp(settings=GameSettings(("Ana", "Ben"), ("red", "yellow"), 5, 0))
    async with app.run_test(size=size, notifications=True) as pilot:
        await start(pilot)
        await pilot.press("enter")
        await settle(pilot)
        screen = game_screen(app)
        column = screen.toasts_at
        assert column is not None
        beside = {panel for panel in screen.panels if panel.region and panel.region.right <= column.x}
        painted: set[Widget] = set()
        repainted: list[bool] = []
        original = LagoonApp._paint_after_toast

        def paint_after_toast(self: LagoonApp) -> None:
            painted.clear()  # (what the toast's going painted before it: not what is tested here)
            original(self)
            repainted.append(True)

        def written(app: App, cells: set[tuple[int, int]]) -> None:
            if repainted:
                repainted.append(bool(cells))

        with painting(app, written) as picture, pytest.MonkeyPatch.context() as patch:
            patch.setattr(LagoonApp, "_paint_after_toast", paint_after_toast)
            patch.setattr(Widget, "render_lines", recording(Widget.render_lines, painted))
            app.notify("Ben left: the game waits for him.", timeout=0.01)
            for _ in range(2_000):  # (the toast goes by timers: a failure, never a hang)
                await pilot.pause(0.001)
                if len(repainted) > 1:
                    break
            await settle(pilot)
        assert len(repainted) > 1, "the toasts' column was not painted again"
        if size == (160, 50) and SPOTS:  # (at 80x24 a page spans the screen's width: no panel is beside; and
            # stock Textual paints the rectangle around every spot of a frame, the toast's going with the column)
            assert beside and not painted & beside, sorted(type(panel).__name__ for panel in painted & beside)
        assert not any("Ben left" in row for row in picture.rows())
        assert_same(picture, whole_paint(app))


def recording(render_lines: Callable, painted: set[Widget]) -> Callable:
    """Widget.render_lines, each widget it is called for added to `painted`."""

    def recorded(self: Widget, crop: Region) -> list:
        painted.add(self)
        return render_lines(self, crop)

    return recorded
