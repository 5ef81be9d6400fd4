"""A hostile client of `lagoon serve` hurts nobody but itself (issue 35, point 9), against a real server on
loopback: junk, a paste that never ends, a storm of window changes, a name of stacked marks.

The players are the stock OpenSSH client in tmux; the storm comes from an asyncssh client, which sends every
window change it is told to (OpenSSH's own merges the changes that come faster than it sends them). Every wait
is for something on a screen or in the kernel, bounded in tries; nothing is timed.
"""

from __future__ import annotations

import asyncio
import random
import re
import threading
import time
from pathlib import Path

import asyncssh
import pytest

from lagoon_tui.widgets.field import NAME_FIELD
from rules.names import MARKS_MOST
from tests.helpers.harness import wait_until
from tests.helpers.ssh_players import REASON, LagoonServer, Player, sessions_of, window_of
from tests.helpers.terminal import POLL, TIMEOUT, flat

pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]

NAME_FORM = "What name should the others see?"
QUIT_KEYS = (0x03, 0x11)
"""ctrl+c and ctrl+q: keys that end the session (as the player asked), left out of the junk."""
STORM = 50_000
LAST = (123, 45)


def at_the_name_form(server: LagoonServer, name: str = "Ana") -> Player:
    # (no escape character: junk could hold ssh's own "~." and end the client itself)
    player = Player(server, name, size=(80, 24), options={"EscapeChar": "none"})
    player.wait(NAME_FORM)
    return player


def send_raw(player: Player, data: bytes) -> None:
    """`data` written to the player's terminal as it is, as if typed (tmux pastes it with no paste marks of its
    own and no line feeds changed)."""
    file = Path(player.stream).with_suffix(".raw")
    file.write_bytes(data)
    buffer = player.tmux.target + "-raw"
    player.tmux.run("load-buffer", "-b", buffer, str(file))
    player.tmux.run("paste-buffer", "-d", "-r", "-b", buffer, "-t", player.tmux.target)


def answered(player: Player, name: str) -> None:
    """The session answers keys: Escape out of whatever the junk opened; then, at the name form, the field
    emptied and `name` typed reach the lobby; anywhere else (junk may have typed a name and Enter, and more), `?`
    opens the keys list and Escape closes it. Tried again while what is left of the junk still comes in (a busy
    machine may pass it on for a while, at the session's input budget) and keys go where it left them. (End before
    the BSpaces: the junk's last keys, ctrl+a or Home, may have left the field's cursor at its start, where no
    BSpace takes anything.)"""
    deadline = time.monotonic() + 3 * TIMEOUT
    while time.monotonic() < deadline:
        if not closed(player):
            continue
        screen = flat(player.screen())
        if NAME_FORM in screen:
            player.type("End", *["BSpace"] * NAME_FIELD)
            if waited(player, lambda screen: EMPTY in screen):
                player.type(name, "Enter")
                if waited(player, lambda screen: "Your games" in screen):
                    return
        else:  # (wherever it left the session: the lobby, a room, a game)
            player.type("?")
            if waited(player, lambda screen: KEYS_LIST in screen):
                player.type("Escape")
                if waited(player, lambda screen: KEYS_LIST not in screen):
                    return
    pytest.fail(f"the session no longer answers keys:\n{player.screen()}")


KEYS_LIST = "Esc, ? or Enter closes"
"""The keys list's hint: the list is open."""
PALETTE = "🔎"
"""The command palette's search field (with the words typed into it, or "Search for commands" if none)."""


def closed(player: Player, presses: int = 3) -> bool:
    """Whether Escape, pressed up to `presses` times, closed what the junk opened (if anything): the keys list,
    or the command palette, whose first Escape may only fold its list of matches away."""
    for _ in range(presses):
        player.type("Escape")
        if waited(player, lambda screen: PALETTE not in screen and KEYS_LIST not in screen):
            return True
    return False


EMPTY = "your name"
"""The name field's placeholder: the field is empty."""


def waited(player: Player, test, polls: int = 40) -> bool:
    """Whether `test` held of the player's screen within `polls` looks."""
    for _ in range(polls):
        if test(flat(player.screen())):
            return True
        time.sleep(POLL)
    return False


def test_a_paste_that_never_ends_leaves_the_session_answering_keys(serving):
    server = serving()
    ana = at_the_name_form(server)
    send_raw(ana, b"\x1b[200~half a paste")  # and never its end
    answered(ana, "Ana")


def test_a_megabyte_of_random_bytes_leaves_the_session_answering_keys(serving):
    server = serving()
    ana = at_the_name_form(server)
    junk = bytes(byte for byte in random.Random(35).randbytes(1 << 20) if byte not in QUIT_KEYS)
    send_raw(ana, junk)
    answered(ana, "Ana")
    assert "Traceback" not in server.output.read_text()


def test_a_letter_under_dozens_of_marks_is_refused_for_its_marks_over_ssh(serving):
    server = serving()
    ana = at_the_name_form(server)
    ana.tmux.run("send-keys", "-t", ana.tmux.target, "-l", "a" + "\u0301" * 40)
    ana.type("Enter")
    ana.wait(f"A name has at most {MARKS_MOST} marks on one letter.")
    answered(ana, "Ana")


class Storm:
    """An SSH client that logs in with a terminal and, once `go` is set, changes its window's size again and
    again until it has sent `STORM` changes and `calm` is set; its last change is to `LAST`. It leaves once
    `end` is called."""

    def __init__(self, server: LagoonServer) -> None:
        self.server = server
        self.key = asyncssh.read_private_key(server.key("storm"))
        self.sent = 0
        self.opened, self.go, self.calm, self.done = (threading.Event() for _ in range(4))
        self.thread = threading.Thread(target=asyncio.run, args=(self.run(),), daemon=True)
        self.thread.start()

    async def run(self) -> None:
        known = asyncssh.import_known_hosts((self.server.folder / "known_hosts").read_text())
        async with asyncssh.connect(
            "127.0.0.1",
            self.server.port,
            username="storm",
            known_hosts=known,
            client_keys=[self.key],
            agent_path=None,
            config=None,
        ) as connection:
            channel, _ = await connection.create_session(
                asyncssh.SSHClientSession, term_type="xterm-256color", term_size=(80, 24), encoding=None
            )
            self.opened.set()
            await self.until(self.go)
            while self.sent < STORM or not self.calm.is_set():
                channel.change_terminal_size(60 + self.sent % 100, 20 + self.sent % 30)
                self.sent += 1
                if self.sent % 200 == 0:
                    await asyncio.sleep(0)  # (the changes are sent, and the server's answers read)
            channel.change_terminal_size(*LAST)
            self.sent += 1
            await self.until(self.done)
            channel.close()
            await channel.wait_closed()

    @staticmethod
    async def until(event: threading.Event) -> None:
        for _ in range(int(TIMEOUT / POLL)):
            if event.is_set():
                return
            await asyncio.sleep(POLL)

    def end(self) -> None:
        self.done.set()
        self.thread.join(TIMEOUT)


def test_a_storm_of_window_changes_reaches_its_session_a_few_times_and_others_keys_are_answered(serving):
    server = serving("--verbose")
    storm = Storm(server)
    assert storm.opened.wait(TIMEOUT)
    stormy = wait_until(lambda: sessions_of(server), "the stormy session's process")[0]
    ana = at_the_name_form(server)
    storm.go.set()
    wait_until(lambda: window_of(stormy) != (80, 24), "the storm to reach the server")
    typed = ""
    for letter in "stormyweather":  # each key of another player is answered while the storm goes on
        typed += letter
        ana.type(letter)
        ana.wait(typed)
    storm.calm.set()
    wait_until(lambda: window_of(stormy) == LAST, f"the stormy session's window at {LAST}")
    assert storm.sent > STORM
    storm.end()
    said = wait_until(lambda: ENDED.search(server.output.read_text()), "the stormy session's end")
    assert int(said["asked"]) == storm.sent
    assert int(said["given"]) <= storm.sent // 10, "most of the storm was merged before it reached the session"


ENDED = re.compile(r"ended with status \d+; its window changed (?P<asked>\d+) times, (?P<given>\d+) of them given")
