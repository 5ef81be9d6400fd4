"""A fork server (serve/zygote.py) and one session it forked, in a process of its own that a test may kill:

    python -m tests.helpers.zygote_alone     # from the repository's root

The session runs `tests.helpers.fork_probe --stay` (it ignores SIGHUP and
SIGTERM). Prints "SESSION pid ZYGOTE pid" once the session has said what it
was given, then waits to be killed.
"""

from __future__ import annotations

import asyncio
import sys

from lagoon_tui.serve.terminal import ChildSpec, PtyChild, child_env
from lagoon_tui.serve.zygote import Zygote


class Sink:
    """A channel that keeps what the session writes."""

    def __init__(self) -> None:
        self.data = b""

    def write(self, data: bytes) -> None:
        self.data += data

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


async def main() -> None:
    zygote = await Zygote.start(child_env("xterm"))
    sink = Sink()
    spec = ChildSpec([sys.executable, "-m", "tests.helpers.fork_probe", "--stay"], child_env("xterm"), zygote=zygote)
    child = await PtyChild.start(spec, sink, 80, 24)
    while b"PROBE" not in sink.data:
        await asyncio.sleep(0.01)
    print(f"SESSION {child.pid} ZYGOTE {zygote.pid}", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
