"""Issue 35, point 7, at one keyboard: ctrl+q during a person's own turn asks first; elsewhere it quits at once.

Real `LagoonApp`s driven by keys under Pilot, with a real save file (so that the
question's promise, "Resume brings this game back as it is now", is checked
against what Resume then opens). Over SSH: tests/tui/test_serve_ssh.py.
"""

from __future__ import annotations

import pytest

from lagoon_tui.app import LagoonApp
from lagoon_tui.screens.confirm import QuitQuestion
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.screens.title import TitleScreen
from lagoon_tui.settings import GameSettings
from rules import load_content
from tests.helpers.drive import Policy, screen_text, settle, start, step, until

CONTENT = load_content()
SETTINGS = GameSettings(("Ana", "Ben"), ("red", "yellow"), 11, 0)


async def on_a_turn(pilot) -> GameScreen:
    """The game of `SETTINGS` started, a few moves made, on the board of the person who decides now."""
    run = await start(pilot)
    policy = Policy(3)
    while run.accepted < 4 or not isinstance(pilot.app.screen, GameScreen):
        await step(pilot, run, policy)
    screen = pilot.app.screen
    assert isinstance(screen, GameScreen) and screen.at_keyboard == screen.host.turn().seat
    return screen


@pytest.mark.parametrize("no", ["n", "escape"])
async def test_ctrl_q_on_ones_own_turn_asks_and_no_goes_back_to_the_game_unchanged(store, no):
    app = LagoonApp(CONTENT, SETTINGS, store=store)
    async with app.run_test(size=(160, 50)) as pilot:
        game = await on_a_turn(pilot)
        before, changes = screen_text(app), game.host.changes
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, QuitQuestion))
        asked = screen_text(app)
        assert "Quit Lagoon? Every move is saved: Resume on the title brings this game back" in asked
        assert "y / Enter: quit · n / Esc: back to the game" in asked
        await pilot.press(no)
        await until(pilot, lambda: app.screen is game)
        await settle(pilot)
        assert app.return_code is None  # (still running)
        assert game.host.changes == changes and screen_text(app) == before


@pytest.mark.parametrize("yes", ["y", "enter", "ctrl+q"])
async def test_ctrl_q_on_ones_own_turn_then_yes_quits_and_resume_brings_the_turn_back(store, yes):
    app = LagoonApp(CONTENT, SETTINGS, store=store)
    async with app.run_test(size=(160, 50)) as pilot:
        game = await on_a_turn(pilot)
        turn, length = game.host.turn(), len(game.host.engine.events)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, QuitQuestion))
        await pilot.press(yes)
        await until(pilot, lambda: app.return_code == 0)
    (info,) = store.games()
    assert info.length == length and not info.over
    again = LagoonApp(CONTENT, store=store, resume=info.id)
    async with again.run_test(size=(160, 50)) as pilot:
        await start(pilot)  # (the curtain calling the player whose turn it was)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(again.screen, GameScreen) and again.screen.host.turn() == turn


async def test_without_a_save_file_the_question_says_the_game_ends_there():
    app = LagoonApp(CONTENT, SETTINGS)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_a_turn(pilot)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, QuitQuestion))
        assert "This game is not saved: it ends here." in screen_text(app)


async def test_on_the_title_ctrl_q_quits_at_once(store):
    app = LagoonApp(CONTENT, store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TitleScreen))
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.return_code == 0)


async def test_while_a_computer_decides_ctrl_q_quits_at_once(store):
    settings = GameSettings(("Ana", "Cleo"), ("red", "yellow"), 11, 1, {1: "easy"})
    app = LagoonApp(CONTENT, settings, store=store, pace=600)  # (Cleo's first move stays a long while)
    async with app.run_test(size=(160, 50)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        game = app.screen
        assert isinstance(game, GameScreen) and game.host.turn().seat == 1
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.return_code == 0)
        assert not any(isinstance(s, QuitQuestion) for s in app.screen_stack)
