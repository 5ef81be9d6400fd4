"""The lobby when its save file fails, and when a request meets a bug (issue 36, points 5 and 6).

The faults are real: a full disk is a small tmpfs filled with a filler file
until the kernel says ENOSPC (tests/helpers/disk.py: needs root, skipped
otherwise), and a read-only file is the server's own SQLite connection told
`PRAGMA query_only` (SQLite then refuses every write as it refuses one to a
file it opened read-only). Each action is refused with a sentence that names
nothing of the server's machine, the session goes on, nothing of it is kept
(a restart shows the lobby as it was before), and the server's console says
where it happened. A bug is a request that makes a handler raise: the
content of a room's game taken away under it.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import pytest

import lagoon_tui.serve.lobby as lobby_module
from lagoon_tui.remote import RemoteHost
from lagoon_tui.serve.faults import BUG
from rules.host import NotMade
from tests.helpers.disk import FullDisk
from tests.helpers.lobby import Held, LobbyThread, Terminal
from tests.helpers.rooms import WAIT, until

CAUSE = {
    "full disk": "The save file could not be written: its disk is full (or failed).",
    "read-only": "The save file could not be written: it is read-only.",
}
"""What a player is told of each fault (the first sentence of every refusal)."""


@dataclass
class Faulty:
    """A lobby over a save file whose fault the test puts on (`on`) and takes off (`off`)."""

    kind: str
    db: Path
    on: Callable[[], None]
    off: Callable[[], None]
    served: LobbyThread

    def restart(self) -> LobbyThread:
        """The server stopped and started again on the same file (its fault off)."""
        self.served.stop()
        self.served = LobbyThread(self.db)
        return self.served


@pytest.fixture(params=["full disk", "read-only"])
def faulty(request, tmp_path) -> Iterator[Faulty]:
    if request.param == "full disk":
        disk = FullDisk.mount(tmp_path / "disk")
        if isinstance(disk, str):
            pytest.skip(disk)
        served = LobbyThread(disk.folder / "lagoon.db")
        fault = Faulty(request.param, disk.folder / "lagoon.db", disk.fill, disk.free, served)
    else:
        served = LobbyThread(tmp_path / "lagoon.db")

        def query_only(on: bool) -> None:  # (on the server's loop, which alone uses its connection)
            fault.served.call(lambda: fault.served.store.conn.execute(f"PRAGMA query_only = {int(on)}"))

        fault = Faulty(
            request.param, tmp_path / "lagoon.db", lambda: query_only(True), lambda: query_only(False), served
        )
    try:
        yield fault
    finally:
        fault.off()
        fault.served.stop()
        if request.param == "full disk":
            disk.unmount()


def named(served: LobbyThread, key: str, name: str) -> Terminal:
    terminal = Terminal(served.session(f"SHA256:{key}"))
    assert terminal.link.ask("name", {"name": name}) == {"name": name}
    return terminal


def nothing_of_the_server(terminals: list[Terminal], db: Path) -> None:
    """No frame any session received names the save file's folder (or any path of the server's)."""
    for terminal in terminals:
        text = json.dumps(terminal.frames)
        assert str(db.parent) not in text and db.name not in text


def lobby_as_saved(served: LobbyThread) -> tuple:
    """Who has which name, and each room's seats and game (None: not started), as the lobby holds them."""
    rooms = {code: ([seat.key for seat in e.seats], e.game is None) for code, e in served.lobby.rooms.items()}
    return dict(served.lobby.names), rooms


def test_while_the_save_file_refuses_every_lobby_action_is_refused_in_words_and_nothing_is_kept(faulty, caplog):
    caplog.set_level(logging.WARNING, logger="lagoon_tui.serve")
    served = faulty.served
    ana, cleo = named(served, "ana", "Ana"), named(served, "cleo", "Cleo")
    ben = Terminal(served.session("SHA256:ben"))  # (a new player: not named yet)
    open_room = ana.link.ask("create", {"seats": ["person", "person"]})["code"]
    full_room = ana.link.ask("create", {"seats": ["person", "person"], "seed": 4})["code"]
    assert cleo.link.ask("join", {"code": full_room}) == {"seat": 1, "waiting": True}
    before = served.call(lambda: lobby_as_saved(served))

    faulty.on()
    refused = {
        "name": ben.link.ask("name", {"name": "Ben"}),
        "create": ana.link.ask("create", {"seats": ["person", "easy"]}),
        "join": cleo.link.ask("join", {"code": open_room.lower()}),
        "start": ana.link.ask("start", {"code": full_room}),
    }
    told = f"{CAUSE[faulty.kind]} Nothing was changed; try again later."
    assert refused == dict.fromkeys(refused, {"refused": told})
    # every session goes on: each is answered again, and nothing of the lobby changed
    assert ben.link.ask("name", {"name": ""})["refused"] and ben.link.lost is None
    for terminal in (ana, cleo):
        assert terminal.link.ask("join", {"code": "NOPE99"}) == {
            "refused": "There is no room 'NOPE99': check the code."
        }
    assert served.call(lambda: lobby_as_saved(served)) == before
    nothing_of_the_server([ana, ben, cleo], faulty.db)
    said = [record.getMessage() for record in caplog.records]
    for where in ("request name", "request create", f"request join, room {open_room}", f"room {full_room}"):
        assert any(where in line and "not saved" in line and str(faulty.db) in line for line in said), (where, said)

    faulty.off()
    served = faulty.restart()  # (what a restart opens is what was saved: the lobby as it was before)
    assert served.call(lambda: lobby_as_saved(served)) == before
    ben = Terminal(served.session("SHA256:ben"))
    until(lambda: ben.last("hello") is not None)
    assert ben.last("hello") == {"name": None}
    assert ben.link.ask("name", {"name": "Ben"}) == {"name": "Ben"}
    ana, cleo = Terminal(served.session("SHA256:ana")), Terminal(served.session("SHA256:cleo"))
    assert cleo.link.ask("join", {"code": open_room}) == {"seat": 1, "waiting": True}
    assert ana.link.ask("start", {"code": full_room}) == {"started": True}
    assert "code" in ana.link.ask("create", {"seats": ["person", "easy"]})


def test_while_the_save_file_refuses_a_move_is_refused_in_words_and_a_computer_tries_again(faulty, caplog, monkeypatch):
    monkeypatch.setattr(lobby_module, "COMPUTER_PACE", 0.0)
    monkeypatch.setattr(lobby_module, "COMPUTER_RETRY", 0.05)
    caplog.set_level(logging.WARNING, logger="lagoon_tui.serve")
    served = faulty.served
    ana = named(served, "ana", "Ana")
    code = ana.link.ask("create", {"seats": ["person", "normal"], "seed": 9})["code"]
    assert ana.link.ask("start", {"code": code}) == {"started": True}
    remote = ana.remote = RemoteHost(ana.link)
    assert ana.link.ask("enter", {"code": code}) == {"seat": 0}
    until(lambda: remote.ready and remote.turn().seat == 0 and remote.latest.prompt is not None, "Ana's decision")
    entry = served.lobby.rooms[code]

    faulty.on()
    seen = remote.changes
    option = remote.latest.prompt.options[0].id
    refused = ana.link.ask("choose", option)
    assert refused == {
        "refused": f"{CAUSE[faulty.kind]} Your move was not made.",
        "title": "Not saved",
        "not_made": True,
    }
    assert remote.choose(option) == NotMade(option, refused["refused"], "Not saved")  # (as the game screen hears it)
    assert remote.changes == seen and served.call(lambda: entry.room.host.turn().seat) == 0
    assert any(f"room {code}, seat 0, a move" in r.getMessage() for r in caplog.records)

    faulty.off()
    held = Held(None)

    def hold() -> None:  # (Ana decides: no search is under way, the next one is held)
        held.player, entry.computers[1] = entry.computers[1], held

    served.call(hold)
    try:
        for _ in range(200):  # Ana decides until the computer is asked
            if held.asked.is_set():
                break
            message = remote.latest
            if message.prompt is not None and message.turn.seat == 0:
                assert remote.choose(message.prompt.options[0].id)
                until(lambda: remote.latest is not message or held.asked.is_set(), "Ana's move")
        assert held.asked.wait(WAIT), "the computer's decision"
        faulty.on()
        held.go.set()
        name = remote.latest.view["players"][1]["name"]
        stalled = (
            f"{name}'s move could not be made: the server could not save it. The computer tries again every 0.05 s."
        )
        until(lambda: ("notice", {"text": stalled}) in ana.frames, "the computer's move, not saved, told to Ana")
        marks = served.call(lambda: len(entry.room.host.engine.marks))
        faulty.off()
        until(lambda: ("notice", {"text": f"{name}'s move is saved: the game goes on."}) in ana.frames, "the retry")
        assert served.call(lambda: len(entry.room.host.engine.marks)) > marks
        assert [f for f in ana.frames if f == ("notice", {"text": stalled})] == [("notice", {"text": stalled})]
    finally:
        held.go.set()
    nothing_of_the_server([ana], faulty.db)


# --- bugs: what a request, or a computer's move, that fails on one does ------------------------


class Planted(Exception):
    """A bug the test plants in the server."""


def plant(*_: object) -> dict:
    raise Planted("a bug planted by the test")


@pytest.fixture
def server(tmp_path) -> Iterator[LobbyThread]:
    served = LobbyThread(tmp_path / "lagoon.db")
    yield served
    served.stop()


def console(caplog, where: str) -> str:
    """The console's first line about a bug met `where`, which says where its report is (and the report names
    it). (A lobby sent again meets the bug again, as often as the lobby is pushed: one line each time.) Waited
    for: the bug may be met after another link was sent its screen (the mover's first, others up to the room's
    `onlooker_wait()` later)."""

    def lines() -> list[str]:
        return [r.getMessage() for r in list(caplog.records) if where in r.getMessage() and "a bug" in r.getMessage()]

    until(lambda: bool(lines()), f"the console's line about {where}")
    first = lines()[0]
    report = Path(first.rsplit("the report is in ", 1)[1])
    assert "Planted: a bug planted by the test" in report.read_text()
    return first


def in_a_game(ana: Terminal, ben: Terminal) -> str:
    """Ana makes a room of two, Ben joins it, Ana starts it, and both enter its game; its code."""
    code = ana.link.ask("create", {"seats": ["person", "person"], "seed": 3})["code"]
    assert ben.link.ask("join", {"code": code}) == {"seat": 1, "waiting": True}
    assert ana.link.ask("start", {"code": code}) == {"started": True}
    for t in (ana, ben):
        t.remote = RemoteHost(t.link)
        assert "seat" in t.link.ask("enter", {"code": code})
    until(lambda: ana.remote.ready and ben.remote.ready)
    return code


def test_a_request_that_meets_a_bug_is_refused_in_words_and_the_session_and_the_room_go_on(server, caplog):
    caplog.set_level(logging.WARNING, logger="lagoon_tui.serve")
    ana, ben = named(server, "ana", "Ana"), named(server, "ben", "Ben")
    # the lobby: a request whose handler raises
    server.lobby._create = plant  # (on this lobby alone)
    assert ana.link.ask("create", {"seats": ["person", "person"]}) == {"refused": BUG}
    console(caplog, "player SHA256:ana, request create")
    del server.lobby._create
    code = in_a_game(ana, ben)  # (the session goes on)
    # a room: a request in the game whose handler raises
    room = server.lobby.rooms[code].room
    room.stand_in = plant
    assert ana.link.ask("stand_in", {"seat": 1}) == {"refused": BUG}
    console(caplog, f"room {code}, seat 0, request stand_in")
    # the room goes on: both are still in it, and the game takes their moves
    for _ in range(4):
        mover = next(t.remote for t in (ana, ben) if t.remote.turn().seat == t.remote.seat)
        seen = (ana.remote.latest, ben.remote.latest)
        assert mover.choose(mover.latest.prompt.options[0].id)
        until(lambda: ana.remote.latest is not seen[0] and ben.remote.latest is not seen[1], "the move on both links")
    assert ana.link.lost is None and ben.link.lost is None
    nothing_of_the_server([ana, ben], server.store.path)


def test_a_bug_in_one_players_lobby_is_reported_with_their_key_and_the_others_still_get_theirs(server, caplog):
    caplog.set_level(logging.WARNING, logger="lagoon_tui.serve")
    ana, ben = named(server, "ana", "Ana"), named(server, "ben", "Ben")
    real = server.lobby.lobby_for
    server.lobby.lobby_for = lambda key: plant() if key == "SHA256:ana" else real(key)  # (on this lobby alone)
    code = ben.link.ask("create", {"seats": ["person", "person"]})["code"]
    until(lambda: code in json.dumps(ben.last("lobby")), "Ben's lobby, which lists his new room")
    console(caplog, "player SHA256:ana, their lobby")
    assert ana.link.lost is None and ben.link.lost is None


def test_a_bug_in_one_seats_screen_is_reported_with_the_seat_and_the_others_still_get_theirs(server, caplog):
    caplog.set_level(logging.WARNING, logger="lagoon_tui.serve")
    ana, ben = named(server, "ana", "Ana"), named(server, "ben", "Ben")
    code = in_a_game(ana, ben)
    room = server.lobby.rooms[code].room
    real = room._send_scene
    room._send_scene = lambda link: plant() if link.seat == 0 else real(link)  # (on this room alone)
    mover = next(t.remote for t in (ana, ben) if t.remote.turn().seat == t.remote.seat)
    seen = ben.remote.latest
    assert mover.choose(mover.latest.prompt.options[0].id)
    until(lambda: ben.remote.latest is not seen, "the move on Ben's link")
    console(caplog, f"room {code}, seat 0, its screen")
    assert ana.link.lost is None and ben.link.lost is None


class Failing:
    """A computer player that fails on a bug when asked."""

    def choose(self, message):
        plant()


def test_a_computer_that_fails_on_a_bug_closes_its_room_in_words_and_plays_on_when_entered_again(
    server, caplog, monkeypatch
):
    monkeypatch.setattr(lobby_module, "COMPUTER_PACE", 0.0)
    caplog.set_level(logging.WARNING, logger="lagoon_tui.serve")
    ana = named(server, "ana", "Ana")
    code = ana.link.ask("create", {"seats": ["person", "easy"], "seed": 12})["code"]
    assert ana.link.ask("start", {"code": code}) == {"started": True}
    entry = server.lobby.rooms[code]
    ana.remote = RemoteHost(ana.link)
    assert ana.link.ask("enter", {"code": code}) == {"seat": 0}
    until(lambda: ana.remote.ready and ana.remote.turn().seat == 0, "Ana's decision")
    real = server.call(lambda: entry.computers[1])
    server.call(lambda: entry.computers.__setitem__(1, Failing()))
    for _ in range(200):  # Ana decides until the computer is asked, and fails
        message = ana.remote.latest
        if ana.link.lost is not None or message.prompt is None or message.turn.seat != 0:
            break
        if ana.remote.choose(message.prompt.options[0].id):
            until(lambda: ana.remote.latest is not message or ana.link.lost is not None, "Ana's move")
    until(lambda: ana.link.lost is not None, "the room closed")
    assert ana.link.lost == lobby_module.COMPUTER_FAILED
    console(caplog, f"room {code}, seat 1, a computer's move")
    # the game is as it was; entered again, the computer (a sound one now) plays on
    server.call(lambda: entry.computers.__setitem__(1, real))
    marks = server.call(lambda: len(entry.room.host.engine.marks))
    ana = Terminal(server.session("SHA256:ana"))
    ana.remote = RemoteHost(ana.link)
    assert ana.link.ask("enter", {"code": code}) == {"seat": 0}
    until(lambda: server.call(lambda: len(entry.room.host.engine.marks)) > marks, "the computer's move")
    until(lambda: ana.remote.ready and ana.remote.turn().seat == 0, "Ana's decision again")


def test_a_room_whose_player_lost_their_name_is_not_started_until_they_pick_one(tmp_path):
    """A damaged name in the save file (bytes, not text): its player is asked for a name again, and their room
    waits for it (it used to fail on a KeyError as it started)."""
    first = LobbyThread(tmp_path / "lagoon.db")
    ana, ben = named(first, "ana", "Ana"), named(first, "ben", "Ben")
    code = ana.link.ask("create", {"seats": ["person", "person"]})["code"]
    assert ben.link.ask("join", {"code": code}) == {"seat": 1, "waiting": True}
    first.stop()
    with closing(sqlite3.connect(tmp_path / "lagoon.db")) as raw, raw:
        raw.execute("UPDATE serve_players SET name = x'05' WHERE key = 'SHA256:ben'")
    served = LobbyThread(tmp_path / "lagoon.db")
    try:
        ana = Terminal(served.session("SHA256:ana"))
        refused = "A player in this room has no name: they must connect again and pick one first."
        assert ana.link.ask("start", {"code": code}) == {"refused": refused}
        ben = Terminal(served.session("SHA256:ben"))
        until(lambda: ben.last("hello") is not None)
        assert ben.last("hello") == {"name": None}
        assert ben.link.ask("name", {"name": "Ben"}) == {"name": "Ben"}
        assert ana.link.ask("start", {"code": code}) == {"started": True}
    finally:
        served.stop()


@pytest.mark.parametrize(
    "line",
    [b"name [1]\n", b"create 7\n", b"name {" + b"x" * 70_000 + b"}\n"],
    ids=["a list", "a number", "past the reader's limit"],
)
def test_a_hostile_request_ends_its_session_without_a_line_on_the_console(server, caplog, line):
    """What is not a request (a broken or hostile client) ends its own session, and is not a bug."""
    caplog.set_level(logging.WARNING, logger="lagoon_tui.serve")
    ana, ben = named(server, "ana", "Ana"), named(server, "ben", "Ben")
    ben.link._sock.sendall(line)
    until(lambda: ben.link.lost is not None, "Ben's session, ended")
    assert ana.link.ask("create", {"seats": ["person", "person"]})["code"]  # (the others' go on)
    assert not caplog.records, [r.getMessage() for r in caplog.records]
