"""Reading a file someone handed us (a deck, a game to import): only a regular file, and only so much of it."""

from __future__ import annotations

import os
import stat
from pathlib import Path


class FileRefused(Exception):
    """The file was not read; the message says why, as a phrase to follow the file's name ("is not …")."""


def read_regular(path: Path, limit: int, what: str) -> bytes:
    """The bytes of `path` if it is a regular file of at most `limit` bytes; FileRefused otherwise.

    The file is looked at before it is opened: opening a FIFO for reading waits
    for a writer, and a device such as /dev/zero never ends. Reading stops one
    byte past the limit, in case the file grew since. `what` names the file's
    kind in the messages ("a deck", "a game file").
    """
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise FileRefused(f"is not a regular file (a folder, device or pipe cannot be {what})")
    too_big = FileRefused(f"is larger than the {limit:,} bytes {what} may have")
    if info.st_size > limit:
        raise too_big
    with open(path, "rb") as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise too_big
    return data
