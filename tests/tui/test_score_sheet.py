"""The score sheet of a finished game, opened again after its end screen: from Load and from its replay.

All through key presses on the real LagoonApp with a real SQLite file, the games saved by the real
recorder. The sheet shown again must be the end screen's, cell for cell; an unfinished game's is never
shown (its objectives are still secret): a sentence says the sheet comes at the end.
"""

from __future__ import annotations

import pytest
from textual.widgets import DataTable

from lagoon_tui.app import LagoonApp
from lagoon_tui.scene import Scene
from lagoon_tui.screens.end import EndScreen
from lagoon_tui.screens.help import HelpScreen, bindings_of
from lagoon_tui.screens.load import LoadScreen
from lagoon_tui.screens.replay import ReplayScreen
from lagoon_tui.screens.sheet import SheetScreen
from lagoon_tui.widgets.score_sheet import ScoreSheet
from rules import load_content
from rules.host import Host
from tests.helpers.drive import screen_text, until
from tests.helpers.scenario import saved_game

CONTENT = load_content()
SIZES = [(80, 24), (160, 50)]


def words(app) -> str:
    """The screen's text as one line of words (a toast's text wraps, behind its edge "▌")."""
    return " ".join(screen_text(app).replace("▌", " ").split())


def cells(screen) -> dict[str, list[str]]:
    """The sheet's table: every row's label and cells, with its columns' headers (the players, their places)."""
    table = screen.query_one("#end-table", DataTable)
    rows = {str(key.value): [str(cell) for cell in table.get_row(key)] for key in table.rows}
    rows["header"] = [str(column.label) for column in table.columns.values()]
    return rows


async def end_screen_cells(pilot, engine) -> dict[str, list[str]]:
    """What the end screen of the same game shows, at the same size."""
    await pilot.app.push_screen(EndScreen(Scene(Host(engine).scene(None), CONTENT)))
    await pilot.pause()
    shown = cells(pilot.app.screen)
    pilot.app.pop_screen()
    await pilot.pause()
    return shown


async def load_at(pilot, store, game: int) -> LoadScreen:
    """The Load screen, with the cursor on saved game `game`."""
    pilot.app.action_load()
    await until(pilot, lambda: isinstance(pilot.app.screen, LoadScreen))
    screen = pilot.app.screen
    for _ in range(len(screen.games)):
        if screen.selected is not None and screen.selected.id == game:
            return screen
        await pilot.press("down")
    raise AssertionError(f"game {game} is not in the list")


@pytest.mark.parametrize("size", SIZES)
async def test_v_on_a_finished_game_in_load_shows_the_end_screens_sheet(store, size):
    game, engine = saved_game(store, 10_000, seed=20)
    assert engine.state.phase == "over"
    saved_game(store, 30, seed=3)  # an unfinished game beside it
    app = LagoonApp(CONTENT, store=store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        load = await load_at(pilot, store, game)
        assert "v Scores" in screen_text(app)  # in the footer
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, SheetScreen))
        sheet = app.screen
        text = screen_text(app)
        assert f"Final ranking of game {game}" in text
        shown = cells(sheet)
        for p in engine.state.players:
            tag = f"{p.name} [{p.colour[0].upper()}]"
            (column,) = [i for i, header in enumerate(shown["header"]) if header.startswith(tag)]
            assert shown["total"][column] == str(p.vp)
            assert tag in text
        sources = [row for row in shown if row.startswith("source:")]
        assert sources == [f"source:{s}" for s in ("equipment", "shipments", "deals")] + [
            "source:enriched cubes sold",
            "source:equipment effects",
            "source:wages",
        ]
        # what the VP of equipment used were: the cards, named under the table in the row's own words
        words = "Equipment used" if size[0] >= 120 else "Cards used"
        assert f"{words}: Ana's Jaw Crusher (1 VP)." in text
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is load)
        assert shown == await end_screen_cells(pilot, engine)


async def test_v_on_an_unfinished_game_in_load_says_the_sheet_comes_at_the_end(store):
    saved_game(store, 10_000, seed=20)
    game, engine = saved_game(store, 30, seed=3)
    assert engine.state.phase != "over"
    app = LagoonApp(CONTENT, store=store)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        load = await load_at(pilot, store, game)
        await pilot.press("v")
        await until(pilot, lambda: "This game is not over: its score sheet comes at its end." in words(app))
        assert app.screen is load and not list(app.query(ScoreSheet))
        assert not [s for s in app.screen_stack if isinstance(s, SheetScreen)]


async def test_load_and_replay_list_the_sheet_key_in_their_help(store):
    game, _ = saved_game(store, 10_000, seed=20)
    app = LagoonApp(CONTENT, store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        load = await load_at(pilot, store, game)
        assert ("v", "Scores") in bindings_of(load)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert ("v", "Scores") in app.screen.keys
        await pilot.press("escape")
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        assert ("v", "Scores") in bindings_of(app.screen)


@pytest.mark.parametrize("size", SIZES)
async def test_v_in_the_replay_of_a_finished_game_shows_its_sheet_at_any_point(store, size):
    game, engine = saved_game(store, 10_000, seed=20)
    app = LagoonApp(CONTENT, store=store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.replay_game(game)
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        replay = app.screen
        assert "v score sheet" in screen_text(app)  # the key, in the status line with the replay's others
        expected = await end_screen_cells(pilot, engine)
        for keys in ((), ("right", "right", "n"), ("end",)):  # the start, a few steps in, the end
            await pilot.press(*keys)
            await pilot.pause()
            at = replay.pos
            await pilot.press("v")
            await until(pilot, lambda: isinstance(app.screen, SheetScreen))
            assert cells(app.screen) == expected
            assert "used: Ana's Jaw Crusher (1 VP)." in screen_text(app)
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is replay)
            assert replay.pos == at  # back where it was


async def test_v_in_the_replay_of_an_unfinished_game_shows_no_sheet(store):
    game, _ = saved_game(store, 30, seed=3)
    app = LagoonApp(CONTENT, store=store)
    async with app.run_test(size=(160, 50), notifications=True) as pilot:
        await pilot.pause()
        app.replay_game(game)
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        replay = app.screen
        assert "score sheet" not in screen_text(app)
        await pilot.press("end", "v")
        await until(pilot, lambda: "This game is not over: its score sheet comes at its end." in words(app))
        assert app.screen is replay and not list(app.query(ScoreSheet))


@pytest.mark.parametrize("size", SIZES)
async def test_the_row_of_equipment_used_says_what_it_is_and_points_to_its_note(store, size):
    """The VP that activated equipment gave (the rulebook's "event on the card") have a row whose label
    names them and points to the note under the table, without widening the labels' column."""
    game, engine = saved_game(store, 10_000, seed=20)
    app = LagoonApp(CONTENT, store=store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        shown = await end_screen_cells(pilot, engine)
        label = shown["source:equipment effects"][0]
        assert label == ("Equipment used (see below)" if size[0] >= 120 else "Cards used ↓")
        # at 80 columns no wider than the label it replaced ("Card effects"): the players' columns keep their room
        assert size[0] >= 120 or len(label) <= len("Card effects")
        await app.push_screen(EndScreen(Scene(Host(engine).scene(None), CONTENT)))
        await pilot.pause()
        text = screen_text(app)
        lines = text.splitlines()
        (row,) = [i for i, line in enumerate(lines) if line.strip().startswith(label)]
        (note,) = [i for i, line in enumerate(lines) if "Ana's Jaw Crusher (1 VP)." in line]
        assert note > row  # (the note is below, where the label points)
        assert "Card effects" not in text
