"""`lagoon serve` played as friends play it: the real command, the stock OpenSSH client, one tmux pane each.

The server is `lagoon serve` on a free loopback port with its own save file
and host key; each player is `ssh -tt` with a key of their own, checking the
server's key against a known_hosts line built from it (StrictHostKeyChecking
on). Everything each player's terminal receives is recorded (tmux
pipe-pane), and after every move it is searched, escape sequences removed,
for the secrets of the other seats: the objectives they were dealt and the
deals in their hands. The seats' secrets are read from the save file, which
the test may open (the players may not). (A face-down gallery has no words of
its own: its metal and size read as a face-up one's do. That no seat's
message ever holds one is tested by re-dealing them, in tests/test_seat_scene.py.)

Skipped where tmux or OpenSSH is missing, except in CI (.ci/run installs them).
"""

from __future__ import annotations

import codecs
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from lagoon_tui.widgets.words import deal_needs
from rules import load_content
from rules.engine import Engine
from rules.saves import Store
from tests.redeal import shown_to

from . import sshd
from .terminal import LAGOON, POLL, TIMEOUT, Tmux, clean_env, flat


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
if REASON and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the lagoon serve tests, but {REASON}")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]

CONTENT = load_content()
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
YOUR_MOVE = "your move"
CODE = re.compile(r"\b([A-HJ-NP-Z2-9]{6})\b")


class LagoonServer:
    """`lagoon serve` in a folder of its own: save file, host key, the players' keys and known_hosts."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.db = folder / "lagoon.db"
        self.host_key = folder / "host_key"
        self.output = folder / "serve.log"
        self.port = 0
        self.process: subprocess.Popen | None = None
        self.terminals: list[Tmux] = []  # every player's, ended with the server

    def start(self) -> None:
        for _ in range(5):
            self.port = sshd.free_port()
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
                    ],
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    env=clean_env(PYTHONUNBUFFERED="1"),
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
            sshd.keygen(path)
        return path

    def client(self, player: str, *command: str) -> list[str]:
        """The ssh a player types, their key their own, the server's key checked against known_hosts."""
        options = {
            "IdentitiesOnly": "yes",
            "UserKnownHostsFile": str(self.folder / "known_hosts"),
            "StrictHostKeyChecking": "yes",
        }
        return sshd.ssh_client(self.port, player, self.key(player), options, *command)

    def stop(self) -> int | None:
        if self.process is None or self.process.poll() is not None:
            return None if self.process is None else self.process.returncode
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return None


class Player:
    """One player's terminal: ssh in a tmux pane, everything it receives recorded."""

    def __init__(self, server: LagoonServer, name: str, *command: str, size=(160, 50)) -> None:
        self.name = name
        self.stream = server.folder / f"{name}.stream"
        self._read, self._tail = 0, ""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.tmux = Tmux(name, *size, server.client(name.lower(), *command))
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
        pytest.fail(f"{text!r} never came to {self.name}'s terminal")

    def wait(self, text: str, what: str | None = None) -> str:
        return self.tmux.wait_for(lambda screen: text in flat(screen), what or f"{text!r} on {self.name}'s screen")

    def type(self, *keys: str) -> None:
        self.tmux.send(*keys)

    def title(self) -> str:
        """The terminal window's title, as the app set it."""
        return self.tmux.run("display-message", "-p", "-t", self.tmux.target, "#{pane_title}").stdout.strip()

    def leave(self) -> None:
        self.tmux.kill()

    def ended_with(self, text: str) -> None:
        """The session ended, `text` the last thing on its terminal (the pane's history, once ssh is gone)."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            if text in flat(self.tmux.capture(history=True)) and not self.tmux.alive():
                return
            time.sleep(POLL)
        pytest.fail(f"{self.name}'s session did not end with {text!r}:\n{self.tmux.capture(history=True)}")


def new_player(server: LagoonServer, name: str, *command: str) -> Player:
    """A player connecting for the first time: they give their name."""
    player = Player(server, name, *command)
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
    deadline = time.monotonic() + TIMEOUT
    while (player := mover(players)) is None:
        if time.monotonic() > deadline:
            pytest.fail("nobody was asked for a move:\n" + "\n".join(p.screen() for p in players))
        time.sleep(POLL)
    before = player.screen()
    player.type("1")
    player.tmux.wait_for(lambda s: s != before, f"{player.name}'s move")
    return player


@pytest.fixture
def server(tmp_path):
    served = LagoonServer(tmp_path)
    served.start()
    yield served
    for terminal in served.terminals:
        terminal.kill()
    served.stop()


def deal_words(deal_id: str) -> set[str]:
    """A deal's terms as a player board writes them, in either of its two widths ("copper 1'+ and iron 3'+
    → 4 VP", "copper 1' iron 3' → 4 VP"). No two deals of the decks ask for the same cubes."""
    deal = CONTENT.deals[deal_id]
    short = " ".join(f"{metal} {level}'" for metal, level in deal.requires.items())
    return {f"{deal_needs(deal.requires)} → {deal.vp} VP", f"{short} → {deal.vp} VP"}


class Secrets:
    """What each seat holds that the others must never be shown, by the words a screen would show it
    in: the names of its objectives (kept, or on offer while it chooses) and the terms of the deals in
    its hand, read from the save file. Once the game is over every hand is shown to all."""

    def __init__(self, db: Path) -> None:
        self.db = db

    def now(self) -> tuple[list[set[str]], list[set[str]]]:
        """For each seat: the words it must not have received (another seat's secrets it was never shown),
        and the words of its own deals in hand."""
        with Store(self.db) as store:
            info = store.games()[0]
            if info.over:
                return [set() for _ in info.names], [set() for _ in info.names]
            saved = store.load(info.id)
        engine = Engine(CONTENT, saved.events, saved.marks)
        players = engine.state.players
        hidden, own = [], []
        for seat, me in enumerate(players):
            shown = shown_to(seat, engine.events)
            words: set[str] = set()
            for other in players:
                if other is me:
                    continue
                words |= {CONTENT.objectives[o].name for o in (*other.objectives, *other.objective_offer)}
                words |= {w for d in other.deals if d not in shown for w in deal_words(d)}
            hidden.append(words - {CONTENT.objectives[o].name for o in shown if o in CONTENT.objectives})
            own.append({w for d in me.deals for w in deal_words(d)})
        return hidden, own


def test_three_friends_play_a_whole_game_over_ssh_and_nobody_sees_another_seats_secrets(server):
    ana = new_player(server, "Ana")
    code = make_room(ana, "3")  # you and 2 friends

    ben, cleo = (new_player(server, name, "join", code) for name in ("Ben", "Cleo"))
    players = [ana, ben, cleo]
    for friend in (ben, cleo):
        friend.wait("has not started yet")
    ana.wait("waiting for Ana to start")
    ana.type("s")
    for friend in (ben, cleo):
        friend.wait("Score · goal")  # (taken to the game, its board, as it starts)
    dan = new_player(server, "Dan")  # a stranger, who watches
    dan.wait("Your games")
    dan.type("j")
    dan.wait("Join a room")
    dan.type(code, "Enter")
    dan.wait("Score · goal")  # (the game, as everyone sees it)
    moves, secrets = 0, Secrets(server.db)
    own_deal_seen = [False] * 3  # (the words searched for are those a screen shows: each seat's own deals)
    while not all("Final ranking" in p.screen() for p in players):
        player = mover(players)
        if player is None:
            continue
        before = player.screen()
        player.type("1")
        player.tmux.wait_for(lambda s, before=before: s != before, f"{player.name}'s move {moves}")
        moves += 1
        hidden, own = secrets.now()
        for seat, each in enumerate(players):
            seen = each.received()
            leaked = {words for words in hidden[seat] if words in seen}
            assert not leaked, f"{each.name} received {leaked} after move {moves}"
            own_deal_seen[seat] = own_deal_seen[seat] or any(words in seen for words in own[seat])
        assert moves < 3000, "the game never ended"
    assert moves > 100
    assert all(own_deal_seen), own_deal_seen
    dan.wait("Final ranking")
    for p in (*players, dan):
        p.type("b")  # leave the ended game: back in the lobby
        p.wait("Your games")


def standing(screen: str) -> tuple:
    """Where a game stands, as a screen shows it: each player's money and VP, and the log's newest line."""
    text = flat(screen)
    return tuple(re.findall(r"Money \$\d+ +VP \d+", text)), text.rsplit("Log", 1)[-1][-60:]


def test_a_dropped_player_comes_back_a_stranger_watches_and_a_restarted_server_resumes(server):
    ana = new_player(server, "Ana")
    code = make_room(ana, "1")  # you and a friend
    ben = new_player(server, "Ben", "join", code)
    ben.wait("has not started yet")
    ana.type("s")
    players = [ana, ben]
    for p in players:
        p.wait("Score · goal")
    for _ in range(6):
        move(players)
    # Ben's connection drops on his turn; Ana is told, and the game waits for him
    while mover(players) is not ben:
        move(players)
    assert ben.title() == "Lagoon · Your turn"
    board = flat(ben.screen())
    ben.leave()
    ana.wait("who left")  # ("Waiting for Ben [Y], who left: the game waits for them to return")
    ana.hears("Ben left")  # (a toast: it may come a frame after the prompt says so)
    # the same key again: his seat, exactly where it was
    ben = Player(server, "Ben", "join", code)
    ben.wait(YOUR_MOVE)
    ana.wait("Ben is back")
    assert "who left" not in flat(ana.screen())
    assert standing(ben.screen()) == standing(board)
    # another key is a stranger: it watches, and is asked nothing
    eve = new_player(server, "Eve", "join", code)
    eve.wait("Score · goal")
    assert YOUR_MOVE not in flat(eve.screen())
    players = [ana, ben]
    move(players)
    # the server stops: everyone is told; started again, the room goes on where it was
    before = {p.name: flat(p.screen()) for p in players}
    assert server.stop() == 0
    for p in (ana, ben, eve):
        p.ended_with("The Lagoon server is stopping; your game is saved.")
        p.leave()
    server.start()
    ana, ben = Player(server, "Ana", "join", code), Player(server, "Ben", "join", code)
    players = [ana, ben]
    for p in players:
        p.wait("Score · goal")
        p.tmux.wait_for(lambda s, p=p: standing(s) == standing(before[p.name]), "the game as it was")
    move(players)
    for p in (ana, ben, eve):
        p.leave()


def test_a_session_without_a_terminal_is_told_how_to_connect(server):
    done = subprocess.run(
        server.client("ana")[:1] + ["-T"] + server.client("ana")[2:],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 1
    assert f"connect with ssh -t -p {server.port}" in done.stderr + done.stdout
