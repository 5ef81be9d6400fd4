"""The bytes a terminal sends, made safe to parse: what is not UTF-8 is dropped, every paste ends, floods are cut.

Textual reads the keyboard as UTF-8 that must be valid: one byte that is not
(0xff typed, a file with Latin-1 in it pasted) stops its reading with an
exception, and the app ends. Textual also takes everything after the start of
a bracketed paste (ESC[200~) as pasted text until its end (ESC[201~): a paste
that never ends, through a broken link or bytes sent on purpose, takes every
key after it, ctrl+q and ctrl+c too, and keeps them all in memory.

`InputFilter` stands between the terminal and Textual's parser
(`turbo/keyboard.py` puts it there). What it hands on is what came in, except:

- A byte that is not part of valid UTF-8 is dropped (not shown as U+FFFD:
  no key means "a byte that was not a character"). A character split over two
  reads is kept whole.
- In a paste, ctrl+c and ctrl+q end the paste and then count as keys, the
  ones the player pressed to get out. They come as 0x03 and 0x11, or as the
  kitty keyboard protocol's CSI 99;5u and CSI 113;5u, which Textual asks the
  terminal for. (A paste with those characters in it ends there; the rest of
  it is then read as keys. No text the game takes needs them.)
- A paste passes on at most `PASTE_LIMIT` characters; the paste is then ended
  for Textual, and the rest, up to the terminal's end of the paste (or a
  ctrl+c or ctrl+q), is dropped. A 1 MB paste costs 64 K characters.
- ESC is dropped inside a paste: Textual would take an ESC in pasted text as
  the start of a key and could send the text after it as keys.

Outside a paste nothing is held back: a lone ESC (the escape key) reaches the
parser at once, and the parser's own waiting decides what it is. What is
dropped there is a flood: more than `TYPING_RATE` characters a second (after
as many at once) are text poured in without paste markers, a file sent as
keys, never typing. Textual's parser reads about 100,000 characters a second
here and the app handles about 4,000 keys: 1 MB of keys kept it busy for
minutes, ctrl+q waiting behind them. Of a flood only ctrl+c, ctrl+q and the
paste markers pass, until a quiet second. What the terminal sends on its own
(`REPORT`: mouse reports, 13 characters or so each, many a second when the
mouse moves fast; replies to Textual's questions; focus) is not typing and
does not count: it has a bound of its own, `REPORT_RATE` of them a second
(after as many at once), over which whole ones are dropped, never keys. The
rest of an escape sequence whose start was handed on is handed on too, even
in a flood, so that the parser never reads its digits as keys. Otherwise the
filter only follows along, to see a paste start even when its marker is split between two reads;
`timed_out` tells it the parser gave up on an unfinished sequence, which a
marker cannot then finish.
"""

from __future__ import annotations

import codecs
import re
import time
from collections.abc import Callable

PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"
PASTE_LIMIT = 65536
"""The most characters of one paste that reach the app (the rest is dropped)."""

TYPING_RATE = 4096
"""Characters a second that reach the parser outside a paste, after a first `TYPING_RATE` at once."""

REPORT_RATE = 1024
"""What the terminal sends on its own (`REPORT`) that reaches the parser in a second, after as many at once."""

REPORT = re.compile(
    r"\x1b\[<\d{1,6};-?\d{1,6};-?\d{1,6}[Mm]"  # a mouse report (SGR, in cells or pixels)
    r"|\x1b\[\d{1,6};\d{1,6};\d{1,6}M"  # a mouse report (urxvt)
    r"|\x1b\[\d{1,6};\d{1,6}R"  # the cursor's position
    r"|\x1b\[\?\d{1,6};\d\$y"  # a mode's report
    r"|\x1b\[[IO]"  # the terminal's window gained or lost focus
)
"""What the terminal sends on its own that Textual's parser reads as something else than keys."""
_OPEN = re.compile(r"\x1b(?:\[[\x30-\x3f]*[\x20-\x2f]*|O)?\Z")
"""An escape sequence not yet ended, at the end of what was handed on."""
_ENDED = re.compile(r"\x1b(?:\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]|O[\x20-\x7e]|[^\x1b\[O])")
"""An escape sequence (or ESC and a key: alt and the key), whole."""

_GET_OUT = r"[\x03\x11]|\x1b\[(?:99|113)(?::\d{0,7})*;(\d{1,4})(?::\d{1,4})?u"
"""ctrl+c and ctrl+q, plain or in the kitty protocol's form (its modifier field is checked with `_ctrl_only`)."""
_ALWAYS = re.compile(_GET_OUT)
"""What passes even in a flood."""
_STOP = re.compile(r"\x1b\[201~|" + _GET_OUT)
"""What ends a paste: its end marker, or ctrl+c or ctrl+q."""
_CTRL, _LOCKS = 4, 64 | 128
"""Kitty modifier bits (the value sent, less one): ctrl; caps lock and num lock, which change nothing here."""
_HELD = 16
"""A paste's last characters from an ESC on are held back while they may still become a stop (at most this many)."""
_SEQUENCE = 32
"""The longest escape sequence Textual's parser waits for (its own limit)."""
_MAYBE_STOP = re.compile(r"\x1b(?:\[[\d;:]*)?")


def _ctrl_only(modifiers: str) -> bool:
    """Whether a kitty key's modifier field means ctrl alone."""
    bits = int(modifiers) - 1
    return bits & ~_LOCKS == _CTRL


_PIECE = re.compile(r"\x1b(?:\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?|O[\x20-\x7e]?|[^\x1b\[O])?|[^\x1b]+")
"""One escape sequence (whole or, at the end, begun), or a run of characters with no ESC in it."""


def pieces(text: str, begun: str = "") -> list[str]:
    """`text` cut where a parser that fails on a sequence should stop losing keys: the rest of the sequence
    `begun` before it (if any), then each escape sequence alone and each run of other characters.

    Fed one by one to the same parser, the pieces read as `text` would; a piece that makes it fail costs only
    itself (an ESC-less run cannot make it fail, except where it ends the sequence `begun`)."""
    start = 0
    if begun:
        whole = begun + text
        ended = _ENDED.match(whole)
        if ended is not None and ended.end() > len(begun):
            start = ended.end() - len(begun)
        elif _OPEN.match(whole):
            start = len(text)
    cut = [text[:start]] if start else []
    return cut + [piece[0] for piece in _PIECE.finditer(text, start)]


def _partial_start(text: str) -> str:
    """The longest end of `text` that the paste's start marker begins with (but not the whole marker)."""
    for size in range(min(len(PASTE_START) - 1, len(text)), 0, -1):
        if PASTE_START.startswith(text[-size:]):
            return text[-size:]
    return ""


def _open_end(text: str) -> str:
    """The escape sequence begun and not ended at the end of `text`, if any."""
    found = _OPEN.search(text[-_SEQUENCE:])
    return found[0] if found else ""


class InputFilter:
    """Bytes from the terminal in, text for Textual's parser out; see the module's docstring."""

    def __init__(
        self, paste_limit: int = PASTE_LIMIT, rate: int = TYPING_RATE, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.paste_limit = paste_limit
        self.rate = rate
        self._clock = clock
        self._allowance = float(rate)  # characters that may pass now, outside a paste
        self._when = clock()
        self._flooding = False  # outside a paste, more came than the rate allows: dropped until a quiet second
        self._reports = float(REPORT_RATE)  # what the terminal sends on its own (`REPORT`) that may pass now
        self._open = ""  # outside a paste: an escape sequence begun at the end of what was handed on
        self._decode = codecs.getincrementaldecoder("utf-8")(errors="ignore").decode
        self._seen = ""  # outside a paste: the end of what was handed on, if a paste's start may follow it
        self._pasting = False
        self._held = ""  # in a paste: its last characters, while they may still become a stop
        self._taken = 0  # characters of this paste handed on
        self._dropping = False  # this paste reached the limit: it is over for the parser

    @property
    def pasting(self) -> bool:
        """Whether a paste has started and not ended."""
        return self._pasting

    @property
    def begun(self) -> str:
        """The escape sequence begun and not ended at the end of what was handed on (outside a paste)."""
        return self._open

    def feed(self, data: bytes) -> str:
        """The text to hand on for `data`, the next bytes the terminal sent."""
        text = self._decode(data)
        out: list[str] = []
        while text:
            text = self._in_paste(text, out) if self._pasting else self._outside(text, out)
        return "".join(out)

    def timed_out(self) -> None:
        """The parser gave up waiting for the rest of a sequence: what it had cannot begin a paste, nor go on."""
        self._seen = self._open = ""

    def restart(self) -> str:
        """What a new parser must be given to be where the old one was (a parser is replaced if it failed)."""
        self._seen = self._open = ""
        return PASTE_START if self._pasting and not self._dropping else ""

    def _outside(self, text: str, out: list[str]) -> str:
        """Hand on `text` up to the end of a paste's start marker, if one is in it; what is left."""
        seen = self._seen + text
        found = seen.find(PASTE_START)
        if found < 0:
            self._seen = _partial_start(seen)
            keep = len(text) - min(len(self._seen), len(text))
            handed = self._ration(text[:keep])
            if self._flooding:  # (dropped too: neither the parser nor the filter sees a paste begin there)
                self._seen = ""
            else:  # (what may begin a paste passes, so that the parser sees the paste begin when the filter does)
                handed += text[keep:]
            out.append(handed)
            if handed:
                self._open = _open_end(self._open + handed)
            return ""
        cut = found + len(PASTE_START) - len(self._seen)
        marker = max(found - len(self._seen), 0)
        out.append(self._ration(text[:marker]))
        out.append(text[marker:cut])
        self._seen = self._open = ""
        self._pasting, self._held, self._taken, self._dropping = True, "", 0, False
        return text[cut:]

    def _ration(self, text: str) -> str:
        """`text` less what is over the rates: the rest of a sequence begun, then reports and keys, each rationed."""
        if not text:
            return text
        now = self._clock()
        elapsed, self._when = now - self._when, now
        self._allowance = min(float(self.rate), self._allowance + elapsed * self.rate)
        self._reports = min(float(REPORT_RATE), self._reports + elapsed * REPORT_RATE)
        start = self._finish(text)
        out = [text[:start]]
        for report in REPORT.finditer(text, start):
            out.append(self._typed(text[start : report.start()]))
            if self._reports >= 1:  # (a report over the bound is dropped whole: nothing of it reaches the parser)
                self._reports -= 1
                out.append(report[0])
            start = report.end()
        out.append(self._typed(text[start:]))
        return "".join(out)

    def _finish(self, text: str) -> int:
        """How much of `text` is the rest of the escape sequence the parser is in (it passes, even in a flood)."""
        if not self._open:
            return 0
        whole = self._open + text
        ended = _ENDED.match(whole)
        if ended is None or ended.end() <= len(self._open):
            return len(text) if len(whole) <= _SEQUENCE and _OPEN.match(whole) else 0
        if REPORT.fullmatch(ended[0]):
            self._reports = max(0.0, self._reports - 1)
        else:
            self._allowance = max(0.0, self._allowance - (ended.end() - len(self._open)))
        return ended.end() - len(self._open)

    def _typed(self, text: str) -> str:
        """`text` as far as the typing rate allows; of the rest, only ctrl+c and ctrl+q.

        A flood is dropped from its first cut until the allowance is whole again (a quiet
        second): whatever passes starts where a key starts, never inside one's escape sequence
        (its digits would be keys). The first cut is made before an ESC near it, for the same reason.
        """
        if not text:
            return text
        if self._flooding and self._allowance < self.rate:
            self._allowance = 0.0
            return self._always(text, 0)
        self._flooding = False
        if len(text) <= self._allowance:
            self._allowance -= len(text)
            return text
        passing = int(self._allowance)
        sequence = text.rfind("\x1b", max(0, passing - _SEQUENCE), passing + 1)
        cut = passing if sequence < 0 else sequence
        self._allowance, self._flooding = 0.0, True
        return text[:cut] + self._always(text, cut)

    @staticmethod
    def _always(text: str, start: int) -> str:
        """The ctrl+c and ctrl+q keys in `text` from `start` on."""
        return "".join(key[0] for key in _ALWAYS.finditer(text, start) if key[1] is None or _ctrl_only(key[1]))

    def _in_paste(self, text: str, out: list[str]) -> str:
        """Hand on the paste in `text`, bounded, up to what ends it; what is left after that."""
        text = self._held + text
        self._held = ""
        for stop in _STOP.finditer(text):
            if stop[1] is None or _ctrl_only(stop[1]):
                self._take(text[: stop.start()], out)
                self._end(stop[0], out)
                return text[stop.end() :]
        hold = text.rfind("\x1b", max(0, len(text) - _HELD))
        if hold >= 0 and _MAYBE_STOP.fullmatch(text, hold):
            self._held = text[hold:]
            text = text[:hold]
        self._take(text, out)
        return ""

    def _take(self, pasted: str, out: list[str]) -> None:
        """Hand on pasted text up to the limit; at the limit, end the paste for the parser."""
        if self._dropping:
            return
        pasted = pasted.replace("\x1b", "")
        room = self.paste_limit - self._taken
        if len(pasted) >= room:
            out.append(pasted[:room])
            out.append(PASTE_END)
            self._dropping = True
            self._taken = self.paste_limit
            return
        out.append(pasted)
        self._taken += len(pasted)

    def _end(self, stop: str, out: list[str]) -> None:
        """The paste is over at `stop`: its end marker, or a key the player pressed to end it."""
        if not self._dropping:
            out.append(PASTE_END)
        if stop != PASTE_END:
            out.append(stop)
        self._pasting, self._held, self._dropping = False, "", False
