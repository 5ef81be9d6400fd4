"""How often someone may do something: a token bucket for each of them (`Budget`).

    wrong = Budget(rate=5, per=60.0)   # five at once, then one more every 12 s
    wrong.allow("SHA256:...")          # True and a token taken, or False (no token left: nothing taken)
    wrong.spent("SHA256:...")          # whether no token is left, taking none

`clock` is injectable, so that tests need not wait. Only those who spent
something are remembered, and beyond FORGET_ABOVE of them those whose bucket
has filled again are forgotten.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class Budget:
    """`rate` tokens for each name, refilled over `per` seconds (bursts of up to `rate`)."""

    FORGET_ABOVE = 4096  # names tracked before full buckets are dropped

    def __init__(self, rate: int, per: float, clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.per = per
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # name -> (tokens, when counted)

    def name(self, who: str) -> str:
        """Whose bucket `who` draws on (a subclass may group several under one)."""
        return who

    def _tokens(self, name: str, now: float) -> float:
        tokens, then = self._buckets.get(name, (self.rate, now))
        return min(self.rate, tokens + (now - then) * self.rate / self.per)

    def spent(self, who: str) -> bool:
        """Whether `who` has no token left now (none is taken)."""
        return self._tokens(self.name(who), self.clock()) < 1

    def allow(self, who: str) -> bool:
        """Whether `who` may go on now (a token is taken if so)."""
        now, name = self.clock(), self.name(who)
        tokens = self._tokens(name, now)
        allowed = tokens >= 1
        self._buckets[name] = (tokens - 1 if allowed else tokens, now)
        if len(self._buckets) > self.FORGET_ABOVE:
            self._buckets = {k: v for k, v in self._buckets.items() if self._tokens(k, now) < self.rate}
        return allowed
