"""A program for a session's terminal that says what its process was given, as one JSON line:

    python -m tests.helpers.fork_probe [--fd N] [--stay]

its process id, its parent's, its session and whether the terminal is its
controlling one, the signal it gets when its parent dies, its address-space
ceiling, its environment, its open descriptors (below 256), its command line,
and 64 bits from `random`. With --fd it writes "hello" on descriptor N; with
--stay it then ignores SIGHUP and SIGTERM and waits to be killed.
"""

from __future__ import annotations

import ctypes
import json
import os
import random
import resource
import signal
import sys
import threading

PR_GET_PDEATHSIG = 2


def open_descriptors() -> list[int]:
    found = []
    for fd in range(256):
        try:
            os.fstat(fd)
        except OSError:
            continue
        found.append(fd)
    return found


def main(args: list[str]) -> None:
    death = ctypes.c_int(0)
    ctypes.CDLL(None).prctl(PR_GET_PDEATHSIG, ctypes.byref(death))
    said = {
        "pid": os.getpid(),
        "parent": os.getppid(),
        "session_leader": os.getsid(0) == os.getpid(),
        "controlling": os.tcgetpgrp(0) == os.getpgrp(),
        "death_signal": death.value,
        "ceiling": resource.getrlimit(resource.RLIMIT_AS)[0],
        "env": dict(os.environ),
        "fds": open_descriptors(),
        "argv": sys.argv[1:],
        "random": random.getrandbits(64),
        "threads": threading.active_count(),
    }
    print("PROBE " + json.dumps(said), flush=True)
    if "--fd" in args:
        os.write(int(args[args.index("--fd") + 1]), b"hello")
    if "--stay" in args:
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        while True:
            signal.pause()


if __name__ == "__main__":
    main(sys.argv[1:])
