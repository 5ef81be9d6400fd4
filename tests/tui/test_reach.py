"""At 80×24 nothing a player needs is out of reach.

The compact layout shows one page of panels at a time over the prompt. Every
panel on every page must show its whole content, down to its last line, with
keys the screen itself names; and a prompt with more options than rows must
keep the highlighted option in sight and say how many options are out of it.
"""

from __future__ import annotations

import re

import pytest
from rich.style import Style
from textual.app import App
from textual.widget import Widget
from textual.widgets import Static

from lagoon_tui.app import LagoonApp
from lagoon_tui.widgets.options import Options
from rules import Engine
from tests.helpers.drive import open_game, screen_text, settle, widget_text
from tests.helpers.scenes import CONTENT, engine_at, engine_before_end, play

SIZE = (80, 24)
SCROLL_DOWN = "j"  # what the page hint names for scrolling a page down (SCROLL_KEYS in screens/paging.py)


def content_lines(panel: Widget) -> list[str]:
    """Every line of a panel's content as it is laid out at the panel's width, scrolled out of sight or not."""
    lines = getattr(panel, "lines", None)  # the log, and anything else drawing its own lines
    if lines is not None and not isinstance(panel, Static):
        texts = [strip.text.rstrip() for strip in lines]
    else:
        titles = sum(1 for title in (panel.border_title, panel.border_subtitle) if title)
        texts = widget_text(panel).splitlines()[titles:]
    return [text for text in texts if text.strip()]


def on_screen_in(app: App, panel: Widget) -> list[str]:
    """The lines of the terminal inside the panel's place on the screen (as much of it as is on screen)."""
    rows = screen_text(app).splitlines()
    region = panel.region.intersection(app.screen.region)
    return [rows[y][region.x : region.right] for y in range(region.y, region.bottom)]


def hint_line(app: App) -> str:
    return str(app.screen.query_one("#page-hint").render_line(0).text)


async def brought_into_sight(pilot, panel: Widget, line: str, presses: int = 60) -> bool:
    """Whether pressing the scroll key (at most `presses` times) brings `line` into the panel's place on screen."""
    for _ in range(presses):
        if any(line.strip() in row for row in on_screen_in(pilot.app, panel)):
            return True
        await pilot.press(SCROLL_DOWN)
        await settle(pilot)
    return False


@pytest.mark.parametrize(
    "players, seed, when",
    [
        pytest.param(4, 3, "mid", id="mid-game"),
        pytest.param(4, 3, "late", id="late-game", marks=pytest.mark.slow),
        pytest.param(2, 8, "late", id="late-game-2p", marks=pytest.mark.slow),
    ],
)
async def test_every_panel_can_be_read_to_its_last_line_at_80x24(players, seed, when):
    engine = engine_at(players, seed, 120) if when == "mid" else engine_before_end(players, seed, 2)
    app = LagoonApp(CONTENT)
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, engine)
        assert screen.has_class("compact")
        unreachable = []
        for _ in screen.pages:
            page = screen.pages[screen.page]
            hint = hint_line(app)
            # the hint names the key that scrolls the page ("j k scroll", or "j↓ k↑" where room is short)
            if not re.search(rf"(^|\s){SCROLL_DOWN}(\s|↓)", hint):
                unreachable.append(f"{page.name}: the hint {hint!r} names no key to scroll with")
            for panel in page.panels:
                lines = content_lines(panel)
                if not lines:
                    unreachable.append(f"{page.name}: {type(panel).__name__} shows nothing")
                    continue
                last = lines[-1]
                if not await brought_into_sight(pilot, panel, last):
                    unreachable.append(f"{page.name}: {type(panel).__name__}'s last line {last!r}")
            await pilot.press("right_square_bracket")  # the footer's "] Next panel"
            await settle(pilot)
        assert not unreachable, "\n".join(unreachable)


# --- the prompt's options ----------------------------------------------------------------------


def many_options() -> Engine:
    """Two players, the moment one places drawn galleries: 24 options."""
    for n, engine in enumerate(play(2, 4)):
        if n == 15:
            assert len(engine.pending.options) == 24
            return engine
    raise AssertionError("the game ended early")


def option_rows(app: App, options: Options) -> list[tuple[str, bool]]:
    """Each line of the options on screen, and whether it is drawn highlighted."""
    lit = options.get_component_rich_style("options--highlighted").bgcolor
    region = options.region.intersection(options.parent.region).intersection(app.screen.region)
    strips = app.screen._compositor.render_strips()
    out = []
    for y in range(region.y, region.bottom):
        strip = strips[y].crop(region.x, region.right)
        backgrounds = {(segment.style or Style()).bgcolor for segment in strip if segment.text.strip()}
        out.append((strip.text, lit in backgrounds))
    return out


def prompt_text(app: App) -> str:
    """The prompt's place on screen, its border included (where it says what is out of sight)."""
    return "\n".join(on_screen_in(app, app.screen.query_one("PromptPanel")))


def highlighted_label(options: Options) -> str:
    return options.get_option_at_index(options.highlighted).prompt


@pytest.mark.slow
async def test_the_highlighted_option_stays_in_sight_and_the_rest_are_counted():
    engine = many_options()
    app = LagoonApp(CONTENT)
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, engine)
        options = screen.query_one(Options)
        rows = option_rows(app, options)
        assert len(rows) == 8, "the galleries prompt shows 8 rows of options at 80×24"
        assert "▼ 16 more" in prompt_text(app) and "▲" not in prompt_text(app)
        for n in range(12):
            await pilot.press("down")
            await pilot.pause()
            lit = [text for text, highlighted in option_rows(app, options) if highlighted]
            assert lit and highlighted_label(options).strip() in " ".join(t.strip() for t in lit), n
        said = prompt_text(app)
        assert "▲" in said and "more" in said and "▼" in said, said

        await pilot.press("end")
        await pilot.pause()
        assert options.highlighted == 23
        lit = [text.strip() for text, highlighted in option_rows(app, options) if highlighted]
        assert lit == [highlighted_label(options).strip()]
        assert "▲ 16 more" in prompt_text(app) and "▼" not in prompt_text(app)

        # (PgUp and PgDn page the log, issue 34: the options move by the arrows, Home and End)
        for key, at in (("home", 0), ("down", 1), ("end", 23), ("up", 22)):
            await pilot.press(key)
            await pilot.pause()
            lit = [text.strip() for text, highlighted in option_rows(app, options) if highlighted]
            assert options.highlighted == at and lit == [highlighted_label(options).strip()], key

        await pilot.press("end")
        await pilot.pause()
        seen = next(text.strip() for text, highlighted in option_rows(app, options) if highlighted)
        await pilot.press("enter")
        await settle(pilot)
    picked = [o for o in many_options().pending.options if o.label == seen.strip()]
    assert len(picked) == 1
    expected = many_options()
    expected.choose(picked[0].id)
    assert engine.events == expected.events, "Enter picks the option shown highlighted"
