"""Options the player cannot take now (issue 34, point 4): listed, dimmed, with the engine's reason.

Ana is on island 3, where Ben took Draw & Place Galleries before her: it
costs her 2 merchants and she has 1 free. Before, the option was simply not
listed, so "not allowed" could not be told from "not affordable". Now it is
listed after the options she can take, dimmed, with the rulebook's reason;
picking it (its digit, or Enter on it) says why under the question and sends
nothing to the engine; `i` reads it. Options that wrap hang under their words,
and at 160×50 the prompt grows to its options while the log below keeps room.
"""

from __future__ import annotations

import re
from contextlib import asynccontextmanager

import pytest

from lagoon_tui.app import LagoonApp
from lagoon_tui.screens.inspect import InspectScreen
from lagoon_tui.widgets import LogPanel, MarketPanel
from lagoon_tui.widgets.options import Options
from lagoon_tui.widgets.prompt import LOG_KEEPS, WIDE_ROWS, PromptPanel
from rules import Engine
from tests.helpers.drive import open_game, screen_text, toast_shown, until, widget_text
from tests.helpers.scenario import ready, refresh
from tests.helpers.scenes import CONTENT, play
from tests.helpers.stills import played

SIZES = [(80, 24), (160, 50)]
GALLERIES = "do:3:draw_place_galleries"
REASON = "This action needs 2 merchants because 1 other player took it before you; you have 1 free"


def short_of_merchants() -> Engine:
    """Ana's first action on island 3; Ben took Draw & Place Galleries there; she has 1 merchant free."""
    engine = ready(2, islands=(3, 4))
    state = engine.state
    ana = state.players[0]
    assert engine.pending.seat == 0 and ana.island == 3
    state.space_users["3:draw_place_galleries"] = [1]
    ana.merchants_used = ana.merchants - 1
    refresh(engine)
    assert GALLERIES not in engine.pending.ids()
    return engine


@asynccontextmanager
async def short_of_merchants_on_screen(size: tuple[int, int]):
    """The game screen at `size` for `short_of_merchants`: (app, pilot, engine, game screen, its options)."""
    engine = short_of_merchants()
    app = new_app()
    async with app.run_test(size=size) as pilot:
        game = await open_game(pilot, engine)
        yield app, pilot, engine, game, game.query_one(PromptPanel).query_one(Options)


def new_app() -> LagoonApp:
    app = LagoonApp(CONTENT)
    app.animation_level = "none"
    return app


def rows_of(app, widget) -> list[str]:
    """The rows of the screen inside `widget` (trailing spaces cut)."""
    r = widget.scrollable_content_region
    return [line[r.x : r.right].rstrip() for line in screen_text(app).splitlines()[r.y : r.bottom]]


def flat(rows: list[str]) -> str:
    return " ".join(" ".join(rows).split())


def listed(options: Options) -> list[tuple[str, str | None]]:
    return [(o.id, o.refused) for o in (options.get_option_at_index(i) for i in range(options.option_count))]


def option_colours(app, options: Options) -> dict[str, set]:
    """The foreground colours each option's lines are drawn in on screen, by option id."""
    strips = app.screen._compositor.render_strips()
    region = options.region
    out: dict[str, set] = {}
    for line, index in enumerate(options._lines):
        y = region.y + line - options.scroll_offset.y
        if region.y <= y < region.bottom:
            strip = strips[y].crop(region.x, region.right)
            colours = {segment.style.color for segment in strip if segment.text.strip() and segment.style}
            out.setdefault(options.get_option_at_index(index).id, set()).update(colours)
    return out


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_an_action_the_player_cannot_afford_is_listed_dimmed_with_the_engines_reason(size):
    async with short_of_merchants_on_screen(size) as (app, pilot, engine, game, options):
        shown = listed(options)
        legal = list(engine.pending.ids())
        assert [i for i, _ in shown[: len(legal)]] == legal, "the options she can take come first"
        assert all(why is None for _, why in shown[: len(legal)])
        assert (GALLERIES, REASON) in shown[len(legal) :]
        on_screen = flat(rows_of(app, options))
        assert f"Draw & Place 2 Galleries (2 merchants) — not now: {REASON}" in on_screen
        colours = option_colours(app, options)
        dimmed = options.get_component_rich_style("options--refused").color
        assert colours[GALLERIES] == {dimmed}
        assert all(dimmed not in colours[i] for i in legal if i in colours), "a legal option is not dimmed"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_picking_a_refused_option_says_why_and_changes_nothing(size):
    async with short_of_merchants_on_screen(size) as (app, pilot, engine, game, options):
        index = [i for i, _ in listed(options)].index(GALLERIES)
        events, changes = len(engine.events), game.host.changes
        await pilot.press(str(index + 1))  # its digit
        await pilot.pause()
        head = " ".join(widget_text(game.query_one("#prompt-head")).split())
        assert f"Not now: {REASON}." in head
        assert len(engine.events) == events and game.host.changes == changes
        assert GALLERIES not in engine.pending.ids() and engine.pending.seat == 0
        assert not toast_shown(app), "the reason is said under the question, where no toast covers the options"
        assert f"— not now: {REASON}" in flat(rows_of(app, options)), "the options are still in sight"

        await pilot.press("end")  # Enter on it: the same
        while options.highlighted != index:
            await pilot.press("up")
        await pilot.press("enter")
        await pilot.pause()
        assert len(engine.events) == events and game.host.changes == changes
        assert f"Not now: {REASON}." in " ".join(widget_text(game.query_one("#prompt-head")).split())


async def test_i_reads_why_an_option_is_refused():
    async with short_of_merchants_on_screen((80, 24)) as (app, pilot, engine, game, options):
        index = [i for i, _ in listed(options)].index(GALLERIES)
        await pilot.press("down")
        while options.highlighted != index:
            await pilot.press("down")
        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, InspectScreen))
        text = " ".join(" ".join(widget_text(w) for w in app.screen.query("#inspect-title, #inspect-body")).split())
        assert f"Not now: {REASON}." in text
        assert "Draw & Place 2 Galleries" in text and "in different columns" in text  # what it does, as for any
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is game)
        assert GALLERIES not in engine.pending.ids()


async def test_a_wrapped_option_hangs_under_its_words():
    """At 160×50 the prompt is 44 columns wide: the refused option's reason wraps, under its words."""
    async with short_of_merchants_on_screen((160, 50)) as (app, pilot, engine, game, options):
        rows = rows_of(app, options)
        starts = [n for n, row in enumerate(rows) if re.match(r"\d\. ", row)]
        assert len(starts) == options.option_count
        wrapped = [row for n, row in enumerate(rows) if n not in starts and row.strip()]
        assert len(wrapped) >= 2, rows  # (the reason takes a line or two more)
        for row in wrapped:
            assert row.startswith("   ") and row[3] != " ", f"not hung under the words: {row!r}"


def mining_with_seven_options() -> Engine:
    """The first decision of a random game that offers 7 to 9 options, each on two lines at 160×50."""
    for engine in play(3, 2):
        if engine.pending.kind == "operate_mining_site" and 7 <= len(engine.pending.options) <= 9:
            return engine
    raise AssertionError("no such decision")


async def test_at_160x50_the_prompt_grows_to_its_options_while_the_log_keeps_room():
    """The board still (4 players, 160 moves): 7 options, 16 rows. The prompt's 14 rows showed 5 of them
    ("▼ 3 more") over a log of 17 rows; it shows them all now. Where the options need more than the log
    can give, the log keeps LOG_KEEPS rows and the prompt counts the options out of sight."""
    app = new_app()
    async with app.run_test(size=(160, 50)) as pilot:
        game = await open_game(pilot, played(4, 160))
        prompt = game.query_one(PromptPanel)
        options = prompt.query_one(Options)
        assert options.option_count == 7 and options.line_count > WIDE_ROWS - 5
        assert prompt.outer_size.height > WIDE_ROWS
        assert "more" not in str(prompt.border_subtitle), "every option in sight"
        assert options.out_of_sight() == (0, 0)
        assert "7. Back" in rows_of(app, options)
        assert "Decks:" in flat(rows_of(app, game.query_one(MarketPanel))), "the market keeps its height"
        assert game.query_one(LogPanel).outer_size.height > LOG_KEEPS

    app = new_app()
    async with app.run_test(size=(160, 50)) as pilot:
        game = await open_game(pilot, mining_with_seven_options())
        prompt = game.query_one(PromptPanel)
        assert prompt.outer_size.height > WIDE_ROWS
        assert game.query_one(LogPanel).outer_size.height == LOG_KEEPS, "as tall as the log leaves room for"
        assert "▼" in str(prompt.border_subtitle), "the rest are counted"
        assert "Decks:" in flat(rows_of(app, game.query_one(MarketPanel)))
