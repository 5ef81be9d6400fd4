"""The command palette (ctrl+p) in a game: the game's own commands, and leaving the game asked first."""

from __future__ import annotations

from textual.command import CommandPalette
from textual.widgets import DataTable

from lagoon_tui.screens.confirm import ConfirmScreen
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.screens.help import HelpScreen
from lagoon_tui.screens.new_game import NewGameScreen
from lagoon_tui.screens.title import TitleScreen
from tests.helpers.drive import ana_and_ben, pass_curtain, pick, screen_text, start


async def palette(pilot, words: str, expect: str) -> str:
    """Open the palette, type `words`, wait until it lists `expect`; what it shows."""
    await pilot.press("ctrl+p")
    await pilot.pause()
    assert isinstance(pilot.app.screen, CommandPalette)
    await pilot.press(*words)
    for _ in range(1000):  # the palette gathers its commands in a worker: wait for what it must list
        await pilot.pause(0.01)
        if expect in (shown := screen_text(pilot.app)):
            return shown
    raise AssertionError(f"the palette never listed {expect!r}:\n{shown}")


async def test_the_palette_offers_the_games_commands_and_asks_before_leaving_the_game():
    app = ana_and_ben()
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        await pass_curtain(pilot, run)
        game = app.screen
        listed = await palette(pilot, "", "Log filter")
        for command in ("Undo", "Inspect", "My cards", "Log filter", "New game", "Rules", "Keys"):
            assert command in listed, command
        assert "Resume" not in listed  # a game is in play already
        await pilot.press("escape")
        await pilot.pause()

        await pick(pilot, run, "1")  # Ana keeps two objectives; undo from the palette takes it back
        assert run.engine.state.players[0].objectives
        await palette(pilot, "undo", "Take back your last move")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is game and not run.engine.state.players[0].objectives

        await palette(pilot, "new game", "Leave this game")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "Leave the game in play?" in screen_text(app)
        await pilot.press("n")  # no: back in the game as it was
        await pilot.pause()
        assert app.screen is game and len(app.screen_stack) == 2

        await palette(pilot, "new game", "Leave this game")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert not any(isinstance(s, GameScreen) for s in app.screen_stack)
        assert any(isinstance(s, TitleScreen) for s in app.screen_stack)  # Esc on the form goes to the title


async def test_the_keys_list_in_a_game_shows_lagoons_keys_only():
    app = ana_and_ben()
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        await pass_curtain(pilot, run)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        table = app.screen.query_one(DataTable)
        listed = [tuple(str(cell) for cell in table.get_row_at(row)) for row in range(table.row_count)]
        assert ("1–9", "Pick an option") in listed
        assert ("pgup / pgdn", "Log: a page back / on") in listed  # (the log's page keys, point 3)
        for pair in (("u / ^z", "Undo"), ("i", "Inspect"), ("f1", "Rules"), ("^p", "Commands")):
            assert pair in listed, pair
        whats = [what for _, what in listed]
        assert not any(what.startswith("Option ") for what in whats), whats
        assert not {"Focus Next", "Focus Previous", "Copy selected text", "palette"} & set(whats), whats
        assert len(whats) == len(set(whats)), whats  # no line twice


async def test_the_palette_lists_lagoons_commands_only_and_keys_once():
    app = ana_and_ben()
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        await pass_curtain(pilot, run)
        listed = await palette(pilot, "", "Log filter")
        lines = [line.strip() for line in listed.splitlines()]
        assert lines.count("Keys") == 1
        for textuals in ("Maximize", "Minimize", "Screenshot", "Theme"):
            assert textuals not in lines, textuals
        assert "Quit" in lines  # Lagoon's own: no save file here, so no "Save and quit"
