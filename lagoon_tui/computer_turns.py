"""The computers' turns at a screen that plays them: each search in a worker, each move at a pace.

At one keyboard the game screen plays the seats its host's computers play
(`SeatHost.computers`). After every change of the game it hands the turn to
`ComputerTurns.follow`: when a computer decides, its player is asked for
(briefed on the game so far) and given its seat's message in a worker
thread, so the screen answers keys while it searches; the move it finds is
made once it has been `pace` seconds on its way, so a person can follow the
game, or at once while the computers are hurried (space, until a person
decides). A move found after the game changed, or after the screen stopped
its computers, is dropped. A seat whose game is hosted elsewhere plays none:
its server plays them and says when one thinks (`SeatHost.thinking`).

No Textual here: the screen lends its worker, its timers and its keys (a
`Stage`), and the clock is given, so tests play a real host's computers
with a stage and a clock of their own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from rules.host import NotMade, Rejection
from rules.seat import Turn

from .seat_host import SeatHost

PACE = 0.5
"""Seconds a computer's step stays on screen before its next (`lagoon play --pace`), so people can follow it."""


class Timer(Protocol):
    def stop(self) -> None:
        """The call it was set for is not made."""


class Stage(Protocol):
    """What the screen lends the computers' turns."""

    def run_search(self, search: Callable[[], str], then: Callable[[str], None], name: str) -> None:
        """Run `search` in a worker thread, then `then(its answer)` on the screen's loop."""

    def call_in(self, delay: float, then: Callable[[], None]) -> Timer:
        """Call `then()` on the screen's loop `delay` seconds from now."""

    def keys_changed(self) -> None:
        """The hurry key came or went (it is offered only while a computer plays, not yet hurried)."""

    def computer_made(self, result: object) -> None:
        """What came of a computer's move (a `NotMade` or a `Rejection` if it was not made)."""


@dataclass(frozen=True)
class Search:
    """A computer deciding for `seat` at the host's change `at`, since `started` (by the clock)."""

    seat: int
    at: int
    started: float


@dataclass(frozen=True)
class Due:
    """A move found (`choice`, by `search`) and waiting for its pace, until `timer` calls."""

    search: Search
    choice: str
    timer: Timer


class ComputerTurns:
    """The searches and the pace of the computers a screen plays."""

    def __init__(
        self,
        host: SeatHost,
        stage: Stage,
        *,
        pace: float = PACE,
        options: Mapping[str, Mapping[str, Any]] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """`options`: a level's tuning, by level (see `rules.host.computer_player`)."""
        self.host, self.stage, self.pace, self.clock = host, stage, pace, clock
        self.options = options or {}
        self.search: Search | None = None  # the computer deciding now, or last (None: a person decides)
        self.due: Due | None = None  # its move, found and waiting for its pace
        self.hurried = False  # the computers play on at once until a person decides (space)
        self.stopped = False  # the screen is going: no more searches, no more moves

    @property
    def thinking(self) -> bool:
        """The deciding seat's computer is searching (or its move waits for its pace), here or on a server."""
        here = self.search is not None and self.search.at == self.host.changes
        return here or self.host.thinking

    @property
    def may_hurry(self) -> bool:
        """Space is offered: a computer plays, and they are not hurried yet."""
        return self.search is not None and not self.hurried

    def follow(self, turn: Turn) -> bool:
        """The game changed and `turn` decides: True if a computer played here does (its search begins).
        When a person decides, the computers' keys go and their pace holds again."""
        seat = turn.seat
        if seat is not None and turn.kind != "game_over" and seat in self.host.computers:
            self._think(seat)
            return True
        if self.search is not None or self.hurried:
            self.search, self.hurried = None, False
            self.stage.keys_changed()
        return False

    def hurry(self) -> None:
        """Space: the computers make their moves at once until a person decides, a move waiting for its pace now."""
        self.hurried = True
        self.stage.keys_changed()
        due = self.due
        if due is not None:
            due.timer.stop()
            self._move(due.search, due.choice)

    def stop(self) -> None:
        """No more moves, and a search under way gives up at once (leaving the game never waits for it)."""
        self.stopped = True
        self.host.stop_computers()

    def _think(self, seat: int) -> None:
        at = self.host.changes
        if self.stopped or (self.search is not None and (self.search.seat, self.search.at) == (seat, at)):
            return
        level_options = self.options.get(self.host.computers[seat], {})
        message, player = self.host.scene(seat), self.host.computer(seat, **level_options)
        search = self.search = Search(seat, at, self.clock())
        self.stage.keys_changed()  # (space shows while a computer plays)
        self.stage.run_search(
            lambda: player.choose(message), lambda choice: self._found(search, choice), f"computer of seat {seat + 1}"
        )

    def _found(self, search: Search, choice: str) -> None:
        """The move is made once its step has been on screen `pace` seconds (at once if hurried)."""
        wait = 0.0 if self.hurried else self.pace - (self.clock() - search.started)
        if wait > 0:
            self.due = Due(search, choice, self.stage.call_in(wait, lambda: self._move(search, choice)))
        else:
            self._move(search, choice)

    def _move(self, search: Search, choice: str) -> None:
        self.due = None
        if self.search != search or self.host.changes != search.at or self.stopped:
            return  # (the game moved on, or the screen went, while it thought)
        result = self.host.choose(choice)
        if isinstance(result, (NotMade, Rejection)) and self.host.lost is None:  # (a move the save could not take)
            self.search = None
        self.stage.computer_made(result)
