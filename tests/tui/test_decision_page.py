"""80×24: the page follows the decision, the log pages with PgUp and PgDn, toasts leave the options
in sight, and the footer always shows how to quit, the keys and the rules (issue 34, point 3).

Each test plays the real app with Pilot and reads what a player sees: which panels are on
screen, where the toasts and the options are, what the footer's line says.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.app import App
from textual.widget import Widget

from lagoon_tui.app import LagoonApp
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.screens.load import LoadScreen
from lagoon_tui.screens.replay import ReplayScreen
from lagoon_tui.screens.title import TitleScreen
from lagoon_tui.widgets import (
    EnrichmentCenterPanel,
    IslandPanel,
    LogPanel,
    MarketPanel,
    MiningSitePanel,
    PlayerBoard,
)
from lagoon_tui.widgets.options import Options
from rules import Engine
from tests.helpers.drive import open_game, screen_text, settle, until
from tests.helpers.scenario import act, give, ready, saved_game
from tests.helpers.scenes import CONTENT, play

SMALL, LARGE = (80, 24), (160, 50)


def deciding(test: Callable[[Engine], bool], seeds: range = range(12)) -> Engine:
    """The first moment of a random three-player game (over `seeds`) at which `test(engine)` holds."""
    for seed in seeds:
        for engine in play(3, seed):
            if test(engine):
                return engine
    raise LookupError("no random game came to the decision asked for")


def kind_is(kind: str) -> Callable[[Engine], bool]:
    return lambda engine: engine.asking().kind == kind


def paying() -> Engine:
    """A deal being closed, Ana choosing which of her enriched cubes pays for it (2' or 4' iron)."""
    engine = ready(3, islands=(1, 2, 3))
    give(engine, 0, deals=["deal_13"], enriched={"iron": [2, 4], "copper": [3]})
    act(engine, "do:1:draw_or_close_deal", "close:deal_13")
    assert {"pay:iron:2", "pay:iron:4"} <= set(engine.legal_ids())
    return engine


def shown(screen: GameScreen) -> list[Widget]:
    """The board's panels on screen now."""
    return [panel for panel in screen.panels if panel.region.area]


def app() -> LagoonApp:
    made = LagoonApp(CONTENT)
    made.animation_level = "none"
    return made


# --- the page follows the decision ---------------------------------------------------------------


def own_board(engine: Engine) -> Callable[[Widget], bool]:
    seat = engine.pending.seat
    return lambda panel: isinstance(panel, PlayerBoard) and panel.seat == seat


def ship_island(engine: Engine) -> Callable[[Widget], bool]:
    island = engine.state.players[engine.pending.seat].island
    return lambda panel: isinstance(panel, IslandPanel) and panel.island == island


def a(kind: type[Widget]) -> Callable[[Engine], Callable[[Widget], bool]]:
    return lambda engine: lambda panel: isinstance(panel, kind)


@pytest.mark.parametrize(
    "moment, wanted",
    [
        pytest.param(kind_is("keep_objectives"), own_board, id="objectives-board"),
        pytest.param(kind_is("choose_island"), a(IslandPanel), id="island-islands"),
        pytest.param(
            lambda e: kind_is("choose_action")(e) and e.state.players[e.pending.seat].island >= 3,  # (not on page 1)
            ship_island,
            id="action-ship's-island",
        ),
        pytest.param(kind_is("operate_mining_site"), a(MiningSitePanel), id="mining-sites"),
        pytest.param(kind_is("draw_place_galleries"), a(MiningSitePanel), id="galleries-sites"),
        pytest.param(kind_is("enrichment_transaction"), a(EnrichmentCenterPanel), id="enriching-centre"),
        pytest.param(kind_is("buy_equipment"), a(MarketPanel), id="equipment-market"),
        pytest.param(kind_is("make_shipment"), a(MarketPanel), id="shipment-market"),
        pytest.param(kind_is("deal"), a(MarketPanel), id="deal-market"),
        pytest.param(paying, own_board, id="paying-board"),
    ],
)
async def test_the_page_of_each_kind_of_decision_comes_up_at_80x24(moment, wanted):
    engine = moment() if moment is paying else deciding(moment)
    test = wanted(engine)
    async with app().run_test(size=SMALL) as pilot:
        screen = await open_game(pilot, engine)
        on_screen = shown(screen)
        assert on_screen and any(test(panel) for panel in on_screen), [type(p).__name__ for p in on_screen]


async def test_a_page_turned_by_hand_stays_for_that_decision_and_the_next_turns_it_again():
    engine = deciding(kind_is("operate_mining_site"))
    async with app().run_test(size=SMALL) as pilot:
        screen = await open_game(pilot, engine)
        assert any(isinstance(p, MiningSitePanel) for p in shown(screen))
        await pilot.press("m")  # the market, by hand
        await settle(pilot)
        assert [type(p) for p in shown(screen)] == [MarketPanel]
        await pilot.press("question_mark")  # the keys, and back: the same decision
        await pilot.pause()
        await pilot.pause()
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("f")  # the log filtered: the screen drawn again, the same decision
        await settle(pilot)
        assert isinstance(pilot.app.screen, GameScreen)
        assert [type(p) for p in shown(screen)] == [MarketPanel]
        await pilot.press("escape")  # backing out of the action: the next decision, made on the ship's island
        await settle(pilot)
        assert engine.asking().kind == "choose_action"
        on_screen = shown(screen)
        assert on_screen and all(isinstance(p, IslandPanel) for p in on_screen)


# --- the log pages ------------------------------------------------------------------------------------


def log_window(screen: GameScreen) -> int:
    return round(screen.query_one(LogPanel).scroll_y)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x50"])
async def test_pgup_and_pgdn_page_the_log(size):
    engine = deciding(lambda e: e.state.round >= 3)
    async with app().run_test(size=size) as pilot:
        screen = await open_game(pilot, engine)
        log = screen.query_one(LogPanel)
        await pilot.press("pageup")
        await settle(pilot)
        assert log.region.area  # (at 80×24 the log's page came up)
        height, bottom = log.scrollable_content_region.height, round(log.max_scroll_y)
        first = log_window(screen)
        assert bottom - first >= height - 1 > 1  # a page back, not a line
        await pilot.press("pageup")
        await settle(pilot)
        assert first - log_window(screen) >= min(first, height - 1) > 0
        await pilot.press("pagedown", "pagedown", "pagedown")
        await settle(pilot)
        assert log_window(screen) == bottom
        if screen.has_class("compact"):
            await pilot.press("k")  # j and k still scroll it, a few lines at a time
            await settle(pilot)
            assert 0 < bottom - log_window(screen) < height - 1


# --- toasts ------------------------------------------------------------------------------------


def rows_of(app: App, widget: Widget) -> list[str]:
    """The lines of the terminal inside `widget`'s place on the screen."""
    rows = screen_text(app).splitlines()
    region = widget.region.intersection(app.screen.region)
    return [rows[y][region.x : region.right] for y in range(region.y, region.bottom)]


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x50"])
async def test_toasts_never_cover_the_options(size):
    engine = deciding(kind_is("choose_action"))
    async with app().run_test(size=size, notifications=True) as pilot:
        screen = await open_game(pilot, engine)
        options = screen.query_one(Options)
        before = rows_of(pilot.app, options)
        assert "Pass" in "\n".join(before)
        for n in range(8):  # a stack of long toasts, as a burst of refusals and take-backs makes
            screen.notify(f"Took back: the level 2 gallery at island 2, column {n} slid down to level 1.", title="Undo")
        await settle(pilot)
        await pilot.pause()
        assert "Took back" in screen_text(pilot.app)  # the toasts are on screen
        assert rows_of(pilot.app, options) == before  # and the options as they were, every line


async def test_in_the_wide_layout_toasts_leave_the_whole_side_column_as_it_was_log_and_all():
    """At 160x50 the log (the newest lines at its foot) and the market are in the side column, under the prompt:
    toasts come beside it, at the foot of the board, and whatever their number they cover no line of it."""
    engine = deciding(kind_is("choose_action"))
    async with app().run_test(size=LARGE, notifications=True) as pilot:
        screen = await open_game(pilot, engine)
        side = screen.query_one("#side")
        before = rows_of(pilot.app, side)
        assert "Log" in "\n".join(before) and "Market" in "\n".join(before)
        for n in range(8):
            screen.notify(f"Took back: the level 2 gallery at island 2, column {n} slid down to level 1.", title="Undo")
        await settle(pilot)
        await pilot.pause()
        assert "Took back" in screen_text(pilot.app)
        assert rows_of(pilot.app, side) == before


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x50"])
async def test_however_many_toasts_come_the_newest_is_on_screen_and_the_board_shows_beside_them(size):
    """Textual's rack of toasts cut off the newest once more were up than half the screen holds (at 80x24
    the first two or three of eight showed, at 160x50 the first five): a burst of notices hid the last,
    often the one that mattered. Now the newest toasts show, the oldest give way; and beside the toasts'
    column the board's lines are as they were."""
    engine = deciding(kind_is("choose_action"))
    async with app().run_test(size=size, notifications=True) as pilot:
        screen = await open_game(pilot, engine)
        before = screen_text(pilot.app).splitlines()
        for n in range(8):
            screen.notify(f"Notice number {n}: the level 2 gallery at island 2 slid down.", title="Undo")
        await settle(pilot)
        await pilot.pause()
        text = screen_text(pilot.app)
        shown = [n for n in range(8) if f"Notice number {n}:" in text]
        assert shown and shown[-1] == 7 and shown == list(range(shown[0], 8)), shown
        rack = screen.get_child_by_id("textual-toastrack")
        left = rack.region.x
        assert left > 0 and rack.region.width <= size[0] // 2, rack.region  # a column of its own, not a band
        after = text.splitlines()
        rows = range(rack.region.y, rack.region.bottom)
        assert all(after[y][:left] == before[y][:left] for y in rows), "the board beside the toasts changed"


# --- the footer ------------------------------------------------------------------------------------


def footer_line(app: App) -> str:
    return screen_text(app).splitlines()[-1]


def leads_with_quit_keys_rules(line: str) -> bool:
    words = line.split()
    return [w for w in words if w in ("Quit", "Keys", "Rules")][:3] == ["Quit", "Keys", "Rules"]


async def test_the_footer_at_80x24_shows_quit_keys_and_rules_on_the_game_screen():
    engine = deciding(kind_is("choose_island"))  # (at one keyboard, veiled: "v Show my cards" too)
    async with app().run_test(size=SMALL) as pilot:
        await open_game(pilot, engine)
        line = footer_line(pilot.app)
        assert leads_with_quit_keys_rules(line), line


async def test_the_footer_at_80x24_shows_quit_keys_and_rules_on_the_title_load_and_replay(store):
    saved_game(store, 10_000, seed=2)
    lagoon = LagoonApp(CONTENT, store=store)
    async with lagoon.run_test(size=SMALL) as pilot:
        lines = {}
        await until(pilot, lambda: isinstance(lagoon.screen, TitleScreen))
        lines["title"] = footer_line(lagoon)
        await pilot.press("l")
        await until(pilot, lambda: isinstance(lagoon.screen, LoadScreen))
        await pilot.pause()
        lines["load"] = footer_line(lagoon)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(lagoon.screen, ReplayScreen))
        await pilot.pause()
        lines["replay"] = footer_line(lagoon)
        wrong = {screen: line for screen, line in lines.items() if not leads_with_quit_keys_rules(line)}
        assert not wrong, wrong


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x50"])
async def test_outside_a_game_too_the_newest_toast_is_on_screen_in_the_right_half(size, store):
    """The title and a replay keep Textual's own rack (so do the lobby and the load list: no style of ours
    touches it there): eight notices at once leave the newest on screen, the oldest gone off the top, each
    in the right half of the screen."""
    saved_game(store, 10_000, seed=2)  # (finished: its replay shows every hand, no curtain)
    lagoon = LagoonApp(CONTENT, store=store)
    async with lagoon.run_test(size=size, notifications=True) as pilot:
        await until(pilot, lambda: isinstance(lagoon.screen, TitleScreen))
        for where in ("title", "replay"):
            if where == "replay":
                lagoon.clear_notifications()
                await pilot.press("l")
                await until(pilot, lambda: isinstance(lagoon.screen, LoadScreen))
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(lagoon.screen, ReplayScreen))
            for n in range(8):
                lagoon.notify(f"Notice number {n}: Ben left the room; a computer plays for him.", title=where)
            for _ in range(3):
                await pilot.pause()
            text = screen_text(lagoon)
            shown = [n for n in range(8) if f"Notice number {n}:" in text]
            assert shown and shown[-1] == 7 and shown == list(range(shown[0], 8)), (where, shown)
            columns = [line.index("Notice number") for line in text.splitlines() if "Notice number" in line]
            assert min(columns) >= size[0] // 2, (where, text)
