"""Stand-ins told truly over SSH (issue 35, point 2): the real `lagoon serve`, the stock OpenSSH client, one tmux
pane each, as tests/tui/test_serve_ssh.py plays it.

Three friends and a spectator; Ben's connection drops after a move of his. The others
ask for a computer to play for him (ctrl+p, "Let a computer play for Ben"):
once both have, every seat that is there and the spectator read on the
prompt that a computer plays for him while it does, and every log says when
it began; Ben connects again with the same key, takes his seat back, and
every log says so. The server waits no time before a stand-in may be asked
for (`--stand-in-after 0`), so the test needs no clock.
"""

from __future__ import annotations

import itertools
import os
import time

import pytest

from tests.helpers.ssh_players import REASON, LagoonServer, Player, make_room, move, mover, mover_now
from tests.helpers.terminal import POLL, TIMEOUT

if REASON and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the lagoon serve tests, but {REASON}")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]

STOOD_IN = "Waiting for Ben [Y], who left: a computer plays for them until they come back"
BEGAN = "Ben [Y] left: a computer plays for them"  # (from here.), in the log: the words a log line of 40 holds
BACK = "Ben [Y] is back and plays their own seat"  # (again.)
SMALL, LARGE = (80, 24), (160, 50)


TOP, SIDE, BOTTOM = "╭┏", "│┃", "╰┗"


def panels(screen: str) -> list[str]:
    """The text of each panel on a screen, its lines joined, so a sentence its panel wrapped reads whole (the
    panels beside it left out)."""
    rows = screen.splitlines()
    found = []
    for top, row in enumerate(rows):
        for left, corner in enumerate(row):
            if corner not in TOP:
                continue
            right = min((row.find(c, left + 1) for c in "╮┓" if c in row[left + 1 :]), default=len(row))
            lines = []
            for below in rows[top + 1 :]:
                if len(below) <= left or below[left] not in SIDE:
                    break
                lines.append(below[left + 1 : right])
            found.append(" ".join(" ".join(lines).split()))
    for top, row in enumerate(rows):  # (the compact layout: its page above a rule, the prompt under it)
        if row.startswith("─"):
            found += [" ".join(" ".join(rows[1:top]).split()), " ".join(" ".join(rows[top + 1 : -1]).split())]
    return found


def shows(player: Player, text: str) -> bool:
    """Whether one of the panels on the player's screen says `text`."""
    return any(text in panel for panel in panels(player.screen()))


def log_says(player: Player, text: str) -> None:
    """Wait until `text` comes to the player's log: to their terminal, which shows the log on the board, or at
    80×24 on a page of its own (l: asked for again while it is not there, as a move may show another).

    Read from what the terminal received: the log's newest lines may lie under toasts (at 160×50 they stack
    over the log's foot) and are not drawn there; so, now and then, the player's f shows the log of one player
    after another (Ben's lines, few, are drawn at its top)."""
    heard, deadline = "", time.monotonic() + 2 * TIMEOUT
    for n in itertools.count(1):
        heard += player.received()
        if text in heard:
            return
        if time.monotonic() > deadline:
            pytest.fail(f"{text!r} never came to {player.name}'s log:\n{player.screen()}")
        if n % 20 == 0:
            player.type("f" if "Log ·" in player.screen() else "l")
        time.sleep(POLL)


def named(server: LagoonServer, name: str, *command: str, size: tuple[int, int] = LARGE) -> Player:
    """A player connecting for the first time, in a terminal of `size`: they give their name."""
    player = Player(server, name, *command, size=size)
    player.wait("What name should the others see?")
    player.type(name, "Enter")
    return player


def ask_for_a_stand_in(player: Player) -> None:
    """The palette's command for Ben's seat, as a player finds it: ctrl+p, a few words, Enter."""
    player.type("C-p")
    player.wait("Search for commands")
    player.type("computer play")
    player.wait("Let a computer play for Ben")
    player.type("Enter")


def test_every_seat_and_the_spectator_read_that_a_computer_plays_for_ben_and_every_log_says_when(serving):
    server = serving("--stand-in-after", "0")
    ana = named(server, "Ana")
    code = make_room(ana, "3")  # you and 2 friends
    ben = named(server, "Ben", "join", code)
    cleo = named(server, "Cleo", "join", code, size=SMALL)
    for friend in (ben, cleo):
        friend.wait("has not started yet")
    ana.wait("waiting for Ana to start")
    ana.type("s")
    dan = named(server, "Dan", "join", code)  # a stranger, who watches
    players, left, told = [ana, ben, cleo], [ana, cleo], [ana, cleo, dan]
    for p in players:
        p.wait("watching: Dan")
    dan.wait("Log")
    while mover_now(players) is not ben:
        move(players)
    while mover_now(players) is ben:  # (his moves, to his turn's end: the computer has nothing to play yet)
        move(players)
    ben.leave()  # his connection drops
    for p in told:
        p.hears("Ben left")

    ask_for_a_stand_in(ana)
    ana.hears("the others must agree too")
    cleo.hears("Ana asks that")  # (a computer play for Ben; waiting for Cleo.)
    ask_for_a_stand_in(cleo)
    for p in told:
        log_says(p, BEGAN)

    # while the computer plays his seat, each screen says so on its prompt (read as often as each is drawn)
    seen: set[str] = set()
    deadline = time.monotonic() + 2 * TIMEOUT
    while seen != {p.name for p in told}:
        assert time.monotonic() < deadline, f"{STOOD_IN!r} was read by {sorted(seen)} only"
        seen |= {p.name for p in told if shows(p, STOOD_IN)}
        if mover(left) is not None:  # (the others play on, to the computer's next turn)
            move(left)

    ben = Player(server, "Ben", "join", code)  # the same key: his seat back
    for p in (*told, ben):
        log_says(p, BACK)
    for p in told:  # (told who is away before the log's line: no prompt says it any more)
        assert not shows(p, STOOD_IN), p.screen()
