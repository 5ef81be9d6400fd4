"""The end of a game of `lagoon serve` over the stock OpenSSH client (issue 35, point 5): the end screen's replay
and score sheet, the lobby's finished games and records, and a rematch that a restart of the server does not lose.

The finished game is written into the server's save file before it starts (`tests.helpers.finished`: a real game
of the rules, every seat's first option to its end), in a room whose seats are the players' keys, as the lobby
keeps them. Ana plays at 80×24, Ben at 160×50.

Skipped where tmux or OpenSSH is missing, except in CI (.ci/run installs them).
"""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from lagoon_tui.widgets.prompt import GAME_OVER
from tests.helpers.finished import finished_room
from tests.helpers.ssh_players import REASON, LagoonServer, Player, new_player
from tests.helpers.terminal import flat

if REASON and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the lagoon serve tests, but {REASON}")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]

CODE = "FIN234"


def fingerprint(server: LagoonServer, player: str) -> str:
    """The player's key as the server knows them: its SHA256 fingerprint, as `ssh-keygen -l` writes it."""
    listed = subprocess.run(["ssh-keygen", "-lf", str(server.key(player))], capture_output=True, text=True, check=True)
    return listed.stdout.split()[1]


def ended(server: LagoonServer) -> None:
    """The server stopped, and every player's terminal closed (the next test's players take their names)."""
    for terminal in server.terminals:
        terminal.kill()
    server.stop()


def test_over_ssh_the_end_screen_replays_and_a_rematch_accepted_by_both_starts_after_a_restart(tmp_path):
    server = LagoonServer(tmp_path)
    keys = {fingerprint(server, "ana"): "Ana", fingerprint(server, "ben"): "Ben"}
    finished_room(server.db, CODE, keys, {2: "normal"}, seed=4)
    server.start()
    try:
        ana, ben = Player(server, "Ana", size=(80, 24)), Player(server, "Ben")
        for player in (ana, ben):
            player.wait(CODE)
            player.wait("1 game ·")  # their record, atop the lobby
        ben.wait("Ana: 1 game ·")  # the others' records: the highlighted room's players
        # from the lobby: Ben's finished games, the replay of one
        ben.type("f")
        ben.wait("Your finished games")
        ben.wait("of 3 · Ana, Ben, Cleo (computer, Normal)")
        ben.type("Enter")
        ben.wait("finished game: everything is shown")
        ben.type("Escape", "Escape")
        ben.wait("Your games")
        # from the end screen: the replay, its sheet, and the rematch asked for
        ana.type("Enter")
        ana.wait("Final ranking")
        ana.wait("m: a rematch")
        ana.type("p")
        ana.wait("everything shown")
        ana.type("v")
        ana.wait("Esc back")
        ana.type("Escape", "Escape")
        ana.wait("m: a rematch")
        ana.type("m")
        ana.wait("waiting for Ben")
        ben.wait("rematch: waiting for Ben")  # (his lobby's row of the game)
        assert server.stop() == 0
        for player in (ana, ben):
            player.gone()
            player.leave()

        server.start()
        ana, ben = Player(server, "Ana", size=(80, 24)), Player(server, "Ben")
        for player in (ana, ben):
            player.wait("rematch: waiting for Ben")  # (kept over the restart)
            player.type("Enter")
            player.wait("Final ranking")
        ben.wait("m: accept")
        ana.wait("waiting for Ben")
        ben.type("m")
        for player in (ana, ben):
            screen = player.wait("i Inspect")  # (taken to the rematch's game: a game's keys)
            assert GAME_OVER not in flat(screen)
    finally:
        ended(server)


def test_over_ssh_a_private_rooms_rematch_keeps_its_pace_and_privacy_and_takes_its_spectator_along(tmp_path):
    server = LagoonServer(tmp_path)
    keys = {fingerprint(server, "ana"): "Ana", fingerprint(server, "ben"): "Ben"}
    private = "FINXQ23456"
    finished_room(server.db, private, keys, {2: "normal"}, seed=4, private=True, pace=86400.0)
    server.start()
    try:
        dan = new_player(server, "Dan", "join", private)  # a spectator of the finished game, by its code
        dan.wait("Final ranking")
        ana, ben = Player(server, "Ana", size=(80, 24)), Player(server, "Ben")
        for player in (ana, ben):
            player.wait(private)
            player.type("Enter")
            player.wait("m: a rematch")
        ana.type("m")
        ben.wait("waiting for Ben")
        ben.type("m")
        for player in (ana, ben):
            screen = player.wait("i Inspect")  # (taken to the rematch's game)
            assert GAME_OVER not in flat(screen)
        ana.wait("watching: Dan")  # Dan was taken along: the players see him watch
        screen = dan.wait("Score · goal")
        assert GAME_OVER not in flat(screen) and "Final ranking" not in flat(screen)
        dan.leave()
        dan = Player(server, "Dan")  # back later: his lobby lists the rematch he watches, as its room is
        dan.wait("you watch")
        row = next(line for line in dan.screen().splitlines() if "you watch" in line)
        assert "1 day a move" in row and "private" in row, row
        new = re.search(r"\b([A-HJ-NP-Z2-9]{10})\b", row)
        assert new is not None and new[1] != private, "a private room's code: ten letters"
    finally:
        ended(server)
