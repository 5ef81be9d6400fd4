"""A child process on a pseudo-terminal of its own, relayed to an SSH channel.

Each player's session runs its own program (the game's client app) on a fresh
pseudo-terminal, as sshd would run a login shell: Textual assumes one app per
process and a real terminal under it, and a crash or a stall in one session
must not reach another. This module owns that terminal; it knows nothing of
SSH beyond the three calls a channel offers (`Channel`).

    spec = ChildSpec(argv=[...], env=child_env(term, LAGOON_SEAT="..."), pass_fds=[fd], cleanup=...)
    child = await PtyChild.start(spec, channel, cols, rows)
    child.feed(keys)              # the player's keyboard, towards the child
    child.pause_output()          # the SSH window is full: stop reading the terminal
    child.resume_output()         # ... it has room again
    child.resize(cols, rows)      # the player's window changed
    child.hang_up(grace)          # the connection is gone: SIGHUP, SIGKILL after `grace` seconds
    child.end(grace)              # the server is stopping: SIGTERM, SIGKILL after `grace` seconds
    status = await child.wait()   # the exit status to send the client, once the output is all relayed

The child gets the terminal as its controlling terminal, in a session of its
own. Without that it would receive no SIGWINCH from the kernel when the
window changes size, and a ctrl+c typed by whoever runs the server would
reach it. Popen's `start_new_session` makes the new session; claiming the
terminal (TIOCSCTTY) must then happen in the child before the program starts.
Popen's `preexec_fn` could do it, but Python warns that it is unsafe once
threads exist, and asyncio starts threads; so the child starts as a tiny
Python program (`_CLAIM_TERMINAL`, about 13 ms) that claims the terminal and
then replaces itself with the real program, keeping its process id.

The same launcher ties the child's life to the server's (on Linux,
PR_SET_PDEATHSIG: a server killed outright takes its sessions with it) and
sets the child's memory ceiling (`memory`: RLIMIT_AS, the address space,
which the program keeps across exec and hands to any process it starts).
Past it an allocation fails: Python raises MemoryError, and the session's
app then ends with `crash.OUT_OF_MEMORY` (see turbo/crash.py), which the SSH
layer tells the player.

With `ChildSpec.zygote` the child is forked instead, by the fork server
(`zygote.py`), from a process that has imported the app already; it is set
up as the launcher would set it up, without a new interpreter.

The environment is only what `ChildSpec.env` says: nothing of the server's
and nothing of what the SSH client sent (`child_env` builds the usual one).
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import signal
import struct
import sys
import termios
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .zygote import Zygote

DEFAULT_SIZE = (80, 24)  # columns, rows: when the client's pty request gave none
DRAIN_TIMEOUT = 5.0
"""Once the child has exited, its last output is relayed until the terminal's end of file; a process it left
behind holding the terminal open ends the session all the same after this many seconds of silence."""
READ_SIZE = 65536


def more_of(fd: int, room: int) -> bytes:
    """What else `fd` holds now, up to `room` bytes, read at once. (A pseudo-terminal gives at most about 4 KB a
    read: a frame of a few KB came in two to four reads, each sent as an SSH packet of its own, encrypted apart.)
    An end of file is left for the next read to find."""
    chunks: list[bytes] = []
    while room > 0:
        try:
            chunk = os.read(fd, room)
        except OSError:  # nothing more for now (or the end, which the next read finds)
            break
        if not chunk:
            break
        chunks.append(chunk)
        room -= len(chunk)
    return b"".join(chunks)


_CLAIM_TERMINAL = """\
import fcntl, os, resource, sys, termios
server, ceiling, program = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
fcntl.ioctl(0, termios.TIOCSCTTY, 0)
if sys.platform == "linux":  # killed when the server ends, even by SIGKILL (PR_SET_PDEATHSIG is 1, SIGKILL 9)
    import ctypes
    ctypes.CDLL(None).prctl(1, 9)
    if os.getppid() != server:
        sys.exit(1)  # the server was gone before that
if ceiling:
    resource.setrlimit(resource.RLIMIT_AS, (ceiling, ceiling))
try:
    os.execvp(program[0], program)
except OSError as error:
    sys.stderr.write(f"lagoon: cannot run {program[0]}: {error.strerror}\\r\\n")
    sys.exit(127)
"""
"""Run in the child before its program, as `launcher SERVER_PID CEILING PROGRAM...`: the pseudo-terminal (on
fd 0) becomes its controlling terminal; (on Linux) the child dies with the server, whose process id is its
first argument; its address space is limited to the bytes of its second (0: no limit); then the program runs."""


class Process(Protocol):
    """What the relay needs of the child's process (asyncio's Process is one, and so is zygote.Forked)."""

    @property
    def pid(self) -> int: ...

    @property
    def returncode(self) -> int | None: ...

    async def wait(self) -> int: ...


class Channel(Protocol):
    """What the relay needs of an SSH channel (asyncssh's SSHServerChannel is one)."""

    def write(self, data: bytes) -> None: ...

    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...


@dataclass(frozen=True)
class ChildSpec:
    """What to run for a session.

    `env` is the child's whole environment (see `child_env`). `pass_fds` are
    file descriptors the child inherits under the same numbers (a socket to
    the game, say); they are handed over: the layer closes the server's copy
    once the child has started, or once it is clear it will not start.
    `cleanup` is called exactly once when the session ends, however it ends
    (a coroutine function is awaited). `warn_idle(seconds)`: the player has
    pressed nothing for long and the session closes in that many seconds
    unless they do; `warn_idle(None)`: they pressed a key (see ssh.Limits).
    `notify` shows the player a sentence through the program itself (so its
    screen stays whole), if it can. `zygote`: the fork server that forks the
    child (`argv` is then `python -m MODULE ...`); None: a fresh process.
    """

    argv: Sequence[str]
    env: Mapping[str, str]
    pass_fds: Sequence[int] = ()
    cleanup: Callable[[], object] | None = None
    warn_idle: Callable[[float | None], object] | None = None
    notify: Callable[[str], object] | None = None
    zygote: Zygote | None = None


def child_env(term: str, **extra: str) -> dict[str, str]:
    """A child's environment built from nothing: the server's PATH, the client's TERM, a UTF-8 locale, `extra`."""
    return {"PATH": os.environ.get("PATH", os.defpath), "TERM": term, "LANG": "C.UTF-8", **extra}


def exit_status(returncode: int) -> int:
    """The status to report for a process: its own, or 128 + the signal that killed it, as a shell says."""
    return returncode if returncode >= 0 else 128 - returncode


def set_window_size(fd: int, cols: int, rows: int, xpixels: int = 0, ypixels: int = 0) -> None:
    """Tell the terminal on `fd` its size (TIOCSWINSZ takes rows first); values out of range are clamped."""
    fields = [max(0, min(value, 0xFFFF)) for value in (rows, cols, xpixels, ypixels)]
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", *fields))


class PtyChild:
    """A running child on its pseudo-terminal, with the relay between the terminal and a channel."""

    def __init__(self, process: Process, master: int, channel: Channel):
        self._loop = asyncio.get_running_loop()
        self._process = process
        self._master: int | None = master
        self._channel: Channel | None = channel
        self._output_paused = False
        self._reads = 0  # chunks read from the terminal, to tell a silent one from a busy one
        self._pending = bytearray()  # keys not yet taken by the terminal
        self._input_paused = False
        self._eof = asyncio.Event()
        self._kill_later: asyncio.TimerHandle | None = None
        self.asked_to_end = False  # the server has signalled it to end (or to die)
        os.set_blocking(master, False)
        self._loop.add_reader(master, self._readable)

    @classmethod
    async def start(cls, spec: ChildSpec, channel: Channel, cols: int, rows: int, memory: int = 0) -> PtyChild:
        """Start `spec` on a new pseudo-terminal of `cols` x `rows`, its address space at most `memory` bytes
        (0: no ceiling); raises OSError if it cannot start."""
        master, slave = os.openpty()
        process: Process
        try:
            set_window_size(master, cols or DEFAULT_SIZE[0], rows or DEFAULT_SIZE[1])
            if spec.zygote is not None:
                process = await spec.zygote.spawn(spec.argv, spec.env, slave, spec.pass_fds, max(0, memory))
            else:
                process = await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-I",
                    "-S",
                    "-c",
                    _CLAIM_TERMINAL,
                    str(os.getpid()),
                    str(max(0, memory)),
                    *spec.argv,
                    stdin=slave,
                    stdout=slave,
                    stderr=slave,
                    env=dict(spec.env),
                    pass_fds=tuple(spec.pass_fds),
                    start_new_session=True,
                )
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)  # the child's copies are all that may hold it, or its exit would bring no end of file
        return cls(process, master, channel)

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def output_paused(self) -> bool:
        """Whether the terminal's output is waiting for room in the channel."""
        return self._output_paused

    # Output: terminal -> channel

    def _readable(self) -> None:
        if self._master is None:
            return
        try:
            data = os.read(self._master, READ_SIZE)
        except BlockingIOError:
            return
        except OSError:  # EIO: every copy of the terminal's other side is closed
            data = b""
        if not data:
            self._loop.remove_reader(self._master)
            self._eof.set()
            return
        self._reads += 1
        data += more_of(self._master, READ_SIZE - len(data))
        if self._channel is not None:
            try:
                self._channel.write(data)
            except OSError:  # the channel closed under us; the session's end hangs us up
                self._channel = None

    def pause_output(self) -> None:
        """Stop reading the terminal (the SSH window is full); the child blocks once the terminal's buffer is."""
        if self._master is not None and not self._output_paused and not self._eof.is_set():
            self._loop.remove_reader(self._master)
        self._output_paused = True

    def resume_output(self) -> None:
        if self._master is not None and self._output_paused and not self._eof.is_set():
            self._loop.add_reader(self._master, self._readable)
        self._output_paused = False

    # Input: channel -> terminal

    def feed(self, data: bytes) -> None:
        """Pass the player's keys to the child; when the terminal takes no more, the channel stops reading."""
        if self._master is None:
            return
        self._pending += data
        self._flush_input()

    def _flush_input(self) -> None:
        master = self._master
        try:
            while self._pending and master is not None:
                del self._pending[: os.write(master, self._pending)]
        except BlockingIOError:
            if not self._input_paused and master is not None:  # (it is: only a write raises it)
                self._input_paused = True
                self._loop.add_writer(master, self._flush_input)
                if self._channel is not None:
                    self._channel.pause_reading()
            return
        except OSError:  # the child is gone
            self._pending.clear()
        if self._input_paused:
            self._input_paused = False
            if self._master is not None:
                self._loop.remove_writer(self._master)
            if self._channel is not None:
                self._channel.resume_reading()

    # Size and signals

    def resize(self, cols: int, rows: int, xpixels: int = 0, ypixels: int = 0) -> None:
        """Give the terminal its new size and tell the child's process group (SIGWINCH)."""
        if self._master is None:
            return
        set_window_size(self._master, cols, rows, xpixels, ypixels)
        self._signal(signal.SIGWINCH)

    def _signal(self, number: int) -> None:
        # Only while the child is not yet reaped: a reaped child's process group id could be anyone's later.
        if self._process.returncode is None:
            try:
                os.killpg(self._process.pid, number)
            except ProcessLookupError:
                pass

    def end(self, grace: float, number: int = signal.SIGTERM) -> None:
        """Ask the child's process group to stop (`number`), and kill it if it still runs after `grace` seconds."""
        self.asked_to_end = True
        self._signal(number)
        if self._kill_later is None:
            self._kill_later = self._loop.call_later(grace, self._signal, signal.SIGKILL)

    def hang_up(self, grace: float) -> None:
        """The player's connection is gone: the terminal hangs up (SIGHUP), and nothing more is relayed."""
        self._channel = None
        self._pending.clear()
        self._close_master()
        self.end(grace, signal.SIGHUP)

    def kill(self) -> None:
        """Kill the child's process group now (the server's last resort when it stops)."""
        self.asked_to_end = True
        self._signal(signal.SIGKILL)

    def _close_master(self) -> None:
        if self._master is not None:
            self._loop.remove_reader(self._master)
            self._loop.remove_writer(self._master)
            os.close(self._master)
            self._master = None
        self._eof.set()

    async def wait(self) -> int:
        """Wait for the child to exit and its last output to be relayed; its exit status for the client."""
        returncode = await self._process.wait()
        if self._kill_later is not None:
            self._kill_later.cancel()
        while not self._eof.is_set():
            reads = self._reads
            try:
                await asyncio.wait_for(self._eof.wait(), DRAIN_TIMEOUT)
            except TimeoutError:
                if reads == self._reads and not self._output_paused:
                    break
        self._close_master()
        return exit_status(returncode)
