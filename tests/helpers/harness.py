"""A Lagoon SSH server on a thread of its own, and real OpenSSH clients to drive against it, for tests.

The server runs on an event loop in a background thread, so that a test can
make blocking calls (ssh, tmux, waits that poll) while it serves. Its
on_session callback records what it was given and runs `child.py` on the
session's terminal ("join stubborn", "join fd" and "join flood" run it in
those modes, see on_session); "whoami" answers with a line instead. Every client
checks the server's host key strictly against a known_hosts file built from
it, and uses only the key it is given (no agent, no user configuration).

Every wait polls with the generous TIMEOUT of the terminal tests; nothing
asserts on how long anything took.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import asyncssh
import pytest

from lagoon_tui.serve import ssh
from lagoon_tui.serve.terminal import ChildSpec, child_env
from tests.helpers.sshd import keygen
from tests.helpers.terminal import POLL, TIMEOUT, clean_env

CHILD = Path(__file__).with_name("child.py")
COMMANDS = {"join", "whoami"}
FLOOD_BYTES = 8 << 20  # what "join flood" writes: more than a client's window (2 MiB) and the buffers on the way


def missing(*tools: str) -> str | None:
    """Why these tests cannot run here (a tool not installed), or None."""
    for tool in ("ssh", "ssh-keygen", *tools):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (openssh-client, tmux; .ci/run installs them)"
    return None


def wait_until(test: Callable[[], object], what: str) -> object:
    """Poll `test` until it gives something true; that."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        result = test()
        if result:
            return result
        time.sleep(POLL)
    pytest.fail(f"timed out waiting for {what}")


def key_fingerprint(public_key: Path) -> str:
    """The key's SHA256 fingerprint as OpenSSH's own ssh-keygen reads it."""
    listed = subprocess.run(
        ["ssh-keygen", "-l", "-f", str(public_key)], capture_output=True, text=True, check=True, timeout=TIMEOUT
    )
    return listed.stdout.split()[1]


class FakeClock:
    """A clock for the rate limit that moves only when told."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class ServerThread:
    """`ssh.start(...)` with `options`, served from a background thread; its host key is kept in `folder`."""

    def __init__(self, folder: Path, **options):
        self.folder = folder
        self.host_key = ssh.load_or_create_host_key(folder / "host_key")
        self.sessions: list[ssh.SessionInfo] = []  # what on_session was given, in order
        self.cleaned: list[int] = []  # the numbers (indexes in sessions) of the sessions cleaned up
        self.pipes: list[int] = []  # read ends of the pipes handed to "join fd" children
        self.warnings: list[tuple[int, float | None]] = []  # (session number, warn_idle's argument), in order
        self.closed = False
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="lagoon-ssh-server", daemon=True)
        self.thread.start()
        options.setdefault("commands", COMMANDS)
        self.server = self.call(ssh.start(self.on_session, host_key=self.host_key, port=0, **options))
        self.port = self.server.port
        self.known_hosts = folder / f"known_hosts-{self.port}"
        self.known_hosts.write_text(f"[127.0.0.1]:{self.port} {self.host_key.export_public_key().decode()}")

    def call(self, coroutine):
        """Run `coroutine` on the server's loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(TIMEOUT)

    def signals_file(self, number: int) -> Path:
        return self.folder / f"signals-{self.port}-{number}"

    async def on_session(self, info: ssh.SessionInfo) -> ChildSpec | str:
        number = len(self.sessions)
        self.sessions.append(info)
        if info.command == "whoami":
            return f"you are {info.fingerprint}"
        extra = {"SIGNALS_FILE": str(self.signals_file(number))}
        if info.command == "join stubborn":
            extra["STUBBORN"] = "1"
        if info.command == "join flood":
            extra["FLOOD_BYTES"] = str(FLOOD_BYTES)
        passed = []
        if info.command == "join fd":
            reader, writer = os.pipe()
            self.pipes.append(reader)
            passed.append(writer)
            extra["PASSED_FD"] = str(writer)
        return ChildSpec(
            argv=[sys.executable, str(CHILD)],
            env=child_env(info.term, **extra),
            pass_fds=passed,
            cleanup=lambda: self.cleaned.append(number),
            warn_idle=lambda left: self.warnings.append((number, left)),
        )

    def close(self, message: str = ssh.STOPPING) -> None:
        if not self.closed:
            self.closed = True
            self.call(self.server.close(message))

    def stop(self) -> None:
        if not self.loop.is_running():
            return
        self.close()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(TIMEOUT)
        self.loop.close()
        for reader in self.pipes:
            os.close(reader)

    def ssh(self, key: Path, *args: str, command: tuple[str, ...] = ()) -> list[str]:
        """The command line of OpenSSH's client logging in to this server with `key`, `args` its options."""
        return ssh_command(self.port, self.known_hosts, key, *args, command=command)


def ssh_command(port: int, known_hosts: Path, key: Path, *args: str, command: tuple[str, ...] = ()) -> list[str]:
    """The command line of OpenSSH's client logging in to the server on `port` with `key`, `args` its options,
    the server's key checked against `known_hosts`."""
    return [
        "ssh",
        "-F",
        "/dev/null",
        "-p",
        str(port),
        "-o",
        f"UserKnownHostsFile={known_hosts}",
        "-o",
        "GlobalKnownHostsFile=/dev/null",
        "-o",
        "StrictHostKeyChecking=yes",
        "-o",
        "IdentitiesOnly=yes",
        "-o",
        "BatchMode=yes",
        "-i",
        str(key),
        *args,
        "player@127.0.0.1",
        *command,
    ]


def connect(server: ServerThread, client_keys: list, username: str = "player"):
    """An asyncssh client connection to `server` (use with `async with`), with `client_keys` and nothing else."""
    return asyncssh.connect(
        "127.0.0.1",
        server.port,
        username=username,
        known_hosts=asyncssh.import_known_hosts(server.known_hosts.read_text()),
        client_keys=client_keys,
        agent_path=None,
        config=None,
    )


def client_env() -> dict[str, str]:
    """The environment of an ssh client: a clean one, with no agent to offer other keys."""
    env = clean_env()
    env.pop("SSH_AUTH_SOCK", None)
    return env


def run(argv: list[str], stdin: bytes = b"") -> subprocess.CompletedProcess:
    """Run a client to its end; its status and output (text)."""
    done = subprocess.run(argv, input=stdin, capture_output=True, env=client_env(), timeout=TIMEOUT, check=False)
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")
    )


class Client:
    """A client running on its own, its input a pipe and its output (both streams) collected as it comes."""

    def __init__(self, argv: list[str]):
        self.process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=client_env()
        )
        self._output = bytearray()
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while chunk := os.read(self.process.stdout.fileno(), 65536):
            with self._lock:
                self._output += chunk

    def text(self) -> str:
        with self._lock:
            return self._output.decode(errors="replace").replace("\r\n", "\n")

    def wait_for(self, wanted: str) -> str:
        """The output once it contains `wanted`."""
        return wait_until(lambda: wanted in self.text() and self.text(), f"{wanted!r} from {self.process.args}")

    def send(self, line: str) -> None:
        self.process.stdin.write(f"{line}\n".encode())
        self.process.stdin.flush()

    def wait(self) -> int:
        """Wait for the client to end; its exit status."""
        status = self.process.wait(TIMEOUT)
        self._reader.join(TIMEOUT)
        return status

    def signal(self, number: int) -> None:
        self.process.send_signal(number)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.kill()
            self.process.wait(TIMEOUT)
        self._reader.join(TIMEOUT)
        self.process.stdin.close()
        self.process.stdout.close()


def make_key(folder: Path, name: str) -> Path:
    """A new ed25519 client key in `folder`; the private key's path (the public one is beside it, .pub)."""
    return keygen(folder / name)


def child_pid(output: str) -> int:
    """The child's process id, from its PID line."""
    return int(output.split("PID ", 1)[1].split()[0])


def gone(pid: int) -> bool:
    """Whether no process has this id any more (a zombie still counts as there)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def ended(pid: int) -> bool:
    """Whether the process is gone or dead (a zombie that its new parent has not reaped yet is dead)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] in ("Z", "X")
    except OSError:
        return gone(pid)
