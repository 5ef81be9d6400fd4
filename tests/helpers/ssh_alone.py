"""The tests' SSH server (`harness.ServerThread`, `child.py` on each session's terminal) as a process of its
own, so that a test may kill it:

    python -m tests.helpers.ssh_alone FOLDER     # from the repository's root

It keeps its host key and known_hosts file in FOLDER, prints "PORT n" once it
listens, and serves until it is killed.
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path

from tests.helpers.harness import ServerThread


def main(folder: Path) -> None:
    server = ServerThread(folder)
    print(f"PORT {server.port}", flush=True)
    while True:
        signal.pause()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
