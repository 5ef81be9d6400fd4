"""How long a room's onlookers wait for a move: longer the busier the machine's cores (`onlooker_wait`).

Every screen of a game is drawn again by its own process after each message
it is sent, on the same cores as every other game's. The player who pressed
a key, and the one whose turn it is now, are sent the move at once; the
others (`Room._flush`) a moment later, one message for every move made
meanwhile. On a quiet machine that moment is OTHERS_AFTER, too short to see;
when the cores are busy it grows to a second (OTHERS_BUSY), and to
OTHERS_MOST when they are saturated, so that an onlooker's screen is drawn
once in one to three seconds for however many moves, and the keys of the
players who act are answered first (issue 35: measured in docs/performance.md,
"Onlookers told by how busy the machine is").

How busy: the share of the last moment (at least READ_EVERY) in which the
machine's cores ran anything, from Linux's /proc/stat, read only when a
room asks (no timer, no polling). Where it cannot be read the machine counts
as idle. A wait is drawn at random around its value (JITTER): rooms whose
waits began together, as they do on a server that had stopped, would
otherwise draw their onlookers all in the same instant, again and again.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

OTHERS_AFTER = 0.1
"""Seconds the onlookers wait for a move on a machine with cores to spare."""
OTHERS_BUSY = 1.0
"""Seconds they wait when the cores are busy (FULL)."""
OTHERS_MOST = 3.0
"""Seconds they wait when the cores are saturated (SATURATED and above)."""
CALM, FULL, SATURATED = 0.4, 0.65, 0.8
"""The cores' busy shares at which the wait is OTHERS_AFTER (and below), OTHERS_BUSY and OTHERS_MOST (and above),
straight between: a human pace of 64 sessions keeps 2 cores about 0.3 busy, keys as fast as they come 0.9-0.95
with every onlooker told at once. Where the waits settle the cores stay a little under FULL; 0.6 and 0.85
gave the players who act a slower p95; with a second at most the onlookers cost the sessions 2-3 ms of CPU a key
more than with three at saturation, and the p95 of keys as fast as they come was about 25 ms longer
(docs/performance.md)."""
WAITS = ((CALM, OTHERS_AFTER), (FULL, OTHERS_BUSY), (SATURATED, OTHERS_MOST))
JITTER = 0.25
"""A wait is drawn between (1 - JITTER) and (1 + JITTER) times its value."""
READ_EVERY = 0.25
"""Seconds at least between two readings of the cores (a share over less is mostly noise)."""

STAT = Path("/proc/stat")


def cpu_times(stat: Path = STAT) -> tuple[int, int] | None:
    """The machine's cores' (busy, all) time since boot, in clock ticks, or None if it cannot be read."""
    try:
        with stat.open() as lines:
            fields = lines.readline().split()
        if fields[:1] != ["cpu"]:
            return None
        ticks = [int(field) for field in fields[1:]]
    except (OSError, ValueError):
        return None
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # (idle, and waiting for a disk: not busy)
    return sum(ticks) - idle, sum(ticks)


def wait_for(busy: float) -> float:
    """The onlookers' wait, unjittered, when the cores were `busy` (a share, 0 to 1): WAITS, straight between."""
    if busy <= CALM:
        return OTHERS_AFTER
    for (low, short), (high, long) in zip(WAITS, WAITS[1:]):
        if busy < high:
            return short + (long - short) * (busy - low) / (high - low)
    return OTHERS_MOST


class Cores:
    """The machine's cores, as busy as they were between the last two readings."""

    def __init__(
        self,
        times: Callable[[], tuple[int, int] | None] = cpu_times,
        clock: Callable[[], float] = time.monotonic,
        seed: int | None = None,
    ) -> None:
        self._times, self._clock = times, clock
        self._last = times()
        self._read_at = clock()
        self.busy = 0.0  # (the share between the last two readings)
        self._random = random.Random(seed)

    def read(self) -> float:
        """The busy share, read again if READ_EVERY has passed since the last reading."""
        now = self._clock()
        if now - self._read_at >= READ_EVERY:
            self._read_at = now
            times = self._times()
            if times is not None and self._last is not None and times[1] > self._last[1]:
                self.busy = (times[0] - self._last[0]) / (times[1] - self._last[1])
            self._last = times
        return self.busy

    def onlooker_wait(self) -> float:
        """Seconds a room's onlookers wait for its latest move now (`wait_for` the cores, jittered)."""
        return wait_for(self.read()) * self._random.uniform(1 - JITTER, 1 + JITTER)


cores = Cores()
"""The server's one reading of its machine (every room's onlookers wait by it)."""
