"""The `lagoon` command run as a real process, and what its output and the files it leaves must be."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import unicodedata
from contextlib import closing
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def lagoon(*args: str, stdin: str | None = None, preexec=None, env=None, prefix=()) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*prefix, sys.executable, "-m", "lagoon_tui", *args],
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        preexec_fn=preexec,
        env={**os.environ, **(env or {})},
    )


def no_traceback(result: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in result.stderr + result.stdout, result.stderr


def checkpointed(db: Path) -> None:
    """Everything of `db` in the file itself, and no connection left open (so no -wal or -shm file)."""
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def tree(folder: Path) -> dict[str, tuple[bytes, int] | None]:
    """Every file and folder under `folder`: each file's bytes and time of change (None for a folder), to
    compare before and after a command that must write nothing."""
    return {
        str(path.relative_to(folder)): None if path.is_dir() else (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(folder.rglob("*"))
    }


BLANK_NAMES = ("FILLER", "VARIATION SELECTOR", "COMBINING GRAPHEME JOINER", "BRAILLE PATTERN BLANK")


def unshowable(text: str) -> list[str]:
    """What of `text` a terminal acts on or shows as nothing, but line ends: control, C1, DEL, format
    (direction, zero-width), private, unassigned, line and paragraph separators (found by Unicode category),
    fillers, variation selectors, the grapheme joiner and the blank braille pattern (found by their Unicode
    names): on its own, not with the code under test."""
    return [
        c
        for c in text
        if c != "\n"
        and (
            unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
            or any(word in unicodedata.name(c, "") for word in BLANK_NAMES)
        )
    ]
