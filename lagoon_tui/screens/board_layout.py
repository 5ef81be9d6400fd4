"""The board panels in their places: shared by the game screen and the replay screen.

Both screens draw the same board from a `Scene`; composing it in one place
means a change to the board's layout shows in replays too.
"""
from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll

from rules.cards import Content

from ..widgets import (EnrichmentCenterPanel, IslandPanel, MiningSitePanel, PlayerBoard, RoundTrackPanel,
                       ScoreTrackPanel)


def compose_board(content: Content, seats: int) -> ComposeResult:
    """Islands, mining sites and the Enrichment Center, the tracks, and one board per player."""
    board = content.board
    with VerticalScroll(id="board"):
        with Horizontal(id="islands"):
            for isl in board.islands:
                yield IslandPanel(isl.number, classes="panel")
        with Horizontal(id="sites"):
            for number in board.mining_islands:
                yield MiningSitePanel(number, classes="panel")
            yield EnrichmentCenterPanel(classes="panel")
        with Horizontal(id="tracks"):
            yield ScoreTrackPanel(classes="panel")
            yield RoundTrackPanel(classes="panel")
        with Horizontal(id="boards"):
            for seat in range(seats):
                yield PlayerBoard(seat, classes="panel")
