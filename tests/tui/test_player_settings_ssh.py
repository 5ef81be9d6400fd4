"""A player's End turn setting over real ssh: turned off from ctrl+p, it is still off when they connect again,
after the server was restarted too (the save file keeps it by their key: `lagoon_tui.serve.player_settings`)."""

from __future__ import annotations

import os

import pytest

from tests.helpers.ssh_players import REASON, Player, two_playing

if REASON and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the lagoon serve tests, but {REASON}")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]


def end_turn_command(player: Player) -> str:
    """The palette's End turn command, as the player finds it: its line says whether it is on now."""
    player.type("C-p")
    player.wait("Search for commands")
    player.type("End turn")
    return player.wait("End turn: ask or not")


def test_a_player_who_turned_end_turn_off_finds_it_off_when_they_connect_again_after_a_restart(server):
    code, (ana, ben) = two_playing(server)
    assert "(now on)" in end_turn_command(ana)
    ana.type("Enter")
    ana.hears("Each turn ends at its last move.")
    ana.leave()  # her connection drops; then the server stops and starts again
    assert server.stop() == 0
    ben.leave()
    server.start()
    ana = Player(server, "Ana", "join", code)
    ana.wait("Score · goal")
    assert "(now off)" in end_turn_command(ana)
    ana.type("Escape")
    ben = Player(server, "Ben", "join", code)  # (Ben's turns still wait: the setting is Ana's own)
    ben.wait("Score · goal")
    assert "(now on)" in end_turn_command(ben)
