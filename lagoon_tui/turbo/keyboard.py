"""Textual's terminal driver, reading the keyboard through `terminal_input.InputFilter`.

Not for speed: for the app to go on whatever bytes arrive. Textual's
`LinuxDriver.run_input_thread` decodes the keyboard as strict UTF-8 and feeds
its parser; a byte that is not UTF-8, or a sequence its parser cannot read
(CSI 1:2;3u, or CSI 9999999u, a character past Unicode), raises, and the
driver then ends the app with a traceback. A paste that never ends holds every
key after it. Textual has no setting for either.

`KeyboardDriver` is Textual's own driver with that one method written again:
the same reading (one select with a short timeout, so the parser's wait for
the rest of an escape sequence can run out), each read passed through
`InputFilter` before the parser, fed to it sequence by sequence
(`terminal_input.pieces`), and a parser that fails replaced by a new one, so a
bad sequence costs only itself, not the keys read with it. It is passed to the app as its
`driver_class`, a public argument; what is private is Textual's parser,
`textual._xterm_parser.XTermParser` (its `feed` and `tick`), and the driver's
`fileno`, `exit_event` and `process_message`, which the replaced method uses
as Textual's own does. Sizes sent among the keys are not passed on
(`FROM_THE_WINDOW`): the window's size comes from the kernel alone.

The guard is needed on every Textual release, not only the one the layer was
written for: as it is imported, it checks that the parser and the driver have
what it uses, and that the parser still reads a key and a paste as it expects
(`misfit`). If not, it is off (`ON` is false, `MISFIT` says why) and a line on
stderr says so; the tests that need it then fail rather than skip (only
`SWITCHED_OFF` makes them skip).

Off (`LAGOON_STOCK_TEXTUAL=keyboard`, on Windows, when the check fails, or when
TEXTUAL_DRIVER names a driver), Textual picks its own driver, as before.
"""

from __future__ import annotations

import os
import selectors
import sys
from collections.abc import Iterable

from textual import events
from textual.driver import Driver
from textual.message import Message
from textual.messages import InBandWindowResize

from ..terminal_input import PASTE_END, PASTE_START, InputFilter, pieces
from . import TEXTUAL, on

SWITCHED_OFF = not on("keyboard") or sys.platform == "win32"
"""The guard is off on purpose (its name in LAGOON_STOCK_TEXTUAL) or has no place here (Windows)."""

FROM_THE_WINDOW = (events.Resize, InBandWindowResize)
"""Messages of the parser that are not passed on: the app's size comes from the terminal's window (SIGWINCH).

Textual also reads sizes sent in band, among the keys (CSI 48;rows;cols;...t), once the terminal
says it can send them (a mode report, also among the keys). Any bytes can say so: CSI 48;3000;3000;1;1t
made the app draw 3000 by 3000 cells (224 MB), and a report of the mode made it ignore the window's
real changes. The window's size is what the kernel says it is, and no key can change it.
"""
READ_SIZE = 4096
WAIT = 0.1
"""Seconds each select waits for the keyboard before the parser's timeouts are checked (Textual's own value)."""


DRIVER_SETS = ("fileno", "exit_event")
"""What the driver's `__init__` must set, for the method written again here to use."""


def misfit(parser: type, driver: type) -> str | None:
    """What in Textual's `parser` and `driver` classes is not as the guard expects; None if all is."""
    for owner, names in ((parser, ("feed", "tick")), (driver, ("run_input_thread", "process_message"))):
        for name in names:
            if not callable(getattr(owner, name, None)):
                return f"{owner.__name__}.{name} is missing"
    code = getattr(getattr(driver, "__init__", None), "__code__", None)  # (the class's own, or the one it inherits)
    for name in DRIVER_SETS:
        if code is None or name not in code.co_names:
            return f"{driver.__name__} no longer sets {name}"
    try:
        reader = parser()
        read = [*reader.feed(f"a{PASTE_START}b{PASTE_END}"), *reader.feed("")]
    except Exception as error:
        return f"{parser.__name__} fails on a key and a paste ({type(error).__name__})"
    seen = [(type(message).__name__, getattr(message, "key", getattr(message, "text", None))) for message in read]
    if seen != [("Key", "a"), ("Paste", "b")]:
        return f"{parser.__name__} reads a key and a paste differently"
    return None


MISFIT: str | None = None
"""Why the guard is off though not switched off (see `misfit`); None when it is on or switched off."""
if not SWITCHED_OFF:
    try:
        from textual._xterm_parser import XTermParser
        from textual.drivers.linux_driver import LinuxDriver
    except ImportError as error:
        MISFIT = f"{error.name} is missing"
    else:
        MISFIT = misfit(XTermParser, LinuxDriver)
    if MISFIT:
        print(
            f"lagoon: keyboard guard off ({MISFIT} in Textual {TEXTUAL}): a byte that is not UTF-8 may end the app.",
            file=sys.stderr,
        )

ON = not SWITCHED_OFF and MISFIT is None
"""Whether the app reads the keyboard through `KeyboardDriver`."""


def driver_class() -> type[Driver] | None:
    """The driver the app is to use (None: Textual's choice)."""
    if not ON or os.environ.get("TEXTUAL_DRIVER"):
        return None
    return KeyboardDriver


def messages_for(text: str) -> list[Message]:
    """What the app is sent for `text` read by Textual's own parser, as if the input then ended (for tests)."""
    from textual._xterm_parser import XTermParser

    parser = XTermParser()
    read = [*parser.feed(text), *parser.feed("")]
    return [message for message in read if not isinstance(message, FROM_THE_WINDOW)]


if ON:

    class KeyboardDriver(LinuxDriver):
        """Textual's Linux and macOS driver, its keyboard read through an `InputFilter`."""

        def run_input_thread(self) -> None:
            keyboard = InputFilter()
            parser = XTermParser()
            with selectors.SelectSelector() as selector:
                selector.register(self.fileno, selectors.EVENT_READ)
                while not self.exit_event.is_set():
                    if selector.select(WAIT):
                        data = os.read(self.fileno, READ_SIZE)
                        if not data:  # the input's end (not a terminal): nothing more to read
                            self.exit_event.wait()
                            break
                        begun = keyboard.begun
                        try:
                            text = keyboard.feed(data)
                        except Exception:  # (never seen: a filter that fails starts again, as a parser does)
                            keyboard, text = InputFilter(), ""
                            parser = self._replace(keyboard)
                        for piece in pieces(text, begun):  # (so that a sequence it cannot read costs only itself)
                            parser = self._parse(parser, piece, keyboard)
                    try:
                        waited = list(parser.tick())
                    except Exception:
                        parser = self._replace(keyboard)
                        continue
                    if waited:
                        keyboard.timed_out()
                        self._send(waited)

        def _parse(self, parser: XTermParser, text: str, keyboard: InputFilter) -> XTermParser:
            """`text` parsed and its keys sent to the app; the parser to go on with."""
            try:
                self._send(parser.feed(text))
            except Exception:
                return self._replace(keyboard)
            return parser

        def _send(self, messages: Iterable[Message]) -> None:
            """Hand the parser's messages to the app, less any size the keyboard claims (see `FROM_THE_WINDOW`)."""
            for message in messages:
                if not isinstance(message, FROM_THE_WINDOW):
                    self.process_message(message)

        def _replace(self, keyboard: InputFilter) -> XTermParser:
            """A new parser, where the failed one was (in a paste or not); what the failed one held is lost."""
            parser = XTermParser()
            if start := keyboard.restart():
                list(parser.feed(start))
            return parser
