"""The lobby of `lagoon serve`: names, rooms, codes, starting, entering, and a restart of the server.

The lobby runs on a loop of its own over a real save file, as in the server;
Ana plays in the session app (`SessionApp`), Ben through a bare link, as a
second terminal would.
"""

from __future__ import annotations

import json

import pytest
from textual.widgets import OptionList

from lagoon_tui.link import Link
from lagoon_tui.remote import RemoteHost
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.screens.lobby import LobbyScreen, NameForm, RoomForm
from lagoon_tui.session_app import SessionApp
from lagoon_tui.wire import parse
from rules.host import END_TURN, load_content
from rules.seat import Line
from tests.helpers.drive import screen_text
from tests.helpers.harness import FakeClock
from tests.helpers.lobby import Held, LobbyThread, Terminal
from tests.helpers.rooms import LoopThread, until, until_shown

CONTENT = load_content()


@pytest.fixture
def server(tmp_path):
    served = LobbyThread(tmp_path / "lagoon.db")
    yield served
    served.stop()


def test_a_new_key_is_asked_its_name_and_it_is_kept_for_that_key(server):
    ben = Terminal(server.session("SHA256:ben"))
    until(lambda: ben.last("hello") is not None)
    assert ben.last("hello") == {"name": None}
    assert ben.link.ask("create", {"seats": ["person", "person"]}) == {"refused": "Pick a name first."}
    refused = ben.link.ask("name", {"name": "B\x1b[31mad"})
    assert "refused" in refused and "Bad" not in json.dumps(refused)  # (the problem, not the name, is told)
    assert ben.link.ask("name", {"name": "  Ben "}) == {"name": "Ben"}
    again = Terminal(server.session("SHA256:ben"))
    until(lambda: again.last("hello") is not None)
    assert again.last("hello") == {"name": "Ben"}


def test_rooms_are_made_joined_started_and_entered(server):
    ana, ben = Terminal(server.session("SHA256:ana")), Terminal(server.session("SHA256:ben"))
    assert ana.link.ask("name", {"name": "Ana"}) and ben.link.ask("name", {"name": "Ben"})
    code = ana.link.ask("create", {"seats": ["person", "person", "computer"], "seed": 3})["code"]
    until(lambda: any(r["code"] == code for r in (ben.last("lobby") or {}).get("open", [])), "the room, open to Ben")
    assert ben.link.ask("start", {"code": code}) == {"refused": "Only the player who made this room can start it."}
    assert ana.link.ask("start", {"code": code}) == {
        "refused": "Every seat must be taken (or given to a computer) first."
    }
    assert ben.link.ask("join", {"code": code.lower()}) == {"seat": 1, "waiting": True}
    assert ben.link.ask("enter", {"code": code}) == {"refused": "This room's game has not started yet."}
    assert ana.link.ask("start", {"code": code}) == {"started": True}
    until(lambda: ben.last("lobby")["mine"][0]["status"] == "playing", "the game, playing, in Ben's lobby")
    ben.remote = RemoteHost(ben.link)
    assert ben.link.ask("enter", {"code": code}) == {"seat": 1}
    until(lambda: ben.remote.ready, "Ben's first message")
    assert ben.remote.seat == 1
    names = [p["name"] for p in ben.remote.message.view["players"]]
    assert names == ["Ana", "Ben", "Cleo"]  # (the computer: a default name the people did not take)
    # a stranger may watch, as everyone may see the game
    cleo = Terminal(server.session("SHA256:cleo"))
    assert cleo.link.ask("name", {"name": "Cleo"}) == {  # (issue 35: the computer's name, not hers to take)
        "refused": "Cleo is a computer player's name here: pick another name."
    }
    assert cleo.link.ask("name", {"name": "Cleopatra"}) == {"name": "Cleopatra"}
    cleo.remote = RemoteHost(cleo.link)
    assert cleo.link.ask("enter", {"code": code.lower()}) == {"seat": None}  # (as typed: the room all the same)
    until(lambda: cleo.remote.ready)
    assert cleo.remote.seat is None and cleo.remote.message.prompt is None
    assert ben.link.ask("leave", {}) == {"left": True}  # (back in the lobby)
    assert ben.link.ask("join", {"code": "NOPE99"}) == {"refused": "There is no room 'NOPE99': check the code."}
    too_long = "No room has a code that long: a code has 6 letters, a private room's 10. Check the code."
    assert ben.link.ask("join", {"code": "X" * 5000}) == {"refused": too_long}  # (what was typed is not quoted)


def test_wrong_room_codes_are_limited_per_key_and_then_no_code_tells_anything(tmp_path):
    """Five wrong codes a minute from one key (issue 36, point 8); the sixth, and any code of a room not theirs,
    is refused with the wait until the minute has passed. Their own rooms and other keys are not slowed."""
    clock = FakeClock()
    server = LobbyThread(tmp_path / "lagoon.db", clock)
    try:
        ana, mal, ben = (Terminal(server.session(f"SHA256:{name}")) for name in ("ana", "mal", "ben"))
        for terminal, name in ((ana, "Ana"), (mal, "Mal"), (ben, "Ben")):
            assert terminal.link.ask("name", {"name": name}) == {"name": name}
        code = ana.link.ask("create", {"seats": ["person", "person"]})["code"]
        own = mal.link.ask("create", {"seats": ["person", "person"]})["code"]
        for n in range(5):
            assert mal.link.ask("join", {"code": f"WRONG{n}"}) == {
                "refused": f"There is no room 'WRONG{n}': check the code."
            }
        waits = {"refused": "Too many wrong codes: try again in a minute."}
        assert mal.link.ask("join", {"code": "WRONG5"}) == waits
        assert mal.link.ask("join", {"code": code}) == waits, "a right code tells nothing more than a wrong one"
        assert mal.link.ask("start", {"code": own}) == {
            "refused": "Every seat must be taken (or given to a computer) first."
        }
        assert ben.link.ask("join", {"code": "WRONG0"}) == {"refused": "There is no room 'WRONG0': check the code."}
        clock.now += 60.0
        assert mal.link.ask("join", {"code": code}) == {"seat": 1, "waiting": True}
    finally:
        server.stop()


async def ana_opens_the_room_form(app, pilot) -> None:
    """A new player named Ana, in her lobby, with the New room form open."""
    await until_shown(pilot, lambda: isinstance(app.screen, NameForm), "the name form")
    await pilot.press(*"Ana", "enter")
    await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    await pilot.press("c")
    await until_shown(pilot, lambda: isinstance(app.screen, RoomForm))


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
async def test_the_room_form_shows_every_row_and_its_keys_line(server, size):
    """At 80x24 the keys' line ("1-9 or Enter: make the room") was below the screen's foot, and "Computers"
    broke after its eighth letter."""
    app = SessionApp(Link(server.session("SHA256:ana")))
    async with app.run_test(size=size, notifications=True) as pilot:
        await ana_opens_the_room_form(app, pilot)
        await pilot.pause()
        shown = screen_text(app)
        for words in ("Computers ", "Pace ", "Open to ", "Seed ", "1-9 or Enter: make the room", "Esc: back"):
            assert words in shown, (words, shown)


async def test_the_question_before_cancelling_a_room_leaves_the_lobbys_title_in_sight(server):
    """At 80x24 the window asking whether to cancel a room lay over the lobby's title line."""
    app = SessionApp(Link(server.session("SHA256:ana")))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await ana_opens_the_room_form(app, pilot)
        await pilot.press("1")  # (you and a friend)
        await until_shown(
            pilot, lambda: isinstance(app.screen, LobbyScreen) and "waiting for 1 more" in screen_text(app)
        )
        app.clear_notifications()  # (the room's making is told in a toast)
        await pilot.press("x")
        await until_shown(pilot, lambda: "Everyone in it is told, and it is gone." in screen_text(app), "the question")
        lines = screen_text(app).splitlines()
        assert "Lagoon · Ana" in lines[0] and "Your games" in "".join(lines[:4]), lines[:4]


@pytest.mark.parametrize("who", ["maker", "other"])
async def test_x_on_a_room_that_cannot_be_cancelled_says_why_at_once_and_asks_nothing(server, who):
    """x on a game already begun (the maker), or on someone else's room, asked "Cancel room …?" first and
    only after y said it could not be done."""
    ana, ben = Terminal(server.session("SHA256:ana")), Terminal(server.session("SHA256:ben"))
    assert ana.link.ask("name", {"name": "Ana"}) and ben.link.ask("name", {"name": "Ben"})
    code = ana.link.ask("create", {"seats": ["person", "person"]})["code"]
    assert ben.link.ask("join", {"code": code}) == {"seat": 1, "waiting": True}
    if who == "maker":
        assert ana.link.ask("start", {"code": code}) == {"started": True}
    key, said = {
        "maker": ("SHA256:ana", "This game has begun: it cannot be cancelled."),
        "other": ("SHA256:ben", "Only the player who made this room can cancel it."),
    }[who]
    app = SessionApp(Link(server.session(key)))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen) and code in screen_text(app))
        mine = app.screen.query_one("#mine", OptionList)
        await until_shown(pilot, lambda: mine.highlighted_option is not None and mine.highlighted_option.id == code)
        app.clear_notifications()
        await pilot.press("x")
        await until_shown(pilot, lambda: any(n.message == said for n in app._notifications), said)
        assert isinstance(app.screen, LobbyScreen) and f"Cancel room {code}?" not in screen_text(app)
    assert code in server.lobby.rooms


async def test_w_watches_a_private_room_by_its_code_and_leaves_its_free_seat_to_a_player(server):
    """A friend given a private room's code to watch took its free seat: a code could only join. Now w (with
    no open room under the cursor) asks for a code to watch, as `ssh … watch CODE` does."""
    ana, ben = Terminal(server.session("SHA256:ana")), Terminal(server.session("SHA256:ben"))
    assert ana.link.ask("name", {"name": "Ana"}) and ben.link.ask("name", {"name": "Ben"})
    code = ana.link.ask("create", {"seats": ["person", "person"], "private": True})["code"]
    dan = Terminal(server.session("SHA256:dan"))
    assert dan.link.ask("name", {"name": "Dan"}) == {"name": "Dan"}
    app = SessionApp(Link(server.session("SHA256:dan")))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen) and "No open rooms." in screen_text(app))
        await pilot.press("w")
        await until_shown(pilot, lambda: "Watch a room" in screen_text(app) and "Enter: watch" in screen_text(app))
        await pilot.press(*code.lower(), "enter")
        await until_shown(pilot, lambda: f"Room {code} (you watch)" in screen_text(app), "the room's waiting screen")
    told = f"Dan watches your room {code}."
    until(lambda: any(k == "notice" and b["text"] == told for k, b in ana.frames), "Ana told Dan watches")
    assert ben.link.ask("join", {"code": code}) == {"seat": 1, "waiting": True}  # (the seat was still free)


async def test_w_on_the_open_rooms_list_watches_the_room_highlighted_there(server):
    """With Open rooms in use (tab), w watches the room under its cursor: the player waits in it as a spectator,
    its seat left free, and the maker is told."""
    ana = Terminal(server.session("SHA256:ana"))
    assert ana.link.ask("name", {"name": "Ana"}) == {"name": "Ana"}
    code = ana.link.ask("create", {"seats": ["person", "person"]})["code"]
    app = SessionApp(Link(server.session("SHA256:dan")))
    async with app.run_test(size=(160, 50), notifications=True) as pilot:
        await until_shown(pilot, lambda: isinstance(app.screen, NameForm), "the name form")
        await pilot.press(*"Dan", "enter")
        await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen) and code in screen_text(app))
        await pilot.press("tab")  # (from Your games to Open rooms)
        await until_shown(pilot, lambda: app.screen.query_one("#open", OptionList).has_focus, "Open rooms in use")
        await pilot.press("w")
        await until_shown(pilot, lambda: f"Room {code} (you watch)" in screen_text(app), "the room's waiting screen")
    told = f"Dan watches your room {code}."
    until(lambda: any(k == "notice" and b["text"] == told for k, b in ana.frames), "Ana told Dan watches")


async def test_a_room_just_made_is_the_one_highlighted_so_s_starts_that_one(server):
    """Ana makes a room, then another: the highlight of Your games is on the one just made (it stayed on the
    first row, and s answered for another room)."""
    app = SessionApp(Link(server.session("SHA256:ana")))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await ana_opens_the_room_form(app, pilot)
        await pilot.press("1")  # (you and a friend)
        codes: list[str] = []
        for _ in range(2):
            await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen) and "is ready" in screen_text(app))
            told = next(n.message for n in app._notifications if "is ready" in n.message)
            codes.append(told.split()[1])
            code = codes[-1]  # (how to pass it on, in words: the session does not know the player's ssh command)
            assert (
                told
                == f"Room {code} is ready. Others join it with the ssh command you used and join {code} at its end."
            )
            mine = app.screen.query_one("#mine", OptionList)
            await until_shown(
                pilot, lambda: mine.highlighted_option is not None and mine.highlighted_option.id == codes[-1]
            )
            if len(codes) == 1:
                app.clear_notifications()
                await pilot.press("c")
                await until_shown(pilot, lambda: isinstance(app.screen, RoomForm))
                await pilot.press("1")
        assert app.focused is app.screen.query_one("#mine", OptionList) and codes[0] != codes[1]


async def test_a_form_opened_from_the_lobby_is_not_covered_by_the_notices_before_it(server):
    """At 80x24 the notices (toasts, at the foot) lay over the vacation form's keys' line."""
    app = SessionApp(Link(server.session("SHA256:ana")))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await ana_opens_the_room_form(app, pilot)
        await pilot.press("1")  # (a room made: its code told in a notice)
        await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen) and "is ready" in screen_text(app))
        await pilot.press("v")
        await until_shown(pilot, lambda: "Enter: go away · Esc: back" in screen_text(app), "the vacation form")
        assert "is ready" not in screen_text(app)


async def test_a_room_may_seat_a_computer_at_a_level_which_plays_from_its_seat(server):
    """Ana makes a room of herself and a Hard computer in the app: the lobby names its level, the saved
    game keeps it, and the computer makes its moves."""
    app = SessionApp(Link(server.session("SHA256:ana")))
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await ana_opens_the_room_form(app, pilot)
        await pilot.press("tab", "enter", "end", "enter")  # the computers' level: the last, Hard
        await pilot.press("2")  # (you and a computer)
        await until_shown(pilot, lambda: app.lobby["mine"], "Ana's room in her lobby")
        assert "Ana, Computer (Hard)" in screen_text(app)
        code = app.lobby["mine"][0]["code"]
        await pilot.press("s")
        await until_shown(pilot, lambda: isinstance(app.screen, GameScreen), "Ana's game")
        entry = server.lobby.rooms[code]
        assert server.call(lambda: entry.room.host.computers) == {1: "hard"}
        assert server.store.info(entry.game).computers == ((1, "hard"),)
        moved = lambda: server.call(lambda: any(m.seat == 1 for m in entry.room.host.engine.marks))  # noqa: E731
        for _ in range(3000):  # Ana plays her own decisions until the computer has made one of its own
            if moved():
                break
            if app.remote.turn().seat == 0:
                await pilot.press("1")
            await pilot.pause(0.01)
        assert moved(), "the Hard computer's move"


def prompt_head(app) -> str:
    """What the game screen's prompt says above its options, on one line."""
    return " ".join(app.screen.query_one("#prompt-head").render().plain.split())


async def test_a_seats_screen_says_which_computer_decides_at_which_level_and_that_it_thinks(server):
    """As at one keyboard: "Waiting for Ben [Y], the computer (Hard) · thinking…" while the server's
    computer decides, with no key to hurry it (the server keeps its pace), and Ana's move after it."""
    app = SessionApp(Link(server.session("SHA256:ana")))
    held = Held(None)
    try:
        async with app.run_test(size=(160, 50), notifications=True) as pilot:
            await until_shown(pilot, lambda: isinstance(app.screen, NameForm), "the name form")
            await pilot.press(*"Ana", "enter")
            await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            app.create_room({"seats": ["person", "hard"], "seed": 5})
            await until_shown(pilot, lambda: app.lobby["mine"], "Ana's room in her lobby")
            code = app.lobby["mine"][0]["code"]
            app.start_room(code)
            await until_shown(pilot, lambda: isinstance(app.screen, GameScreen), "Ana's game")
            entry = server.lobby.rooms[code]

            def hold() -> bool:  # (on Ana's turn no search is under way: the next one is held)
                if entry.room.host.turn().seat != 0:
                    return False
                held.player, entry.computers[1] = entry.computers[1], held
                return True

            await until_shown(pilot, lambda: server.call(hold), "Ana's turn, and the computer held")
            for _ in range(3000):  # Ana plays her decisions until the computer decides
                if held.asked.is_set():
                    break
                if app.remote.turn().seat == 0:
                    await pilot.press("1")
                await pilot.pause(0.01)
            assert held.asked.is_set(), "the computer's decision"
            thinking = "Waiting for Ben [Y], the computer (Hard) · thinking…"
            await until_shown(pilot, lambda: prompt_head(app) == thinking, "the computer thinking, on Ana's screen")
            assert app.remote.levels == {1: "hard"} and app.remote.thinking
            actions = {binding.action for _, binding, _, _ in app.screen.active_bindings.values()}
            assert "hurry" not in actions and "Hurry the computers" not in screen_text(app)
            changes = app.remote.changes
            await pilot.press("space")  # (nothing to hurry here)
            await pilot.pause(0.05)
            assert app.remote.changes == changes and prompt_head(app) == thinking
            held.go.set()
            await until_shown(
                pilot,
                lambda: app.remote.turn().seat == 0 and "thinking" not in prompt_head(app),
                "Ana's turn after the computer's move, on her screen",
            )
            assert not app.remote.thinking
            assert server.call(lambda: entry.room.host.engine.marks[-1].seat) == 1, "the computer moved last"
    finally:
        held.go.set()


async def test_ana_makes_a_room_in_the_app_and_plays_when_ben_has_joined(server):
    app = SessionApp(Link(server.session("SHA256:ana")))
    ben = Terminal(server.session("SHA256:ben"))
    assert ben.link.ask("name", {"name": "Ben"})
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await ana_opens_the_room_form(app, pilot)
        await pilot.press("1")  # (you and a friend)
        await until_shown(pilot, lambda: app.lobby["mine"], "Ana's room in her lobby")
        code = app.lobby["mine"][0]["code"]
        assert code in screen_text(app)
        assert ben.link.ask("join", {"code": code}) == {"seat": 1, "waiting": True}
        await until_shown(pilot, lambda: "waiting for Ana to start" in screen_text(app), "the full room")
        await pilot.press("s")
        await until_shown(pilot, lambda: isinstance(app.screen, GameScreen), "Ana's game")
        assert app.screen.own == 0
        ben.remote = RemoteHost(ben.link)
        assert ben.link.ask("enter", {"code": code}) == {"seat": 1}
        until(lambda: ben.remote.ready)
        assert ben.remote.turn() == app.remote.turn()


async def test_s_on_a_game_already_begun_says_so_and_opens_nothing(server):
    """s starts a room; on a row of a game under way it says Enter opens it (it opened the game, to a
    spectator as a game to watch, while the room the player meant to start waited)."""
    ana, ben = Terminal(server.session("SHA256:ana")), Terminal(server.session("SHA256:ben"))
    assert ana.link.ask("name", {"name": "Ana"}) and ben.link.ask("name", {"name": "Ben"})
    code = ana.link.ask("create", {"seats": ["person", "person"], "seed": 8})["code"]
    ben.link.ask("join", {"code": code})
    assert ana.link.ask("start", {"code": code}) == {"started": True}
    app = SessionApp(Link(server.session("SHA256:ben")))
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.lobby["mine"], "Ben's lobby")
        await pilot.press("s")
        await until_shown(pilot, lambda: f"Room {code} has begun already" in screen_text(app), "the answer")
        assert isinstance(app.screen, LobbyScreen) and app.in_room is None


def test_a_restarted_server_opens_every_room_where_it_was(tmp_path):
    first = LobbyThread(tmp_path / "lagoon.db")
    ana, ben = Terminal(first.session("SHA256:ana")), Terminal(first.session("SHA256:ben"))
    ana.link.ask("name", {"name": "Ana"}), ben.link.ask("name", {"name": "Ben"})
    code = ana.link.ask("create", {"seats": ["person", "person"], "seed": 8})["code"]
    ben.link.ask("join", {"code": code})
    ana.link.ask("start", {"code": code})
    ana.remote, ben.remote = RemoteHost(ana.link), RemoteHost(ben.link)
    ana.link.ask("enter", {"code": code}), ben.link.ask("enter", {"code": code})
    until(lambda: ana.remote.ready and ben.remote.ready)

    def first_option() -> bool:
        """The seat whose message asks for a decision takes its first option. A message a move behind (the
        next one comes a moment later) may still show the last decision: its option is refused, and
        nothing changes."""
        return any(
            t.remote.message.prompt and t.remote.choose(t.remote.message.prompt.options[0].id) for t in (ana, ben)
        )

    for _ in range(6):
        seen = (ana.remote.changes, ben.remote.changes)
        until(first_option, "a move the server takes")
        until(lambda: ana.remote.changes > seen[0] and ben.remote.changes > seen[1], "the move on both links")
    before = ben.remote.message
    first.stop()
    until(lambda: ben.link.lost is not None)
    assert ben.link.lost == "The server is stopping."

    again = LobbyThread(tmp_path / "lagoon.db")
    try:
        problems = asyncio_run(again, again.lobby.open_rooms())
        assert problems == []
        ben = Terminal(again.session("SHA256:ben"))
        until(lambda: ben.last("lobby") is not None)
        waits_for_ben = again.call(lambda: again.lobby.rooms[code].room.host.turn().seat) == 1  # (as reopened)
        # (his session ended in the game: if it waits for him, he is sent straight back to his seat)
        assert ben.last("hello") == {"name": "Ben"} | ({"resume": code} if waits_for_ben else {})
        assert ben.last("lobby")["mine"][0]["code"] == code
        ana = Terminal(again.session("SHA256:ana"))
        ana.remote = RemoteHost(ana.link)
        assert ana.link.ask("enter", {"code": code}) == {"seat": 0}
        ben.remote = RemoteHost(ben.link)
        assert ben.link.ask("enter", {"code": code}) == {"seat": 1}
        until(lambda: ben.remote.ready)
        assert ben.remote.message.view == before.view and ben.remote.message.log == before.log
        # both had the game on screen before the server stopped: Ben is back, not new to it
        until(lambda: ana.last("notice") == {"text": "Ben is back."}, "Ben's return, told to Ana")
    finally:
        again.stop()


def test_a_players_own_games_are_listed_their_turn_first_then_under_way_then_to_start(server):
    ana, ben = Terminal(server.session("SHA256:ana")), Terminal(server.session("SHA256:ben"))
    assert ana.link.ask("name", {"name": "Ana"}) and ben.link.ask("name", {"name": "Ben"})
    waiting = ana.link.ask("create", {"seats": ["person", "person"]})["code"]  # (made first, listed last)
    games = [ana.link.ask("create", {"seats": ["person", "person"], "seed": seed})["code"] for seed in (1, 2)]
    for code in games:
        assert ben.link.ask("join", {"code": code}) == {"seat": 1, "waiting": True}
        assert ana.link.ask("start", {"code": code}) == {"started": True}
    ben.remote = RemoteHost(ben.link)
    assert ben.link.ask("enter", {"code": games[0]}) == {"seat": 1}
    until(lambda: ben.remote.ready)

    def listed():
        return [(room["code"], room["status"], room.get("your_turn")) for room in ana.last("lobby")["mine"]]

    # Ben decides in the first game until the turn is Ana's there (so her two games differ)
    while ben.remote.turn().seat == 1:
        seen = ben.remote.changes
        assert ben.remote.choose(ben.remote.message.prompt.options[0].id)
        until(lambda: ben.remote.changes > seen)
    # (the lobby Ana was last sent may be older than the second start: Ana may have begun the first game)
    until(
        lambda: (
            {(code, status) for code, status, _ in listed()}
            == {(waiting, "waiting"), *((code, "playing") for code in games)}
        ),
        "Ana's three rooms, two of them started",
    )
    until(lambda: dict((c, t) for c, _, t in listed())[games[0]], "Ana's turn in the first game, in her lobby")
    rows = listed()
    turns = [code for code, _, your_turn in rows if your_turn]
    assert rows[: len(turns)] == [(code, "playing", True) for code in turns] and games[0] in turns
    assert [status for _, status, _ in rows[len(turns) :]] == ["playing"] * (2 - len(turns)) + ["waiting"]


def asyncio_run(thread: LoopThread, coroutine):
    import asyncio

    return asyncio.run_coroutine_threadsafe(coroutine, thread.loop).result(30)


def test_frames_parse():
    assert parse(b'hello {"name":null}\n') == ("hello", '{"name":null}')


class Clock:
    """A clock the test moves: how long a player has been away, without waiting for it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def three_playing(served: LobbyThread) -> tuple[str, tuple[Terminal, Terminal, Terminal]]:
    """Ana, Ben and Cleo named, in a room of three people that Ana made (seed 2) and started, each seated in
    its game; the room's code and their terminals."""
    terminals = {}
    for name in ("Ana", "Ben", "Cleo"):
        terminals[name] = Terminal(served.session(f"SHA256:{name.lower()}"))
        assert terminals[name].link.ask("name", {"name": name})
    ana, ben, cleo = terminals.values()
    code = ana.link.ask("create", {"seats": ["person"] * 3, "seed": 2})["code"]
    ben.link.ask("join", {"code": code}), cleo.link.ask("join", {"code": code})
    ana.link.ask("start", {"code": code})
    for t in (ana, ben, cleo):
        t.remote = RemoteHost(t.link)
        assert "seat" in t.link.ask("enter", {"code": code})
    until(lambda: all(t.remote.ready for t in (ana, ben, cleo)))
    # (each told that nobody is away: a stale "Cleo away" from before she came must not pass for her leaving)
    until(lambda: all(t.remote.away == frozenset() for t in (ana, ben, cleo)), "everyone seated, on every link")
    return code, (ana, ben, cleo)


def test_after_a_while_the_others_may_let_a_computer_play_for_one_who_left(tmp_path):
    clock = Clock()
    served = LobbyThread(tmp_path / "lagoon.db", clock)
    try:
        code, (ana, ben, cleo) = three_playing(served)
        # Cleo's terminal goes; the game waits for her
        cleo.link.close()
        until(lambda: ana.remote.away == {2} and ben.remote.away == {2}, "Cleo away")
        early = ana.link.ask("stand_in", {"seat": 2})
        assert early == {"refused": "Cleo left only a moment ago: you may ask in 61 s."}
        clock.now += 61
        assert ana.link.ask("stand_in", {"seat": 1}) == {"refused": "That player is here (or is a computer already)."}
        assert ana.link.ask("stand_in", {"seat": 2}) == {"agreed": [0], "waiting": [1]}
        until(lambda: ("notice", {"text": "Ana asks that a computer play for Cleo; waiting for Ben."}) in ben.frames)
        assert ben.link.ask("stand_in", {"seat": 2}) == {"standing_in": True}
        until(lambda: ("notice", {"text": "A computer plays for Cleo until they come back."}) in ana.frames)
        until(lambda: STOOD_IN in ana.remote.message.log and STOOD_IN in ben.remote.message.log, "the log line")
        # the game goes on without her: whenever it is Cleo's turn, the computer decides
        played_for_cleo = 0
        for _ in range(60):
            turn = ana.remote.turn()
            if turn.seat == 2:
                seen = ana.remote.message
                until(lambda: ana.remote.message is not seen, "the computer's move for Cleo")
                played_for_cleo += 1
                continue
            mover = (ana, ben)[turn.seat].remote
            # (the move's message itself: a frame that comes before it, who is thinking, is a change too)
            seen = (ana.remote.message, ben.remote.message)
            assert mover.choose(mover.message.prompt.options[0].id)
            until(lambda: ana.remote.message is not seen[0] and ben.remote.message is not seen[1])
            if played_for_cleo >= 2:
                break
        assert played_for_cleo >= 2
        until(lambda: ana.remote.turn().seat != 2, "no move for Cleo under way")
        # Cleo comes back: her seat is hers again, and the others are told
        cleo = Terminal(served.session("SHA256:cleo"))
        cleo.remote = RemoteHost(cleo.link)
        assert cleo.link.ask("enter", {"code": code}) == {"seat": 2}
        until(lambda: ("notice", {"text": "Cleo plays their own seat again."}) in ana.frames)
        until(lambda: cleo.remote.ready and ana.remote.away == frozenset())
        # her screen is drawn once: the log's line of her return is in her first message, not sent her again
        here = {"refused": "That player is here (or is a computer already)."}
        assert cleo.link.ask("stand_in", {"seat": 0}) == here  # (its answer comes after every frame sent before it)
        assert cleo.remote.changes == 1
        entry = served.lobby.rooms[code]
        assert served.call(lambda: 2 not in entry.computers)
    finally:
        served.stop()


def test_a_computer_standing_in_ends_a_turn_left_waiting_and_is_never_held(tmp_path):
    """Cleo's move ended her turn and waits for End turn when her terminal goes: the computer that plays for
    her ends that turn, and its own moves for her never wait (while Ana's and Ben's turns still do)."""
    clock = Clock()
    served = LobbyThread(tmp_path / "lagoon.db", clock)
    try:
        _code, (ana, ben, cleo) = three_playing(served)
        here = [ana, ben, cleo]

        def decider() -> RemoteHost | None:
            """The player asked for a decision, once every screen here agrees whose turn it is."""
            turns = {(t.remote.turn().seat, t.remote.turn().kind) for t in here}
            seat = next(iter(turns))[0] if len(turns) == 1 else None
            mover = next((t.remote for t in here if t.remote.seat == seat), None)
            return mover if mover is not None and mover.message.prompt else None

        def play_one() -> RemoteHost:
            """The player asked for a decision takes its first option; their seat's host."""
            until(lambda: decider() is not None, "a player's decision")
            mover = decider()
            assert mover is not None
            before = mover.message  # (a new message comes with the move; other frames count as changes too)
            assert mover.choose(mover.message.prompt.options[0].id)
            until(lambda: mover.message is not before, "the move on the mover's screen")
            return mover

        for _ in range(60):  # to a move of Cleo's that waits for End turn
            if play_one() is cleo.remote and [o.id for o in cleo.remote.message.prompt.options] == [END_TURN]:
                break
        else:
            pytest.fail("no turn of Cleo's waited for End turn in 60 moves")
        cleo.link.close()
        here.remove(cleo)
        until(lambda: ana.remote.away == {2}, "Cleo away")
        clock.now += 61
        ana.link.ask("stand_in", {"seat": 2})
        assert ben.link.ask("stand_in", {"seat": 2}) == {"standing_in": True}
        until(lambda: ana.remote.turn().seat != 2, "Cleo's turn ended by the computer")
        turns: list[tuple[int | None, str]] = []  # every turn Ana's screen is told of from now on
        ana.remote.on_change(lambda: turns.append((ana.remote.turn().seat, ana.remote.turn().kind)))
        for _ in range(40):
            play_one()
        played_for_cleo = [kind for seat, kind in turns if seat == 2]
        assert played_for_cleo and END_TURN not in played_for_cleo, played_for_cleo
        assert any(kind == END_TURN for seat, kind in turns if seat in (0, 1))
    finally:
        served.stop()


def test_a_room_not_started_keeps_its_computers_levels_over_a_restart(tmp_path):
    first = LobbyThread(tmp_path / "lagoon.db")
    ana = Terminal(first.session("SHA256:ana"))
    assert ana.link.ask("name", {"name": "Ana"})
    code = ana.link.ask("create", {"seats": ["person", "hard", "easy"], "seed": 5})["code"]
    first.stop()
    again = LobbyThread(tmp_path / "lagoon.db")
    try:
        ana = Terminal(again.session("SHA256:ana"))
        until(lambda: ana.last("lobby") is not None)
        seats = ana.last("lobby")["mine"][0]["seats"]
        assert [seat.get("level") for seat in seats] == [None, "hard", "easy"]
        assert ana.link.ask("start", {"code": code}) == {"started": True}
        assert again.store.info(again.lobby.rooms[code].game).computers == ((1, "hard"), (2, "easy"))
    finally:
        again.stop()


def stand_in_for_cleo(served: LobbyThread, clock: Clock) -> tuple[str, tuple[Terminal, Terminal]]:
    """Ana, Ben and Cleo playing (`three_playing`); Cleo's terminal goes, and once she has been away a minute
    Ana and Ben let a computer play for her. The room's code and Ana's and Ben's terminals."""
    code, (ana, ben, cleo) = three_playing(served)
    cleo.link.close()
    until(lambda: ana.remote.away == {2} and ben.remote.away == {2}, "Cleo away")
    clock.now += 61
    assert ana.link.ask("stand_in", {"seat": 2}) == {"agreed": [0], "waiting": [1]}
    assert ben.link.ask("stand_in", {"seat": 2}) == {"standing_in": True}
    return code, (ana, ben)


def decider(*terminals: Terminal) -> RemoteHost | None:
    """The one of these players asked for a decision, once their screens agree whose turn it is."""
    turns = {t.remote.turn().seat for t in terminals}
    mover = next((t.remote for t in terminals if {t.remote.seat} == turns), None)
    return mover if mover is not None and mover.message.prompt else None


STOOD_IN = Line(2, "Cleo left: a computer plays for them from here.")
BACK = Line(2, "Cleo is back and plays their own seat again.")


def test_every_seat_is_told_a_computer_plays_for_one_who_left_and_the_log_says_from_when_to_when(tmp_path):
    """Issue 35, point 2: while a computer plays for Cleo, every seat is told so (a spectator who comes
    later too), and every log, hers included once she is back, says when it began and when she took over."""
    clock = Clock()
    served = LobbyThread(tmp_path / "lagoon.db", clock)
    try:
        code, (ana, ben) = stand_in_for_cleo(served, clock)
        until(lambda: ana.remote.stood_in == {2} and ben.remote.stood_in == {2}, "the stand-in, on every screen")
        until(lambda: STOOD_IN in ana.remote.message.log and STOOD_IN in ben.remote.message.log, "the log line")
        dora = Terminal(served.session("SHA256:dora"))  # a spectator who comes after it began
        assert dora.link.ask("name", {"name": "Dora"}) == {"name": "Dora"}
        dora.remote = RemoteHost(dora.link)
        assert dora.link.ask("enter", {"code": code}) == {"seat": None}
        until(lambda: dora.remote.ready and dora.remote.stood_in == {2}, "the stand-in, on Dora's screen")
        assert STOOD_IN in dora.remote.message.log
        cleo = Terminal(served.session("SHA256:cleo"))
        cleo.remote = RemoteHost(cleo.link)
        assert cleo.link.ask("enter", {"code": code}) == {"seat": 2}
        here = (ana, ben, cleo, dora)
        until(lambda: all(t.remote.ready and BACK in t.remote.message.log for t in here), "Cleo back, in each log")
        for t in here:  # each log says both, in order, once; and nobody is said to be stood in for any more
            log = t.remote.message.log
            assert log.count(STOOD_IN) == log.count(BACK) == 1 and log.index(STOOD_IN) < log.index(BACK)
            assert t.remote.away == t.remote.stood_in == frozenset()
        everyone = [line for line in dora.remote.message.log if line in (STOOD_IN, BACK)]
        assert everyone == [STOOD_IN, BACK]
    finally:
        served.stop()


async def test_a_spectator_who_comes_later_reads_that_a_computer_plays_for_one_who_left(tmp_path):
    """Dora comes to watch after a computer began to play for Cleo: while it decides for her, Dora's prompt
    says a computer plays for Cleo, and nothing says the game waits for her."""
    clock = Clock()
    served = LobbyThread(tmp_path / "lagoon.db", clock)
    held = Held(None)
    try:
        code, (ana, ben) = stand_in_for_cleo(served, clock)
        entry = served.lobby.rooms[code]

        def hold() -> bool:  # (on another's turn no search for Cleo is under way: the next one is held)
            if entry.room.host.turn().seat == 2 or 2 not in entry.computers:
                return False
            held.player, entry.computers[2] = entry.computers[2], held
            return True

        until(lambda: served.call(hold), "the computer for Cleo, held")
        for _ in range(60):  # Ana and Ben play until the computer decides for Cleo
            if held.asked.is_set():
                break
            until(lambda: held.asked.is_set() or decider(ana, ben) is not None, "Ana's or Ben's decision")
            mover = decider(ana, ben)
            if mover is not None:
                # (the move's own message on both screens: a frame before it, who is away, is a change too)
                seen = (ana.remote.message, ben.remote.message)
                assert mover.choose(mover.message.prompt.options[0].id)
                until(lambda: ana.remote.message is not seen[0] and ben.remote.message is not seen[1], "the move")
        assert held.asked.is_set(), "the computer's decision for Cleo"
        app = SessionApp(Link(served.session("SHA256:dora")))
        async with app.run_test(size=(160, 50), notifications=True) as pilot:
            await until_shown(pilot, lambda: isinstance(app.screen, NameForm), "the name form")
            await pilot.press(*"Dora", "enter")
            await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            app.enter_room(code)
            await until_shown(pilot, lambda: isinstance(app.screen, GameScreen), "the game, watched")
            told = "Waiting for Cleo [G], who left: a computer plays for them until they come back"
            await until_shown(pilot, lambda: prompt_head(app).startswith(told), "the stand-in, on Dora's screen")
            assert "waits for them" not in screen_text(app)
            held.go.set()
    finally:
        held.go.set()
        served.stop()
