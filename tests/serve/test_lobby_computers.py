"""The lobby's computer players over many games of one person and three computers (issue 36, point 6).

The lobby runs on a loop of its own over a real save file, as in the
server, with the computers at no pace (COMPUTER_PACE 0: they move as soon as
they have decided). The person plays through a bare link, as a terminal's
session would: a random option of each decision of theirs, and now and then
a move taken back, or the game left and entered again. Whatever the server
fails on, in a task of its loop or under a request, is caught: the loop's
exception handler, and the lines `lagoon_tui.serve.faults` writes.
"""

from __future__ import annotations

import logging
import random

import pytest

import lagoon_tui.serve.lobby as lobby_module
from lagoon_tui.remote import RemoteHost
from tests.helpers.lobby import LobbyThread, Terminal
from tests.helpers.rooms import until

GAMES, BATCHES = 200, 4
"""Games started one after another, in batches of a server each with a save file of its own (starting a
game reads every game of the file for damage: a file of 200 games makes the later ones slow to start).
The rooms of those left stay, each waiting for the person."""
DECISIONS = 12
"""The person's decisions in each game but the last WHOLE of each batch, which are played to their end."""
WHOLE = 1
TAKE_BACK, LEAVE = 0.08, 0.04
"""How often, of the person's decisions, they take back their move instead, or leave and come back."""


def enter(terminal: Terminal, code: str) -> RemoteHost:
    remote = terminal.remote = RemoteHost(terminal.link)
    assert "seat" in terminal.link.ask("enter", {"code": code})
    until(lambda: remote.ready, "the game's first message")
    return remote


def play(terminal: Terminal, code: str, rng: random.Random, decisions: int | None) -> None:
    """The person plays room `code` from its start, `decisions` of theirs (None: to the game's end), and
    leaves it."""
    remote = enter(terminal, code)
    made = 0
    while decisions is None or made < decisions:
        message = remote.latest
        if message.results is not None:
            break
        seen = remote.changes
        if message.prompt is None or message.turn.seat != 0:
            until(lambda: remote.changes > seen, "the computers' move")  # (a lost link fails it too)
            continue
        roll = rng.random()
        if roll < LEAVE:
            assert terminal.link.ask("leave", {}) == {"left": True}
            remote = enter(terminal, code)
        elif roll < LEAVE + TAKE_BACK:
            remote.undo()  # (taken back, or refused in words: either way the game goes on)
        elif remote.choose(rng.choice(message.prompt.options).id):
            made += 1
            until(lambda: remote.changes > seen, "the person's move")
    assert terminal.link.ask("leave", {}) == {"left": True}


@pytest.mark.slow
def test_hundreds_of_games_of_a_person_and_three_computers_meet_no_fault_in_the_server(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(lobby_module, "COMPUTER_PACE", 0.0)
    caplog.set_level(logging.WARNING, logger="lagoon_tui.serve")
    rng = random.Random(36)
    for batch in range(BATCHES):
        served = LobbyThread(tmp_path / f"lagoon{batch}.db")
        failed: list[dict] = []
        served.loop.set_exception_handler(lambda loop, context, failed=failed: failed.append(context))
        try:
            ana = Terminal(served.session("SHA256:ana"))
            assert ana.link.ask("name", {"name": "Ana"}) == {"name": "Ana"}
            games = GAMES // BATCHES
            for game in range(games):
                seed = batch * games + game + 1
                code = ana.link.ask("create", {"seats": ["person", "easy", "easy", "easy"], "seed": seed})["code"]
                assert ana.link.ask("start", {"code": code}) == {"started": True}
                play(ana, code, rng, None if game >= games - WHOLE else DECISIONS)
                assert not failed and not caplog.records, f"game {seed}: {failed or caplog.records}"
            entry = served.lobby.rooms[code]
            assert served.call(lambda: entry.room.host.turn().seat) is None, "the last game, played to its end"
        finally:
            served.stop()
        assert not failed and not caplog.records, failed or caplog.records
