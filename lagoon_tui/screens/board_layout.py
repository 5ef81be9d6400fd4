"""The board panels in their places: shared by the game screen and the replay screen.

Both screens draw the same board from a `Scene`; composing it in one place
means a change to the board's layout shows in replays too. The rows are grids
(styled in game.tcss): the tracks, the islands, the mining sites with the
Enrichment Center, and one board per player.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Grid, Vertical, VerticalScroll
from textual.message import Message

from rules.seat import Content

from ..turbo.sizes import HeldSize, SteadyScrollbar
from ..widgets import EnrichmentCenterPanel, IslandPanel, MiningSitePanel, PlayerBoard, RoundTrackPanel, ScoreTrackPanel


class BoardArea(HeldSize, SteadyScrollbar, VerticalScroll):
    """The left part of the screen; says when its size or the size of what it holds changes."""

    class Resized(Message):
        pass

    def on_resize(self) -> None:
        self.post_message(self.Resized())


class Row(HeldSize, Grid):
    """One row of panels, as tall as its tallest panel (a move that makes it taller or shorter arranges once)."""


class Side(HeldSize, Vertical):
    """The right part of the screen: the prompt, the market and the log (in the compact layout, under the board)."""


def compose_board(content: Content, seats: int) -> ComposeResult:
    """Every board panel, row by row, in a scrolling `BoardArea` with the id "board"."""
    board = content.board
    with BoardArea(id="board"):
        with Row(id="tracks", classes="row"):
            yield ScoreTrackPanel(classes="panel")
            yield RoundTrackPanel(classes="panel")
        with Row(id="islands", classes="row") as islands:
            islands.styles.grid_size_columns = len(board.islands)
            for isl in board.islands:
                yield IslandPanel(isl.number, classes="panel")
        with Row(id="sites", classes="row") as sites:
            sites.styles.grid_size_columns = len(board.mining_islands) + 1
            for number in board.mining_islands:
                yield MiningSitePanel(number, classes="panel")
            yield EnrichmentCenterPanel(classes="panel")
        with Row(id="boards", classes="row") as boards:
            boards.styles.grid_size_columns = seats
            for seat in range(seats):
                yield PlayerBoard(seat, classes="panel")
