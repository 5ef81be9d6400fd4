"""Stand-ins told truly over SSH (issue 35, point 2): the real `lagoon serve`, the stock OpenSSH client, one tmux
pane each, as tests/tui/test_serve_ssh.py plays it.

Three friends and a spectator; Ben's connection drops after a move of his. The others ask for a computer to
play for him (ctrl+p, "Let a computer play for Ben"): once both have, every seat that is there and the
spectator read in their log that a computer plays for him from then on (with nothing else happening: no move
brings the line), and on the prompt while it does; Ben connects again with the same key, takes his seat back,
and every log, his own too, says so. The server waits no time before a stand-in may be asked for
(`--stand-in-after 0`), so the test needs no clock.

The logs and prompts are read on the screens as tmux shows them (toasts, which go, from what the terminals
received). At 80×24 (Cleo) the log is a page of its own (l).
"""

from __future__ import annotations

import os
import time

import pytest

from tests.helpers.rooms import until
from tests.helpers.ssh_players import REASON, Player, make_room, move, mover, mover_now, new_player
from tests.helpers.terminal import POLL, TIMEOUT, panels

if REASON and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the lagoon serve tests, but {REASON}")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]

STOOD_IN = "Waiting for Ben [Y], who left: a computer plays for them until they come back"
BEGAN = "Ben [Y] left: a computer plays for them from here."
BACK = "Ben [Y] is back and plays their own seat again."
BOARD = ("Ben [Y] · a computer plays for them", "Ben [Y] · stand-in")  # (his board's title, as its width allows)
SMALL = (80, 24)
LOG = "Log ·"  # (the log panel's title)


def shows(player: Player, text: str) -> bool:
    """Whether one of the panels on the player's screen says `text`."""
    return any(text in panel for panel in panels(player.screen()))


def reads_in_log(player: Player, text: str) -> None:
    """Wait until the player's log shows `text` on their screen (at 80×24 on the log's page: l, pressed
    again whenever another page is up). Nobody moves meanwhile."""
    deadline = time.monotonic() + 2 * TIMEOUT  # (a toast of 30 s may lie over the log: a game's recap)
    while not any(LOG in panel and text in panel for panel in panels(player.screen())):
        if time.monotonic() > deadline:
            pytest.fail(f"{text!r} never showed in {player.name}'s log:\n{player.screen()}")
        if LOG not in player.screen():
            player.type("l")
        time.sleep(POLL * 4)


def ask_for_a_stand_in(player: Player) -> None:
    """The palette's command for Ben's seat, as a player finds it: ctrl+p, a few words, Enter."""
    player.type("C-p")
    player.wait("Search for commands")
    player.type("computer play")
    player.wait("Let a computer play for Ben")
    player.type("Enter")
    player.tmux.wait_for(lambda screen: "Search for commands" not in screen, f"{player.name}'s palette closed")


def test_every_seat_and_the_spectator_read_that_a_computer_plays_for_ben_and_every_log_says_when(serving):
    server = serving("--stand-in-after", "0")
    ana = new_player(server, "Ana")
    code = make_room(ana, "3")  # you and 2 friends
    ben = new_player(server, "Ben", "join", code)
    cleo = new_player(server, "Cleo", "join", code, size=SMALL)
    for friend in (ben, cleo):
        friend.wait("has not started yet")
    ana.wait("waiting for Ana to start")
    ana.type("s")
    dan = new_player(server, "Dan", "join", code)  # a stranger, who watches
    players, left, told = [ana, ben, cleo], [ana, cleo], [ana, cleo, dan]
    for p in players:
        p.wait("watching: Dan")
    dan.wait(LOG)
    while mover_now(players) is not ben:
        move(players)
    while mover_now(players) is ben:  # (his moves, to his turn's end: the computer has nothing to play yet)
        move(players)
    ben.leave()  # his connection drops
    for p in (ana, dan):
        p.hears("Ben left")

    ask_for_a_stand_in(ana)
    ana.hears("the others must agree too")
    dan.hears("Ana asks that a computer play for Ben")
    ask_for_a_stand_in(cleo)
    dan.hears("A computer plays for Ben until they come back.")  # (Ana's, her sixth toast then, may be cut off)
    said = f"room {code}: a computer plays for Ben until they come back"  # (and a line on the server's console)
    until(lambda: said in server.output.read_text(), "the console's line")
    for p in told:  # (nobody moves: the line comes as the computer begins, not with the game's next change)
        reads_in_log(p, BEGAN)

    # while the computer plays his seat, each screen says so on its prompt (read as often as each is drawn)
    seen: set[str] = set()
    deadline = time.monotonic() + 2 * TIMEOUT
    while seen != {p.name for p in told}:
        if time.monotonic() > deadline:
            pytest.fail(f"{STOOD_IN!r} was read by {sorted(seen)} only")
        seen |= {p.name for p in told if shows(p, STOOD_IN)}
        if mover(left) is not None:  # (the others play on, to the computer's next turn)
            move(left)
    for p in (ana, dan):  # (at 160×50 every board is on screen: Ben's says who plays it, whoever's turn it is,
        p.tmux.wait_for(  # once the notices that lay over its title have gone)
            lambda s: any(title in panel for panel in panels(s) for title in BOARD), f"Ben's board on {p.name}'s"
        )

    ben = Player(server, "Ben", "join", code)  # the same key: his seat back
    for p in (*told, ben):
        reads_in_log(p, BACK)
    for p in told:  # (the line came with the news that he is back: no prompt says a computer plays for him)
        assert not shows(p, STOOD_IN), p.screen()
    for p in (ana, dan):
        p.tmux.wait_for(lambda screen: not any(title in screen for title in BOARD), f"Ben's board, for {p.name}")
