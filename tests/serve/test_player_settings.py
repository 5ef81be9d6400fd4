"""A player's End turn setting at the server is theirs, not a seat's (issue 35 over SSH): turned off in one game,
it is off in every game of theirs, those under way and those to come, and the save file keeps it over a restart
of the server (`lagoon_tui.serve.player_settings`). Through the lobby's sockets, over a real save file."""

from __future__ import annotations

import asyncio

from lagoon_tui.remote import RemoteHost
from tests.helpers.lobby import LobbyThread, Terminal
from tests.helpers.rooms import WAIT, until


def named(served: LobbyThread, name: str) -> Terminal:
    terminal = Terminal(served.session(f"SHA256:{name.lower()}"))
    assert terminal.link.ask("name", {"name": name}) == {"name": name}
    return terminal


def started(ana: Terminal, ben: Terminal) -> str:
    """A room of Ana's (seat 0) and Ben's (seat 1), started; its code."""
    code = ana.link.ask("create", {"seats": ["person", "person"], "seed": 5})["code"]
    assert ben.link.ask("join", {"code": code})["seat"] == 1
    assert ana.link.ask("start", {"code": code}) == {"started": True}
    return code


def holds(served: LobbyThread, code: str, seat: int) -> bool:
    """Whether the room's game holds that seat's turns for End turn."""
    return served.call(lambda: served.lobby.rooms[code].room.host.holds_turns((seat,)))


def entered(terminal: Terminal, code: str, seat: int) -> None:
    terminal.remote = RemoteHost(terminal.link)
    assert terminal.link.ask("enter", {"code": code}) == {"seat": seat}
    until(lambda: terminal.remote.ready and terminal.last("holding") is not None, "the game, and End turn or not")


def test_end_turn_turned_off_in_one_game_is_off_in_every_game_of_the_player_and_after_a_restart(tmp_path):
    served = LobbyThread(tmp_path / "lagoon.db")
    try:
        ana, ben = named(served, "Ana"), named(served, "Ben")
        first, second = started(ana, ben), started(ana, ben)
        elsewhere = Terminal(served.session("SHA256:ana"))  # Ana's second session, in her other game
        entered(ana, first, 0)
        entered(elsewhere, second, 0)
        assert ana.last("holding") == elsewhere.last("holding") == {"on": True}  # (on, unless she says no)
        assert ana.link.ask("hold_turns", {"on": False}) == {"holding": False}
        until(lambda: elsewhere.last("holding") == {"on": False}, "her other game told")
        assert not holds(served, first, 0) and not holds(served, second, 0)
        assert holds(served, first, 1) and holds(served, second, 1)  # (Ben's are his own)
        later = started(Terminal(served.session("SHA256:ben")), Terminal(served.session("SHA256:ana")))  # (Ana
        # sits at seat 1 in a game begun after; both from the lobby, in sessions of their own)
        assert not holds(served, later, 1) and holds(served, later, 0)
    finally:
        served.stop()

    again = LobbyThread(tmp_path / "lagoon.db")  # the server, restarted over the same save file
    try:
        assert asyncio.run_coroutine_threadsafe(again.lobby.open_rooms(), again.loop).result(WAIT) == []
        ana, ben = Terminal(again.session("SHA256:ana")), Terminal(again.session("SHA256:ben"))
        entered(ana, second, 0)
        entered(ben, second, 1)
        assert ana.last("holding") == {"on": False} and ben.last("holding") == {"on": True}
        assert not holds(again, first, 0) and not holds(again, later, 1) and holds(again, later, 0)
        assert ana.link.ask("hold_turns", {"on": True}) == {"holding": True}  # and back on, everywhere
        assert holds(again, first, 0) and holds(again, later, 1)
    finally:
        again.stop()
