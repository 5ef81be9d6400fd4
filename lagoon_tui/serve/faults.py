"""What the server says when a request fails on its side: a sentence to the player, a line to its console.

Two kinds of failure: the save file refuses a write (a full disk, a file
made read-only: a `StoreError`), and a bug. Neither ends the session or the
room: the request is refused in words the player can read, which never hold
anything of the server's machine (no path: `JournalError.public`), and the
server's console gets a line saying where it happened (the room, the seat,
the kind of request), the save file's own sentence, or where the bug's
report was written (`crash.reported`). A line goes to the console through
`logging` (as the SSH layer's do): with no handler set up, Python writes it
on stderr.
"""

from __future__ import annotations

import logging

from rules.host import StoreError

from .. import crash

log = logging.getLogger(__name__)

BUG = "The server could not do that: it went wrong on the server's side, and whoever runs it can read why."
"""A request that met a bug (the game and the lobby are as they were before it, or as the last change left them)."""


def noted(where: str, what: str) -> None:
    """A line on the console: what went wrong, and where."""
    log.warning("lagoon serve: %s: %s", where, what)


def unsaved(where: str, error: StoreError) -> str:
    """A request the save file could not keep (`where` it came from); what its player is told."""
    noted(where, f"not saved: {error}")
    return f"{error.public} Nothing was changed; try again later."


def bug(where: str, error: BaseException) -> str:
    """A bug met while serving `where`: reported, and a line on the console; what the player is told."""
    log.error("lagoon serve: %s: a bug; %s", where, crash.reported(error))
    return BUG
