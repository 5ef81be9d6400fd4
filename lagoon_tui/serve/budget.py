"""How fast a player may type: keys a second and bytes a minute, past which their input is dropped.

A session's app spends real work on every key (Textual parses it, routes it,
redraws): a flood of keys, or a paste of megabytes, would cost its process
minutes of CPU. The SSH layer passes each chunk the client sends through an
`InputBudget` before it reaches the session's terminal:

    budget = InputBudget(keys_per_second=100, bytes_per_minute=128 * 1024)
    child.feed(budget.admit(data))     # what fits; the rest is dropped
    if budget.first_drop():            # True once, the first time anything was dropped
        ...tell the player...

Two token buckets, each full at the start and refilled evenly: one of keys
(a second's worth), one of bytes (a minute's worth). A key is what a
keyboard sends for one press: a character (its UTF-8 bytes), an escape
sequence (an arrow, a function key), or ESC with a key (alt). A key passes
whole or not at all, and once one is dropped so is the rest of its chunk.
A mouse report (SGR, as Textual asks for them) costs its bytes only: a
quick sweep of the mouse sends hundreds in a second, and the bytes budget
bounds them. A bracketed paste (ESC[200~ ... ESC[201~, as Textual asks
terminals to send one) costs one key for its start and then bytes only, as
Textual reads it as one event; if its bytes run out, the paste is ended
where they did (ESC[201~ is sent in its place), so the app never waits for
the end of a paste that will not come. 0 in either budget: no limit.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

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


class Bucket:
    """`size` tokens, full at first, refilled at `size` per `per` seconds; 0: no limit."""

    def __init__(self, size: int, per: float, clock: Callable[[], float]) -> None:
        self.size, self.rate, self.clock = size, size / per, clock
        self.tokens = float(size)
        self.when = clock()

    def refill(self) -> None:
        now = self.clock()
        self.tokens = min(float(self.size), self.tokens + (now - self.when) * self.rate)
        self.when = now

    def has(self, n: int) -> bool:
        return self.size == 0 or self.tokens >= n

    def most(self, n: int) -> int:
        """How many of `n` there are tokens for."""
        return n if self.size == 0 else min(n, int(self.tokens))

    def take(self, n: int) -> None:
        if self.size:
            self.tokens -= n


class InputBudget:
    """What a session may type; see the module's docstring."""

    def __init__(
        self, keys_per_second: int, bytes_per_minute: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.keys = Bucket(keys_per_second, 1.0, clock)
        self.bytes = Bucket(bytes_per_minute, 60.0, clock)
        self.dropped = 0  # bytes dropped so far
        self._told = False
        self._in_paste = False  # a paste's start was let through, and not yet its end
        self._carry = b""  # the last bytes of a paste let through, where the start of its end may be

    def admit(self, data: bytes) -> bytes:
        """The part of `data` (the client's next chunk) that may reach the session."""
        self.keys.refill()
        self.bytes.refill()
        passed = bytearray()
        at = 0
        while at < len(data):
            if self._in_paste:
                at = self._paste(data, at, passed)
                continue
            key = KEY.match(data, at)
            assert key is not None  # (its last branch matches any byte)
            size, keys = key.end() - at, 0 if MOUSE.fullmatch(key.group()) else 1
            if not (self.keys.has(keys) and self.bytes.has(size)):
                self.dropped += len(data) - at
                break
            self.keys.take(keys)
            self.bytes.take(size)
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
        fits = self.bytes.most(len(part))
        self.bytes.take(fits)
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

    def first_drop(self) -> bool:
        """True once: the first time this is asked after something was dropped (the player is told once)."""
        if self.dropped and not self._told:
            self._told = True
            return True
        return False
