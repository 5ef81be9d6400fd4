"""How often someone may do something, and how fast a player may type.

`Budget`: a token bucket for each name.

    wrong = Budget(rate=5, per=60.0)   # five at once, then one more every 12 s
    wrong.allow("SHA256:...")          # True and a token taken, or False (no token left: nothing taken)
    wrong.spent("SHA256:...")          # whether no token is left, taking none
    wrong.take("SHA256:...", 3)        # three tokens at once, or none
    wrong.left("SHA256:...")           # how many there are now

`clock` is injectable, so that tests need not wait. Only those who spent
something are remembered, and beyond FORGET_ABOVE of them those whose bucket
has filled again are forgotten. A rate of 0 is no limit.

`InputBudget`: keys a second and bytes a minute for one session, past which
its input is dropped. A session's app spends real work on every key (Textual
parses it, routes it, redraws): a flood of keys, or a paste of megabytes,
would cost its process minutes of CPU. The SSH layer passes each chunk the
client sends through the session's `InputBudget` before it reaches the
session's terminal:

    budget = InputBudget(keys_per_second=30, bytes_per_minute=128 * 1024)
    child.feed(budget.admit(data))     # what fits; the rest is dropped
    if budget.first_drop():            # True once, the first time anything was dropped
        ...tell the player...

Two budgets, each full at the start: one of keys (KEYS_BURST, or a second's
worth if more, refilled at keys_per_second), one of bytes (a minute's
worth). A key is what a keyboard sends for one press: a
character (its UTF-8 bytes), an escape sequence (an arrow, a function key),
or ESC with a key (alt). A key passes whole or not at all, and once one is
dropped so is the rest of its chunk. A mouse report (SGR, as Textual asks for
them) costs its bytes only: a quick sweep of the mouse sends hundreds in a
second, and the bytes budget bounds them. A bracketed paste (ESC[200~ ...
ESC[201~, as Textual asks terminals to send one) costs one key for its start
and then bytes only, as Textual reads it as one event; if its bytes run out,
the paste is ended where they did (ESC[201~ is sent in its place), so the app
never waits for the end of a paste that will not come; nor when nothing more
of it comes for a while (`end_paste`, which the SSH layer calls). An end of
paste outside a paste (of one ended so) is dropped. 0 in either: no limit.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable


class Budget:
    """`rate` tokens for each name, refilled over `per` seconds (bursts of up to `rate`; 0: no limit)."""

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

    def left(self, who: str) -> float:
        """The tokens `who` has now, none taken (`math.inf` with no limit)."""
        return math.inf if not self.rate else self._tokens(self.name(who), self.clock())

    def spent(self, who: str) -> bool:
        """Whether `who` has no token left now (none is taken)."""
        return self.left(who) < 1

    def take(self, who: str, count: float = 1) -> bool:
        """Whether `who` has `count` tokens now; if so they are taken, else none is."""
        if not self.rate:
            return True
        now, name = self.clock(), self.name(who)
        tokens = self._tokens(name, now)
        allowed = tokens >= count
        self._buckets[name] = (tokens - count if allowed else tokens, now)
        if len(self._buckets) > self.FORGET_ABOVE:
            self._buckets = {k: v for k, v in self._buckets.items() if self._tokens(k, now) < self.rate}
        return allowed

    def allow(self, who: str) -> bool:
        """Whether `who` may go on now (a token is taken if so)."""
        return self.take(who)


PASTE_START = b"\x1b[200~"
PASTE_END = b"\x1b[201~"

KEY = re.compile(
    rb"\x1b\[[0-?]*[ -/]*[@-~]"  # a control sequence: arrows, function keys, mouse reports, paste marks
    rb"|\x1bO."  # SS3: arrows and F1-F4 on some terminals
    rb"|\x1b[^\[O]?"  # ESC alone, or with a key (alt)
    rb"|[\xc0-\xff][\x80-\xbf]{0,3}"  # a character of more than one UTF-8 byte
    rb"|.",  # any other byte
    re.DOTALL,
)
MOUSE = re.compile(rb"\x1b\[<[0-9;]*[Mm]")
SESSION = ""
"""The one name an `InputBudget`'s budgets know: the session's own."""
KEYS_BURST = 100
"""Keys a session may type at once before its keys a second count: a key held down repeats 25-60 times a
second in the terminals we know, so a held arrow runs for seconds before a key is dropped."""


class InputBudget:
    """What a session may type; see the module's docstring."""

    def __init__(
        self,
        keys_per_second: int,
        bytes_per_minute: int,
        clock: Callable[[], float] = time.monotonic,
        keys_burst: int = KEYS_BURST,
    ) -> None:
        burst = max(keys_burst, keys_per_second)  # (typed at once; then keys_per_second a second)
        self.keys = Budget(burst, burst / keys_per_second, clock) if keys_per_second else Budget(0, 1.0, clock)
        self.bytes = Budget(bytes_per_minute, 60.0, clock)
        self.dropped = 0  # bytes dropped so far
        self._told = False
        self._in_paste = False  # a paste's start was let through, and not yet its end
        self._carry = b""  # the last bytes of a paste let through, where the start of its end may be

    def admit(self, data: bytes) -> bytes:
        """The part of `data` (the client's next chunk) that may reach the session."""
        passed = bytearray()
        at = 0
        while at < len(data):
            if self._in_paste:
                at = self._paste(data, at, passed)
                continue
            key = KEY.match(data, at)
            assert key is not None  # (its last branch matches any byte)
            if key.group() == PASTE_END:  # the end of no paste (of one ended already: `end_paste`): dropped
                at = key.end()
                continue
            size, keys = key.end() - at, 0 if MOUSE.fullmatch(key.group()) else 1
            if not (self.keys.left(SESSION) >= keys and self.bytes.take(SESSION, size)):
                self.dropped += len(data) - at
                break
            self.keys.take(SESSION, keys)
            passed += key.group()
            at = key.end()
            if key.group() == PASTE_START:
                self._in_paste, self._carry = True, b""
        return bytes(passed)

    def _paste(self, data: bytes, at: int, passed: bytearray) -> int:
        """Let through what of a paste there are bytes for, up to and with its end; where to go on in `data`."""
        window = self._carry + data[at:]
        found = window.find(PASTE_END)
        stop = len(data) if found < 0 else at + found + len(PASTE_END) - len(self._carry)
        part = data[at:stop]
        left = self.bytes.left(SESSION)
        fits = len(part) if left >= len(part) else int(left)
        self.bytes.take(SESSION, fits)
        passed += part[:fits]
        if fits < len(part):  # out of bytes: the paste ends here, and the rest of the chunk is dropped
            passed += PASTE_END
            self.dropped += len(data) - at - fits
            self._in_paste, self._carry = False, b""
            return len(data)
        if found < 0:
            self._carry = window[-(len(PASTE_END) - 1) :]
        else:
            self._in_paste, self._carry = False, b""
        return stop

    @property
    def in_paste(self) -> bool:
        """Whether a paste's start was let through, and not yet its end."""
        return self._in_paste

    def end_paste(self) -> bytes:
        """What ends the paste under way for the session (nothing if there is none); its own end, if it comes
        later, is then dropped."""
        if not self._in_paste:
            return b""
        self._in_paste, self._carry = False, b""
        return PASTE_END

    def first_drop(self) -> bool:
        """True once: the first time this is asked after something was dropped (the player is told once)."""
        if self.dropped and not self._told:
            self._told = True
            return True
        return False
