"""A session that keeps a core busy yields to the others: its priority lowered, once (`Hog`).

A client may drive its session's program as hard as its input budget lets
it: opening and closing the keys list 30 times a second kept about half a
core busy (issue 35, point 9), and a few such clients slowed every other
player's keys. The budget bounds what one session may do; this bounds what
it takes from the others. When a session's process has used more than
`share` of one core over the last LOOK_OVER seconds, it is given a nice
value of YIELD_NICE, and so is its autogroup (Linux groups the processes of
each session of a terminal, and weighs a process's nice only within its
group): it still runs as fast as ever on cores nobody else wants, and gives
way when others want them. A player never comes near it: a game played as
fast as the keys come costs its seat under a tenth of a core.

Looked at only when the session is sent input (no timer), at most every
READ_EVERY seconds, from Linux's /proc (elsewhere nothing is lowered). Once
lowered it stays so: a process may lower another's priority, not raise it.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

SHARE = 0.3
"""The share of one core a session may use over LOOK_OVER seconds before it yields (0: never)."""
LOOK_OVER = 5.0
READ_EVERY = 1.0
YIELD_NICE = 10


def cpu_seconds(pid: int) -> float | None:
    """The process's CPU time so far (user and system), or None if it cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def lower(pid: int) -> None:
    """The process, and its autogroup where Linux has them, at nice YIELD_NICE (what cannot be done is left)."""
    try:
        Path(f"/proc/{pid}/autogroup").write_text(str(YIELD_NICE))
    except OSError:
        pass
    try:
        os.setpriority(os.PRIO_PROCESS, pid, YIELD_NICE)
    except OSError:
        pass


class Hog:
    """One session's process, watched for keeping a core busy."""

    def __init__(
        self,
        pid: int,
        share: float = SHARE,
        clock: Callable[[], float] = time.monotonic,
        cpu: Callable[[int], float | None] = cpu_seconds,
        lowers: Callable[[int], None] = lower,
    ) -> None:
        self.pid, self.share = pid, share
        self._clock, self._cpu, self._lower = clock, cpu, lowers
        self._samples: deque[tuple[float, float]] = deque()  # (when, CPU seconds so far)
        self.lowered = False
        self.used = 0.0  # the share of a core it was found using when lowered

    def looked(self) -> bool:
        """The session was sent input: whether it is found now to keep a core busy (then it is lowered)."""
        if self.lowered or not self.share:
            return False
        now = self._clock()
        if self._samples and now - self._samples[-1][0] < READ_EVERY:
            return False
        used = self._cpu(self.pid)
        if used is None:
            return False
        self._samples.append((now, used))
        while len(self._samples) > 2 and now - self._samples[1][0] >= LOOK_OVER:
            self._samples.popleft()
        then, before = self._samples[0]
        if now - then < LOOK_OVER or (used - before) / (now - then) < self.share:
            return False
        self.used = (used - before) / (now - then)
        self._lower(self.pid)
        self.lowered = True
        return True
