"""Counting the machine instructions of a command with valgrind's callgrind (for the *_instructions benches)."""

from __future__ import annotations

import re
import subprocess
import sys


def instructions(argv: list[str]) -> tuple[int, str]:
    """(instructions, standard output) of `argv` run under `valgrind --tool=callgrind`."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        sys.exit(f"no instruction count from valgrind:\n{done.stderr[-2000:]}")
    return int(found.group(1)), done.stdout
