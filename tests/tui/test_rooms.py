"""Rooms of `lagoon serve` (issue 35, point 4): public or private, leaving, cancelling, spectators.

The lobby runs on a loop of its own over a real save file, as in the server; each player is a bare link, as a
second terminal would be. A restart is a new lobby over the same file.
"""

from __future__ import annotations

from lagoon_tui.remote import RemoteHost
from lagoon_tui.screens.waiting_room import room_words
from lagoon_tui.serve.gathering import PRIVATE_CODE_LENGTH, TOLD_MOST
from lagoon_tui.serve.lobby import CODE_LETTERS
from tests.helpers.harness import FakeClock
from tests.helpers.lobby import LobbyThread, Terminal, named
from tests.helpers.rooms import until


def codes(terminal: Terminal, key: str) -> list[str]:
    """The codes of the rooms the last lobby frame lists under `key` ("mine" or "open")."""
    return [room["code"] for room in (terminal.last("lobby") or {}).get(key, [])]


def notices(terminal: Terminal) -> list[str]:
    return [str(b["text"]) for k, b in terminal.frames if k == "notice"]  # type: ignore[index]  # (an object)


def test_a_private_room_is_listed_only_to_those_in_it_and_reached_by_its_long_code_after_a_restart(tmp_path):
    first = LobbyThread(tmp_path / "lagoon.db")
    ana, ben = named(first, "Ana", "Ben")
    public = ana.link.ask("create", {"seats": ["person", "person"]})["code"]
    private = ana.link.ask("create", {"seats": ["person", "person", "person"], "private": True})["code"]
    assert len(private) == PRIVATE_CODE_LENGTH and set(private) <= set(CODE_LETTERS) and len(public) == 6
    until(lambda: public in codes(ben, "open") and private in codes(ana, "mine"), "both rooms pushed")
    assert private not in codes(ben, "open") + codes(ben, "mine")
    assert ben.link.ask("join", {"code": private.lower()}) == {"seat": 1, "waiting": True}
    until(lambda: private in codes(ben, "mine"), "the private room, Ben's now")
    first.stop()
    again = LobbyThread(tmp_path / "lagoon.db")
    try:
        cleo, ben = named(again, "Cleo")[0], Terminal(again.session("SHA256:ben"))
        until(lambda: ben.last("lobby") is not None and cleo.last("lobby") is not None, "both lobbies")
        assert codes(cleo, "open") == [public] and private in codes(ben, "mine")
        row = next(r for r in ben.last("lobby")["mine"] if r["code"] == private)
        assert row["private"] is True and [s["name"] for s in row["seats"]] == ["Ana", "Ben", None]
    finally:
        again.stop()


def test_a_public_game_under_way_stays_listed_to_others_to_watch_and_a_private_one_does_not(tmp_path):
    """A public room dropped out of Open rooms as its game began: nobody could find a game under way to watch
    without being given its code. It stays listed (after the rooms that want players) until its game is over."""
    served = LobbyThread(tmp_path / "lagoon.db")
    try:
        ana, ben, cleo = named(served, "Ana", "Ben", "Cleo")
        public = ana.link.ask("create", {"seats": ["person", "person"]})["code"]
        private = ana.link.ask("create", {"seats": ["person", "person"], "private": True})["code"]
        for code in (public, private):
            assert ben.link.ask("join", {"code": code}) == {"seat": 1, "waiting": True}
            assert ana.link.ask("start", {"code": code}) == {"started": True}
        waiting = ben.link.ask("create", {"seats": ["person", "person"]})["code"]
        until(lambda: codes(cleo, "open") == [waiting, public], "the room waiting first, then the game under way")
        row = next(r for r in cleo.last("lobby")["open"] if r["code"] == public)
        assert row["status"] == "playing" and [s["name"] for s in row["seats"]] == ["Ana", "Ben"]
        assert cleo.link.ask("join", {"code": public}) == {"seat": None}  # (Enter on it: she watches)
        assert codes(ana, "open") == [waiting] and public not in codes(ben, "open")  # (theirs: under Your games)
    finally:
        served.stop()


def test_a_player_leaves_a_room_its_maker_is_told_and_the_maker_cancels_it_and_everyone_there_is_told(tmp_path):
    first = LobbyThread(tmp_path / "lagoon.db")
    ana, ben, cleo, dan = named(first, "Ana", "Ben", "Cleo", "Dan")
    code = ana.link.ask("create", {"seats": ["person", "person", "person"]})["code"]
    assert ben.link.ask("join", {"code": code}) == {"seat": 1, "waiting": True}
    until(lambda: "Ben joined your room " + code + " (2 of 3 seats taken)." in notices(ana), "Ana told Ben joined")
    assert cleo.link.ask("join", {"code": code}) == {"seat": 2, "waiting": True}
    assert dan.link.ask("watch", {"code": code}) == {"seat": None, "waiting": True}
    until(lambda: f"Dan watches your room {code}." in notices(ana), "Ana told Dan watches")
    assert ana.link.ask("leave_room", {"code": code}) == {"refused": "You made this room: x cancels it."}
    assert ben.link.ask("cancel", {"code": code}) == {"refused": "Only the player who made this room can cancel it."}
    assert ben.link.ask("leave_room", {"code": code}) == {"left": True}
    until(lambda: f"Ben left your room {code}." in notices(ana), "Ana told Ben left")
    until(lambda: code not in codes(ben, "mine") and code in codes(ben, "open"), "the room, open to Ben again")

    def anas_row() -> dict:
        return next(r for r in ana.last("lobby")["mine"] if r["code"] == code)

    # (each lobby is pushed on its own: Ana's may come after Ben's)
    until(lambda: [s["name"] for s in anas_row()["seats"]] == ["Ana", None, "Cleo"], "Ben's seat open, in Ana's lobby")
    assert anas_row()["watchers"] == ["Dan"]
    first.stop()

    again = LobbyThread(tmp_path / "lagoon.db")  # the seat left and the spectator are kept
    try:
        ana, cleo, dan = (Terminal(again.session(f"SHA256:{n}")) for n in ("ana", "cleo", "dan"))
        until(lambda: all(t.last("lobby") is not None for t in (ana, cleo, dan)), "the lobbies")
        row = next(r for r in ana.last("lobby")["mine"] if r["code"] == code)
        assert [s["name"] for s in row["seats"]] == ["Ana", None, "Cleo"] and row["watchers"] == ["Dan"]
        assert next(r for r in dan.last("lobby")["mine"] if r["code"] == code)["watching"] is True
        assert ana.link.ask("cancel", {"code": code}) == {"cancelled": True}
        said = f"Ana cancelled room {code}: it is gone."
        until(lambda: said in notices(cleo) and said in notices(dan), "Cleo and Dan told")
        until(lambda: code not in codes(cleo, "mine") + codes(dan, "mine"), "the room gone from their lobbies")
        assert said not in notices(ana)
    finally:
        again.stop()
    last = LobbyThread(tmp_path / "lagoon.db")  # the cancelled room stays gone
    try:
        ana = Terminal(last.session("SHA256:ana"))
        until(lambda: ana.last("lobby") is not None, "Ana's lobby")
        assert codes(ana, "mine") == [] and ana.link.ask("join", {"code": code})["refused"].startswith("There is no")
    finally:
        last.stop()


def test_a_spectator_waits_in_a_full_room_watches_its_game_is_seen_by_the_players_and_finds_it_again(tmp_path):
    first = LobbyThread(tmp_path / "lagoon.db")
    ana, ben, dan = named(first, "Ana", "Ben", "Dan")
    code = ana.link.ask("create", {"seats": ["person", "person", "computer"], "seed": 4})["code"]
    ben.link.ask("join", {"code": code})
    assert dan.link.ask("join", {"code": code}) == {"seat": None, "waiting": True}  # (full: Dan waits to watch)
    until(lambda: code in codes(dan, "mine"), "the room in Dan's lobby")
    assert dan.last("lobby")["mine"][0]["watching"] is True
    assert ana.link.ask("start", {"code": code}) == {"started": True}
    until(lambda: dan.last("lobby")["mine"][0]["status"] == "playing", "the game under way, in Dan's lobby")
    ana.remote, dan.remote = RemoteHost(ana.link), RemoteHost(dan.link)
    assert ana.link.ask("enter", {"code": code}) == {"seat": 0}
    until(lambda: ana.last("watchers") == {"names": []}, "nobody watching yet")
    assert dan.link.ask("enter", {"code": code}) == {"seat": None}
    until(lambda: ana.last("watchers") == {"names": ["Dan"]}, "Dan watching, told to Ana")
    assert dan.link.ask("undo", {}) == {"refused": "It is not your turn.", "title": "Not your turn"}
    assert dan.link.ask("leave", {}) == {"left": True}
    until(lambda: ana.last("watchers") == {"names": []}, "Dan gone, told to Ana")
    first.stop()

    again = LobbyThread(tmp_path / "lagoon.db")
    try:
        dan = Terminal(again.session("SHA256:dan"))
        until(lambda: dan.last("lobby") is not None, "Dan's lobby")
        row = dan.last("lobby")["mine"][0]
        assert row["code"] == code and row["watching"] is True and row["seats"][1]["name"] == "Ben"
        assert dan.link.ask("leave_room", {"code": code}) == {"left": True}  # he stops watching
        until(lambda: codes(dan, "mine") == [], "the game gone from Dan's lobby")
    finally:
        again.stop()


def test_a_player_who_joins_and_leaves_over_and_over_cannot_flood_the_makers_screen(tmp_path):
    clock = FakeClock()
    server = LobbyThread(tmp_path / "lagoon.db", clock)
    try:
        ana, mal = named(server, "Ana", "Mal")
        code = ana.link.ask("create", {"seats": ["person", "person"]})["code"]
        for _ in range(10):
            assert mal.link.ask("join", {"code": code}) == {"seat": 1, "waiting": True}
            assert mal.link.ask("leave_room", {"code": code}) == {"left": True}
        assert mal.link.ask("watch", {"code": code}) == {"seat": None, "waiting": True}
        until(lambda: mal.last("lobby") is not None and code in codes(mal, "mine"), "Mal watching")
        assert ana.link.ask("name", {"name": "Ana"})  # (a round trip: every notice sent before it has come)
        assert len([n for n in notices(ana) if n.startswith("Mal ")]) == TOLD_MOST[0]
        clock.now += TOLD_MOST[1]
        assert mal.link.ask("leave_room", {"code": code}) == {"left": True}  # (he stops watching: not told)
        assert mal.link.ask("join", {"code": code}) == {"seat": 1, "waiting": True}
        until(lambda: f"Mal joined your room {code} (2 of 2 seats taken)." in notices(ana)[-1:], "told again")
    finally:
        server.stop()


def test_a_maker_playing_another_game_is_told_there_who_joined_their_room(tmp_path):
    server = LobbyThread(tmp_path / "lagoon.db")
    try:
        ana, ben = named(server, "Ana", "Ben")
        waiting = ana.link.ask("create", {"seats": ["person", "person"]})["code"]
        playing = ana.link.ask("create", {"seats": ["person", "computer"], "seed": 6})["code"]
        assert ana.link.ask("start", {"code": playing}) == {"started": True}
        ana.remote = RemoteHost(ana.link)
        assert ana.link.ask("enter", {"code": playing}) == {"seat": 0}
        until(lambda: ana.remote.ready, "Ana in her game")
        assert ben.link.ask("join", {"code": waiting}) == {"seat": 1, "waiting": True}
        until(lambda: f"Ben joined your room {waiting} (2 of 2 seats taken)." in notices(ana), "Ana told in her game")
    finally:
        server.stop()


def test_a_rooms_waiting_screen_says_its_pace():
    """The players who wait in a room read whether its game is live or over days, as the lobby's row says."""
    room = {"seats": [{"name": "Ana"}, {"name": None}], "creator": "Ana", "code": "ABC234"}
    assert "A game over days: 1 day a move." in room_words({**room, "pace": "1 day a move"}).plain
    assert "Played live" in room_words(room).plain
