"""A session whose player presses nothing: warned, then closed (`IdleWatch`).

    watch = IdleWatch(1800, 60, warn, expire, paused=lambda: stopped(pid))
    watch.pressed()     # a key came from the player
    watch.stop()        # the session ended

`warn(seconds_left)` is called once the player has pressed nothing for the
timeout less the warning, and `warn(None)` when they press a key after it;
`expire()` once they have pressed nothing for the whole timeout. Keys that
come while `paused()` (the session's program is stopped, say by ctrl+z, and
takes none of them) do not count: a stopped session cannot hold its place.
Timers run on the event loop's own clock; `paused` is asked at most once a
second, however fast keys come.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

Warn = Callable[[float | None], object]


def stopped(pid: int) -> bool:
    """Whether process `pid` is stopped (SIGSTOP, ctrl+z, a debugger), as /proc says; False where it cannot tell."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[:1] in (["T"], ["t"])


class IdleWatch:
    HEED_EVERY = 1.0
    """Seconds within which a second key changes nothing (the watch need not be that exact)."""

    def __init__(
        self,
        timeout: float,
        warning: float,
        warn: Warn | None,
        expire: Callable[[], object],
        paused: Callable[[], bool] = lambda: False,
    ) -> None:
        self._loop = asyncio.get_running_loop()
        self.timeout = timeout
        self.warning = min(warning, timeout / 2)
        self._warn, self._expire, self._paused = warn, expire, paused
        self.last = self._loop.time()  # when the player last pressed a key
        self.warned = False
        self._timer: asyncio.TimerHandle | None = self._loop.call_later(timeout - self.warning, self._check)

    def pressed(self) -> None:
        now = self._loop.time()
        if (now - self.last < self.HEED_EVERY and not self.warned) or self._paused():
            return
        self.last = now
        if self.warned:
            self.warned = False
            self._tell(None)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _tell(self, left: float | None) -> None:
        if self._warn is not None:
            self._warn(left)

    def _check(self) -> None:
        idle = self._loop.time() - self.last
        if idle >= self.timeout:
            self._timer = None
            self._expire()
            return
        due = self.timeout - self.warning
        if idle >= due and not self.warned:
            self.warned = True
            self._tell(self.timeout - idle)
        self._timer = self._loop.call_later((self.timeout if self.warned else due) - idle, self._check)
