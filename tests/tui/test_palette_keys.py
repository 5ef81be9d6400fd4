"""Keys mashed at the command palette (ctrl+p): the app goes on, on every screen where ctrl+p works.

Keys are posted to the app as a terminal sends them, many at once, with no
wait for the app to answer each (as `Pilot.press` does). Every check is on
what the app shows or holds once it has caught up; nothing is timed.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from rich.console import RenderableType
from textual.command import CommandPalette
from textual.widgets import OptionList, Select

import lagoon_tui.app
from lagoon_tui.app import LagoonApp
from lagoon_tui.screens.confirm import QuitQuestion
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.screens.load import LoadScreen
from lagoon_tui.screens.new_game import NewGameScreen
from lagoon_tui.screens.replay import ReplayScreen
from lagoon_tui.screens.title import TitleScreen
from lagoon_tui.settings import GameSettings
from lagoon_tui.widgets.log import LogPanel
from rules import load_content
from tests.helpers.drive import ana_and_ben, key_event, screen_text, start
from tests.helpers.scenario import saved_game

CONTENT = load_content()
SETTINGS = GameSettings(("Ana", "Ben"), ("red", "yellow"), 5, 0)
MASH = ["ctrl+p"] * 6 + ["escape"] * 4 + ["enter"] * 6 + ["pageup", "pagedown"] * 3
MASH += ["up", "down", "home", "end", "ctrl+home", "ctrl+end", "tab", "backspace", "space", "left", "right"]
MASH += list("0123456789") + list("abcdefghijklmnopqrstuvwxyz")
"""The keys mashed: the palette's own many times over, and digits and letters (every screen's keys)."""


class StayingApp(LagoonApp):
    """The app, staying while `staying` when asked to quit (q on the title, the palette's Quit), so the keys go on."""

    CSS_PATH = [Path(lagoon_tui.app.__file__).parent / path for path in LagoonApp.CSS_PATH]  # (read beside app.py)
    staying = True
    asked_to_quit = 0

    def exit(self, result: None = None, return_code: int = 0, message: RenderableType | None = None) -> None:
        if self.staying:
            self.asked_to_quit += 1
        else:
            super().exit(result, return_code, message)


def post(app: LagoonApp, *keys: str) -> None:
    """The keys, all at once: none waits for the app to answer the one before."""
    for key in keys:
        app.post_message(key_event(key))


async def caught_up(pilot, ok=lambda: True, tries: int = 400) -> None:
    """Pause until the app has answered what it was sent (and `ok()` holds), or fail."""
    app = pilot.app
    for _ in range(tries):
        await pilot.pause()
        assert not app.crashed, f"the app stopped on a bug: {app.crash_report}"
        if ok():
            return
    raise AssertionError(f"never happened; on {app.screen!r}:\n{screen_text(app)}")


async def palette_listing(pilot, words: str, expect: str) -> None:
    """ctrl+p, then `words` typed, until the palette lists `expect`."""
    app = pilot.app
    post(app, "ctrl+p")
    await caught_up(pilot, lambda: isinstance(app.screen, CommandPalette))
    post(app, *words)
    await caught_up(pilot, lambda: expect in screen_text(app))


async def still_answers(pilot) -> None:
    """Any palette left open closes on Escape, ctrl+p opens one, Escape closes it, and ctrl+q ends the app."""
    app = pilot.app
    await caught_up(pilot)
    while CommandPalette.is_open(app):
        post(app, "escape")
        await caught_up(pilot, lambda: not isinstance(app.screen, CommandPalette))
    assert app.is_running
    under = app.screen
    post(app, "ctrl+p")
    await caught_up(pilot, lambda: CommandPalette.is_open(app))
    post(app, "escape")
    await caught_up(pilot, lambda: app.screen is under)
    post(app, "ctrl+q")
    await caught_up(pilot, lambda: not app.is_running or isinstance(app.screen, QuitQuestion))
    if app.is_running:  # (the player's own turn: asked first)
        post(app, "y")
        await caught_up(pilot, lambda: not app.is_running)
    assert app.return_code == 0 and not app.crashed


async def test_page_keys_straight_after_ctrl_p():
    app = ana_and_ben()
    async with app.run_test(size=(100, 40)) as pilot:
        await start(pilot)
        post(app, "ctrl+p", "pagedown", "pageup", "pagedown")
        await caught_up(pilot, lambda: "Read the rules" in screen_text(app))
        assert isinstance(app.screen, CommandPalette)
        post(app, "pagedown", "pageup")  # (drawn now: the keys page)
        await still_answers(pilot)


async def test_ctrl_p_over_a_palette_covered_by_another_screen():
    """A palette left open under a screen raised over it (a game's first curtain, resumed from Load with ctrl+p
    pressed on the way): ctrl+p there opens no second one, and the first is there once that screen goes."""
    app = ana_and_ben()
    async with app.run_test(size=(100, 40)) as pilot:
        await start(pilot)
        post(app, "ctrl+p")
        await caught_up(pilot, lambda: isinstance(app.screen, CommandPalette))
        palette = app.screen
        app.action_rules()  # (a screen over the palette)
        await caught_up(pilot, lambda: app.screen is not palette)
        post(app, "ctrl+p")
        await caught_up(pilot)
        assert [s for s in app.screen_stack if isinstance(s, CommandPalette)] == [palette]
        post(app, "escape")  # the rules close
        await caught_up(pilot, lambda: app.screen is palette)
        await still_answers(pilot)


async def test_enter_twice_on_a_command_runs_it_once():
    app = ana_and_ben()
    async with app.run_test(size=(160, 50)) as pilot:
        await start(pilot)
        post(app, "enter")  # past the curtain
        await caught_up(pilot, lambda: isinstance(app.screen, GameScreen))
        game = app.screen
        log = game.query_one(LogPanel)
        assert log.filter_seat is None  # (everyone's log)
        await palette_listing(pilot, "log filter", "The log of one player")
        post(app, "enter", "enter")
        await caught_up(pilot, lambda: app.screen is game)
        await caught_up(pilot)
        assert app.screen is game and game in app.screen_stack
        assert log.filter_seat == 0, "the filter moved on more than once (or not at all)"  # Ana's log, not Ben's
        await still_answers(pilot)


async def test_a_command_for_a_game_left_behind_does_nothing():
    """The palette keeps what it listed: a game's command run once the game is covered, or gone, does nothing."""
    app = ana_and_ben()
    async with app.run_test(size=(160, 50)) as pilot:
        await start(pilot)
        post(app, "enter")
        await caught_up(pilot, lambda: isinstance(app.screen, GameScreen))
        game = app.screen
        commands = [c.callback for c in app.get_system_commands(game) if c.title in {"Undo", "Inspect", "My cards"}]
        commands += [c.callback for c in app.get_system_commands(game) if c.title == "Log filter"]
        assert len(commands) == 4
        app.push_screen(CommandPalette())  # covered
        await caught_up(pilot, lambda: isinstance(app.screen, CommandPalette))
        for command in commands:
            app.call_later(command)
        await caught_up(pilot)
        assert isinstance(app.screen, CommandPalette) and game.query_one(LogPanel).filter_seat is None
        app.back_to_title()  # gone
        await caught_up(pilot, lambda: isinstance(app.screen, TitleScreen))
        for command in commands:
            app.call_later(command)
        await caught_up(pilot)
        assert isinstance(app.screen, TitleScreen)
        await still_answers(pilot)


async def test_page_keys_on_a_dropdown_not_drawn():
    """The new-game form's dropdowns (Textual's `Select`): their list, focused while closed (as keys mashed
    at the form once left it), has no lines laid out; PgDn and PgUp there change nothing."""
    app = LagoonApp(CONTENT)
    async with app.run_test(size=(100, 40)) as pilot:
        await at_title(pilot)
        app.action_new_game()
        await caught_up(pilot, lambda: isinstance(app.screen, NewGameScreen))
        select = app.screen.query_one("#seats", Select)
        dropdown = select.query_one(OptionList)
        dropdown.focus()
        await caught_up(pilot, lambda: app.focused is dropdown)
        assert not select.expanded and not dropdown.scrollable_content_region
        post(app, "pagedown", "pageup")
        await caught_up(pilot)
        assert dropdown.highlighted == 0 and isinstance(app.screen, NewGameScreen)
        await still_answers(pilot)


async def test_enter_twice_on_the_new_game_form_starts_one_game():
    app = LagoonApp(CONTENT)
    async with app.run_test(size=(100, 40)) as pilot:
        await at_title(pilot)
        app.action_new_game()
        await caught_up(pilot, lambda: isinstance(app.screen, NewGameScreen))
        post(app, *"Ana", "enter", "enter")  # (the first seat's name, then Enter in its field)
        await caught_up(pilot, lambda: any(isinstance(s, GameScreen) for s in app.screen_stack))
        await caught_up(pilot)
        kinds = [type(s) for s in app.screen_stack]
        assert kinds.count(GameScreen) == 1 and TitleScreen in kinds, kinds
        await still_answers(pilot)


async def at_title(pilot) -> None:
    await caught_up(pilot, lambda: isinstance(pilot.app.screen, TitleScreen))


async def at_game(pilot) -> None:
    await start(pilot)
    post(pilot.app, "enter")
    await caught_up(pilot, lambda: isinstance(pilot.app.screen, GameScreen))


async def at_replay(pilot) -> None:
    await at_title(pilot)
    (info,) = pilot.app.store.games()
    pilot.app.replay_game(info.id)
    await caught_up(pilot, lambda: isinstance(pilot.app.screen, ReplayScreen))


async def at_load(pilot) -> None:
    await at_title(pilot)
    pilot.app.action_load()
    await caught_up(pilot, lambda: isinstance(pilot.app.screen, LoadScreen))


SCREENS = {"title": at_title, "game": at_game, "replay": at_replay, "load": at_load}


@pytest.mark.parametrize("where", SCREENS)
@pytest.mark.parametrize("seed", [1, 2])
async def test_keys_mashed_at_every_screen_leave_the_app_answering(store, where, seed):
    """400 seeded random keys, sent in bursts of up to 40 with no pause inside a burst."""
    if where != "game":
        saved_game(store, 60, seed=seed)
    app = StayingApp(CONTENT, SETTINGS if where == "game" else None, store=store)
    rng = random.Random(f"{where} {seed}")
    async with app.run_test(size=(100, 40)) as pilot:
        await SCREENS[where](pilot)
        sent = 0
        while sent < 400:
            burst = [rng.choice(MASH) for _ in range(rng.randrange(1, 41))]
            post(app, *burst)
            sent += len(burst)
            await pilot.pause()  # (what a key starts, the palette's search among it, has a moment to run)
            assert not app.crashed, f"the app stopped on a bug: {app.crash_report}"
        app.staying = False
        await still_answers(pilot)
