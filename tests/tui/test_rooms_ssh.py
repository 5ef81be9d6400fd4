"""Rooms of `lagoon serve` as friends use them (issue 35, point 4): the real server, stock `ssh`, one tmux pane
each (tests/helpers/ssh_players.py). A private room reached by its code, a player who leaves and comes back, a
spectator who waits in the room, watches with a spectator's keys, is seen by the players and finds the game again
after reconnecting; a room cancelled by its maker. Ben plays at 80×24, the others at 160×50.

Skipped where tmux or OpenSSH is missing, except in CI (.ci/run installs them).
"""

from __future__ import annotations

import os
import re

import pytest

from tests.helpers.ssh_players import REASON, YOUR_MOVE, Player, make_room, new_player
from tests.helpers.terminal import flat

if REASON and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the lagoon serve tests, but {REASON}")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]

PRIVATE_CODE = re.compile(r"Room ([A-HJ-NP-Z2-9]{10}) is ready")
READY = re.compile(r"Room ([A-HJ-NP-Z2-9]{6}) is ready")
PLAYERS_KEYS = ("My cards", "Undo", "End turn", "your move", "Your turn", "your turn")


def small(server, name: str, *command: str) -> Player:
    player = Player(server, name, *command, size=(80, 24))
    player.wait("What name should the others see?")
    player.type(name, "Enter")
    return player


def offers_no_players_keys(player: Player, key: str, shown: str) -> None:
    """`key` opens a window (`shown` says it is open) that lists no player's key; Escape closes it."""
    player.type(key)
    player.wait(shown)
    text = flat(player.screen())
    assert not any(words in text for words in (*PLAYERS_KEYS, "Pick an option", "a computer play")), text
    player.type("Escape")
    player.tmux.wait_for(lambda s: shown not in flat(s), f"{shown!r} closed")


def test_a_private_room_a_player_who_leaves_and_a_spectator_who_waits_watches_and_comes_back(server):
    ana = new_player(server, "Ana")
    ana.wait("Your games")
    ana.type("c")
    ana.wait("Anyone: listed")
    ana.type("p")  # private
    ana.wait("Private: by its code")
    ana.type("4")  # you, a friend and a computer
    screen = ana.wait("is ready")
    code = PRIVATE_CODE.search(flat(screen))[1]

    ben = small(server, "Ben")
    ben.wait("No open rooms.")  # (a private room is listed to nobody else)
    ben.type("j")
    ben.wait("Join a room")
    ben.type(code.lower(), "Enter")
    ben.wait(f"Room {code} (you sit here)")
    ben.wait("has not started yet")
    ana.hears(f"Ben joined your room {code}")
    dan = new_player(server, "Dan", "join", code)  # the room is full: he waits in it to watch
    dan.wait(f"Room {code} (you watch)")
    dan.wait("Seats: Ana, Ben, Computer (Normal)")
    ana.hears(f"Dan watches your room {code}")
    ben.wait("Watching: Dan")
    ana.wait("1 spectator")

    ben.type("l")  # Ben leaves, and comes back
    ben.wait("Your games")
    ben.hears(f"You left room {code}")
    ana.hears(f"Ben left your room {code}")
    dan.wait("Waiting for 1 more.")
    eve = new_player(server, "Eve", "watch", code)  # a seat is free: she watches all the same, as she asked
    eve.wait(f"Room {code} (you watch)")
    ana.hears(f"Eve watches your room {code}")
    eve.type("l")  # and stops watching
    eve.hears(f"You no longer watch room {code}")
    ben.type("j")
    ben.wait("Join a room")
    ben.type(code, "Enter")
    ben.wait("(you sit here)")

    ana.type("s")
    ben.wait("watching: Dan")  # (the prompt's title, on his board at 80×24)
    dan.wait("Score · goal")  # the spectator is taken to the game as it starts
    ana.wait("watching: Dan")
    screen = flat(dan.screen())
    assert not any(words in screen for words in PLAYERS_KEYS), screen
    for key, shown in (("?", "What it does"), ("C-p", "Read the rules")):  # the help, the command palette
        offers_no_players_keys(dan, key, shown)

    dan.leave()  # his connection drops; the players see he is gone
    ana.tmux.wait_for(lambda s: "watching: Dan" not in flat(s), "Dan gone from Ana's prompt title")
    dan = Player(server, "Dan")
    dan.wait("you watch")  # (his lobby lists the game he watches)
    dan.type("Enter")
    dan.wait("Score · goal")
    ben.wait("watching: Dan")
    assert YOUR_MOVE not in flat(dan.screen())


def test_the_maker_cancels_a_room_and_everyone_waiting_in_it_is_told_even_with_a_window_open_over_it(server):
    ana = new_player(server, "Ana")
    code = make_room(ana, "1")  # you and a friend: public
    ben = small(server, "Ben", "join", code)
    ben.wait(f"Room {code} (you sit here)")
    cleo = new_player(server, "Cleo", "join", code)  # full: she waits to watch
    cleo.wait(f"Room {code} (you watch)")
    ana.wait("1 spectator")
    ben.type("?")  # the keys list, open over Ben's waiting screen while the room is cancelled
    ben.wait("What it does")
    ana.type("x")
    ana.wait(f"Cancel room {code}?")
    ana.type("y")
    cleo.hears(f"Ana cancelled room {code}: it is gone.")
    ben.hears("cancelled")  # (at 80 columns the toast's words wrap where they may)
    ben.type("Escape")  # the list closed: the room's screen went with the room, the lobby shows
    for other in (ben, cleo):
        other.wait("No games yet")
    assert f"Room {code}" not in flat(ben.screen())
    ana.wait("No games yet")


def in_game(player: Player) -> bool:
    return "i Inspect" in flat(player.screen())  # (a game's keys, in its footer)


def test_a_player_with_a_window_open_when_their_room_starts_is_told_and_taken_in_once_they_close_it(server):
    ana, dan = new_player(server, "Ana"), new_player(server, "Dan")
    first = make_room(ana, "1")  # (you and a friend)
    dan.wait(first)  # (listed under Open rooms: Dan's own is told by the notice of its making)
    dan.type("c")
    dan.wait("New room")
    dan.type("1")
    second = READY.search(flat(dan.wait("is ready")))[1]
    ben = small(server, "Ben", "join", first)
    ben.wait(f"Room {first} (you sit here)")
    ben.type("?")  # the help, over the room's waiting screen
    ben.wait("What it does")
    eve = new_player(server, "Eve", "join", second)
    eve.wait(f"Room {second} (you sit here)")
    eve.type("Escape")  # to the lobby, still in the room; then the rename form, a name half typed
    eve.wait("Your games")
    eve.type("r")
    eve.wait("Your new name")
    eve.type("BSpace", "BSpace", "BSpace", "Evi")

    for maker, player in ((ana, ben), (dan, eve)):
        maker.wait("to start")
        maker.type("s")
        maker.tmux.wait_for(lambda s: "Waiting for" in flat(s) or YOUR_MOVE in flat(s), f"{maker.name}'s game")
        player.hears("has begun")  # (told at once, with the bell)
    # each still has what they had open: Ben's help, Eve's name as she typed it
    assert "What it does" in flat(ben.screen()) and not in_game(ben)
    eve.wait("Evi")
    assert "Your new name" in flat(eve.screen()) and not in_game(eve)
    ben.type("Escape")  # the help closed (nothing else happens at the server): he is at his seat
    ben.tmux.wait_for(lambda s: in_game(ben), "Ben's game")
    eve.type("e", "Enter")  # her new name taken, the form closes: she is at her seat
    eve.tmux.wait_for(lambda s: in_game(eve), "Eve's game")
    eve.hears("You are Evie now")
