"""Whole games of the real app, played through key presses only (Pilot).

The app starts a seeded game from its settings (as `lagoon play` does); the
driver in tests/helpers/drive.py passes every curtain with Enter and picks every
option by its digit, or with the arrows and Enter past the ninth, using a
seeded random policy over the prompt's legal options. At the end screen the
ranking must name every player with the final VP the engine gave them, and
the game must have ended by the rules: after the last round, or in the
round a player reached the VP goal.

A game of the compact layout (80×24) is also played for a few rounds while
paging through the panels with [ and ].
"""

from __future__ import annotations

import re

import pytest

from lagoon_tui.app import LagoonApp
from lagoon_tui.screens.curtain import CurtainScreen
from lagoon_tui.screens.end import EndScreen
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.screens.title import TitleScreen
from lagoon_tui.settings import GameSettings
from lagoon_tui.widgets import LogPanel
from rules.narrate import narrate
from rules.view import redact
from tests.helpers.drive import Policy, game_screen, play_game, press, screen_text, start, step, title_of
from tests.helpers.invariants import check_ended_by_the_rules

NAMES = ("Ana", "Ben", "Cleo", "Dev")
COLOURS = ("red", "yellow", "green", "blue")
LETTERS = ("R", "Y", "G", "B")


def settings(players: int, seed: int, start_player: int = 0) -> GameSettings:
    return GameSettings(NAMES[:players], COLOURS[:players], seed, start_player)


def end_screen_totals(frame: str, players: int) -> dict[str, int]:
    """{name: total VP} read off the end screen: the players' column headers and the Total VP row."""
    lines = frame.splitlines()
    header = next(line for line in lines if all(f"{n} [{c}]" in line for n, c in zip(NAMES[:players], LETTERS)))
    order = sorted(NAMES[:players], key=lambda n: header.index(f"{n} ["))
    total = next(line for line in lines if re.search(r"\bTotal VP\b", line))
    numbers = [int(n) for n in re.findall(r"(?<![\w'])-?\d+(?![\w'])", total.split("Total VP", 1)[1])]
    assert len(numbers) == players, f"the Total VP row reads {total!r}"
    return dict(zip(order, numbers))


@pytest.mark.slow
@pytest.mark.parametrize("players, seed", [(2, 7), (4, 8)], ids=["2-players", "4-players"])
async def test_a_whole_game_by_key_presses(players, seed):
    app = LagoonApp(settings=settings(players, seed))
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        engine = await play_game(pilot, seed, run=run)
        assert isinstance(app.screen, EndScreen)
        frame = screen_text(app)
        await pilot.press("b")  # back to the title (made only now: `lagoon play` starts with the game)
        for _ in range(3000):  # (at least 30 s: only turns a hang into a failure)
            if isinstance(app.screen, TitleScreen):
                break
            await pilot.pause(0.01)
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen) and "New game" in screen_text(app)

    state = engine.state
    check_ended_by_the_rules(engine)
    assert run.curtains >= 2 * players  # at least everyone's setup and first island, each behind a curtain
    # the end screen names everyone with the VP the engine gave them
    final = {p.name: p.vp for p in state.players}
    assert end_screen_totals(frame, players) == final
    assert {s.seat: s.vp for s in state.standings} == {p.seat: p.vp for p in state.players}
    assert f"After round {state.round}." in frame
    best = max(final.values())
    winners = [name for name, vp in final.items() if vp == best]
    assert f"{best} VP" in frame and all(f"{name} [" in frame for name in winners)


@pytest.mark.slow
async def test_the_compact_layout_pages_through_every_panel_while_playing():
    """80×24: a few rounds of a game, paging with [ and ] between moves.

    The decision is always on screen (its first option at least). From time
    to time ] goes through every page in turn, each page's panels on screen
    with their titles and the hint line saying which page it is, until it
    comes round to the first again; [ goes back one.
    """
    app = LagoonApp(settings=settings(2, 5))
    async with app.run_test(size=(80, 24)) as pilot:
        run = await start(pilot)
        policy = Policy(5)
        moves = 0
        seen_panels: set[int] = set()
        while run.engine.state.round < 3:
            screen = app.screen
            if isinstance(screen, GameScreen):
                assert screen.has_class("compact")
                frame = screen_text(app)
                first = run.engine.pending.options[0].label
                assert f"1. {first[:20]}" in frame, frame
                if moves % 4 == 0:
                    page, pages = page_hint(app)
                    pages_seen = []
                    for n in range(1, pages + 1):
                        want = (page - 1 + n) % pages + 1
                        await press(pilot, "right_square_bracket", lambda want=want: page_hint(app)[0] == want, run=run)
                        frame = screen_text(app)
                        shown = [p for p in screen.panels if p.display]
                        assert shown, f"page {want} shows no panel"
                        for panel in shown:
                            title = title_of(panel)
                            assert re.search(f"[─━═] {re.escape(title[:12])}", frame), (
                                f"panel {title!r} is not on screen:\n{frame}"
                            )
                            seen_panels.add(id(panel))
                        pages_seen.append(tuple(id(p) for p in shown))
                    assert len(set(pages_seen)) == pages  # every page shows other panels
                    assert page_hint(app)[0] == page  # ] went all the way round
                    want = (page - 2) % pages + 1
                    await press(pilot, "left_square_bracket", lambda: page_hint(app)[0] == want, run=run)
            else:
                assert isinstance(screen, CurtainScreen)
            await step(pilot, run, policy)
            moves += 1
        assert isinstance(app.screen, (GameScreen, CurtainScreen))
        every = {id(p) for p in game_screen(app).panels}
    assert seen_panels == every
    assert run.engine.state.round >= 3 and run.engine.state.phase != "over"


HINT = re.compile(r"^[^│┃║╭╮╰╯┏┓┗┛╔╗╚╝─━═\n]*?(?<![\w/])(?P<page>\d+)/(?P<pages>\d+)(?![\w/])[^│┃║\n]*$", re.MULTILINE)
"""The compact layout's hint line, outside every panel: "Mining sites 5/9 · [ ] panels o islands ..." or shorter."""


def page_hint(app) -> tuple[int, int]:
    """(page, pages) as the hint line on screen says."""
    found = HINT.search(screen_text(app))
    assert found, f"no page hint on screen:\n{screen_text(app)}"
    return int(found["page"]), int(found["pages"])


def region_text(app, widget) -> str:
    """The text on screen inside `widget`'s content region, its lines joined into one."""
    lines = screen_text(app).splitlines()
    r = widget.scrollable_content_region  # without the scroll bar
    inside = [line[r.x : r.right] for line in lines[r.y : r.bottom]]
    return " ".join(" ".join(inside).split())


def newest_line(engine, seat: int | None) -> str:
    """The newest sentence of the log as `seat` reads it, as the log writes it (name as the player's tag)."""
    state = engine.state
    for e in reversed(engine.events):
        text = narrate(redact(e, seat), state)
        if text:
            who = getattr(e, "seat", None)
            if who is not None and 0 <= who < state.seats:
                p = state.players[who]
                tag = f"{p.name} [{LETTERS[COLOURS.index(p.colour)]}]"
                text = tag + text[len(p.name) :] if text.startswith(p.name) else f"{tag}: {text}"
            return text
    return ""


async def test_the_log_shows_the_newest_line_at_160x50():
    app = LagoonApp(settings=settings(2, 5))
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        policy = Policy(5)
        while run.engine.state.round < 2:
            screen = app.screen
            if isinstance(screen, GameScreen):
                shown = region_text(app, screen.query_one(LogPanel))
                newest = " ".join(newest_line(run.engine, run.keyboard).split())
                assert newest in shown, f"the newest log line {newest!r} is not on screen; the log shows {shown!r}"
            await step(pilot, run, policy)
