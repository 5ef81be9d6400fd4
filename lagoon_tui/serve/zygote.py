"""The fork server: one process that has imported the session's app once, and forks a session from itself.

A fresh interpreter for each SSH session imports Textual and the app anew:
about 30 MB of its own and most of a second before the lobby shows. Started
once with the server, the zygote imports them by name (`PRELOAD`: the server
itself never imports Textual) and runs a session's app once, headless, to its
lobby (`session_warmup.py`), then waits; for each session it forks a child
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
import fcntl
import gc
import importlib
import io
import json
import os
import resource
import runpy
import select
import signal
import socket
import sys
import termios
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

SWITCH = "LAGOON_SERVE_FORK"
"""The server's environment variable: "0" starts each session as a fresh interpreter instead."""
PRELOAD = (
    "lagoon_tui.cli",
    "lagoon_tui.session_app",
    "lagoon_tui.link",
    "textual.drivers.linux_driver",
    "textual.drivers._input_reader_linux",
    "textual._xterm_parser",
    "textual.layouts.factory",
    "textual.layouts.horizontal",
    "textual.layouts.stream",
    "rich._unicode_data.unicode17-0-0",
)
WARM_UP = "lagoon_tui.session_warmup"
"""Its `warm_up()` runs a session's app once in the zygote, before any fork (and leaves no thread)."""
"""What the zygote imports before it forks anything: what a session imports before its first frame."""
NAME = b"lagoon session"
"""A forked session's process name (its `comm`, as ps and /proc/PID/comm show it; its command line stays the
zygote's)."""
MESSAGE_SIZE = 1 << 20
MOST_FDS = 16
_PR_SET_PDEATHSIG, _PR_SET_NAME = 1, 15


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
                "-m",
                __name__,
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


# -- The zygote's side ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Job:
    """What a forked child runs: `python -m module *args`."""

    module: str
    args: list[str]


def die_with(parent: int) -> None:
    """Be killed when the process that started this one ends (Linux); end now if it already has."""
    if sys.platform == "linux":
        import ctypes

        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


def preload() -> None:
    """Import what a session imports, so that every child finds it done."""
    for module in PRELOAD:
        importlib.import_module(module)


def serve(control: socket.socket) -> Job:
    """Fork a child for each request until the server closes its end and every child has ended (then exit).
    Returns only in a child, with what that child is to run."""
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_read, False)
    os.set_blocking(wake_write, False)
    signal.signal(signal.SIGCHLD, lambda number, frame: None)
    signal.set_wakeup_fd(wake_write)
    children: set[int] = set()
    listening = True
    tell(control, {"ready": os.getpid()})
    while listening or children:
        watched = [wake_read, control.fileno()] if listening else [wake_read]
        readable, _, _ = select.select(watched, [], [])
        if wake_read in readable:
            while _drained(wake_read):
                pass
            reap(control, children)
        if control.fileno() in readable:
            data, fds, _, _ = socket.recv_fds(control, MESSAGE_SIZE, MOST_FDS)
            if not data:
                listening = False
                continue
            ask = json.loads(data)
            zygote = os.getpid()
            if fork(control, ask, fds, children):  # (the child)
                signal.set_wakeup_fd(-1)
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                os.close(wake_read)
                os.close(wake_write)
                os.close(control.detach())
                return become(ask, fds, zygote)
    sys.exit(0)


def _drained(fd: int) -> bool:
    try:
        return bool(os.read(fd, 512))
    except BlockingIOError:
        return False


def reap(control: socket.socket, children: set[int]) -> None:
    """Tell the server of every child that has ended."""
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        children.discard(pid)
        tell(control, {"pid": pid, "status": os.waitstatus_to_exitcode(status)})


def tell(control: socket.socket, message: dict[str, object]) -> None:
    try:
        control.send(json.dumps(message).encode())
    except OSError:  # the server has closed its end: it no longer follows its sessions
        pass


def fork(control: socket.socket, ask: dict, fds: list[int], children: set[int]) -> bool:
    """Fork the child `ask` asks for: True in the child, False in the zygote (which has told the server)."""
    if threading.active_count() != 1:  # (never: nothing here starts one; a fork would leave it half-held)
        tell(control, {"id": ask["id"], "error": "the fork server has a thread"})
        _close_all(fds)
        return False
    gc.freeze()  # (what exists now is never scanned in the child, so its pages stay shared)
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        pid = os.fork()
    except OSError as error:
        tell(control, {"id": ask["id"], "error": f"cannot fork: {error.strerror}"})
        _close_all(fds)
        return False
    if pid == 0:
        return True
    _close_all(fds)
    children.add(pid)
    tell(control, {"id": ask["id"], "pid": pid})
    return False


def _close_all(fds: Sequence[int]) -> None:
    for fd in fds:
        os.close(fd)


def become(ask: dict, fds: list[int], zygote: int) -> Job:
    """In a fresh child of `zygote` (holding no descriptor of the zygote's own any more): become the session
    `ask` describes, whose terminal and descriptors are `fds`."""
    die_with(zygote)
    if sys.platform == "linux":
        import ctypes

        ctypes.CDLL(None).prctl(_PR_SET_NAME, NAME)
    os.setsid()
    place(fds[0], fds[1:], ask["fds"])
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    fresh_stdio()
    os.environ.clear()
    os.environ.update(ask["env"])
    if ask["memory"]:
        resource.setrlimit(resource.RLIMIT_AS, (ask["memory"], ask["memory"]))
    gc.enable()
    argv = ask["argv"]
    if argv[1:2] != ["-m"] or len(argv) < 3:
        sys.stderr.write(f"lagoon: the fork server runs `python -m MODULE ...` only, not {argv[:3]}\r\n")
        os._exit(127)
    return Job(argv[2], argv[3:])


def place(terminal: int, fds: Sequence[int], numbers: Sequence[int]) -> None:
    """The terminal on 0, 1 and 2, descriptor `fds[i]` on `numbers[i]`, and no other descriptor open."""
    wanted = [terminal, *fds]
    floor = max([2, *wanted, *numbers]) + 1
    moved = [fcntl.fcntl(fd, fcntl.F_DUPFD, floor) for fd in wanted]  # (above every number to be taken)
    os.closerange(0, floor)
    for target in (0, 1, 2):
        os.dup2(moved[0], target)
    for fd, number in zip(moved[1:], numbers):
        os.dup2(fd, number)
    os.closerange(floor, max(moved) + 1)
    top = os.sysconf("SC_OPEN_MAX")
    os.closerange(max(moved) + 1, top if top > 0 else 65536)


def fresh_stdio() -> None:
    """sys.stdin, stdout and stderr anew on the terminal, as a fresh interpreter makes them on one."""
    made = []
    for fd, mode in ((0, "rb"), (1, "wb"), (2, "wb")):
        old = (sys.__stdin__, sys.__stdout__, sys.__stderr__)[fd]
        encoding = old.encoding if old is not None else "utf-8"
        errors = old.errors if old is not None else "strict"
        binary = open(fd, mode, closefd=False)  # noqa: SIM115 (kept open: it is the standard stream)
        made.append(io.TextIOWrapper(binary, encoding=encoding, errors=errors, line_buffering=fd != 0))
    for name, stream in zip(("stdin", "stdout", "stderr"), made):
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def run(job: Job) -> None:
    """Run the child's program as `python -m` would; its SystemExit ends the process (the zygote's frames are
    gone by then: `serve` has returned)."""
    sys.argv = [job.module, *job.args]
    runpy.run_module(job.module, run_name="__main__", alter_sys=True)


def main(args: Sequence[str]) -> None:
    """`python -m lagoon_tui.serve.zygote SERVER_PID CONTROL_FD`."""
    server, control = int(args[0]), int(args[1])
    die_with(server)
    gc.disable()  # (no collection in the zygote: its objects stay where they are, shared)
    preload()
    importlib.import_module(WARM_UP).warm_up()
    gc.disable()  # (the app turned it on again as it stopped)
    gc.collect()
    gc.freeze()
    run(serve(socket.socket(fileno=control)))


if __name__ == "__main__":
    main(sys.argv[1:])
