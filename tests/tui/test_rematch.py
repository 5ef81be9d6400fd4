"""The end of a game of `lagoon serve` (issue 35, point 5), through the lobby's sockets: rematches, the finished
game's log for its replay and score sheet, and each player's record.

The lobby runs on a loop of its own over a real save file, as in the server; the players speak to it through
bare links (as a second terminal would), and a room's game is brought to its end by its own host
(`tests.helpers.finished`), every seat taking its first option.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from lagoon_tui.link import Link
from lagoon_tui.remote import RemoteHost
from lagoon_tui.screens.finished import FinishedScreen
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.screens.lobby import LobbyScreen, NameForm
from lagoon_tui.screens.replay import ReplayScreen
from lagoon_tui.screens.served_end import ServedEndScreen
from lagoon_tui.screens.sheet import SheetScreen
from lagoon_tui.serve.gathering import PRIVATE_CODE_LENGTH
from lagoon_tui.serve.lobby import CODE_LENGTH
from lagoon_tui.session_app import SessionApp
from lagoon_tui.widgets.prompt import GAME_OVER
from rules.host import replay_from_json
from rules.seat import catalogue_from_json
from tests.helpers.drive import screen_text
from tests.helpers.finished import play_out
from tests.helpers.lobby import LobbyThread, Terminal, named
from tests.helpers.rooms import until, until_shown


@pytest.fixture
def server(tmp_path):
    served = LobbyThread(tmp_path / "lagoon.db")
    yield served
    served.stop()


def finished_game(
    served: LobbyThread, seats=("person", "person", "hard"), seed: int = 4, **made: object
) -> tuple[str, list]:
    """Ana's room (Ben in the second seat, then the computers of `seats`; `made`: more of the room's making, its
    pace or privacy) played to its end; its code and Ana's and Ben's terminals, both in the finished game."""
    ana, ben = named(served, "Ana", "Ben")
    code = ana.link.ask("create", {"seats": list(seats), "seed": seed, **made})["code"]
    assert ben.link.ask("join", {"code": code}) == {"seat": 1, "waiting": True}
    assert ana.link.ask("start", {"code": code}) == {"started": True}
    play_out(served, code)
    for seat, terminal in enumerate((ana, ben)):
        terminal.remote = RemoteHost(terminal.link)
        assert terminal.link.ask("enter", {"code": code}) == {"seat": seat}
        until(lambda t=terminal: t.remote.ready and t.remote.over, "the finished game on screen")
    return code, [ana, ben]


def accepted(state: dict) -> dict[str, bool]:
    return {seat["name"]: seat["accepted"] for seat in state["seats"]}


def restarted(tmp_path) -> LobbyThread:
    served = LobbyThread(tmp_path / "lagoon.db")
    problems = asyncio.run_coroutine_threadsafe(served.lobby.open_rooms(), served.loop).result(30)
    assert problems == []
    return served


def test_a_rematch_waits_for_every_person_survives_a_restart_and_starts_with_the_same_seats(tmp_path):
    first = LobbyThread(tmp_path / "lagoon.db")
    code, (ana, ben) = finished_game(first)
    before = first.lobby.rooms[code]
    old_names, old_seed = list(before.room.names), before.room.host.engine.state.seed
    state = ana.link.ask("rematch", {"accept": True})["rematch"]
    assert accepted(state) == {"Ana": True, "Ben": False, "Cleo": True}  # (the computer accepts at once)
    assert state["started"] is None
    until(lambda: ben.last("rematch") == state, "where the rematch stands, on Ben's screen")
    until(lambda: ben.last("notice") == {"text": "Ana accepts a rematch."})
    until(lambda: ben.last("lobby") is not None)
    first.stop()

    again = restarted(tmp_path)
    try:
        ana, ben = (Terminal(again.session(f"SHA256:{key}")) for key in ("ana", "ben"))
        until(lambda: ben.last("lobby") is not None)
        row = next(r for r in ben.last("lobby")["mine"] if r["code"] == code)
        assert accepted(row["rematch"]) == {"Ana": True, "Ben": False, "Cleo": True}, "kept over the restart"
        for seat, terminal in enumerate((ana, ben)):
            terminal.remote = RemoteHost(terminal.link)
            assert terminal.link.ask("enter", {"code": code}) == {"seat": seat}
            until(lambda t=terminal: t.remote.ready)
        state = ben.link.ask("rematch", {"accept": True})["rematch"]
        new = state["started"]
        assert new and new != code
        until(lambda: (ana.last("rematch") or {}).get("started") == new, "the rematch's room, told to Ana")
        entry, old = again.lobby.rooms[new], again.lobby.rooms[code]
        assert [(s.key, s.computer, s.level) for s in entry.seats] == [(s.key, s.computer, s.level) for s in old.seats]
        assert entry.room is not None and entry.room.names == old_names
        assert entry.room.host.engine.state.seed != old_seed
        assert not entry.room.host.over
        # a second "yes" changes nothing: the rematch is the one started
        assert ana.link.ask("rematch", {"accept": True})["rematch"]["started"] == new
    finally:
        again.stop()
    # and the started rematch is still there after another restart
    third = restarted(tmp_path)
    try:
        ben = Terminal(third.session("SHA256:ben"))
        until(lambda: ben.last("lobby") is not None)
        rows = {r["code"]: r for r in ben.last("lobby")["mine"]}
        assert rows[new]["status"] == "playing" and rows[code]["rematch"]["started"] == new
        assert len(third.lobby.rooms) == 2, "the rematch was started once"
    finally:
        third.stop()


def test_a_rematch_keeps_its_rooms_pace_and_privacy_and_its_spectators_watch_it_after_a_restart_too(tmp_path):
    first = LobbyThread(tmp_path / "lagoon.db")
    code, (ana, ben) = finished_game(first, pace="1d", private=True)
    dan, _ = named(first, "Dan", "Eve")
    dan.remote = RemoteHost(dan.link)
    assert dan.link.ask("enter", {"code": code}) == {"seat": None}  # (Dan watches the end screen)
    until(lambda: dan.remote.ready and dan.remote.over, "the finished game on Dan's screen")
    ana.link.ask("rematch", {"accept": True})
    new = ben.link.ask("rematch", {"accept": True})["rematch"]["started"]
    assert len(new) == PRIVATE_CODE_LENGTH, "a private room's rematch has a private room's code"

    def rows(terminal: Terminal) -> dict:
        until(lambda: any(r["code"] == new for r in (terminal.last("lobby") or {"mine": []})["mine"]), "it listed")
        return {r["code"]: r for r in terminal.last("lobby")["mine"]}

    for served, keep in ((first, False), (None, True)):
        if keep:  # the same, after a restart
            first.stop()
            served = restarted(tmp_path)
        ana, dan, eve = (Terminal(served.session(f"SHA256:{key}")) for key in ("ana", "dan", "eve"))  # (in the lobby)
        try:
            row = rows(ana)[new]
            assert row["private"] is True and row["pace"] == "1 day a move" == rows(ana)[code]["pace"]
            watched = rows(dan)[new]
            assert watched["watching"] is True and watched["status"] == "playing", "Dan finds the rematch he watches"
            assert row["watchers"] == ["Dan"], "the players see who watches"
            until(lambda: eve.last("lobby") is not None)
            assert all(r["code"] != new for r in eve.last("lobby")["open"] + eve.last("lobby")["mine"])
        finally:
            if keep:
                served.stop()


def test_a_rematch_of_a_public_live_room_is_public_and_live(server, caplog):
    code, (ana, ben) = finished_game(server)
    ana.link.ask("rematch", {"accept": True})
    with caplog.at_level(logging.INFO, logger="lagoon_tui"):
        new = ben.link.ask("rematch", {"accept": True})["rematch"]["started"]
    assert len(new) == CODE_LENGTH
    assert f"room {new} made: the rematch of room {code}, the same seats" in caplog.messages  # (the console's)
    ana = Terminal(server.session("SHA256:ana"))  # (her lobby)
    until(lambda: any(r["code"] == new for r in (ana.last("lobby") or {"mine": []})["mine"]), "the rematch listed")
    row = next(r for r in ana.last("lobby")["mine"] if r["code"] == new)
    assert row["private"] is False and row["pace"] == "live" and row["watchers"] == []


def test_a_player_who_declines_or_leaves_is_told_to_the_others_and_nothing_starts_without_everyone(server):
    code, (ana, ben) = finished_game(server, seats=("person", "person"))
    ana.link.ask("rematch", {"accept": True})
    assert ben.link.ask("leave", {}) == {"left": True}
    until(lambda: ana.last("notice") == {"text": "The rematch waits for Ben, who may still answer from the lobby."})
    until(lambda: "rematch" in next(r for r in ben.last("lobby")["mine"] if r["code"] == code))
    ben.remote = RemoteHost(ben.link)
    assert ben.link.ask("enter", {"code": code}) == {"seat": 1}
    state = ben.link.ask("rematch", {"accept": False})["rematch"]
    assert state["declined"] == "Ben" and accepted(state) == {"Ana": False, "Ben": False}
    until(lambda: ana.last("notice") == {"text": "Ben declined the rematch."})
    until(lambda: ana.last("rematch") == state)
    assert len(server.lobby.rooms) == 1
    # asked again, it starts once both have said yes
    assert ben.link.ask("rematch", {"accept": True})["rematch"]["started"] is None
    assert ana.link.ask("rematch", {"accept": True})["rematch"]["started"] in server.lobby.rooms


def test_only_the_players_answer_a_rematch_and_only_once_the_game_is_over(server):
    ana, ben, dan = named(server, "Ana", "Ben", "Dan")
    code = ana.link.ask("create", {"seats": ["person", "person"], "seed": 2})["code"]
    ben.link.ask("join", {"code": code})
    ana.link.ask("start", {"code": code})
    ana.remote = RemoteHost(ana.link)
    ana.link.ask("enter", {"code": code})
    until(lambda: ana.remote.ready)
    assert ana.link.ask("rematch", {"accept": True}) == {"refused": "A rematch is asked for once the game is over."}
    play_out(server, code)
    dan.remote = RemoteHost(dan.link)
    assert dan.link.ask("enter", {"code": code}) == {"seat": None}
    until(lambda: dan.remote.ready)
    assert dan.link.ask("rematch", {"accept": True}) == {"refused": "Only the players may decide that."}


def test_a_finished_games_log_replays_it_to_the_end_screens_ranking_and_an_unfinished_ones_is_refused(server):
    ana, ben = named(server, "Ana", "Ben")
    code = ana.link.ask("create", {"seats": ["person", "person", "normal"], "seed": 6})["code"]
    ben.link.ask("join", {"code": code})
    ana.link.ask("start", {"code": code})
    refused = {"refused": "This game is not over: its replay is shown once it is."}
    assert ben.link.ask("log", {"code": code}) == refused, "a game under way's log holds every hand"
    ana.remote = RemoteHost(ana.link)
    ana.link.ask("enter", {"code": code})
    until(lambda: ana.remote.ready)
    assert ana.link.ask("log", {}) == refused
    play_out(server, code)
    until(lambda: ana.remote.over)
    end_screen = ana.remote.message.results
    for answer in (ana.link.ask("log", {}), ben.link.ask("log", {"code": code})):  # from the game, from the lobby
        replay = replay_from_json(catalogue_from_json(answer["content"]), answer["log"])
        assert replay.reveal and replay.results == end_screen
        assert answer["levels"] == {"2": "normal"}


def test_records_count_each_players_places_as_the_end_screen_ranks_them(server):
    code, (ana, ben) = finished_game(server, seats=("person", "person", "normal"), seed=4)
    results = ana.remote.message.results
    ana.link.ask("leave", {})
    ben.link.ask("leave", {})
    # a second game, ended later: listed first
    second = ana.link.ask("create", {"seats": ["person", "person"], "seed": 9})["code"]
    ben.link.ask("join", {"code": second})
    ana.link.ask("start", {"code": second})
    later = play_out(server, second).scene(None).results
    places = {name: [results.player(seat).place, later.player(seat).place] for seat, name in enumerate(("Ana", "Ben"))}

    def words(won: list[int]) -> str:
        wins = won.count(1)
        others = " · ".join(f"{p}{'nd' if p == 2 else 'rd'} ×{won.count(p)}" for p in sorted(set(won) - {1}))
        return " · ".join(filter(None, ["2 games", f"{wins} win{'s' if wins != 1 else ''}", others]))

    until(lambda: ana.last("lobby")["record"] == words(places["Ana"]), "Ana's record atop her lobby")
    until(lambda: ben.last("lobby")["record"] == words(places["Ben"]), "Ben's record atop his lobby")
    lobby = ben.last("lobby")
    row = next(r for r in lobby["mine"] if r["code"] == code)
    assert [s.get("record") for s in row["seats"]] == [words(places["Ana"]), words(places["Ben"]), None]
    games = ana.link.ask("finished", {})["games"]
    assert [g["code"] for g in games] == [second, code]
    assert [g["place"] for g in games] == places["Ana"][::-1]
    assert games[1]["names"] == ["Ana", "Ben", "Cleo"] and games[1]["levels"] == {"2": "normal"}


async def ana_in_her_finished_game(server, pilot, app, seats=("person", "person", "normal")) -> tuple[str, Terminal]:
    """Ana (in the app) and Ben (a bare link) at the end of a game of Ana's room; its code and Ben's terminal."""
    await until_shown(pilot, lambda: isinstance(app.screen, NameForm), "the name form")
    await pilot.press(*"Ana", "enter")
    await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    (ben,) = named(server, "Ben")
    app.create_room({"seats": list(seats), "seed": 4})
    await until_shown(pilot, lambda: app.lobby["mine"], "Ana's room in her lobby")
    code = app.lobby["mine"][0]["code"]
    ben.link.ask("join", {"code": code})
    app.start_room(code)
    await until_shown(pilot, lambda: isinstance(app.screen, GameScreen), "Ana's game")
    play_out(server, code)
    await until_shown(pilot, lambda: GAME_OVER in screen_text(app), "the game's last board")
    await pilot.press("enter")
    await until_shown(pilot, lambda: isinstance(app.screen, ServedEndScreen), "the end screen")
    return code, ben


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
async def test_from_the_end_screen_a_rematch_is_asked_for_and_taken_and_the_replay_and_sheet_open(server, size):
    app = SessionApp(Link(server.session("SHA256:ana")))
    async with app.run_test(size=size, notifications=True) as pilot:
        code, ben = await ana_in_her_finished_game(server, pilot, app)
        results = app.remote.message.results
        assert "m: a rematch" in screen_text(app)
        await pilot.press("p")  # the replay, from the game's whole log
        await until_shown(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        assert app.screen.replay.results == results
        await pilot.press("v")  # and its score sheet
        await until_shown(pilot, lambda: isinstance(app.screen, SheetScreen), "the score sheet")
        assert app.screen.results == results
        await pilot.press("escape", "escape")
        await until_shown(pilot, lambda: isinstance(app.screen, ServedEndScreen), "back at the end screen")
        await pilot.press("m")
        await until_shown(
            pilot,
            lambda: "Rematch: Ana, Cleo (computer) accepted · waiting for Ben" in screen_text(app),
            "who accepted and who is awaited",
        )
        ben.remote = RemoteHost(ben.link)
        assert ben.link.ask("enter", {"code": code}) == {"seat": 1}
        until(lambda: ben.remote.ready)
        new = ben.link.ask("rematch", {"accept": True})["rematch"]["started"]
        await until_shown(
            pilot,
            lambda: isinstance(app.screen, GameScreen) and app.room_code == new and app.remote.ready,
            "Ana taken to the rematch's game",
        )
        assert app.screen.own == 0 and not app.remote.over


async def test_the_lobby_lists_ones_finished_games_newest_first_and_shows_the_records(server):
    app = SessionApp(Link(server.session("SHA256:ana")))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        code, ben = await ana_in_her_finished_game(server, pilot, app, seats=("person", "person"))
        results = app.remote.message.results
        place = results.player(0).place
        await pilot.press("b")
        await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        record = "1 game · 1 win" if place == 1 else "1 game · 0 wins · 2nd ×1"
        await until_shown(pilot, lambda: f"Lagoon · Ana · {record}" in screen_text(app), "Ana's record atop")
        other = "1 game · 0 wins · 2nd ×1" if place == 1 else "1 game · 1 win"
        app.clear_notifications()  # (the toasts of the room's making and joining lie over the records' line)
        await pilot.pause()
        assert f"Ben: {other}" in screen_text(app), "the records of the highlighted room's players"
        await pilot.press("f")
        await until_shown(pilot, lambda: isinstance(app.screen, FinishedScreen), "Ana's finished games")
        assert f"{code}  {'1st' if place == 1 else '2nd'} of 2 · Ana, Ben" in screen_text(app)
        await pilot.press("v")
        await until_shown(pilot, lambda: isinstance(app.screen, SheetScreen), "its score sheet")
        assert app.screen.results == results
        await pilot.press("escape", "enter")
        await until_shown(pilot, lambda: isinstance(app.screen, ReplayScreen), "its replay")
        assert app.screen.replay.results == results


async def test_a_spectator_at_the_end_screen_sees_who_accepted_and_has_no_key_to_answer(server):
    code, (ana, ben) = finished_game(server)
    app = SessionApp(Link(server.session("SHA256:dan")))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until_shown(pilot, lambda: isinstance(app.screen, NameForm), "the name form")
        await pilot.press(*"Dan", "enter")
        await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        app.join_room(code)
        await until_shown(pilot, lambda: isinstance(app.screen, ServedEndScreen), "the end screen, watched")
        assert "Rematch" not in screen_text(app)
        ana.link.ask("rematch", {"accept": True})
        await until_shown(
            pilot, lambda: "Rematch: Ana, Cleo (computer) accepted · waiting for Ben" in screen_text(app), "the rematch"
        )
        assert "m: " not in screen_text(app) and "d: decline" not in screen_text(app)
        await pilot.press("m")
        await pilot.pause(0.1)
        assert accepted(ben.link.ask("rematch", {"accept": None})["rematch"]) == {
            "Ana": True,
            "Ben": False,
            "Cleo": True,
        }


async def test_a_spectator_still_on_the_finished_board_is_taken_to_the_rematch_and_nobody_reads_that_players_left(
    server,
):
    ana, ben = named(server, "Ana", "Ben")
    code = ana.link.ask("create", {"seats": ["person", "person", "hard"], "seed": 4})["code"]
    ben.link.ask("join", {"code": code})
    ana.link.ask("start", {"code": code})
    app = SessionApp(Link(server.session("SHA256:dan")))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until_shown(pilot, lambda: isinstance(app.screen, NameForm), "the name form")
        await pilot.press(*"Dan", "enter")
        await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        app.join_room(code)  # Dan watches the game under way
        await until_shown(pilot, lambda: isinstance(app.screen, GameScreen) and app.remote.ready, "the game, watched")
        play_out(server, code)
        await until_shown(pilot, lambda: GAME_OVER in screen_text(app), "the game's last board, still on screen")
        for seat, terminal in enumerate((ana, ben)):
            terminal.remote = RemoteHost(terminal.link)
            assert terminal.link.ask("enter", {"code": code}) == {"seat": seat}
            until(lambda t=terminal: t.remote.ready and t.remote.over, "the finished game, for a player")
        ana.link.ask("rematch", {"accept": True})
        new = ben.link.ask("rematch", {"accept": True})["rematch"]["started"]
        await until_shown(
            pilot,
            lambda: isinstance(app.screen, GameScreen) and app.room_code == new and app.remote.ready,
            "Dan taken from the finished board to the rematch",
        )
        assert app.screen.own is None and not app.remote.over  # (watching it: no seat)
        told = f"Everyone accepted: this is the rematch, in room {new}."
        assert any(n.message == told for n in app._notifications)
        # one who leaves the finished game now is not said to have simply left
        assert ana.link.ask("leave", {}) == {"left": True}
        until(lambda: ben.last("notice") == {"text": f"Ana left; the rematch is in room {new}."}, "Ana's leaving")
