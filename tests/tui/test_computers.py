"""Computer players in the app: one person against computers, people and computers mixed, at each level.

The person's keys are pressed as a player presses them (a digit for an option);
the computers play from the screen itself, each search in a worker thread.
The pace is 0 here (the computers move as soon as they have chosen) and Hard
gets a small budget of play-outs, so a whole game takes seconds; what is
checked is what a player sees: the curtain only between people, the game
played to its end screen, undo never reaching a computer's move, and the keys
answered while a computer thinks.
"""

from __future__ import annotations

import random

import pytest

from lagoon_tui.app import LagoonApp
from lagoon_tui.screens.curtain import CurtainScreen
from lagoon_tui.screens.end import EndScreen
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.screens.help import HelpScreen
from lagoon_tui.settings import GameSettings
from lagoon_tui.widgets.options import Options
from lagoon_tui.widgets.prompt import PromptPanel
from tests.helpers.computers import PATIENCE, QUICK_HARD, moving
from tests.helpers.drive import offered_ids, screen_text, toast_shown
from tests.helpers.invariants import check_ended_by_the_rules

NAMES = ("Ana", "Ben", "Cleo", "Dev")
COLOURS = ("red", "yellow", "green", "blue")


def app_for(computers: dict[int, str], seed: int, seats: int = 4, start_player: int = 0) -> LagoonApp:
    """The app starting a game of `seats` at once, with `computers` (seat: level) and no pace."""
    settings = GameSettings(NAMES[:seats], COLOURS[:seats], seed, start_player, computers)
    return LagoonApp(settings=settings, pace=0.0, computer_options=QUICK_HARD)


def persons_turn(app) -> GameScreen | None:
    """The game screen, when a person has the keyboard and their options are on screen."""
    screen = app.screen
    if not isinstance(screen, GameScreen):
        return None
    engine = screen.host.engine
    if engine.state.phase == "over" or engine.pending.seat in screen.computers:
        return None
    if screen.at_keyboard != engine.pending.seat:
        return None
    shown = offered_ids(screen.query_one(PromptPanel).query_one(Options))
    return screen if shown == list(engine.pending.ids()) else None


async def play_to_the_end(pilot, seed: int) -> dict:
    """The people's keys until the end screen; what was seen on the way."""
    app, rng = pilot.app, random.Random(seed)
    seen = {"curtains": 0, "keys": 0, "hand_overs": []}
    last_person = None
    async for _ in moving(pilot):
        if isinstance(app.screen, EndScreen):
            if screen_text(app).strip():  # (once its first frame is composed)
                return seen
            continue
        if isinstance(app.screen, CurtainScreen):
            seen["curtains"] += 1
            await pilot.press("enter")
            continue
        screen = persons_turn(app)
        if screen is None:
            continue
        seat = screen.host.engine.pending.seat
        if seat != last_person:
            seen["hand_overs"].append(seat)
            last_person = seat
        count = len(screen.host.engine.pending.ids())
        await pilot.press(str(rng.randrange(min(9, count)) + 1))
        seen["keys"] += 1


@pytest.mark.parametrize("level", ["easy", "normal", pytest.param("hard", marks=pytest.mark.slow)])
async def test_one_person_against_three_computers_plays_to_the_end_with_no_curtain(level):
    computers = {1: level, 2: level, 3: level}
    app = app_for(computers, seed=11)
    async with app.run_test(size=(160, 50)) as pilot:
        host = None
        for _ in range(100):
            await pilot.pause()
            if isinstance(app.screen, GameScreen):
                host = app.screen.host
                break
        seen = await play_to_the_end(pilot, seed=11)
        engine = host.engine
        check_ended_by_the_rules(engine)
        assert seen["curtains"] == 0, "one person against computers: the screen is theirs, no curtain"
        assert seen["keys"] > 20
        movers = {mark.seat for mark in engine.marks}
        assert movers == {0, 1, 2, 3}, "every computer made its own moves"
        assert "Final standings" in screen_text(app) or "wins" in screen_text(app)


async def test_curtains_come_only_between_people():
    """Ana and Cleo are people, Ben and Dev computers: a curtain is raised only to hand the keyboard to
    the other person (or to show a person their own cards after an open decision), never for a computer."""
    computers = {1: "normal", 3: "normal"}
    app = app_for(computers, seed=5)
    async with app.run_test(size=(160, 50)) as pilot:
        curtains, people_seen = 0, set()
        last = None  # the person who last had the keyboard, and whether the board was public then
        rng = random.Random(5)
        async for _ in moving(pilot):
            if isinstance(app.screen, EndScreen):
                break
            if isinstance(app.screen, CurtainScreen):
                called = app.screen_stack[-2].host.engine.pending.seat
                assert called in (0, 2), "a curtain calls a person"
                assert last is None or last[0] != called or last[1], "a curtain between two moves of one person"
                curtains += 1
                await pilot.press("enter")
                continue
            screen = persons_turn(app)
            if screen is None:
                continue
            last = (screen.at_keyboard, screen.veiled)
            people_seen.add(screen.at_keyboard)
            count = len(screen.host.engine.pending.ids())
            await pilot.press(str(rng.randrange(min(9, count)) + 1))
        assert curtains > 10 and people_seen == {0, 2}


async def test_a_person_cannot_undo_a_computers_move():
    """Undo takes back only the deciding person's own moves of their turn: while a computer decides, and
    at a person's first decision after the computer's moves, u takes nothing back."""
    app = app_for({1: "normal"}, seed=3, seats=2, start_player=1)  # Ana a person, Ben a computer who starts
    async with app.run_test(size=(160, 50), notifications=True) as pilot:
        for _ in range(PATIENCE):
            await pilot.pause(0.002)
            if persons_turn(app) is not None and app.screen.host.engine.state.phase == "island_selection":
                break
            screen = persons_turn(app)
            if screen is not None:
                await pilot.press("1")
        screen = persons_turn(app)
        assert screen is not None, "Ana's island choice"
        engine = screen.host.engine
        before = len(engine.events)
        assert engine.marks[-1].seat == 1, "Ben (the computer) moved last"
        await pilot.press("u")
        for _ in range(200):
            await pilot.pause(0.002)
            if toast_shown(app):
                break
        assert len(engine.events) == before, "Ben's move stands"
        assert "Cannot undo" in screen_text(app)


async def test_the_app_answers_keys_while_hard_thinks():
    """Hard searches in a worker thread: the keys list (?) opens while it is still thinking, and the
    prompt says it is thinking. (Its budget is too large to finish: leaving the game stops it.)"""
    app = LagoonApp(
        settings=GameSettings(NAMES[:2], COLOURS[:2], 9, 1, {1: "hard"}),
        pace=0.0,
        computer_options={"hard": {"rollouts": 10**7, "time_cap": 600.0, "searched": ("choose_island",)}},
    )
    async with app.run_test(size=(160, 50)) as pilot:
        async for _ in moving(pilot):  # Ana plays until Ben searches for his island
            screen = app.screen
            if persons_turn(app) is not None:
                await pilot.press("1")
            elif isinstance(screen, GameScreen) and screen.turns.search and screen.host.turn().kind == "choose_island":
                break
        assert "thinking…" in screen_text(app)
        await pilot.press("question_mark")
        for _ in range(200):
            await pilot.pause(0.002)
            if isinstance(app.screen, HelpScreen):
                break
        assert isinstance(app.screen, HelpScreen), "the keys list opened while Hard thought"
        assert screen.turns.thinking and screen.host.turn().seat == 1, "still thinking"
        await pilot.press("escape")
        screen.stop_computers()  # (as leaving the game does: the search gives up, its move is not made)
        for _ in range(PATIENCE):
            await pilot.pause(0.002)
            if not searching(app):
                break
        assert not searching(app) and screen.host.turn().seat == 1, "Ben's search stopped, and made no move"


def searching(app) -> bool:
    """A computer's search is running (in its worker thread)."""
    return any(worker.group == "computers" and not worker.is_finished for worker in app.workers)


async def test_a_computers_move_waits_for_its_pace_and_space_hurries_it():
    """At a pace no test run reaches, Ben's found move waits on screen; space makes it at once, and his
    next ones too, until Ana decides (then the pace holds again)."""
    app = LagoonApp(settings=GameSettings(NAMES[:2], COLOURS[:2], 6, 1, {1: "normal"}), pace=600.0)
    async with app.run_test(size=(160, 50)) as pilot:
        async for _ in moving(pilot):  # (Ana plays her setup until Ben's move waits)
            screen = app.screen
            if persons_turn(app) is not None:
                await pilot.press("1")
            elif isinstance(screen, GameScreen) and screen.turns.due is not None:
                break
        changes = screen.host.changes
        for _ in range(50):
            await pilot.pause(0.002)
        assert screen.host.changes == changes and screen.host.turn().seat == 1, "Ben's move waits for its pace"
        assert "Hurry the computers" in screen_text(app)
        await pilot.press("space")
        await pilot.pause()
        assert screen.host.changes > changes, "made at once"
        assert screen.hurry == (screen.host.turn().seat == 1), "hurried while Ben plays on, not once Ana decides"
        async for _ in moving(pilot):  # Ben plays on at once until the turn is Ana's
            if persons_turn(app) is not None:
                break
        assert not screen.hurry and "Hurry the computers" not in screen_text(app)
