"""The title, new-game, end, rules and help screens, driven by key presses.

Each screen runs inside a small test app that stands in for the real one (it
records the app actions the screens call) and loads the app-wide stylesheet,
at the smallest supported terminal (80x24) and a large one (160x50).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from textual import events
from textual.app import App
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Input, OptionList, Select

import lagoon_tui
from lagoon_tui.app import LagoonApp
from lagoon_tui.scene import Scene
from lagoon_tui.screens.end import EndScreen
from lagoon_tui.screens.help import HelpScreen, bindings_of
from lagoon_tui.screens.new_game import NewGameScreen
from lagoon_tui.screens.rules import RulesScreen, rules_markdown
from lagoon_tui.screens.title import TitleScreen
from lagoon_tui.settings import GameSettings, check_settings
from rules.actions import ACTION_NAMES
from rules.host import Host
from rules.loader import load_content
from rules.results import GameResults, find_ties
from rules.simulate import random_game
from tests.helpers.drive import screen_text
from tests.helpers.scenario import player

SIZES = [(80, 24), pytest.param((160, 50), marks=pytest.mark.slow)]  # the quick loop takes the compact layout
STYLESHEET = Path(lagoon_tui.__file__).parent / "lagoon.tcss"


@pytest.fixture(scope="module")
def content():
    return load_content()


class Stand(Screen):
    """A stand-in for the game screen underneath: it must survive a visit to the rules."""

    def __init__(self) -> None:
        super().__init__()
        self.marker = object()


class ScreensApp(App):
    """Pushes one screen on start and records what the screens ask of the app."""

    CSS_PATH = STYLESHEET

    def __init__(self, make=None) -> None:
        super().__init__()
        self.animation_level = "none"  # scrolling jumps at once, so the tests need not wait
        self.make = make
        self.calls: list[str] = []
        self.results: list = []
        self.stand = Stand()

    def on_mount(self) -> None:
        self.push_screen(self.stand)
        if self.make is not None:
            self.push_screen(self.make(), callback=self.results.append)

    def action_new_game(self) -> None:
        self.calls.append("new_game")

    def action_rules(self) -> None:
        self.calls.append("rules")


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


async def settle(pilot, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await pilot.pause()
    await pilot.pause()


# -- title --------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
async def test_title_offers_new_game_rules_and_quit(size):
    app = ScreensApp(lambda: TitleScreen(load_content()))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        menu = app.screen.query_one(OptionList)
        labels = [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)]
        assert [label.split(maxsplit=1)[1] for label in labels] == ["New game", "Rules", "Quit"]
        text = screen_text(app)
        for word in ("New game", "Rules", "Quit"):
            assert word in text
        # the letters
        await settle(pilot, "n", "r")
        assert app.calls == ["new_game", "rules"]
        # the arrows and Enter
        await settle(pilot, "down", "enter", "up", "enter")
        assert app.calls == ["new_game", "rules", "rules", "new_game"]
        assert app.return_code is None
        await settle(pilot, "q")
        assert app.return_code == 0


async def test_quit_from_the_menu():
    app = ScreensApp(lambda: TitleScreen(load_content()))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, "end", "enter")
        assert app.return_code == 0
        assert app.calls == []


# -- new game -------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
async def test_new_game_defaults(size):
    app = ScreensApp(NewGameScreen)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        assert screen.query_one("#seats", Select).value == 2
        assert [screen.query_one(f"#name-{s}", Input).value for s in range(4)] == ["Ana", "Ben", "Cleo", "Dev"]
        assert [screen.query_one(f"#colour-{s}", Select).value for s in range(4)] == ["red", "yellow", "green", "blue"]
        text = screen_text(app)
        assert "Ana" in text and "Ben" in text and "Cleo" not in text  # two seats shown
        assert "R red" in text and "Y yellow" in text  # colour named with its letter too
        await settle(pilot, "enter")  # Enter in the first name starts the game
    assert app.results == [GameSettings(("Ana", "Ben"), ("red", "yellow"), None, None)]


@pytest.mark.slow
async def test_new_game_start_with_ctrl_s_and_the_start_button():
    app = ScreensApp(NewGameScreen)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, "ctrl+s")
    assert app.results == [GameSettings(("Ana", "Ben"), ("red", "yellow"), None, None)]

    app = ScreensApp(NewGameScreen)
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.query_one("#start-button").focus()
        await settle(pilot, "enter")
    assert app.results == [GameSettings(("Ana", "Ben"), ("red", "yellow"), None, None)]


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
async def test_new_game_every_field_by_keyboard(size):
    app = ScreensApp(NewGameScreen)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        # seats: from the first name, shift+Tab goes back to the players list; open it, pick 3
        await settle(pilot, "shift+tab", "enter", "down", "enter")
        assert app.screen.query_one("#seats", Select).value == 3
        assert "Cleo" in screen_text(app)
        # second name (Tab: name 1 -> colour 1 -> player 1 -> name 2); focus selects the text, typing replaces it
        await settle(pilot, "tab", "tab", "tab", "tab", *"Bo")
        assert app.screen.query_one("#name-1", Input).value == "Bo"
        # third colour: Tab to it, open, one up (green -> yellow) is taken... choose blue instead
        await settle(pilot, "tab", "tab", "tab", "tab", "enter", "down", "enter")
        assert app.screen.query_one("#colour-2", Select).value == "blue"
        # third player: a computer at the hardest level (the list's last entry)
        await settle(pilot, "tab", "enter", "end", "enter")
        assert app.screen.query_one("#player-2", Select).value == "hard"
        # seed, then start player: seat 2
        await settle(pilot, "tab", *"42", "tab", "enter", "down", "down", "enter")
        await settle(pilot, "ctrl+s")
    assert app.results == [GameSettings(("Ana", "Bo", "Cleo"), ("red", "yellow", "blue"), 42, 1, {2: "hard"})]


async def _form_problem(size, *keys) -> tuple[ScreensApp, str]:
    app = ScreensApp(NewGameScreen)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await settle(pilot, *keys)
        await settle(pilot, "ctrl+s")
        assert isinstance(app.screen, NewGameScreen), "the form must stay open"
        text = flat(screen_text(app))
    assert app.results == []
    return app, text


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
async def test_new_game_refuses_a_duplicate_colour(size):
    # Tab to seat 2's colour, open it, move up from yellow to red
    _, text = await _form_problem(size, "tab", "tab", "tab", "tab", "enter", "up", "enter")
    assert "Seat 1 already plays red." in text


@pytest.mark.parametrize("size", SIZES)
async def test_new_game_refuses_a_duplicate_name(size):
    _, text = await _form_problem(size, "tab", "tab", "tab", *"ana")
    assert "Seat 1 is already called Ana, too like ana to tell apart." in text


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
async def test_new_game_refuses_a_bad_seed(size):
    _, text = await _form_problem(size, "tab", "tab", "tab", "tab", "tab", "tab", *"12x")
    assert "The seed must be a whole number" in text


@pytest.mark.slow
async def test_new_game_refuses_empty_and_long_names():
    _, text = await _form_problem((160, 50), "ctrl+u", "tab", "tab", "tab", *"Bartholomew the Great")
    assert "Give this seat a name." in text
    assert "A name has at most 16 characters (this one has 21)." in text


async def test_new_game_refuses_a_letter_under_dozens_of_marks_for_its_marks():
    """Issue 35, point 9, at one keyboard: a letter and 40 combining accents (the field keeps 32 characters)."""
    app = ScreensApp(NewGameScreen)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, "ctrl+u")
        app.screen.query_one("#name-0", Input).post_message(events.Paste("a" + "\u0301" * 40))  # (as pasted)
        await settle(pilot, "ctrl+s")
        assert isinstance(app.screen, NewGameScreen), "the form must stay open"
        assert "A name has at most 3 marks on one letter." in flat(screen_text(app))
    assert app.results == []


async def test_a_fixed_problem_lets_the_game_start():
    app = ScreensApp(NewGameScreen)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, "ctrl+u", "ctrl+s")
        assert app.results == []
        assert "Give this seat a name." in flat(screen_text(app))
        await settle(pilot, *"Zoe", "enter")
    assert app.results == [GameSettings(("Zoe", "Ben"), ("red", "yellow"), None, None)]


async def test_rules_from_the_form_keep_what_was_typed():
    app = ScreensApp(NewGameScreen)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, *"Zoe", "f1")
        assert app.calls == ["rules"]
        assert app.screen.query_one("#name-0", Input).value == "Zoe"


async def test_escape_leaves_the_form_with_none():
    app = ScreensApp(NewGameScreen)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, *"Changed", "escape")
        assert app.screen is app.stand
    assert app.results == [None]


def test_check_settings_without_a_screen():
    settings, problems = check_settings([" Ana ", "Ben"], ["red", "blue"], " 7 ", 0)
    assert problems == {}
    assert settings == GameSettings(("Ana", "Ben"), ("red", "blue"), 7, 0)
    _, problems = check_settings(["Ana", "ANA", ""], ["red", "red", "pink"], "x", 5)
    assert set(problems) == {"name-1", "name-2", "colour-1", "colour-2", "seed", "start"}


# -- end of game ----------------------------------------------------------------------------------


def end_scene(engine) -> Scene:
    """The finished game's message, as the app gives it to the end screen (a spectator's: it shows all)."""
    return Scene(Host(engine).scene(None), engine.content)


def test_the_end_screen_wants_a_finished_game(content):
    from rules.engine import Engine

    with pytest.raises(ValueError, match="not over"):
        EndScreen(end_scene(Engine.new(content, ["Ana", "Ben"], seed=1)))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players,seed", [(2, 3), (4, 8)])
async def test_end_screen_shows_every_player_with_the_breakdown(content, size, players, seed):
    engine, _ = random_game(content, players, seed)
    app = ScreensApp(lambda: EndScreen(end_scene(engine)))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        table = screen.query_one("#end-table", DataTable)
        columns = [str(k.value) for k in table.columns]
        places = sorted(engine.state.standings, key=lambda s: (s.place, s.seat))
        assert columns == ["what"] + [f"seat-{s.seat}" for s in places]
        rows = [str(k.value) for k in table.rows]
        assert rows == [
            "source:equipment",
            "source:shipments",
            "source:deals",
            "source:enriched cubes sold",
            "source:equipment effects",
            "source:wages",
            "play",
            "objective:1",
            "objective:2",
            "artifacts",
            "total",
        ]
        for p in engine.state.players:
            column = f"seat-{p.seat}"
            assert str(table.get_cell("total", column)) == str(p.vp)
            objectives = str(table.get_cell("objective:1", column)) + str(table.get_cell("objective:2", column))
            for oid in p.objectives:
                assert content.objectives[oid].name in objectives
            assert "met" in objectives
        # every player is named on screen, with a letter beside the colour
        text = screen_text(app)
        for p in engine.state.players:
            assert f"{p.name} [{p.colour[0].upper()}]" in text
        if size == (160, 50):
            for p in engine.state.players:
                for oid in p.objectives:
                    assert content.objectives[oid].name in text
        # the sheet scrolls to its end from the keyboard, the choices stay on screen
        await settle(pilot, "ctrl+end")
        text = screen_text(app)
        assert "Total VP" in text and "Back to title" in text and "New game" in text


@pytest.mark.slow
async def test_end_screen_follows_a_live_resize(content):
    engine, _ = random_game(content, 4, 8)
    app = ScreensApp(lambda: EndScreen(end_scene(engine)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#end-table", DataTable)
        assert str(table.get_cell("source:enriched cubes sold", "what")) == "Cubes sold"
        await pilot.resize_terminal(160, 50)
        await pilot.pause()
        assert str(table.get_cell("source:enriched cubes sold", "what")) == "Enriched cubes sold"
        assert all(column.width > 13 for column in list(table.columns.values())[1:])


@pytest.mark.slow
async def test_end_screen_choices(content):
    engine, _ = random_game(content, 2, 3)
    for keys, expected in (
        (("b",), "title"),
        (("escape",), "title"),
        (("n",), "new"),
        (("tab", "enter"), "title"),
        (("tab", "down", "enter"), "new"),
    ):
        app = ScreensApp(lambda: EndScreen(end_scene(engine)))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await settle(pilot, *keys)
            assert app.screen is app.stand
        assert app.results == [expected], keys


# -- rules ------------------------------------------------------------------------------------------


def test_rules_text_is_complete_and_filled_in(content):
    text = rules_markdown(content)
    assert "{" not in text and "}" not in text
    for name in ACTION_NAMES.values():
        assert f"### {name}" in text
    for card in content.equipment.values():
        assert f"**{card.name}** — ${card.cost}, {card.vp} VP" in text
        assert card.text in text
    for heading in (
        "Goal and end of the game",
        "Setting up",
        "Island selection",
        "Actions and turns",
        "End of the round",
        "Wages",
        "The Enrichment Center",
        "Mining",
        "Galleries",
        "Deals",
        "Shipments",
        "Artifacts",
        "Trade",
        "Equipment cards",
        "Final scoring and tie-breakers",
        "Rule decisions",
    ):
        assert f"## {heading}" in text or f"### {heading}" in text


def test_rules_text_follows_custom_content(content):
    board = dataclasses.replace(content.board, merchant_cost=9, vp_goal=44)
    jaw = dataclasses.replace(content.equipment["jaw_crusher"], cost=11)
    custom = dataclasses.replace(content, board=board, equipment={**content.equipment, "jaw_crusher": jaw})
    text = rules_markdown(custom)
    assert "Pay $9 and take one more merchant" in text
    assert "reaches 44 VP" in text
    assert "**Jaw Crusher** — $11" in text


async def _read_whole_rules(app, pilot) -> str:
    """Scroll the rules from top to bottom and gather every line shown on the way."""
    viewer = app.screen.query_one("#rules-text", VerticalScroll)
    lines: list[str] = []
    await pilot.pause()
    while True:
        lines.extend(screen_text(app).splitlines())
        if viewer.scroll_y >= viewer.max_scroll_y:
            break
        before = viewer.scroll_y
        await settle(pilot, "pagedown")
        assert viewer.scroll_y > before
    return "\n".join(flat(line) for line in lines)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
async def test_rules_screen_mentions_every_action_and_card(content, size):
    app = ScreensApp(lambda: RulesScreen(content))
    async with app.run_test(size=size) as pilot:
        text = await _read_whole_rules(app, pilot)
    for name in ACTION_NAMES.values():
        assert name in text, name
    for card in content.equipment.values():
        assert card.name in text, card.name


@pytest.mark.parametrize("size", SIZES)
async def test_rules_jump_between_sections_and_return_to_the_game(content, size):
    app = ScreensApp(lambda: RulesScreen(content))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        viewer = app.screen.query_one("#rules-text", VerticalScroll)
        assert viewer.scroll_y == 0
        await settle(pilot, "right_square_bracket")
        first = viewer.scroll_y
        assert first > 0
        assert "Goal and end of the game" in screen_text(app).splitlines()[0]
        await settle(pilot, "right_square_bracket")
        assert viewer.scroll_y > first
        await settle(pilot, "left_square_bracket")
        assert viewer.scroll_y == first
        await settle(pilot, "escape")
        assert app.screen is app.stand  # the screen underneath is the very same one
    assert app.results == [None]


@pytest.mark.slow
async def test_rules_close_with_q_and_toggle_contents(content):
    app = ScreensApp(lambda: RulesScreen(content))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        contents = app.screen.query_one("#rules-contents", OptionList)
        text = app.screen.query_one("#rules-text", VerticalScroll)
        assert not contents.display  # no room for it at 80 columns
        await settle(pilot, "t")
        assert contents.display and contents.has_focus
        # pick "Trade" (the section, not the island action of the same name) from the contents
        target = next(i for i in range(contents.option_count) if str(contents.get_option_at_index(i).prompt) == "Trade")
        await settle(pilot, "home", *["down"] * target, "enter")
        assert text.has_focus
        assert screen_text(app).splitlines()[0].rstrip().endswith("Trade")  # right of the contents
        await settle(pilot, "t", "q")
        assert app.screen is app.stand


async def test_the_rules_from_the_title_are_those_of_the_apps_decks(content):
    custom = dataclasses.replace(content, board=dataclasses.replace(content.board, miner_cost=7))
    app = LagoonApp(content=custom)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen) and app.screen.content is custom


# -- help --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
async def test_help_lists_the_keys_of_the_screen(size):
    app = ScreensApp(lambda: TitleScreen(load_content()))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        title = app.screen
        pairs = bindings_of(title)
        assert ("n", "New game") in pairs and ("r", "Rules") in pairs and ("q", "Quit") in pairs
        assert ("?", "Keys") in pairs
        await settle(pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        table = app.screen.query_one(DataTable)
        listed = [tuple(str(c) for c in table.get_row_at(i)) for i in range(table.row_count)]
        for pair in (("n", "New game"), ("r", "Rules"), ("q", "Quit")):
            assert pair in listed
        text = screen_text(app)
        assert "New game" in text and "Keys — Title screen" in text
        for close in ("escape", "enter", "question_mark"):
            await settle(pilot, close)
            assert app.screen is title
            if close != "question_mark":
                await settle(pilot, "question_mark")


async def test_help_screen_from_a_list_of_keys():
    app = ScreensApp(lambda: HelpScreen("Somewhere", [("x", "Do a thing"), ("ctrl+y", "Do another")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "Do a thing" in text and "Do another" in text and "Keys — Somewhere" in text
        await settle(pilot, "escape")
        assert app.screen is app.stand
    assert app.results == [None]


@pytest.mark.parametrize(
    "make,keys,expected",
    [
        (lambda: RulesScreen(load_content()), ("question_mark",), ("] / n", "Next section")),
        (lambda: EndScreen(end_scene(random_game(load_content(), 2, 3)[0])), ("question_mark",), ("n", "New game")),
        (NewGameScreen, ("f2",), ("^s", "Start game")),
    ],
)
async def test_every_screen_opens_help_for_itself(make, keys, expected):
    app = ScreensApp(make)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        below = app.screen
        await settle(pilot, *keys)
        assert isinstance(app.screen, HelpScreen)
        assert expected in app.screen.keys
        await settle(pilot, "escape")
        assert app.screen is below


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
async def test_new_game_arrows_move_between_fields_and_the_hint_says_what_enter_does(size):
    """The first ↓ leaves the first name for the next field; on a list Enter opens it, and the hint
    says so (and how to start); an open list keeps ↑ ↓ for its entries."""
    app = ScreensApp(NewGameScreen)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.focused.id == "name-0" and "Enter: start" in flat(screen_text(app))
        await settle(pilot, "down")
        assert screen.focused.id == "colour-0"
        assert "Enter: open the list · ctrl+s: start" in flat(screen_text(app))
        await settle(pilot, "down", "up", "up")
        assert screen.focused.id == "name-0"
        await settle(pilot, "up", "enter", "down", "enter")  # the players list: open it, 3 players
        assert screen.query_one("#seats", Select).value == 3
        await settle(pilot, *["down"] * 7)  # to the third name (each seat: name, colour, who plays)
        assert screen.focused.id == "name-2"
        await settle(pilot, "enter")
    assert app.results == [GameSettings(("Ana", "Ben", "Cleo"), ("red", "yellow", "green"), None, None)]


@pytest.mark.parametrize(
    "name",
    [
        "[/]",
        pytest.param("[bold red]Ana", marks=pytest.mark.slow),
        pytest.param("[link=x]Bo", marks=pytest.mark.slow),
        "Ana\x1b[2J",
    ],
)
async def test_new_game_a_name_that_looks_like_markup_or_holds_an_escape_is_text(name):
    """Typed (or pasted) into the form, it is shown as typed in the start player's list and in the problem
    it causes, never read as markup (a "[/]" ended the app) nor sent to the terminal."""
    app = ScreensApp(NewGameScreen)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        form = app.screen
        form.query_one("#name-0", Input).value = name
        await pilot.pause()
        form.query_one("#start", Select).focus()
        await settle(pilot, "enter")  # the start player's list, open
        listed = flat(screen_text(app))
        await settle(pilot, "escape", "ctrl+s")
        text = flat(screen_text(app))
    assert f"Seat 1: {name.replace(chr(27), '')}" in listed
    if "\x1b" in name:
        assert app.results == [] and "not the character U+001B" in text
    else:
        assert app.results[0].names[0] == name  # a printable name is a name


async def test_the_end_screen_shows_a_tie_between_players_whose_names_look_like_markup():
    """A player may be called "[/]" (a printable name): the tie-breaker lines name them as text (it ended the app)."""
    players = (player(0, "[/]", 1, 20, money=5, equipment=2), player(1, "[bold red]Bo", 2, 20, money=5))
    results = GameResults(
        players=players, end_reason="last_round", tiebreak_used=True, rounds=15, ties=find_ties(players)
    )
    finished = end_scene(random_game(load_content(), 2, 3)[0])
    scene = Scene(dataclasses.replace(finished.message, results=results), finished.content)
    app = ScreensApp(lambda: EndScreen(scene))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        assert "[/] and [bold red]Bo tied on 20 VP" in flat(screen_text(app))
