"""Issue 35, point 3, end to end: `lagoon serve` on loopback, players on the stock OpenSSH client in tmux.

Ana plays at 160×50, Ben at 80×24, with a computer at their table. What each terminal receives is
recorded raw (tmux pipe-pane), so the bell (a BEL byte outside any escape sequence) and the window's
title (OSC 2) are read as the terminal got them.

Skipped where tmux or OpenSSH is missing, except in CI (.ci/run installs them).
"""

from __future__ import annotations

import os
import re
import time

import pytest

from tests.helpers.ssh_players import CODE, REASON, YOUR_MOVE, Player, make_room, mover
from tests.helpers.terminal import POLL, TIMEOUT, flat

if REASON and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the lagoon serve tests, but {REASON}")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]

OSC = re.compile(rb"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
SINCE = "What changed since your last move"
OFFER = "Since your last move"  # (the heading of the notice that offers w's list)
SEED = 7


def raw_since(player: Player, offset: int) -> bytes:
    """What the player's terminal received after `offset` bytes, escapes and all."""
    return player.stream.read_bytes()[offset:]


def rang_and_titled(player: Player, offset: int, title: str) -> None:
    """Since `offset`, the terminal was rung (a BEL of its own) and its window titled `title`."""
    got = raw_since(player, offset)
    assert f"\x1b]2;{title}\x07".encode() in got, f"{player.name}'s title"
    assert b"\x07" in OSC.sub(b"", got), f"{player.name}'s bell"


def named(server, name: str, size: tuple[int, int], *command: str) -> Player:
    player = Player(server, name, *command, size=size)
    player.wait("What name should the others see?")
    player.type(name, "Enter")
    return player


def started_pair(server) -> tuple[str, Player, Player]:
    """Ana (160×50) and Ben (80×24) at Ana's seeded table, its game started by her: its code, the two."""
    ana = named(server, "Ana", (160, 50))
    table = seeded_table(ana, SEED)
    ben = named(server, "Ben", (80, 24), "join", table)
    ana.wait("waiting for Ana to start")
    ana.type("s")
    return table, ana, ben


def seeded_table(player: Player, seed: int) -> str:
    """A room for the player, a friend and a computer, made with a seed (so the game goes the same way each
    run: every player here takes their first option); its code."""
    player.wait("Your games")
    player.type("c")
    player.wait("New room")
    player.type("Down", "Down", "Down")  # (the fourth way: you, a friend and a computer)
    player.type("Tab", "Tab", "Tab", "Tab")  # (past the computers' level, the pace and who may come in)
    player.type(str(seed), "Enter")
    screen = player.wait("waiting for")
    return CODE.search(flat(screen).split("Your games", 1)[1])[1]


def leave_game(player: Player) -> None:
    """The palette's Lobby: back to the lobby (found by that word: "Back to the lobby (the game goes on…")."""
    player.type("C-p")
    player.wait("Search for commands")
    player.type("lobby")
    player.wait("Back to the lobby")
    player.type("Enter")
    player.wait("Your games")


def play_until(decides: Player, done, what: str) -> int:
    """`decides` takes their first option whenever it is their move, until `done()`; how many moves."""
    deadline, moves = time.monotonic() + TIMEOUT * 3, 0
    while not done():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} never came:\n{decides.screen()}")
        if YOUR_MOVE in flat(decides.screen()):
            before = decides.screen()
            decides.type("1")
            decides.tmux.wait_for(lambda s, before=before: s != before, f"{decides.name}'s move")
            moves += 1
        time.sleep(POLL)
    return moves


def test_your_turn_reaches_a_player_in_another_game_and_in_the_lobby_and_brings_them_back_to_their_seat(server):
    table, ana, ben = started_pair(server)
    for p in (ana, ben):  # (at 80×24, a page of the board and the prompt)
        p.tmux.wait_for(lambda s: "Waiting for" in flat(s) or YOUR_MOVE in flat(s), f"{p.name}'s game")
    players = [ana, ben]
    while not play_until(ana, lambda: mover(players) is ben, "Ben's turn"):  # (the computer moves at its pace)
        play_until(ben, lambda: mover(players) is not ben, "Ben's move")  # (Ana moves once at least)
    # Ana goes to the lobby and starts a game of her own against a computer; Ben and the computer play on
    leave_game(ana)
    ben.hears("Ana left")
    make_room(ana, "2")  # you and a computer
    ana.type("s")  # (the room just made is the one highlighted)
    ana.wait(YOUR_MOVE)
    ana.wait(" · computer")  # (the second game: its computer's board)
    offset = ana.stream.stat().st_size
    notice = f"Your turn in your room ({table}): y to go there."
    heard: list[str] = []
    play_until(ben, lambda: heard.append(ana.received()) or notice in "".join(heard), "the turn, told to Ana")
    rang_and_titled(ana, offset, f"Lagoon · Your turn in room {table}")
    assert ana.title() == f"Lagoon · Your turn in room {table}"
    # her own game goes on; its title keeps saying the other waits for her (it said only this game's turn)
    waits = f" · room {table} waits for you\x07".encode()
    play_until(ana, lambda: waits in raw_since(ana, offset), "the other game, in this one's title")
    assert ana.title().endswith(f" · room {table} waits for you")
    # y: at her seat of the first game, what changed since her last move offered, w's list
    ana.type("y")
    ana.wait(OFFER)
    ana.wait(YOUR_MOVE)
    assert "y to go there" not in flat(ana.screen())  # (the turn notice is done once she is there)
    ben.tmux.wait_for(lambda s: "who left" not in flat(s), "Ana back, for Ben")
    ana.type("w")
    ana.wait(SINCE)
    ana.type("w")
    ana.tmux.wait_for(lambda s: SINCE not in flat(s) and YOUR_MOVE in flat(s), "Ana's board")
    # Ben, in the lobby at 80×24 while Ana plays: the game turns to him
    leave_game(ben)
    ana.hears("Ben left")
    offset = ben.stream.stat().st_size
    titled = f"\x1b]2;Lagoon · Your turn in room {table}\x07".encode()  # (the notice wraps at 80 columns)
    play_until(ana, lambda: titled in raw_since(ben, offset), "the turn, told to Ben")
    rang_and_titled(ben, offset, f"Lagoon · Your turn in room {table}")
    ben.wait("your turn ·")  # (his lobby's row, with how long it has waited)
    ben.wait("Your turn · with Ana, Cleo")  # (the notice's heading: its words wrap at 80 columns)
    # he quits from the lobby and connects again: told, and Enter takes him to his seat
    ben.type("C-q")
    ben.gone()
    ben.leave()
    ben = Player(server, "Ben", size=(80, 24))
    ben.wait("Welcome back")  # ("Your turn in 1 game: Enter goes there.", wrapped at 80 columns)
    ben.wait("Enter goes")
    assert ben.title() == "Lagoon · Your turn in 1 game"
    ben.type("Enter")
    ben.wait(OFFER)
    ben.wait(YOUR_MOVE)
    # Ana's connection drops while the game waits for her: connecting again takes her straight to her seat
    players = [ana, ben]
    play_until(ben, lambda: mover(players) is ana, "Ana's turn")
    ana.leave()
    ben.hears("Ana left")
    ana = Player(server, "Ana", size=(160, 50))
    ana.wait(OFFER)
    ana.wait(YOUR_MOVE)
    assert "Your games" not in flat(ana.screen())
    ana.wait("* changed since your last move")  # (a board's note: what changed is marked)
    ben.tmux.wait_for(lambda s: "Waiting for Ana" in flat(s) and "who left" not in flat(s), "Ana back, for Ben")


def test_a_player_whose_game_waits_for_them_when_the_server_stops_is_back_at_their_seat_after_its_restart(server):
    table, ana, ben = started_pair(server)
    players = [ana, ben]
    play_until(ben, lambda: mover(players) is ana, "Ana's turn")
    assert server.stop() == 0  # (SIGTERM: every session ends, in its game)
    for player in players:
        player.gone()
        player.leave()
    server.start()
    ben = Player(server, "Ben", size=(80, 24))
    ben.wait("Your games")  # (the game waits for Ana, not him: his lobby)
    ana = Player(server, "Ana", size=(160, 50))
    ana.wait(YOUR_MOVE)  # straight back at her seat
    assert "Your games" not in flat(ana.screen())


def test_a_player_whose_screen_of_a_game_closes_while_another_session_of_theirs_is_at_the_server_has_not_left(
    server,
):
    table, ana, ben = started_pair(server)
    second = Player(server, "ana", size=(80, 24))  # (Ana's key, a second terminal: in the lobby)
    second.wait("Your games")
    players = [ana, ben]
    play_until(ana, lambda: mover(players) is ben, "Ben's turn")
    play_until(ben, lambda: mover(players) is ana, "Ana's turn")  # (the turn comes to her, after the computer's)
    second.wait("your turn ·")  # (her lobby lists the game as waiting for her)
    told = f"\x1b]2;Lagoon · Your turn in room {table}\x07".encode()  # (what a turn notice titles the window)
    assert told not in raw_since(second, 0)  # (she is at her seat in the other terminal: nothing rings here)
    # her game's screen closes; she is still at the server in the lobby: not away, no stand-in offered
    ana.leave()
    ben.hears("Ana closed this game's screen")  # (the notice wraps at 80 columns)
    screen = ben.wait("who is elsewhere at this server")
    assert "who left" not in flat(screen) and "let a computer play" not in flat(screen)
    # her last session ends: now she has left
    second.type("C-q")
    second.gone()
    ben.hears("Ana left;")
    ben.wait("who left")
