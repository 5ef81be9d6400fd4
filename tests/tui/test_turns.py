"""Issue 35, point 3, through the lobby's sockets: a player's turn wherever they are at `lagoon serve`.

The lobby runs on a loop of its own over a real save file (`tests.helpers.lobby`); the players' sessions
are bare links (Ana may have several at once, as with several terminals), or the session app under Pilot.
How long a game has waited is read from a clock the test moves (`Turns.clock`), and, after a restart,
from the save file's `games.updated`, which the test writes as days passing would.
"""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from lagoon_tui.link import Link
from lagoon_tui.remote import RemoteHost
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.screens.lobby import LobbyScreen
from lagoon_tui.screens.since import SinceScreen
from lagoon_tui.session_app import SessionApp
from rules.undo import NoUndo
from rules.view import SECRET_HAND
from tests.helpers.drive import screen_text
from tests.helpers.lobby import LobbyThread, Terminal
from tests.helpers.rooms import until, until_shown

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


class Wall:
    """A wall clock that moves only when told."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def serving(path, wall: Wall) -> LobbyThread:
    """The lobby over the save file at `path`, its waits told by `wall`."""
    served = LobbyThread(path)
    served.wall = wall
    served.call(lambda: setattr(served.lobby.turns, "clock", wall))
    return served


@pytest.fixture
def server(tmp_path):
    served = serving(tmp_path / "lagoon.db", Wall())
    yield served
    served.stop()


def player(server, key: str, name: str | None = None) -> Terminal:
    """A session of the player with `key`; named `name` (their first session) or already known."""
    terminal = Terminal(server.session(f"SHA256:{key}"))
    until(lambda: terminal.last("lobby") is not None, f"{key}'s lobby")
    if name is not None:
        assert terminal.link.ask("name", {"name": name}) == {"name": name}
    return terminal


def started(ana: Terminal, ben: Terminal, seed: int) -> str:
    """A room of Ana's for her and Ben, started; its code."""
    code = ana.link.ask("create", {"seats": ["person", "person"], "seed": seed})["code"]
    assert ben.link.ask("join", {"code": code}) == {"seat": 1, "waiting": True}
    assert ana.link.ask("start", {"code": code}) == {"started": True}
    return code


def enter(terminal: Terminal, code: str, seat: int | None) -> None:
    terminal.remote = RemoteHost(terminal.link)
    assert terminal.link.ask("enter", {"code": code}) == {"seat": seat}
    until(lambda: terminal.remote.ready, "the seat's first message")


def leave(terminal: Terminal, **how) -> None:
    assert terminal.link.ask("leave", how) == {"left": True}
    terminal.remote = None


def play_while_mine(terminal: Terminal) -> int:
    """The terminal's seat decides (its first option each time) until the turn is another's; how many moves."""
    seat, made = terminal.remote.seat, 0
    while terminal.remote.turn().seat == seat:
        seen = terminal.remote.message
        assert terminal.remote.choose(seen.prompt.options[0].id)
        until(lambda: terminal.remote.message is not seen, "the move, back on the link")
        made += 1
    return made


def in_step(ana: Terminal, ben: Terminal) -> None:
    """Until both links have the latest move (the one who moved has it a moment before the other)."""
    until(lambda: ana.remote.turn() == ben.remote.turn(), "the move on both links")


def to_anas_turn(ana: Terminal, ben: Terminal) -> None:
    """Both play until the game is Ana's to decide, Ben having moved at least once."""
    moved = False
    while not (moved and ben.remote.turn().seat == 0):
        if ben.remote.turn().seat == 1:
            moved = play_while_mine(ben) > 0 or moved
        else:
            play_while_mine(ana)
        in_step(ana, ben)


def turns(terminal: Terminal) -> list[dict]:
    return [told for kind, told in terminal.frames if kind == "turn"]


def came(terminal: Terminal) -> list[dict]:
    """The turns told to have come (not those told gone)."""
    return [told for told in turns(terminal) if not told.get("gone")]


def test_a_game_turning_to_a_player_tells_each_of_their_sessions_elsewhere_once_and_only_its_public_names(server):
    ana, ben = player(server, "ana", "Ana"), player(server, "ben", "Ben")
    first, second = started(ana, ben, 1), started(ana, ben, 2)
    playing = player(server, "ana")  # Ana's second terminal, in the first game
    elsewhere = player(server, "ana")  # and her third, in the second game
    enter(playing, first, 0)
    enter(elsewhere, second, 0)
    enter(ben, first, 1)
    if ben.remote.turn().seat == 0:
        play_while_mine(playing)
        in_step(playing, ben)
    play_while_mine(ben)  # Ben decides: the first game turns to Ana, while she is at her seat in a terminal
    until(lambda: playing.remote.turn().seat == 0, "Ana's turn, at her seat")
    ana.link.ask("finished", {}), elsewhere.link.ask("rematch", {"accept": None})  # (all that was sent them, in)
    assert came(ana) == came(elsewhere) == came(playing) == []  # (her seat's terminal says it: no other rings)
    play_while_mine(playing)
    leave(playing)  # she goes to the lobby: the game turns to her again, somewhere else at the server now
    until(lambda: ben.remote.turn().seat == 1, "Ben's turn, on his link")
    play_while_mine(ben)
    told = {"code": first, "maker": None, "others": ["Ben"]}  # (her own room; nothing but public names)
    until(lambda: came(ana) == came(playing) == came(elsewhere) == [told], "the turn, told to Ana's sessions")
    assert turns(ben) == []
    leave(ben)  # Ben goes to the lobby; Ana plays her turn (each step of it tells nobody) and it turns to him
    enter(playing, first, 0)
    assert play_while_mine(playing) > 0
    until(lambda: len(turns(ben)) == 1, "Ben's turn, told in his lobby")
    gone = {"code": first, "gone": True}  # (her turn is over: her other terminals say so no more)
    until(lambda: turns(ana)[-1] == turns(elsewhere)[-1] == gone, "her turn's end, told to her other terminals")
    assert turns(playing)[-1] == told
    assert came(ana) == came(playing) == came(elsewhere) == [told]
    assert turns(ben) == [{"code": first, "maker": "Ana", "others": ["Ana"]}]


def test_going_from_a_game_to_another_of_ones_own_keeps_the_seat_there_until_the_lobby(server):
    """Being in another game of one's own at the server is not leaving: the others are told where the player
    is, no computer may stand in, and going back to the lobby (or the session ending) leaves the game."""
    ana, ben = player(server, "ana", "Ana"), player(server, "ben", "Ben")
    first, second = started(ana, ben, 1), started(ana, ben, 2)
    enter(ben, first, 1)
    enter(ana, first, 0)
    leave(ana, elsewhere=True)
    went = "Ana is in another of their games here, and is told when this one turns to them."
    until(lambda: ben.last("notice") == {"text": went}, "Ben told where Ana went")
    assert ben.remote.away == frozenset() and server.call(lambda: server.lobby.rooms[first].room.away) == []
    assert ben.link.ask("stand_in", {"seat": 0}) == {"refused": "That player is here (or is a computer already)."}
    enter(ana, second, 0)
    leave(ana)  # back to the lobby: the first game is left now
    until(lambda: ben.last("notice") == {"text": "Ana left; the game waits for them to return."}, "Ana gone")
    until(lambda: ben.remote.away == frozenset({0}), "Ana away, on Ben's link")
    # from the first game to the second and back: back at the seat she never left
    enter(ana, first, 0)
    until(lambda: ben.last("notice") == {"text": "Ana is back."} and ben.remote.away == frozenset())
    leave(ana, elsewhere=True)
    enter(ana, second, 0)
    ana.link.close()  # her connection drops in the second game: she has left the first
    until(lambda: ben.remote.away == frozenset({0}), "Ana away once her session is gone")


async def test_a_player_at_the_server_whose_left_game_gets_a_stand_in_is_told_so_and_not_rung_for_its_turns(server):
    """Ana went from her game to the lobby (leaving it); Ben lets a computer play for her: her session in the
    lobby is told where, with the key that takes her seat back, and her lobby row says it; the computer's turns
    at her seat ring nobody; y takes her seat back."""
    server.call(lambda: setattr(server.lobby, "stand_in_after", 0))
    ana, ben = player(server, "ana", "Ana"), player(server, "ben", "Ben")
    code = started(ana, ben, 3)
    enter(ana, code, 0)
    enter(ben, code, 1)
    leave(ana)
    until(lambda: ben.remote.away == frozenset({0}), "Ana away, on Ben's link")
    app = SessionApp(Link(server.session("SHA256:ana")))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen), "Ana's other session, in the lobby")
        before = len(turns(ana))
        assert ben.link.ask("stand_in", {"seat": 0}) == {"standing_in": True}
        told = {"code": code, "maker": None, "others": ["Ben"], "stood_in": True}
        until(lambda: turns(ana)[before:] == [told], "Ana told of the stand-in")
        notice = (
            f"A computer now plays for you in your room ({code}), since you left that game: "
            "y to go there and take your seat back."
        )
        await until_shown(pilot, lambda: any(n.message == notice for n in app._notifications), "the notice")
        await until_shown(pilot, lambda: "a computer plays for you" in screen_text(app), "her lobby row saying it")
        for _ in range(3):  # the game goes on, Ana's seat played by the computer: no "your turn" for her
            if ben.remote.turn().seat == 1:
                play_while_mine(ben)
            until(lambda: ben.remote.turn().seat == 1, "the computer's move for Ana, then Ben's turn")
        assert turns(ana)[before:] == [told]
        await pilot.press("y")
        await until_shown(pilot, lambda: app.in_room == code and app.remote.ready, "her seat again")
        until(lambda: ben.last("notice") == {"text": "Ana plays their own seat again."}, "the stand-in over")
        back = "You play your own seat again: the log says what the computer did for you."
        await until_shown(pilot, lambda: any(n.message == back for n in app._notifications), "Ana told, as herself")
        assert not any("Ana plays their own seat" in n.message for n in app._notifications)


async def test_a_player_taken_straight_to_their_seat_is_not_welcomed_back_when_they_go_to_the_lobby(server):
    """Connecting while a game waits for them takes the player to their seat; going to the lobby from there
    is no arrival: no "Welcome back" notice (it said so as if they had just connected)."""
    ana, ben = player(server, "ana", "Ana"), player(server, "ben", "Ben")
    code, other = started(ana, ben, 4), started(ana, ben, 5)
    enter(ana, code, 0)
    enter(ben, code, 1)
    while ana.remote.turn().seat != 1:
        play_while_mine(ana)
        in_step(ana, ben)
    ana.link.close()  # dropped; Ben decides: the game waits for her
    until(lambda: ben.remote.away == frozenset({0}), "Ana gone")
    play_while_mine(ben)
    until(lambda: server.call(lambda: server.lobby.rooms[code].room.host.turn().seat) == 0, "Ana's turn")
    app = SessionApp(Link(server.session("SHA256:ana")))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until_shown(pilot, lambda: isinstance(app.screen, GameScreen) and app.in_room == code, "her seat")
        app.leave()
        await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen) and other in screen_text(app))
        await pilot.pause()
        assert not any(n.title == "Welcome back" for n in app._notifications)


async def test_back_in_the_lobby_from_a_game_enter_opens_the_game_waiting_longest(server):
    """Ana opens her second game from the lobby's second row, and goes back: the first row (the game that has
    waited longest) is highlighted and focused again, as on connecting (Enter opened the one she had left)."""
    ana, ben = player(server, "ana", "Ana"), player(server, "ben", "Ben")
    started(ana, ben, 4), started(ana, ben, 5)
    app = SessionApp(Link(server.session("SHA256:ana")))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        mine = app.screen.query_one("#mine")
        await until_shown(pilot, lambda: mine.option_count == 2, "her two games")
        await pilot.press("down", "enter")
        await until_shown(pilot, lambda: isinstance(app.screen, GameScreen) and app.remote.ready, "a game")
        app.leave()
        await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby again")
        await until_shown(pilot, lambda: app.focused is mine and mine.highlighted == 0, "the first row, focused")


def test_a_seat_that_enters_is_drawn_once_and_at_once_with_who_is_away(server):
    """Entering a game where another player is away: the first screen already shows them away (who is
    away comes before the seat's first message, not as a second drawing after it)."""
    ana, ben = player(server, "ana", "Ana"), player(server, "ben", "Ben")
    code = started(ana, ben, 3)
    ben.remote = RemoteHost(ben.link)
    drawn: list[tuple[frozenset[int], int]] = []
    ben.remote.on_change(lambda: drawn.append((ben.remote.away, ben.remote.changes)))
    assert ben.link.ask("enter", {"code": code}) == {"seat": 1}
    until(lambda: ben.remote.ready, "Ben's first message")
    assert isinstance(ben.remote.undo(), NoUndo)  # (its answer comes after every frame sent before it)
    assert drawn == [(frozenset({0}), 1)]  # drawn once, Ana away on it
    enter(ana, code, 0)
    until(lambda: ben.remote.away == frozenset(), "Ana there, on Ben's link")


def test_the_lobby_lists_the_games_waiting_longest_first_with_their_wait_and_a_restart_keeps_it(tmp_path):
    server = serving(tmp_path / "lagoon.db", Wall())
    try:
        games = games_waiting_an_hour_apart(server)
    finally:
        server.stop()
    # days later, the server restarted: the waits are the save file's (here the second game waited longest)
    with sqlite3.connect(tmp_path / "lagoon.db") as db:
        for code, day in ((games[0], 3), (games[1], 1)):
            db.execute(
                "UPDATE games SET updated = ? WHERE id = (SELECT game FROM serve_rooms WHERE code = ?)",
                (datetime(2026, 3, day, tzinfo=UTC).isoformat(timespec="seconds"), code),
            )
    again = serving(tmp_path / "lagoon.db", Wall(datetime(2026, 3, 5, tzinfo=UTC)))
    try:
        assert asyncio.run_coroutine_threadsafe(again.lobby.open_rooms(), again.loop).result(30) == []
        assert listed(player(again, "ana")) == [(games[1], 4 * 86400), (games[0], 2 * 86400)]
    finally:
        again.stop()


def listed(terminal: Terminal) -> list[tuple[str, int | None]]:
    """The player's own games in their lobby: each code, and how long it has waited for them if it does."""
    return [(room["code"], room.get("waited")) for room in terminal.last("lobby")["mine"]]


def games_waiting_an_hour_apart(server) -> list[str]:
    """Two games of Ana and Ben's, each played to Ana's turn, an hour apart; Ana's lobby lists the first first,
    with its wait, after she entered and left it (which changes nothing of it)."""
    ana, ben = player(server, "ana", "Ana"), player(server, "ben", "Ben")
    games = [started(ana, ben, seed) for seed in (1, 2)]
    seat = player(server, "ana")
    for code in games:  # each played to Ana's turn, an hour apart
        enter(seat, code, 0)
        enter(ben, code, 1)
        to_anas_turn(seat, ben)
        leave(seat), leave(ben)
        server.wall.now += timedelta(hours=1)
    enter(seat, games[0], 0)  # (entering and leaving a game changes nothing of its wait)
    leave(seat)
    assert ana.link.ask("rename", {"name": "Ana"}) == {"refused": "That is your name already."}  # (a new lobby)

    until(lambda: listed(ana) == [(games[0], 7200), (games[1], 3600)], "the oldest wait first, with its wait")
    return games


def test_a_session_dropped_in_a_game_comes_back_to_its_seat_with_its_board_as_of_its_last_move(server):
    """A dropped connection, and the game then turns to the player: connecting again takes them to that seat
    (`resume`), and the seat is sent the board as it saw it just after its last move, its own view then,
    the others' hands hidden (`baseline`)."""
    ana, ben = player(server, "ana", "Ana"), player(server, "ben", "Ben")
    code = started(ana, ben, 4)
    enter(ana, code, 0)
    enter(ben, code, 1)
    assert ana.last("baseline") is None and ben.last("baseline") is None  # (no move made yet: nothing to mark)
    host = server.lobby.rooms[code].room.host
    while not (ana.remote.turn().seat == 1 and server.call(lambda: any(m.seat == 0 for m in host.engine.marks))):
        play_while_mine(ana if ana.remote.turn().seat == 0 else ben)
        in_step(ana, ben)
    seen = ana.remote.message.view  # Ana's board just after her last move
    ana.link.close()
    until(lambda: ben.remote.away == frozenset({0}), "Ana gone")
    quick = player(server, "ana")  # (back while the game waits for Ben: the lobby)
    assert quick.last("hello") == {"name": "Ana"}
    quick.link.close()
    enter(ana := player(server, "ana"), code, 0)
    ana.link.close()  # dropped again, and Ben decides meanwhile
    until(lambda: ben.remote.away == frozenset({0}), "Ana gone")
    play_while_mine(ben)
    back = player(server, "ana")
    assert back.last("hello") == {"name": "Ana", "resume": code}
    enter(back, code, 0)
    until(lambda: back.last("baseline") is not None)
    baseline = back.last("baseline")["view"]
    assert baseline == seen, "the board as Ana saw it just after her last move"
    assert baseline != back.remote.message.view  # (Ben moved since)
    assert all(card is None for key in SECRET_HAND for card in baseline["players"][1][key])
    assert back.remote.message.since, "what happened since her last move"
    # a new session now, while her seat is on screen: the lobby (nothing was dropped)
    assert player(server, "ana").last("hello") == {"name": "Ana"}


async def test_in_one_game_the_turn_of_another_rings_and_y_goes_there_with_what_changed_offered(server):
    """The session app: Ana plays her second game; her first turns to her: a notice offers it (the bell and the
    title are written to the terminal: the SSH test reads them); y takes her to that seat, what changed
    offered, her seat in the second game kept."""
    ana, ben = player(server, "ana", "Ana"), player(server, "ben", "Ben")
    first, second = started(ana, ben, 1), started(ana, ben, 2)
    ana.link.close()
    enter(ben, first, 1)
    seat = player(server, "ana")
    enter(seat, first, 0)
    if ben.remote.turn().seat == 0:
        play_while_mine(seat)
        in_step(seat, ben)
    leave(seat)
    seat.link.close()
    app = SessionApp(Link(server.session("SHA256:ana")))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen), "Ana's lobby")
        app.open_room(second)
        await until_shown(pilot, lambda: isinstance(app.screen, GameScreen), "the second game")
        play_while_mine(ben)  # the first game turns to Ana
        notice = "Your turn in your room (" + first + "): y to go there."
        await until_shown(pilot, lambda: any(n.message == notice for n in app._notifications), "the notice")
        # the second game's title says the first waits for her, whatever turn the second comes to
        assert app.window_title("Ben is choosing") == f"Lagoon · Ben is choosing · room {first} waits for you"
        await pilot.press("y")
        await until_shown(pilot, lambda: app.in_room == first and app.remote.ready, "the first game")
        second_waits = server.call(lambda: server.lobby.rooms[second].room.host.turn().seat) == 0
        assert app.window_title("Your turn") == "Lagoon · Your turn" + (
            f" · room {second} waits for you" if second_waits else ""  # (the game she came from, if it is hers)
        )

        def offered() -> list[str]:
            return [n.message for n in app._notifications if n.title == "Since your last move"]

        await until_shown(pilot, offered, "what changed, offered")
        since = [line.text for line in app.remote.latest.since]
        more = f"w lists all {len(since)}." if len(since) > 3 else "w lists them."
        assert since and offered() == ["\n".join([*since[-3:], more])]  # (the latest sentences, then w for all)
        assert app.in_room == first and app.remote.seat == 0 and isinstance(app.screen, GameScreen)
        assert server.call(lambda: server.lobby.rooms[second].room.away) == [1]  # (her seat there kept: Ben never came)
        await pilot.press("w")
        await until_shown(pilot, lambda: isinstance(app.screen, SinceScreen), "w's list")
        assert "What changed since your last move" in screen_text(app)
        assert offered() == []  # (the notice that offered it lay over the list's lines at 80x24)


async def test_a_session_in_the_lobby_shows_one_turn_notice_however_many_turns_come_to_the_player(server):
    """Ana's session in the lobby is told each time the game turns to her while she is at no seat of it (she
    plays each turn at another terminal, then goes back to its lobby): one notice, the latest, not one more a
    turn (six of them covered half of an 80x24 screen)."""
    ana, ben = player(server, "ana", "Ana"), player(server, "ben", "Ben")
    code = started(ana, ben, 1)
    enter(ben, code, 1)
    app = SessionApp(Link(server.session("SHA256:ana")))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen), "Ana's other session, in the lobby")
        came: list[dict] = []
        turn_came = app.turn_came
        app.turn_came = lambda told: (came.append(told), turn_came(told))  # type: ignore[method-assign]
        for told in range(1, 4):  # the game turns to Ana three times
            if ben.remote.turn().seat == 0:  # (hers: she plays it at her other terminal, then leaves the game)
                enter(ana, code, 0)
                play_while_mine(ana)
                leave(ana)
                until(lambda: ben.remote.turn().seat == 1, "Ben's turn, on his link")
            play_while_mine(ben)
            await until_shown(pilot, lambda: len(came) >= told, "the turn, told to her session in the lobby")
            await pilot.pause()
            notices = [n for n in app._notifications if "y to go there" in n.message]
            assert len(notices) == 1, [n.message for n in app._notifications]


async def test_connecting_says_how_many_games_wait_and_enter_opens_the_one_waiting_longest(server):
    ana, ben = player(server, "ana", "Ana"), player(server, "ben", "Ben")
    games = [started(ana, ben, seed) for seed in (1, 2)]
    ana.link.close()
    seat = player(server, "ana")
    for code in reversed(games):  # the second game turns to Ana an hour before the first
        enter(seat, code, 0)
        enter(ben, code, 1)
        to_anas_turn(seat, ben)
        leave(seat), leave(ben)
        server.wall.now += timedelta(hours=1)
    seat.link.close()
    app = SessionApp(Link(server.session("SHA256:ana")))
    async with app.run_test(size=(160, 50), notifications=True) as pilot:
        await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen), "Ana's lobby")
        said = "Your turn in 2 games: Enter goes to the one waiting longest."
        await until_shown(pilot, lambda: any(n.message == said for n in app._notifications), "the welcome")
        text = screen_text(app)
        assert text.index(games[1]) < text.index(games[0])
        assert f"{games[1]}  Ana, Ben  · your turn · 2 h" in text and f"{games[0]}  Ana, Ben  · your turn · 1 h" in text
        await pilot.press("enter")
        await until_shown(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        assert app.in_room == games[1] and app.remote.seat == 0


def test_a_session_dropped_in_a_game_that_waits_for_it_comes_back_to_its_seat_after_a_restart(tmp_path):
    """The seat a dropped session comes back to is kept in the save file: the server restarts between Ana's
    dropped connection and her return, and she is still taken straight to her seat; once, not again."""
    wall = Wall()
    first = serving(tmp_path / "lagoon.db", wall)
    ana, ben = player(first, "ana", "Ana"), player(first, "ben", "Ben")
    code = started(ana, ben, 4)
    enter(ana, code, 0)
    enter(ben, code, 1)
    to_anas_turn(ana, ben)
    ana.link.close()  # dropped while the game waits for her
    until(lambda: ben.remote.away == frozenset({0}), "Ana gone")
    first.stop()

    def again() -> LobbyThread:
        served = serving(tmp_path / "lagoon.db", wall)
        assert asyncio.run_coroutine_threadsafe(served.lobby.open_rooms(), served.loop).result(30) == []
        return served

    second = again()
    try:
        back = player(second, "ana")
        assert back.last("hello") == {"name": "Ana", "resume": code}, "straight back to her seat"
    finally:
        second.stop()
    third = again()  # (she came back: the next connection is the lobby's, restart or not)
    try:
        assert player(third, "ana").last("hello") == {"name": "Ana"}
    finally:
        third.stop()


async def test_the_player_who_lets_a_computer_stand_in_reads_the_rooms_notice_alone(server):
    """Ben lets a computer play for Ana, who left, from the palette of his seat: he reads the room's notice,
    which names her, and no second toast besides it (it said "A computer plays for them until they come back",
    naming nobody)."""
    server.call(lambda: setattr(server.lobby, "stand_in_after", 0))
    ana, ben = player(server, "ana", "Ana"), player(server, "ben", "Ben")
    code = started(ana, ben, 3)
    enter(ana, code, 0)
    ben.link.close()
    app = SessionApp(Link(server.session("SHA256:ben")))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen), "Ben's lobby")
        app.open_room(code)
        await until_shown(pilot, lambda: isinstance(app.screen, GameScreen) and app.remote.ready, "Ben's seat")
        leave(ana)
        gone = "Ana left; the game waits for them to return."
        await until_shown(pilot, lambda: any(n.message == gone for n in app._notifications), "Ana gone")
        await until_shown(pilot, lambda: app.remote.away == frozenset({0}), "Ana away, on Ben's screen")
        app.clear_notifications()
        command = next(c for c in app.screen.commands() if c.title == "Let a computer play for Ana")
        command.callback()
        told = "A computer plays for Ana until they come back."
        await until_shown(pilot, lambda: any(n.message == told for n in app._notifications), "the room's notice")
        assert [n.message for n in app._notifications] == [told]
