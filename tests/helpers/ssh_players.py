"""`lagoon serve` with players on the stock OpenSSH client, one tmux pane each."""

from __future__ import annotations

import codecs
import fcntl
import os
import re
import shutil
import signal
import struct
import subprocess
import termios
import time
from pathlib import Path

import pytest

from tests.helpers.sshd import free_port, keygen, ssh_client
from tests.helpers.terminal import LAGOON, POLL, TIMEOUT, Tmux, clean_env, flat

ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


YOUR_MOVE = "your move"


CODE = re.compile(r"\b([A-HJ-NP-Z2-9]{6})\b")


def why_not() -> str | None:
    if shutil.which("tmux") is None:
        return "tmux is not installed"
    for tool in ("ssh", "ssh-keygen"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (openssh-client)"
    if not LAGOON.exists():
        return f"the lagoon command is not installed at {LAGOON}"
    return None


REASON = why_not()


class LagoonServer:
    """`lagoon serve` in a folder of its own: save file, host key, the players' keys and known_hosts."""

    def __init__(self, folder: Path, *options: str, env: dict[str, str] | None = None) -> None:
        self.folder = folder
        self.options = options  # more of `lagoon serve`'s options ("--idle-minutes", "0.5", say)
        self.env = env or {}  # more of the server's environment (LAGOON_TEST_PACE, say)
        self.db = folder / "lagoon.db"
        self.host_key = folder / "host_key"
        self.output = folder / "serve.log"
        self.port = 0
        self.process: subprocess.Popen | None = None
        self.terminals: list[Tmux] = []  # every player's, ended with the server

    def start(self) -> None:
        for _ in range(5):
            self.port = free_port()
            with self.output.open("w") as out:
                self.process = subprocess.Popen(
                    [
                        str(LAGOON),
                        "serve",
                        "--port",
                        str(self.port),
                        "--db",
                        str(self.db),
                        "--host-key",
                        str(self.host_key),
                        *self.options,
                    ],
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    env=clean_env(PYTHONUNBUFFERED="1", **self.env),
                )
            deadline = time.monotonic() + TIMEOUT
            while time.monotonic() < deadline and self.process.poll() is None:
                if "Players connect with" in self.output.read_text():
                    public = subprocess.run(
                        ["ssh-keygen", "-y", "-f", str(self.host_key)], capture_output=True, text=True, check=True
                    ).stdout.strip()
                    (self.folder / "known_hosts").write_text(f"[127.0.0.1]:{self.port} {public}\n")
                    return
                time.sleep(POLL)
            self.stop()
        raise RuntimeError(f"lagoon serve did not start:\n{self.output.read_text()}")

    def key(self, player: str) -> Path:
        path = self.folder / f"{player}_key"
        if not path.exists():
            keygen(path)
        return path

    def client(self, player: str, *command: str, **more: str) -> list[str]:
        """The ssh a player types, their key their own, the server's key checked against known_hosts (`more`:
        other ssh options, EscapeChar="none" say)."""
        options = {
            "IdentitiesOnly": "yes",
            "UserKnownHostsFile": str(self.folder / "known_hosts"),
            "StrictHostKeyChecking": "yes",
            **more,
        }
        return ssh_client(self.port, player, self.key(player), options, *command)

    def stop(self) -> int | None:
        if self.process is None or self.process.poll() is not None:
            return None if self.process is None else self.process.returncode
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return None


def sessions_of(server: LagoonServer) -> list[int]:
    """The process ids of the server's sessions: its children running `lagoon session`, or its fork server's
    children (named "lagoon session", serve/zygote.py)."""
    assert server.process is not None
    found = []
    for pid, parent, command, name in processes():
        if name == "lagoon session" or b"session" in command:
            if parent == server.process.pid or parent_of(parent) == server.process.pid:
                found.append(pid)
    return found


def processes() -> list[tuple[int, int, list[bytes], str]]:
    """Every process now: its id, its parent's, its command line and its name."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
                command = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
                name = Path(f"/proc/{entry}/comm").read_text().strip()
            except OSError:
                continue
            found.append((int(entry), int(stat.rsplit(")", 1)[1].split()[1]), command, name))
    return found


def parent_of(pid: int) -> int | None:
    """The parent of process `pid`, if it is still there."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return None


def session_of(server: LagoonServer) -> int:
    """The process id of the server's one session."""
    found = sessions_of(server)
    assert len(found) == 1, found
    return found[0]


def window_of(pid: int) -> tuple[int, int]:
    """Columns and rows of the terminal the session's process runs on, as the kernel tells it."""
    fd = os.open(f"/proc/{pid}/fd/0", os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
    try:
        rows, cols, _, _ = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, bytes(8)))
    finally:
        os.close(fd)
    return cols, rows


class Player:
    """One player's terminal: ssh in a tmux pane, everything it receives recorded."""

    def __init__(
        self, server: LagoonServer, name: str, *command: str, size=(160, 50), claims=None, options=None
    ) -> None:
        """`claims`: (columns, rows) the pane's terminal says it has before ssh starts (ssh asks the server for a
        window of that size), whatever size tmux draws it at. `options`: more ssh options."""
        self.name = name
        self.stream = server.folder / f"{name}.stream"
        # (a terminal of the same player before this one wrote to the same file: what it heard is not this one's)
        self._read, self._tail = self.stream.stat().st_size if self.stream.exists() else 0, ""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        ssh = server.client(name.lower(), *command, **(options or {}))
        if claims is not None:
            ssh = ["sh", "-c", f'stty cols {claims[0]} rows {claims[1]} && exec "$@"', "sh", *ssh]
        self.tmux = Tmux(name, *size, ssh)
        server.terminals.append(self.tmux)
        self.tmux.run("pipe-pane", "-o", "-t", self.tmux.target, f"cat >> {self.stream}")

    def received(self) -> str:
        """What the terminal has received since the last call, escape sequences removed, with the end of
        what came before (so a name split between two reads is still found whole)."""
        if not self.stream.exists():
            return ""
        with self.stream.open("rb") as stream:
            stream.seek(self._read)
            new = stream.read()
        self._read += len(new)
        text = self._tail + self._decoder.decode(new)
        self._tail = text[-400:]  # (longer than any name with the escapes that may be inside it)
        return ANSI.sub("", text)

    def screen(self) -> str:
        return self.tmux.capture()

    def hears(self, text: str) -> None:
        """Wait until `text` has come to the terminal (a toast may be gone from the screen when it is looked at)."""
        heard = ""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            heard += self.received()
            if text in heard:
                return
            time.sleep(POLL)
        pytest.fail(f"{text!r} never came to {self.name}'s terminal; the screen:\n{self.screen()}")

    def wait(self, text: str, what: str | None = None) -> str:
        return self.tmux.wait_for(lambda screen: text in flat(screen), what or f"{text!r} on {self.name}'s screen")

    def type(self, *keys: str) -> None:
        self.tmux.send(*keys)

    def title(self) -> str:
        """The terminal window's title, as the app set it."""
        return self.tmux.run("display-message", "-p", "-t", self.tmux.target, "#{pane_title}").stdout.strip()

    def leave(self) -> None:
        self.tmux.kill()

    def gone(self) -> None:
        """Wait until the session has ended (ssh has exited)."""
        deadline = time.monotonic() + TIMEOUT
        while self.tmux.alive():
            if time.monotonic() > deadline:
                pytest.fail(f"{self.name}'s session did not end:\n{self.screen()}")
            time.sleep(POLL)

    def ended_with(self, text: str) -> None:
        """The session ended, `text` the last thing on its terminal (the pane's history, once ssh is gone)."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            if text in flat(self.tmux.capture(history=True)) and not self.tmux.alive():
                return
            time.sleep(POLL)
        pytest.fail(f"{self.name}'s session did not end with {text!r}:\n{self.tmux.capture(history=True)}")


def new_player(server: LagoonServer, name: str, *command: str, size: tuple[int, int] = (160, 50)) -> Player:
    """A player connecting for the first time, in a terminal of `size`: they give their name."""
    player = Player(server, name, *command, size=size)
    player.wait("What name should the others see?")
    player.type(name, "Enter")
    return player


def make_room(player: Player, layout: str) -> str:
    """A room made from the lobby by its way of filling seats (the digit); its code."""
    player.wait("Your games")
    player.type("c")
    player.wait("New room")
    player.type(layout)
    screen = player.wait("waiting for")
    return CODE.search(flat(screen).split("Your games", 1)[1])[1]


def mover(players: list[Player]) -> Player | None:
    """The one player whose screen asks for their move, if exactly one does and no screen is changing."""
    screens = [p.screen() for p in players]
    time.sleep(POLL * 2)
    if [p.screen() for p in players] != screens:
        return None
    deciding = [p for p, screen in zip(players, screens) if YOUR_MOVE in flat(screen)]
    return deciding[0] if len(deciding) == 1 else None


def move(players: list[Player]) -> Player:
    """The player whose turn it is presses 1; once their screen has changed, them."""
    player = mover_now(players)
    before = player.screen()
    player.type("1")
    player.tmux.wait_for(lambda s: s != before, f"{player.name}'s move")
    return player


def mover_now(players: list[Player]) -> Player:
    """The player whose screen asks for their move, once exactly one does."""
    deadline = time.monotonic() + TIMEOUT
    while (player := mover(players)) is None:
        if time.monotonic() > deadline:
            pytest.fail("nobody was asked for a move:\n" + "\n".join(p.screen() for p in players))
    return player


def two_playing(server) -> tuple[str, tuple[Player, Player]]:
    """Ana's room for her and a friend, Ben joined, the game started and on both screens; its code, the two."""
    ana = new_player(server, "Ana")
    code = make_room(ana, "1")  # you and a friend
    ben = new_player(server, "Ben", "join", code)
    ben.wait("has not started yet")
    ana.type("s")
    for p in (ana, ben):
        p.wait("Score · goal")
    return code, (ana, ben)
