"""The fork server's own process (`python -m lagoon_tui.fork_server SERVER_PID CONTROL_FD`, started by
serve/zygote.py's `Zygote.start`, which says why and how it is used).

It imports what a session imports and runs a session's app once
(`session_warmup`), collects and freezes its objects (`gc.freeze`: the
collector never writes into them in a child, so their pages stay shared),
then waits on its line to the server. For each request it forks: the child
becomes the session (`become`) and runs `python -m MODULE ARGS...` as that
command would; the fork server reports each child's end. It dies with the
server (PR_SET_PDEATHSIG), and its children with it; once the server closes
its end it ends when its last child has.
"""

from __future__ import annotations

import ctypes
import fcntl
import gc
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
from collections.abc import Sequence
from dataclasses import dataclass

import textual.drivers.linux_driver  # noqa: F401 (a session's driver, imported once here for every session)

from . import cli, session_warmup  # noqa: F401 (cli: what `python -m lagoon_tui session` runs, imported once)
from .serve.zygote import MESSAGE_SIZE, NAME

MOST_FDS = 16
_PR_SET_PDEATHSIG, _PR_SET_NAME = 1, 15
# (looked up once here: made in each child, the library's object and its function's class cost it pages of
# its own, measured 0.2 MB of an idle session's)
_PRCTL = ctypes.CDLL(None).prctl if sys.platform == "linux" else None


@dataclass(frozen=True)
class Job:
    """What a forked child runs: `python -m module *args`."""

    module: str
    args: list[str]


def die_with(parent: int) -> None:
    """Be killed when the process that started this one ends (Linux); end now if it already has."""
    if _PRCTL is not None:
        _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


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
    if _PRCTL is not None:
        _PRCTL(_PR_SET_NAME, NAME)
    os.setsid()
    place(fds[0], fds[1:], ask["fds"])
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    fresh_stdio()
    set_environment(ask["env"])
    if ask["memory"]:
        resource.setrlimit(resource.RLIMIT_AS, (ask["memory"], ask["memory"]))
    gc.enable()
    argv = ask["argv"]
    if argv[1:2] != ["-m"] or len(argv) < 3:
        sys.stderr.write(f"lagoon: the fork server runs `python -m MODULE ...` only, not {argv[:3]}\r\n")
        os._exit(127)
    return Job(argv[2], argv[3:])


def set_environment(env: dict[str, str]) -> None:
    """The environment becomes `env`, changing only what differs from the fork server's (cleared and made
    anew, each of its strings copied, it cost 0.2 MB of an idle session's own memory)."""
    for name in [name for name in os.environ if name not in env]:
        del os.environ[name]
    for name, value in env.items():
        if os.environ.get(name) != value:
            os.environ[name] = value


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
    """`python -m lagoon_tui.fork_server SERVER_PID CONTROL_FD`."""
    server, control = int(args[0]), int(args[1])
    die_with(server)
    gc.disable()  # (no collection in the fork server: its objects stay where they are, shared)
    session_warmup.warm_up()
    cli.parser()  # (built once, here: shared by every session)
    gc.disable()  # (the app turned it on again as it stopped)
    gc.collect()
    gc.freeze()
    run(serve(socket.socket(fileno=control)))


if __name__ == "__main__":
    main(sys.argv[1:])
