"""`lagoon serve` closes a session whose player presses nothing (issue 36, point 3), warning them in the app.

The real command with `--idle-minutes 0.5` (the warning then comes 15 s
before the end, half the timeout), a player on the stock OpenSSH client in
tmux: the lobby shows the warning, a key puts the end off; then, in a game
against a computer, the game's screen shows it, and the session ends with a
sentence on the player's terminal.
"""

from __future__ import annotations

import pytest

from lagoon_tui.serve.ssh import IDLE_CLOSED
from tests.helpers.ssh_players import REASON, LagoonServer, make_room, new_player

pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]


def test_a_player_who_presses_nothing_is_warned_in_the_lobby_and_in_the_game_then_the_session_closes(tmp_path):
    server = LagoonServer(tmp_path, "--idle-minutes", "0.5")
    server.start()
    try:
        ana = new_player(server, "Ana")
        ana.wait("Your games")
        ana.hears("Still there?")  # in the lobby first
        ana.wait("Still there?")  # (on the screen: a key pressed now puts the end off)
        make_room(ana, "2")  # you and a computer
        ana.type("s")
        ana.wait("Score · goal")
        ana.received()  # (what came before, the lobby's warning with it, is not heard again)
        ana.hears("Still there?")  # (the warning's title: its sentence is wrapped in the toast)
        ana.ended_with(IDLE_CLOSED.format(idle="30 seconds"))
    finally:
        for terminal in server.terminals:
            terminal.kill()
        server.stop()
