"""The fork server, as the server sees it: one process that has imported the session's app once, and forks a
session from itself (the process itself: lagoon_tui/fork_server.py).

A fresh interpreter for each SSH session imports Textual and the app anew:
about 30 MB of its own and most of a second before the lobby shows. Started
once with the server (`python -m lagoon_tui.fork_server`: the server itself
never imports Textual), the zygote imports them and runs a session's app
once, headless, to its lobby (`session_warmup.py`), then waits; for each session it forks a child
that shares those pages with it (copy-on-write) and runs the session's
program at once.

    zygote = await Zygote.start(env)       # the server starts it (`env`: as a session's, see terminal.child_env)
    forked = await zygote.spawn(argv, env, terminal, fds, memory)   # one session (terminal.PtyChild does this)
    status = await forked.wait()           # its end, as the zygote saw it
    zygote.close()                         # no more sessions; it ends once its children have

It holds no thread, no event loop and no save file (forking a process with
threads is unsafe: only the forking thread goes on in the child). Textual
starts its threads only while an app runs: the warm-up's have ended before
the first fork, and a zygote that finds a thread forks nothing.
The garbage collector is kept from writing into the shared objects
(`gc.freeze`); `random` reseeds itself in every child (Python does it at
fork), and nothing else here keeps a generator.

The child does what terminal.py's launcher does for a fresh interpreter: a
session of its own with the pseudo-terminal as its controlling terminal and
its stdin, stdout and stderr; the descriptors it is handed, under the numbers
its program is told; its memory ceiling (RLIMIT_AS); its environment, and
nothing of the zygote's; and it dies with the zygote (PR_SET_PDEATHSIG), which
dies with the server. Then it runs `python -m MODULE ARGS...` as that command
line would, from `argv`.

The server talks to it over a socket pair (one JSON message a datagram,
descriptors alongside): a request {"id", "argv", "env", "fds", "memory"} with
the terminal and the descriptors, answered {"id", "pid"} or {"id", "error"};
later {"pid", "status"} when a child ends (status as asyncio's returncode:
negative for a signal).

`LAGOON_SERVE_FORK=0` in the server's environment turns it off: each session
is a fresh interpreter again, as before (to compare them, or if it fails).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
from collections.abc import Mapping, Sequence

SWITCH = "LAGOON_SERVE_FORK"
"""The server's environment variable: "0" starts each session as a fresh interpreter instead."""
NAME = b"lagoon session"
"""A forked session's process name (its `comm`, as ps and /proc/PID/comm show it; its command line stays the
zygote's)."""
PROGRAM = "lagoon_tui.fork_server"
FLAGS = ("-OO",)
"""The fork server's interpreter runs without docstrings and asserts (and so does every session forked from it):
the docstrings lie among the objects a session touches, on pages it copies; without them an idle session
copies 0.4 MB less (docs/performance.md, "Arriving: the fork server"). The app reads no docstring and its
asserts only restate what the types say."""
MESSAGE_SIZE = 1 << 20


def forking() -> bool:
    """Whether the server forks its sessions from a zygote (the default) or starts a fresh interpreter each."""
    return os.environ.get(SWITCH, "1") != "0"


# -- The server's side ------------------------------------------------------------------------------------------


class Forked:
    """A session forked by the zygote, as the server follows it (what terminal.PtyChild needs of a process)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._ended = asyncio.Event()

    def ended(self, returncode: int) -> None:
        if self.returncode is None:
            self.returncode = returncode
            self._ended.set()

    async def wait(self) -> int:
        await self._ended.wait()
        assert self.returncode is not None
        return self.returncode


class Zygote:
    """The server's handle on its zygote process."""

    def __init__(self, process: asyncio.subprocess.Process, control: socket.socket) -> None:
        self._loop = asyncio.get_running_loop()
        self._process = process
        self._control: socket.socket | None = control
        self._asked: dict[int, asyncio.Future[int]] = {}  # request id -> its child's pid, once forked
        self._forked: dict[int, Forked] = {}  # pid -> its child, until it ends
        self._requests = 0
        self.ready: asyncio.Future[int] = self._loop.create_future()  # the zygote's pid, once it has imported
        control.setblocking(False)
        self._loop.add_reader(control.fileno(), self._readable)

    @classmethod
    async def start(cls, env: Mapping[str, str]) -> Zygote:
        """Start the zygote with environment `env` and wait until it has imported the app; OSError if it fails."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                *FLAGS,
                "-m",
                PROGRAM,
                str(os.getpid()),
                str(theirs.fileno()),
                stdin=asyncio.subprocess.DEVNULL,
                env=dict(env),
                pass_fds=[theirs.fileno()],
                start_new_session=True,  # (a ctrl+c at the server's console is the server's to handle)
            )
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        zygote = cls(process, ours)
        await zygote.ready
        return zygote

    @property
    def alive(self) -> bool:
        return self._control is not None

    @property
    def pid(self) -> int:
        return self._process.pid

    async def spawn(
        self, argv: Sequence[str], env: Mapping[str, str], terminal: int, fds: Sequence[int], memory: int
    ) -> Forked:
        """Fork a child that runs `argv` (`python -m MODULE ...`) with environment `env` on pseudo-terminal
        `terminal`, descriptors `fds` under the same numbers, its address space at most `memory` bytes (0: no
        ceiling). Raises OSError if it cannot."""
        if self._control is None:
            raise OSError("the fork server has ended")
        self._requests += 1
        ask = {"id": self._requests, "argv": list(argv), "env": dict(env), "fds": list(fds), "memory": memory}
        socket.send_fds(self._control, [json.dumps(ask).encode()], [terminal, *fds])
        answer: asyncio.Future[int] = self._loop.create_future()
        self._asked[self._requests] = answer
        pid = await answer
        return self._forked[pid]

    def _readable(self) -> None:
        if self._control is None:
            return
        try:
            data = self._control.recv(MESSAGE_SIZE)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._lost()
            return
        said = json.loads(data)
        if "ready" in said:
            self.ready.set_result(said["ready"])
        elif "status" in said:
            forked = self._forked.pop(said["pid"], None)
            if forked is not None:
                forked.ended(said["status"])
        elif (answer := self._asked.pop(said["id"], None)) is not None and not answer.done():
            if "pid" in said:
                self._forked[said["pid"]] = Forked(said["pid"])
                answer.set_result(said["pid"])
            else:
                answer.set_exception(OSError(said.get("error", "the fork server could not start a session")))

    def _lost(self) -> None:
        """The zygote has ended: its children die with it (killed, as PR_SET_PDEATHSIG says)."""
        self.close()
        if not self.ready.done():
            self.ready.set_exception(OSError("the fork server did not start"))
        for answer in self._asked.values():
            if not answer.done():
                answer.set_exception(OSError("the fork server has ended"))
        self._asked.clear()
        for forked in self._forked.values():
            forked.ended(-signal.SIGKILL)
        self._forked.clear()

    def close(self) -> None:
        """No more sessions: the zygote ends once every child it forked has (the server's wait reaps it)."""
        if self._control is not None:
            self._loop.remove_reader(self._control.fileno())
            self._control.close()
            self._control = None

    async def wait(self) -> int:
        return await self._process.wait()
