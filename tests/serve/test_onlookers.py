"""A room of `lagoon serve` sends a move at once to the player who made it and to the one whose turn it is now,
and to the onlookers a moment later, one message for all the moves made meanwhile (issue 35: draw less per move).

The lobby runs on a loop of its own over a real save file, as in the server; each player is a bare link. The
room's wait for the onlookers is set long here, so that what reaches each link before it is known.
"""

from __future__ import annotations

from lagoon_tui.remote import RemoteHost
from tests.helpers.lobby import LobbyThread, named
from tests.helpers.rooms import until


def test_a_players_quick_moves_reach_the_next_player_at_once_and_each_onlooker_in_one_message(tmp_path):
    served = LobbyThread(tmp_path / "lagoon.db")
    try:
        players = named(served, "Ana", "Ben", "Cleo")
        ana = players[0]
        code = ana.link.ask("create", {"seats": ["person", "person", "person"], "seed": 3})["code"]
        for other in players[1:]:
            assert other.link.ask("join", {"code": code})["seat"] is not None
        assert ana.link.ask("start", {"code": code}) == {"started": True}
        for player in players:
            player.remote = RemoteHost(player.link)
            assert "seat" in player.link.ask("enter", {"code": code})
        until(lambda: all(p.remote.ready for p in players), "the game on every link")
        room = served.call(lambda: served.lobby.rooms[code].room)
        served.call(lambda: setattr(room, "onlooker_wait", lambda: 3600.0))
        until(lambda: len({p.remote.turn().seat for p in players}) == 1, "every link agrees whose turn it is")
        mover = next(p for p in players if p.remote.turn().seat == p.remote.seat)
        seen = {p.remote.seat: (p.remote.changes, p.remote.message) for p in players}
        moves = 0
        while mover.remote.turn().seat == mover.remote.seat:  # the mover plays to the end of their turn
            before = mover.remote.message
            assert mover.link.ask("choose", before.prompt.options[0].id) == {"made": True}
            until(lambda: mover.remote.message is not before, "the mover's own move, at once")
            moves += 1
        decider = next(p for p in players if p.remote.seat == mover.remote.turn().seat)
        until(lambda: decider.remote.turn().seat == decider.remote.seat, "the next player's turn, at once")
        (onlooker,) = [p for p in players if p not in (mover, decider)]
        assert (onlooker.remote.changes, onlooker.remote.message) == seen[onlooker.remote.seat]  # (not yet)
        assert moves > 1  # (the turn took the mover more than one move: the onlooker was owed several)

        served.call(room.send_owed)  # (the moment the room's wait ends)
        until(lambda: onlooker.remote.turn().seat == decider.remote.seat, "the moves, on the onlooker's link")
        assert onlooker.remote.changes == seen[onlooker.remote.seat][0] + 1  # one message for them all
        assert onlooker.remote.message.log[-1] == decider.remote.message.log[-1]
    finally:
        served.stop()
