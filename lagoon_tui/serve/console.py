"""What `lagoon serve` writes on its own terminal: one line for each thing its host may want to know.

Each line begins with the date and time. By how much is said (`setup`):

- `quiet`: only what went wrong or was refused: a limit reached (the
  sentence the player read, and the flag that sets that limit), a save
  file that refused a write, a bug;
- `normal` (the default): also each connection (its name, its address and
  the start of its key's fingerprint), each room made, each game started
  and each game over;
- `verbose`: also each session's end (with how many window changes it
  asked for and how many reached its program), each name taken or changed,
  each connection closed before or after logging in.

The lines come through `logging` (the SSH layer's and `faults`' too), at
the levels WARNING (quiet), INFO (normal) and DEBUG (verbose), under the
`lagoon_tui` logger. Nothing secret is written: names, addresses, room
codes and game numbers, never a card, a hand or a seed; a name is written
through `printable`, so it cannot act on the terminal.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TextIO

from rules.host import Host, computer_words, printable

log = logging.getLogger(__name__)

VERBOSITY = {"quiet": logging.WARNING, "normal": logging.INFO, "verbose": logging.DEBUG}
FORMAT = "%(asctime)s %(message)s"
DATE = "%Y-%m-%d %H:%M:%S"


def setup(verbosity: str = "normal", stream: TextIO | None = None) -> logging.Handler:
    """Write the server's lines on `stream` (stdout: where the banner is) at `verbosity` (see VERBOSITY);
    the handler, to take away with `logging.getLogger("lagoon_tui").removeHandler`."""
    handler = logging.StreamHandler(stream or sys.stdout)
    handler.setFormatter(logging.Formatter(FORMAT, DATE))
    root = logging.getLogger("lagoon_tui")
    root.addHandler(handler)
    root.setLevel(VERBOSITY[verbosity])
    root.propagate = False  # (never twice, through a handler someone set on the root logger)
    return handler


@contextmanager
def writing(verbosity: str = "normal", stream: TextIO | None = None) -> Iterator[logging.Handler]:
    """The server's lines written as `setup` says while the block runs, and the logging as it was after it (a
    server run in a process that goes on, as tests run it, leaves no handler on a stream that may close)."""
    root = logging.getLogger("lagoon_tui")
    level, propagate = root.level, root.propagate
    handler = setup(verbosity, stream)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
        root.propagate = propagate


def short(fingerprint: str) -> str:
    """A key's fingerprint as the console writes it: "SHA256:" and its first 8 characters."""
    return fingerprint[:15]


def who(name: str | None, fingerprint: str) -> str:
    """A player as a line names them: "Ana (key SHA256:AbCdEfGh)", or "a new player (key ...)"."""
    return f"{printable(name) if name else 'a new player'} (key {short(fingerprint)})"


def connected(name: str | None, fingerprint: str, address: str) -> None:
    log.info("%s connected from %s", who(name, fingerprint), address)


def refused(address: str, fingerprint: str | None, flag: str | None, sentence: str) -> None:
    """A connection refused by a limit: whose, the flag that sets that limit (None: fixed), what they read."""
    key = f" (key {short(fingerprint)})" if fingerprint else ""
    limit = f" [{flag}]" if flag else ""
    log.warning("refused %s%s%s: %s", address, key, limit, sentence)


def named(name: str, fingerprint: str, before: str | None) -> None:
    if before is None:
        log.debug("key %s took the name %s", short(fingerprint), printable(name))
    else:
        log.debug("%s is now called %s", who(before, fingerprint), printable(name))


def room_made(code: str, maker: str | None, fingerprint: str, seats: Sequence[str]) -> None:
    """`seats`: "person" or a computer's level, each."""
    people = sum(1 for seat in seats if seat == "person")
    computers = len(seats) - people
    log.info(
        "room %s made by %s: %d seats, %d for people, %d for computers",
        code,
        who(maker, fingerprint),
        len(seats),
        people,
        computers,
    )


def rematch_made(code: str, of: str) -> None:
    """A finished game's rematch, every seat having accepted: its new room."""
    log.info("room %s made: the rematch of room %s, the same seats", code, of)


def watch(code: str, host: Host, names: Sequence[str], reopened: bool) -> None:
    """A room's game, from when it is hosted: a line as it starts (or, at verbose, as it is opened again
    after a restart) and one as it ends."""
    seated = ", ".join(
        printable(name) + (f" ({computer_words(host.levels[seat])})" if seat in host.levels else "")
        for seat, name in enumerate(names)
    )
    if host.over:
        return
    if reopened:
        log.debug("room %s: game %s opened again: %s", code, host.game, seated)
    else:
        log.info("room %s: game %s started: %s", code, host.game, seated)

    def ended() -> None:
        if host.over:
            stop()
            log.info("room %s: game %s is over: %s", code, host.game, seated)

    stop = host.on_change(ended)


def room_cancelled(code: str, maker: str | None, fingerprint: str) -> None:
    log.info("room %s cancelled by %s", code, who(maker, fingerprint))


def stood_in(code: str, name: str, why: str) -> None:
    """A computer plays for a player of room `code`: `why` ("until they come back", "for this turn: their time
    ran out")."""
    log.info("room %s: a computer plays for %s %s", code, printable(name), why)


def codes_limited(name: str | None, fingerprint: str) -> None:
    log.warning("%s gave too many wrong room codes: every code is refused them for a while", who(name, fingerprint))
