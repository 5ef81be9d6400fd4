"""A computer is shown as one wherever its name appears (issue 35, point 1).

Its board's title says "computer, Hard" (only "computer" where the board is
narrow), the log's first lines say who the computers are, and the score sheet's
column headers mark them: in a game at one keyboard, in a seat's own app with
the server's computers, and in the replay and the sheet of a saved game. Every
check reads what the player's screen holds, at 80×24 and 160×50.
"""

from __future__ import annotations

import random

import pytest
from textual.widgets import DataTable

from lagoon_tui.app import LagoonApp
from lagoon_tui.link import Link
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.screens.replay import ReplayScreen
from lagoon_tui.screens.sheet import SheetScreen
from lagoon_tui.seat_app import SeatApp
from lagoon_tui.settings import GameSettings
from lagoon_tui.widgets import LogPanel, PlayerBoard
from rules import Engine, load_content
from rules.host import Host
from rules.saves.recorder import record_new
from tests.helpers.computers import QUICK_HARD
from tests.helpers.drive import screen_text, title_of, until, widget_text
from tests.helpers.rooms import RoomThread, until_shown

CONTENT = load_content()
SIZES = [(80, 24), (160, 50)]
NAMES, COLOURS = ("Ana", "Ben", "Cleo"), ("red", "yellow", "green")
LEVELS = {1: "easy", 2: "hard"}
MARKS = {1: "Ben [Y] · computer, Easy", 2: "Cleo [G] · computer, Hard"}


def titles(app) -> dict[int, str]:
    """Each player board's border title, as drawn, by seat."""
    return {board.seat: title_of(board) for board in app.screen.query(PlayerBoard)}


def check_marked(app, width: int) -> None:
    """Every computer's board says so (with its level where the board has room); a person's does not."""
    shown = titles(app)
    assert "computer" not in shown[0]
    for seat, mark in MARKS.items():
        assert shown[seat].startswith(mark if width >= 160 else mark.split(",")[0]), shown


@pytest.mark.parametrize("size", SIZES)
async def test_a_solo_game_marks_each_computer_on_its_board_and_names_them_atop_the_log(size):
    settings = GameSettings(NAMES, COLOURS, 5, 0, LEVELS)
    app = LagoonApp(settings=settings, pace=0.0, computer_options=QUICK_HARD)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and bool(titles(app).get(2)))
        await pilot.pause()
        check_marked(app, size[0])
        if size[0] >= 160:  # (at 80×24 the boards are a page of their own: its titles are checked above)
            assert "Cleo [G] · computer, Hard" in screen_text(app)
        # the log's lines (after its title and subtitle), wrapped at its width: the legend comes first
        log = " ".join(widget_text(app.screen.query_one(LogPanel)).split()).removeprefix("Log · all players f: filter ")
        assert log.startswith("Ben [Y] is a computer (Easy). Cleo [G] is a computer (Hard). "), log[:120]
        assert "Ana [R] is a computer" not in log


def saved_with_computers(store) -> tuple[int, Engine]:
    """A finished game of Ana against Ben (Easy) and Cleo (Hard), saved as the app saves one."""
    engine = Engine.new(CONTENT, list(NAMES), seed=20, start_player=0)
    game = record_new(store, engine, LEVELS)
    rng = random.Random(20)
    while engine.state.phase != "over":
        ids = [i for i in engine.legal_ids() if i != "back"] or engine.legal_ids()
        engine.choose(ids[rng.randrange(len(ids))])
    return game, engine


def headers(screen) -> list[str]:
    return [str(column.label) for column in screen.query_one("#end-table", DataTable).columns.values()]


@pytest.mark.parametrize("size", SIZES)
async def test_the_replay_and_the_score_sheet_of_a_saved_game_mark_its_computers(store, size):
    game, _ = saved_with_computers(store)
    app = LagoonApp(CONTENT, store=store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.replay_game(game)
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.pause()
        check_marked(app, size[0])
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, SheetScreen))
        await pilot.pause()
        columns = {h.split(" [")[0]: h.splitlines() for h in headers(app.screen) if h}
        assert len(columns["Ana"]) == 2 or not columns["Ana"][2].strip()  # a person: no third line
        assert columns["Cleo"][2].startswith("computer")
        assert columns["Ben"][2].startswith("computer")
        if size[0] >= 160:
            assert (columns["Cleo"][2], columns["Ben"][2]) == ("computer, Hard", "computer, Easy")
        assert "computer" in screen_text(app)


async def test_a_seats_own_app_marks_the_servers_computers_on_their_boards():
    host = Host.new(CONTENT, list(NAMES), list(COLOURS), seed=4, start_player=0, computers=LEVELS)
    room = RoomThread(host)
    try:
        app = SeatApp(Link(room.socket(0)))
        async with app.run_test(size=(160, 50)) as pilot:
            await until_shown(pilot, lambda: isinstance(app.screen, GameScreen) and bool(titles(app).get(2)))
            await until_shown(pilot, lambda: "computer" in titles(app)[2], "the computers' marks")
            check_marked(app, 160)
            log = widget_text(app.screen.query_one(LogPanel))
            assert "Cleo [G] is a computer (Hard)." in log and "Ben [Y] is a computer (Easy)." in log
    finally:
        room.stop()


async def test_four_boards_side_by_side_keep_the_word_computer_when_the_level_does_not_fit():
    settings = GameSettings(
        (*NAMES, "Dev"), (*COLOURS, "blue"), 5, 0, {**LEVELS, 3: "normal"}
    )  # (at 160×50 four boards share the width: 28 columns each)
    app = LagoonApp(settings=settings, pace=0.0, computer_options=QUICK_HARD)
    async with app.run_test(size=(160, 50)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and bool(titles(app).get(3)))
        await pilot.pause()
        shown, text = titles(app), screen_text(app)
        for seat, tag in ((1, "Ben [Y]"), (2, "Cleo [G]"), (3, "Dev [B]")):
            assert shown[seat] == f"{tag} · computer" and f"{tag} · computer" in text, shown
        assert "computer" not in shown[0]
