"""Games over days in `lagoon serve` (issue 35, point 6): paces, clocks, a computer's move when time runs out,
vacations, notices by POST, and all of it over a restart.

The lobby runs on a loop of its own over a real save file, as in the server;
the players are bare links. Its wall clock is the test's, moved by hand, and
the test wakes the lobby's timer itself (`Days.check`) where the server's
timer would have woken. Notices go to a real HTTP server on loopback.
"""

from __future__ import annotations

import logging
import socket
import threading
from types import SimpleNamespace

import pytest

from lagoon_tui.remote import RemoteHost
from lagoon_tui.screens.lobby import room_line
from lagoon_tui.seat_app import SeatApp
from lagoon_tui.serve import days as days_module
from lagoon_tui.serve import notices as notices_module
from lagoon_tui.serve.days import TIMED_OUT
from lagoon_tui.serve.vacation import Vacations, date_words
from rules.host import Store
from rules.seat import Line
from tests.helpers.harness import FakeClock
from tests.helpers.hook import Hook
from tests.helpers.lobby import LobbyThread, Terminal
from tests.helpers.rooms import until
from tests.helpers.terminal import TIMEOUT

HOUR, DAY = 3600.0, 86400.0
NOON = 1_795_780_800.0  # Fri 27 Nov 2026, 12:00 UTC


def wall_clock() -> FakeClock:
    clock = FakeClock()
    clock.now = NOON
    return clock


def opened(served: LobbyThread) -> list[str]:
    """The rooms of the save file opened again, as a starting server does."""
    import asyncio

    return asyncio.run_coroutine_threadsafe(served.lobby.open_rooms(), served.loop).result(30)


def named(served: LobbyThread, name: str) -> Terminal:
    player = Terminal(served.session(f"SHA256:{name.lower()}"))
    assert player.link.ask("name", {"name": name}) == {"name": name}
    return player


def entered(served: LobbyThread, player: Terminal, code: str) -> Terminal:
    """The player's game, entered (a new session of theirs if this one is in a game or gone)."""
    player.remote = RemoteHost(player.link)
    assert "seat" in player.link.ask("enter", {"code": code})
    until(lambda: player.remote.ready, "the game on the player's link")
    return player


def paced_game(served: LobbyThread, pace: str = "12h") -> tuple[str, Terminal, Terminal]:
    """Ana's room for her and Ben at `pace`, started, both in it."""
    ana, ben = named(served, "Ana"), named(served, "Ben")
    code = ana.link.ask("create", {"seats": ["person", "person"], "seed": 3, "pace": pace})["code"]
    assert ben.link.ask("join", {"code": code}) == {"seat": 1, "waiting": True}
    assert ana.link.ask("start", {"code": code}) == {"started": True}
    return code, entered(served, ana, code), entered(served, ben, code)


def deciding(*players: Terminal) -> Terminal:
    """The one player asked for a decision, once every link agrees whose turn it is."""
    found: list[Terminal] = []

    def one() -> bool:
        turns = {p.remote.turn().seat for p in players}
        found[:] = [p for p in players if {p.remote.seat} == turns and p.remote.message.prompt]
        return len(found) == 1

    until(one, "one player's decision on every link")
    return found[0]


def step(mover: Terminal, *players: Terminal) -> None:
    """The mover takes their first option; every link has the move."""
    seen = [p.remote.message for p in players]
    assert mover.remote.choose(mover.remote.message.prompt.options[0].id)
    until(lambda: all(p.remote.message is not was for p, was in zip(players, seen, strict=True)), "the move")


def check(served: LobbyThread) -> None:
    """The lobby's timer wakes (the wall clock moved)."""
    served.call(served.lobby.days.check)


def clocks_say(players: tuple[Terminal, ...], seat: int, says: str) -> None:
    until(lambda: all(p.remote.pace == (seat, says) for p in players), f"'{says}' for seat {seat} on every link")


@pytest.fixture
def wall():
    return wall_clock()


@pytest.fixture
def served(tmp_path, wall):
    server = LobbyThread(tmp_path / "lagoon.db", wall=wall)
    yield server
    server.stop()


def test_a_room_has_a_pace_its_lobby_row_says_and_every_seat_sees_the_deciders_time_left(served, wall):
    ana, ben = named(served, "Ana"), named(served, "Ben")
    assert ana.link.ask("create", {"seats": ["person", "person"], "pace": "1w"}) == {
        "refused": "A room's pace is one of: live, 12h, 1d, 3d."
    }
    live = ana.link.ask("create", {"seats": ["person", "person"]})["code"]
    code = ana.link.ask("create", {"seats": ["person", "person"], "seed": 3, "pace": "12h"})["code"]
    until(lambda: len((ben.last("lobby") or {}).get("open", [])) == 2, "both rooms, open to Ben")
    paces = {room["code"]: room["pace"] for room in ben.last("lobby")["open"]}
    assert paces == {live: "live", code: "12 h a move"}
    assert ben.last("lobby")["paces"] == [
        ["live", "live"],
        ["12h", "12 h a move"],
        ["1d", "1 day a move"],
        ["3d", "3 days a move"],
    ]
    ben.link.ask("join", {"code": code})
    ana.link.ask("start", {"code": code})
    players = (entered(served, ana, code), entered(served, ben, code))
    first = deciding(*players)
    seat = first.remote.seat
    clocks_say(players, seat, "has 12 h left")
    wall.now += 3 * HOUR + 60
    check(served)
    clocks_say(players, seat, "has 8 h left")
    # the decider's lobby row (a second session of theirs) says their time left, not how long the game waited
    lobby = Terminal(served.session(f"SHA256:{('ana', 'ben')[seat]}"))
    until(lambda: lobby.last("lobby") is not None, "their lobby")
    row = next(room for room in lobby.last("lobby")["mine"] if room["code"] == code)
    assert row["your_turn"] and row["left"] == "8 h"
    assert "your turn · 8 h left · 12 h a move" in room_line(row).plain
    # a lobby already open says the time left as it goes by, without a key pressed (it said what it was first)
    wall.now += HOUR
    check(served)
    clocks_say(players, seat, "has 7 h left")
    until(lambda: next(r for r in lobby.last("lobby")["mine"] if r["code"] == code)["left"] == "7 h", "7 h, in it")
    # every step of the player's own turn counts against the one clock; it starts full for the next seat
    for _ in range(40):
        step(deciding(*players), *players)
        if deciding(*players) is not first:
            break
        assert first.remote.pace == (seat, "has 7 h left")
    else:
        pytest.fail("the turn never passed to the other seat")
    clocks_say(players, 1 - seat, "has 12 h left")


def test_a_seat_whose_time_runs_out_gets_a_computers_move_everyone_is_told_and_the_seat_stays_theirs(
    served, wall, caplog
):
    code, ana, ben = paced_game(served)
    players = (ana, ben)
    late = deciding(*players)
    seat, name = late.remote.seat, ("Ana", "Ben")[late.remote.seat]
    elsewhere = Terminal(served.session(f"SHA256:{name.lower()}"))  # (a second terminal of theirs, in the lobby)
    wall.now += 12 * HOUR - 1
    check(served)
    clocks_say(players, seat, "has less than a minute left")
    wall.now += 2
    with caplog.at_level(logging.INFO, logger="lagoon_tui.serve.console"):
        check(served)
    said = f"room {code}: a computer plays for {name} for this turn: their time ran out"
    assert [r.getMessage() for r in caplog.records if "a computer plays" in r.getMessage()] == [said]
    told = {"text": f"{name} ran out of time: a computer makes their move. The seat stays theirs."}
    other = players[1 - seat]
    until(lambda: ("notice", told) in other.frames, "the notice, to the other seat")
    yours = {"text": "Your time ran out: a computer makes this move for you. Your next turn is yours."}
    until(lambda: ("notice", yours) in late.frames and ("notice", told) not in late.frames, "and theirs, to them")
    line = Line(seat, f"{name} ran out of time: a computer played this turn for them.")
    until(lambda: all(line in p.remote.message.log for p in players), "the line in every log")
    # the computer plays the turn out: the decision goes to the other seat
    until(lambda: all(p.remote.turn().seat == 1 - seat for p in players), "the turn played out")
    # their terminal elsewhere is told the turn went (its title no longer says this game waits for them)
    until(lambda: ("turn", {"code": code, "gone": True}) in elsewhere.frames, "the turn gone, told elsewhere")
    assert not any(kind == "turn" for kind, _ in late.frames)  # (nothing of it to the terminal in the game)
    clocks_say(players, 1 - seat, "has 12 h left")
    for _ in range(40):  # the seat is still theirs: its next turn is asked of them, with a full clock
        step(deciding(*players), *players)
        if deciding(*players) is late:
            break
    else:
        pytest.fail("the turn never came back")
    clocks_say(players, seat, "has 12 h left")
    assert served.call(lambda: seat not in served.lobby.rooms[code].computers)


def test_a_clock_run_out_in_one_room_before_the_timer_woke_breaks_no_move_in_another(served, wall):
    """Room A's clock ran out a moment ago and the lobby's timer has not woken yet; a move in room B sets the
    timer anew (its words for every clock): it is made, and once the timer wakes A's turn is played out."""
    code, ana, ben = paced_game(served)
    late = deciding(ana, ben).remote.seat
    wall.now += 12 * HOUR + 1  # (A's time is up: no check yet)
    cleo, dan = named(served, "Cleo"), named(served, "Dan")
    other = cleo.link.ask("create", {"seats": ["person", "person"], "seed": 4, "pace": "12h"})["code"]
    assert dan.link.ask("join", {"code": other}) == {"seat": 1, "waiting": True}
    assert cleo.link.ask("start", {"code": other}) == {"started": True}
    players = (entered(served, cleo, other), entered(served, dan, other))
    for _ in range(3):
        step(deciding(*players), *players)
    check(served)
    until(lambda: all(p.remote.turn().seat == 1 - late for p in (ana, ben)), "A's late turn played out")


def test_a_key_that_comes_after_the_time_ran_out_is_refused_while_the_computer_plays_that_turn(
    served, wall, monkeypatch
):
    gate = threading.Event()  # (the computer's choice waits for it: the key comes first)
    real = days_module.computer_player

    def gated(*args, **kwargs):
        player = real(*args, **kwargs)
        choose = player.choose
        player.choose = lambda scene: gate.wait(TIMEOUT) and choose(scene)
        return player

    monkeypatch.setattr(days_module, "computer_player", gated)
    code, ana, ben = paced_game(served)
    players = (ana, ben)
    late = deciding(*players)
    seat, name = late.remote.seat, ("Ana", "Ben")[late.remote.seat]
    wall.now += 12 * HOUR + 1
    check(served)
    told = {"text": f"{name} ran out of time: a computer makes their move. The seat stays theirs."}
    until(lambda: ("notice", told) in players[1 - seat].frames, "the notice, to the other seat")
    line = Line(seat, f"{name} ran out of time: a computer played this turn for them.")
    until(lambda: line in late.remote.message.log, "the line in the late seat's log (a message after the notice)")
    before = late.remote.message
    option = before.prompt.options[0].id
    assert late.link.ask("choose", option) == {"refused": TIMED_OUT, "title": "Not your move"}
    assert late.link.ask("undo", {}) == {"refused": TIMED_OUT, "title": "Not your move"}
    assert served.call(lambda: served.lobby.rooms[code].room.host.turn().seat) == seat  # (nothing was made)
    assert late.remote.message is before
    gate.set()  # the computer plays the turn out
    until(lambda: all(p.remote.turn().seat == 1 - seat for p in players), "the turn played out")


def test_a_player_on_vacation_stops_their_clocks_the_others_see_until_when_and_may_come_back_early(served, wall):
    code, ana, ben = paced_game(served, "1d")
    players = (ana, ben)
    away = deciding(*players)
    seat = away.remote.seat
    wall.now += 2 * HOUR
    check(served)
    clocks_say(players, seat, "has 22 h left")
    lobby = Terminal(served.session(f"SHA256:{('ana', 'ben')[seat]}"))  # (a second session of theirs, in the lobby)
    until(lambda: lobby.last("lobby") is not None)
    assert lobby.last("lobby")["vacation"] == {"until": None, "days_left": 21}
    assert lobby.link.ask("vacation", {"days": 22}) == {"refused": "Give 1 to 21 days."}
    assert lobby.link.ask("vacation", {"days": 3}) == {"vacation": "Mon 30 Nov, 14:00 UTC"}
    assert lobby.link.ask("vacation", {"days": 1}) == {"refused": "You are on vacation already: come back first."}
    stopped = "is on vacation until Mon 30 Nov, 14:00 UTC: their clock is stopped"
    clocks_say(players, seat, stopped)
    others = Terminal(served.session(f"SHA256:{('ana', 'ben')[1 - seat]}"))  # (the other, in the lobby)
    until(lambda: others.last("lobby") is not None)
    assert others.last("lobby")["mine"][0]["seats"][seat]["vacation"] == "Mon 30 Nov, 14:00 UTC"
    wall.now += 2 * DAY  # far past the day the move had: the clock is stopped
    check(served)
    clocks_say(players, seat, stopped)
    assert all(p.remote.turn().seat == seat and not p.remote.clock_runs for p in players)
    asked = SeatApp.quit_question(SimpleNamespace(remote=away.remote))  # type: ignore[arg-type]  # (its ctrl+q)
    assert asked == "Leave Lagoon? Your seat is kept, and your clock does not run now: the game waits for you."
    # back a day early: the clock runs on from where it stopped, and the whole day not begun is theirs again
    assert lobby.link.ask("vacation", {"days": 0}) == {"vacation": None}
    clocks_say(players, seat, "has 22 h left")
    until(lambda: lobby.last("lobby")["vacation"] == {"until": None, "days_left": 19}, "19 days left")
    # a vacation that runs to its end ends by itself, and the clock runs again
    assert lobby.link.ask("vacation", {"days": 2}) == {"vacation": "Tue 1 Dec, 14:00 UTC"}
    wall.now += 2 * DAY
    check(served)
    clocks_say(players, seat, "has 22 h left")
    until(lambda: lobby.last("lobby")["vacation"] == {"until": None, "days_left": 17}, "17 days left")
    assert all(p.remote.clock_runs for p in players)
    assert "your clock runs on" in SeatApp.quit_question(SimpleNamespace(remote=away.remote))  # type: ignore[arg-type]
    # on vacation again, gone from the game: the other may not let a computer play for them (their clock waits)
    assert lobby.link.ask("vacation", {"days": 1}) == {"vacation": "Wed 2 Dec, 14:00 UTC"}
    assert away.link.ask("leave", {}) == {"left": True}
    served.call(lambda: setattr(served.lobby, "stand_in_after", 0))
    other = players[1 - seat]
    until(lambda: other.remote.away == frozenset({seat}), "the player away")
    assert other.link.ask("stand_in", {"seat": seat}) == {
        "refused": f"{('Ana', 'Ben')[seat]} is on vacation until Wed 2 Dec, 14:00 UTC: their clock is stopped and "
        "the game waits for them, so no computer plays for them meanwhile."
    }


def test_a_vacation_over_new_year_counts_in_the_year_it_began_and_the_new_year_brings_21_days(tmp_path, wall):
    wall.now = NOON + 31 * DAY  # Mon 28 Dec 2026, 12:00 UTC
    with Store(tmp_path / "lagoon.db") as store:
        vacations = Vacations(store, wall)
        back = vacations.go("SHA256:ben", 10)
        assert date_words(back) == "Thu 7 Jan, 12:00 UTC" and vacations.days_left("SHA256:ben") == 11
        wall.now += 5 * DAY  # Sat 2 Jan 2027: still away, and this year's three weeks are whole
        assert vacations.until("SHA256:ben") == back and vacations.days_left("SHA256:ben") == 21
        vacations.back("SHA256:ben")  # (the days not begun were 2026's: nothing to give back to 2027)
        assert vacations.until("SHA256:ben") is None and vacations.days_left("SHA256:ben") == 21
        assert date_words(vacations.go("SHA256:ben", 21)) == "Sat 23 Jan, 12:00 UTC"
        assert vacations.days_left("SHA256:ben") == 0


def test_clocks_vacations_and_notices_survive_a_restart(tmp_path, wall):
    first = LobbyThread(tmp_path / "lagoon.db", wall=wall)
    code, ana, ben = paced_game(first)
    seat = deciding(ana, ben).remote.seat
    other = ("ana", "ben")[1 - seat]
    wall.now += HOUR
    assert Terminal(first.session(f"SHA256:{other}")).link.ask("vacation", {"days": 5}) == {
        "vacation": "Wed 2 Dec, 13:00 UTC"
    }
    url = "http://127.0.0.1:9/hook"
    assert Terminal(first.session(f"SHA256:{other}")).link.ask("notices", {"url": url}) == {"notices": url}
    first.stop()
    wall.now += HOUR
    again = LobbyThread(tmp_path / "lagoon.db", wall=wall)
    try:
        assert opened(again) == []
        ana, ben = Terminal(again.session("SHA256:ana")), Terminal(again.session("SHA256:ben"))
        players = (entered(again, ana, code), entered(again, ben, code))
        clocks_say(players, seat, "has 10 h left")
        lobby = Terminal(again.session(f"SHA256:{other}"))
        until(lambda: lobby.last("lobby") is not None)
        assert lobby.last("lobby")["vacation"] == {"until": "Wed 2 Dec, 13:00 UTC", "days_left": 16}
        assert lobby.last("lobby")["notices"] == url
        assert lobby.last("lobby")["mine"][0]["pace"] == "12 h a move"
    finally:
        again.stop()


def test_a_clock_that_ran_out_while_the_server_was_stopped_is_given_an_hour(tmp_path, wall):
    first = LobbyThread(tmp_path / "lagoon.db", wall=wall)
    code, ana, ben = paced_game(first)
    seat = deciding(ana, ben).remote.seat
    first.stop()
    # three days later; then stopped again within that hour: no second one (it was saved), 40 minutes left
    for later, says in ((3 * DAY, "has 1 h left"), (20 * 60, "has 40 min left")):
        wall.now += later
        again = LobbyThread(tmp_path / "lagoon.db", wall=wall)
        try:
            assert opened(again) == []
            clocks_say((entered(again, Terminal(again.session("SHA256:ana")), code),), seat, says)
        finally:
            again.stop()


@pytest.fixture
def hook():
    served = Hook()
    yield served
    served.close()


def pending(served: LobbyThread) -> int:
    return served.call(lambda: len(served.lobby.days.notices.pending))


def turn_to(players: tuple[Terminal, ...], seat: int) -> None:
    """Moves made until the decision is `seat`'s."""
    for _ in range(60):
        until(lambda: len({p.remote.turn().seat for p in players}) == 1, "every link at the same turn")
        if players[0].remote.turn().seat == seat:
            return
        step(deciding(*players), *players)
    pytest.fail(f"the turn never came to seat {seat}")


def test_a_player_not_connected_is_sent_one_notice_a_game_an_hour_by_post_in_the_background(served, wall, hook):
    ana, ben = named(served, "Ana"), named(served, "Ben")
    for bad in ("ftp://example.org/x", "javascript:alert(1)", "http://", "http://a b/", "x" * 500):
        assert "refused" in ben.link.ask("notices", {"url": bad}), bad
    assert ben.link.ask("notices", {"url": hook.url}) == {"notices": hook.url}
    code = ana.link.ask("create", {"seats": ["person", "person"], "seed": 3})["code"]  # (a live game)
    ben.link.ask("join", {"code": code})
    ana.link.ask("start", {"code": code})
    ben.link.close()  # Ben is not connected: no session of his
    ana = entered(served, ana, code)
    hook.open.clear()  # (the notice is held at the HTTP server: the lobby does not wait for it)
    turn_to((ana,), 1)
    until(lambda: pending(served) == 1, "the notice on its way")
    other = Terminal(served.session("SHA256:dora"))
    assert other.link.ask("name", {"name": "Dora"}) == {"name": "Dora"}  # (answered while the notice waits)
    hook.open.set()
    until(lambda: len(hook.posts) == 1, "the POST")
    game = served.lobby.rooms[code].game
    assert hook.posts == [
        (
            "/lagoon/token-1234",
            "application/json",
            {"text": f"Your turn in game {game} (room {code}).", "room": code, "game": game, "turn": "Ben"},
        )
    ]
    # Ben comes, plays his turn and goes again: within the hour his next turn sends nothing
    ben = entered(served, Terminal(served.session("SHA256:ben")), code)
    turn_to((ana, ben), 0)
    ben.link.close()
    until(lambda: ana.remote.away == {1}, "Ben gone")
    turn_to((ana,), 1)
    until(lambda: pending(served) == 0)
    assert len(hook.posts) == 1
    # an hour after the first, his next turn sends one again
    wall.now += HOUR
    ben = entered(served, Terminal(served.session("SHA256:ben")), code)
    turn_to((ana, ben), 0)
    ben.link.close()
    until(lambda: ana.remote.away == {1}, "Ben gone")
    turn_to((ana,), 1)
    until(lambda: len(hook.posts) == 2, "the second POST")
    until(lambda: pending(served) == 0)
    assert len(hook.posts) == 2


def test_a_notices_hour_holds_across_a_restart_of_the_server(tmp_path, wall, hook):
    """Ben is sent a notice; the server restarts; his next turn within the hour sends nothing, the one after it
    does (when a notice went is kept in the save file, not only in the server's memory)."""
    first = LobbyThread(tmp_path / "lagoon.db", wall=wall)
    try:
        ana, ben = named(first, "Ana"), named(first, "Ben")
        assert ben.link.ask("notices", {"url": hook.url}) == {"notices": hook.url}
        code = ana.link.ask("create", {"seats": ["person", "person"], "seed": 3})["code"]
        ben.link.ask("join", {"code": code})
        ana.link.ask("start", {"code": code})
        ben.link.close()
        turn_to((entered(first, ana, code),), 1)
        until(lambda: len(hook.posts) == 1, "the first POST")
    finally:
        first.stop()
    for later, posts in ((10 * 60, 1), (HOUR, 2)):  # within the hour: none; an hour after the first: one
        wall.now += later
        again = LobbyThread(tmp_path / "lagoon.db", wall=wall)
        try:
            assert opened(again) == []
            ana = entered(again, Terminal(again.session("SHA256:ana")), code)
            ben = entered(again, Terminal(again.session("SHA256:ben")), code)
            turn_to((ana, ben), 0)
            ben.link.close()
            until(lambda: ana.remote.away == {1}, "Ben gone")
            turn_to((ana,), 1)
            until(lambda: pending(again) == 0 and len(hook.posts) >= posts, "the notices due")
            assert len(hook.posts) == posts
        finally:
            again.stop()


def ben_is_sent_a_notice(served: LobbyThread, url: str) -> None:
    """Ben gives `url` for his notices and is gone; Ana plays a game of theirs until it turns to him."""
    ana, ben = named(served, "Ana"), named(served, "Ben")
    assert ben.link.ask("notices", {"url": url}) == {"notices": url}
    code = ana.link.ask("create", {"seats": ["person", "person"], "seed": 3})["code"]
    ben.link.ask("join", {"code": code})
    ana.link.ask("start", {"code": code})
    ben.link.close()
    turn_to((entered(served, ana, code),), 1)


def test_a_notice_that_fails_is_one_line_on_the_console_naming_the_host_only_and_is_not_sent_again(
    served, wall, caplog
):
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # (nothing listens there: the POST is refused)
    with caplog.at_level(logging.WARNING, logger="lagoon_tui.serve.faults"):
        ben_is_sent_a_notice(served, f"http://127.0.0.1:{port}/secret-token")
        until(lambda: any("not sent" in r.getMessage() for r in caplog.records), "the console's line")
        until(lambda: pending(served) == 0)
        lines = [r.getMessage() for r in caplog.records if "notice" in r.getMessage()]
    assert len(lines) == 1 and "127.0.0.1" in lines[0] and "secret-token" not in lines[0], lines
    # (as the console names players elsewhere, in words, not Python's)
    assert lines[0] == "lagoon serve: Ben (key SHA256:ben), a notice to 127.0.0.1: not sent: connection refused"


def test_a_notice_url_that_answers_a_byte_at_a_time_fails_at_the_notices_deadline(served, wall, caplog, monkeypatch):
    """A server that reads the POST and then answers one byte every half second never lets a socket's own
    timeout run out: the notice is cut at its deadline all the same, and counts as failed."""
    monkeypatch.setattr(notices_module, "TIMEOUT", 1.5)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    stop = threading.Event()

    def drip() -> None:
        conn, _ = listener.accept()
        with conn:
            conn.recv(65536)
            for byte in b"HTTP/1.1 204 No Content\r\n\r\n" * 10:
                if stop.wait(0.5):
                    return
                try:
                    conn.sendall(bytes([byte]))
                except OSError:
                    return

    dripping = threading.Thread(target=drip, daemon=True)
    dripping.start()
    try:
        with caplog.at_level(logging.WARNING, logger="lagoon_tui.serve.faults"):
            ben_is_sent_a_notice(served, f"http://127.0.0.1:{listener.getsockname()[1]}/slow")
            until(lambda: any("not sent: timed out" in r.getMessage() for r in caplog.records), "the failure")
        until(lambda: pending(served) == 0, "the notice's thread free again")
    finally:
        stop.set()
        listener.close()


def test_the_lobby_loop_is_never_woken_every_second(served, wall):
    """One timer for the whole server, set for what is due next: with a 12 h clock showing "12 h left", the
    next wake is when its words change (an hour), not sooner."""
    paced_game(served)

    def next_wake() -> float:
        timer = served.lobby.days._timer
        assert timer is not None
        return timer.when() - served.loop.time()

    assert 3500 < served.call(next_wake) <= HOUR
    wall.now += 11 * HOUR + 30 * 60
    check(served)
    assert 0 < served.call(next_wake) <= 60.0 + 1


async def test_the_enter_that_ends_a_vacation_opens_nothing_in_the_lobby_beneath():
    """The form of one away already takes Enter as "back now", and the key ends there: the lobby's highlighted
    room beneath is not opened by it too (it was, and took the player into that room's waiting screen)."""
    from textual.app import App
    from textual.widgets import OptionList

    from lagoon_tui.screens.days import VacationForm

    class Beneath(App):
        def __init__(self) -> None:
            super().__init__()
            self.opened: list[int] = []

        def compose(self):
            yield OptionList("ABC234  Ana, Ben", "XYZ789  Ben, Cleo")

        def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
            self.opened.append(event.option_index)

    app = Beneath()
    async with app.run_test() as pilot:
        answered: list[int | None] = []
        app.push_screen(VacationForm("Mon 30 Nov, 14:00 UTC", 18), answered.append)
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert answered == [0] and app.opened == []


@pytest.mark.parametrize("pace", ["live", "12h"])
def test_ctrl_q_in_a_game_against_computers_alone_promises_no_agreement_of_others(served, pace):
    ana = named(served, "Ana")
    asked = {} if pace == "live" else {"pace": pace}
    code = ana.link.ask("create", {"seats": ["person", "computer"], "seed": 6, **asked})["code"]
    assert ana.link.ask("start", {"code": code}) == {"started": True}
    remote = entered(served, ana, code).remote
    own_turn = lambda: remote.levels != {} and remote.turn().seat == remote.seat  # noqa: E731
    until(lambda: own_turn() and (pace == "live" or remote.clock_runs), "Ana's turn (ctrl+q asks only then)")
    question = SeatApp.quit_question(SimpleNamespace(remote=remote))  # type: ignore[arg-type]  # (its ctrl+q)
    if pace == "live":
        assert question == "Leave Lagoon? Your seat is kept: the game waits for you until you connect again."
    else:
        assert question == (
            "Leave Lagoon? Your seat is kept, but your clock runs on: when it runs out, a computer makes your move."
        )


async def test_a_turn_notice_goes_with_its_turn_when_the_time_runs_out_while_the_player_is_in_the_lobby(served, wall):
    """Ben, in his lobby, is told his turn came ("y to go there"); his time runs out and a computer plays it: the
    notice goes, and y with it (it offered a turn that was no longer his)."""
    from lagoon_tui.link import Link
    from lagoon_tui.screens.lobby import LobbyScreen
    from lagoon_tui.session_app import SessionApp
    from tests.helpers.rooms import until_shown

    code, ana, ben = paced_game(served)
    if deciding(ana, ben) is ben:
        step(ben, ana, ben)
        while deciding(ana, ben) is ben:
            step(ben, ana, ben)
    ben.link.close()
    app = SessionApp(Link(served.session("SHA256:ben")))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen), "Ben's lobby")
        while ana.remote.turn().seat == ana.remote.seat:  # Ana plays her turn: it goes to Ben
            step(ana, ana)
        await until_shown(pilot, lambda: app.offered == code, "the turn, offered to Ben")
        assert any("y to go there" in n.message for n in app._notifications)
        wall.now += 12 * HOUR + 1
        check(served)
        await until_shown(pilot, lambda: app.offered is None, "the turn gone")
        assert not any("y to go there" in n.message for n in app._notifications)
        assert not app.check_action("go_turn", ())
