"""A disk that fills up for real: a small tmpfs of its own, mounted for one test and filled on demand.

Mounting needs root (CAP_SYS_ADMIN); where the mount is refused, `FullDisk.mount`
says why and the test is skipped. `fill()` writes a filler file until the
kernel says the disk is full (ENOSPC), so whatever writes there next fails as
on a full disk: SQLite's next transaction, which must grow its write-ahead
log, reports "database or disk is full". `free()` takes the filler away.
"""

from __future__ import annotations

import errno
import os
import subprocess
from pathlib import Path

from tests.helpers.terminal import TIMEOUT

SIZE = "8m"
"""The disk's size: room for a save file of a few short games."""


class FullDisk:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.filler = folder / "filler"

    @classmethod
    def mount(cls, folder: Path) -> FullDisk | str:
        """A tmpfs mounted on `folder` (made if missing); or why it cannot be."""
        folder.mkdir(parents=True, exist_ok=True)
        if os.geteuid() != 0:
            return "mounting a small tmpfs (a disk that really fills up) needs root"
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={SIZE},mode=0700", "tmpfs", str(folder)],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        if done.returncode != 0:
            return f"a tmpfs could not be mounted: {done.stderr.strip()}"
        return cls(folder)

    def fill(self) -> None:
        """Write until the disk is full."""
        block = b"\0" * 65536
        with self.filler.open("ab", buffering=0) as filler:
            while True:
                try:
                    filler.write(block)
                except OSError as error:
                    if error.errno != errno.ENOSPC:
                        raise
                    break
        with self.filler.open("ab", buffering=0) as filler:  # (the last few bytes a whole block did not fit in)
            for size in (4096, 512, 1):
                try:
                    while True:
                        filler.write(b"\0" * size)
                except OSError as error:
                    if error.errno != errno.ENOSPC:
                        raise

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)

    def unmount(self) -> None:
        """(Lazily: a process that still has a file open there, a server being stopped, keeps it until it goes.)"""
        subprocess.run(["umount", "-l", str(self.folder)], capture_output=True, timeout=TIMEOUT)
