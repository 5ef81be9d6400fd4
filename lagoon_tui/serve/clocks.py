"""A room's pace and the clock of the seat deciding: `Clock`, and the words for both.

A room is "live" (no clock: the game waits for whoever decides, as long as
it takes) or has a time a move: 12 hours, a day or three days (PACES), the
paces of correspondence play: 12 hours for players who look in morning and
evening, a day for one visit a day, three days for a weekend away.

The clock of a seat starts, full, when the decision comes to it from another
seat; the steps of the player's own turn (several decisions, End turn) all
count against that one clock, which starts again only once the decision
has gone to someone else and come back. A move is the whole turn. Its time
is wall-clock time (so it runs on while the server is stopped; a clock that
ran out meanwhile is given RESTART_GRACE more when the server starts). While
the seat's player is on vacation, their clock stops.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

HOUR = 3600.0
DAY = 86400.0
PACES = {"12h": 12 * HOUR, "1d": DAY, "3d": 3 * DAY}
"""The times a move a room may have, by the name a request gives them."""
LIVE = "live"
TEST_PACE = "LAGOON_TEST_PACE"
"""An environment variable for tests only: a number of seconds, offered as one more pace (shown as such)."""
RESTART_GRACE = HOUR
"""Seconds a clock that ran out while the server was stopped is given once it starts again."""


def paces() -> dict[str, float]:
    """Every pace offered, by name ("live": 0), the one for tests among them if its variable is set."""
    offered = {LIVE: 0.0, **PACES}
    seconds = os.environ.get(TEST_PACE, "")
    if seconds.isdigit() and int(seconds) > 0:
        offered[f"{seconds}s"] = float(seconds)
    return offered


def pace_words(pace: float) -> str:
    """A room's pace as its lobby row says it: "live", "12 h a move", "1 day a move", "3 days a move"."""
    if pace <= 0:
        return "live"
    if pace % DAY == 0:
        days = int(pace // DAY)
        return f"{days} day{'' if days == 1 else 's'} a move"
    if pace % HOUR == 0:
        return f"{int(pace // HOUR)} h a move"
    return f"{int(pace)} s a move"


def left_words(left: float) -> str:
    """Time left, to the hour (a day or more: days and hours), to the minute under an hour."""
    if left >= DAY:
        days, hours = int(left // DAY), int(left % DAY // HOUR)
        return f"{days} day{'' if days == 1 else 's'}" + (f" {hours} h" if hours else "")
    if left >= HOUR:
        return f"{int(left // HOUR)} h"
    if left >= 60:
        return f"{int(left // 60)} min"
    return "less than a minute"


def words_last(left: float) -> float:
    """Seconds before `left_words(left)` would say something else (its last unit runs out); 0 for a clock run
    out (it says something else now: that a computer plays)."""
    if left <= 0:
        return 0.0
    unit = HOUR if left >= HOUR else 60.0 if left >= 60 else left
    return left % unit or unit


@dataclass
class Clock:
    """A room's pace (seconds a move; 0: live) and the clock of `seat`: `left` seconds from `since` (None:
    stopped, while its player is on vacation). Times are the lobby's wall clock."""

    pace: float
    seat: int | None = None
    left: float = 0.0
    since: float | None = None

    def left_at(self, now: float) -> float:
        return self.left - (now - self.since) if self.since is not None else self.left

    def deadline(self) -> float | None:
        return self.since + self.left if self.since is not None and self.pace > 0 else None

    def stop(self, now: float) -> None:
        self.left, self.since = self.left_at(now), None

    def run(self, now: float) -> None:
        if self.since is None:
            self.since = now
