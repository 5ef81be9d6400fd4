"""How many players `lagoon serve` takes at once by default: as many sessions as half the machine's memory holds.

Each player's session is a process of its own. Measured on Linux (issue 35):
a session in the lobby holds about 46 MiB resident (34 MiB of it its own,
`/proc/PID/smaps_rollup`), one in a game at 160x50 up to 57 MiB (VmHWM);
`SESSION_COST` rounds that up. The server keeps three file descriptors open
for each (its connection, its terminal, its link to the lobby), so the
process's limit of open files bounds the number too. `--max-players` sets
the number whatever the machine.
"""

from __future__ import annotations

import resource
from pathlib import Path

SESSION_COST = 64 * 1024 * 1024
"""Bytes of memory one player's session takes, at most, in a game (rounded up from what was measured)."""
SHARE = 2
"""The sessions together may take 1/SHARE of the machine's memory (the rest: the server, the system, others)."""
FEWEST, MOST = 4, 1000
UNKNOWN = 32
"""Players at once where the machine's memory cannot be read (not Linux)."""
FILES_EACH = 4
"""File descriptors the server holds for one session (three), with one to spare."""
FILES_KEPT = 64
"""File descriptors kept for the server itself: its listener, its save file, connections logging in."""


def memory_total(meminfo: Path = Path("/proc/meminfo")) -> int | None:
    """The machine's memory in bytes (MemTotal), or None if it cannot be read."""
    try:
        for line in meminfo.read_text().splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def players_for(memory: int | None, files: int) -> int:
    """Players at once for a machine of `memory` bytes (None: not known) and a limit of `files` open file
    descriptors (`resource.RLIM_INFINITY`: none)."""
    players = UNKNOWN if memory is None else memory // SHARE // SESSION_COST
    if files != resource.RLIM_INFINITY:
        players = min(players, (files - FILES_KEPT) // FILES_EACH)
    return max(FEWEST, min(MOST, players))


def default_players() -> int:
    """Players at once for this machine and this process (`--max-players` when it is not given)."""
    return players_for(memory_total(), resource.getrlimit(resource.RLIMIT_NOFILE)[0])


def gib(size: int) -> str:
    """A size in bytes as "23.5 GiB"."""
    return f"{size / 1024**3:.1f} GiB"
