"""Every line laid out for the width it is shown at, in the sizes the layouts are made for.

Issue 16: lines wrapped far narrower than the panel they were shown in (a log
line written while the log was on another page, the title menu's Resume, a
gallery of the mining grid, the replay's player boards), and a score track
label left out. Each test reads what a player sees: the rows of the screen
inside a panel, at 80×24 (the smallest supported terminal), 160×50 and the
sizes around WIDE (150×44), where the layout switches from paging the board
to showing it whole.
"""

from __future__ import annotations

import random
import re

import pytest

from lagoon_tui.app import LagoonApp
from lagoon_tui.scene import Scene
from lagoon_tui.screens.curtain import CurtainScreen
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.screens.replay import ReplayScreen
from lagoon_tui.screens.title import TitleScreen
from lagoon_tui.settings import GameSettings
from lagoon_tui.widgets import LogPanel, MiningSitePanel, PlayerBoard, ScoreTrackPanel
from lagoon_tui.widgets.mining_site import gallery_cell
from lagoon_tui.widgets.renderables import Flow
from lagoon_tui.widgets.replay_secrets import ReplaySecrets
from rules import Engine
from rules.host import Host, Replay
from rules.saves import Store
from rules.saves.recorder import record_new
from tests.helpers.drive import Policy, screen_text, start, step
from tests.helpers.scenes import CONTENT, play
from tests.helpers.stills import played

SIZES = [(80, 24), (160, 50)]


def rows_inside(app, widget) -> list[str]:
    """The rows of the screen inside `widget`'s content region, as they are on screen (trailing spaces cut)."""
    r = widget.scrollable_content_region
    return [line[r.x : r.right].rstrip() for line in screen_text(app).splitlines()[r.y : r.bottom]]


# --- the log -------------------------------------------------------------------------------


async def show_page(pilot, key: str, panel) -> None:
    await pilot.press(key)
    await pilot.pause()
    assert panel.display and panel.region.width, f"{key!r} did not show the panel"


@pytest.mark.parametrize(
    "size, then",
    [
        ((80, 24), None),
        pytest.param((80, 24), (120, 40), marks=pytest.mark.slow),
        pytest.param((149, 50), None, marks=pytest.mark.slow),
    ],
    ids=["80x24", "80x24-then-120x40", "149x50"],
)
async def test_a_log_line_written_while_the_log_was_on_another_page_is_wrapped_at_the_log_width(size, then):
    """Compact layout: the log shown once, then the mines while moves are made; shown again, no line is cut short.

    (A line written while the log was hidden was wrapped at 20 columns, until
    the game was resumed: "A gold 3 gallery at / island 2, column 2, / level 1
    is exhausted" in a panel of 76 columns. With `then`, the terminal is
    resized while the log is hidden.)
    """
    app = LagoonApp(settings=GameSettings(("Ana", "Ben"), ("red", "yellow"), 5, 1))
    async with app.run_test(size=size) as pilot:
        run = await start(pilot)
        policy = Policy(5)
        while not isinstance(app.screen, GameScreen):
            await step(pilot, run, policy)
        log = app.screen.query_one(LogPanel)
        await show_page(pilot, "l", log)
        await show_page(pilot, "g", app.screen.query_one("#sites"))
        written = len(log.scene.log)
        for _ in range(40):
            await step(pilot, run, policy)
        while not isinstance(app.screen, GameScreen):
            await step(pilot, run, policy)
        assert not log.display and len(log.scene.log) > written + 10  # the lines came while it was hidden
        if then:
            await pilot.resize_terminal(*then)
            await pilot.pause()
        await show_page(pilot, "l", log)
        rows = rows_inside(app, log)
        width = log.scrollable_content_region.width
        sentences = [log.line_text(line).plain for line in log.scene.log]
        fitting = [s for s in sentences if len(s) <= width]
        cut = [row for row in rows if row and any(s != row and s.startswith(row) for s in fitting)]
        assert not cut, f"lines wrapped narrower than the log's {width} columns:\n" + "\n".join(rows)
        whole = [row for row in rows if row in fitting and len(row) > 30]
        assert len(whole) >= 3, "\n".join(rows)
        assert rows[-1] == sentences[-1] or len(sentences[-1]) > width  # the newest line at the bottom


# --- the title menu -----------------------------------------------------------------------


def saved_until_round(store: Store, round_: int) -> Engine:
    """A saved two-player game, played at random until round `round_` begins."""
    engine = Engine.new(CONTENT, ["Ana", "Ben"], seed=5, start_player=1)
    record_new(store, engine)
    rng = random.Random(5)
    while engine.state.round < round_:
        ids = [i for i in engine.legal_ids() if i != "back"] or engine.legal_ids()
        engine.choose(ids[rng.randrange(len(ids))])
    return engine


@pytest.mark.parametrize("size", SIZES)
async def test_the_title_menu_says_resume_and_the_round_on_one_line(store, size):
    """The menu is as wide as its widest entry: "Resume (round 12)" wrapped after "round" in 24 columns."""
    saved_until_round(store, 12)
    app = LagoonApp(CONTENT, store=store)
    async with app.run_test(size=size) as pilot:
        for _ in range(50):
            await pilot.pause()
            if isinstance(app.screen, TitleScreen):
                break
        menu = app.screen.query_one("#title-menu")
        rows = rows_inside(app, menu)
        assert any(re.fullmatch(r"\s*c\s+Resume \(round 12\)", row) for row in rows), "\n".join(rows)
        for row, label in zip([r for r in rows if r.strip()], ["New game", "Resume", "Load a game", "Rules", "Quit"]):
            assert label in row


# --- the mining sites ----------------------------------------------------------------------


def engine_where(test, players: int = 2, seeds=range(40)) -> Engine:
    """The engine at the first moment of a random game (over `seeds`) at which `test(engine)` holds."""
    for seed in seeds:
        for engine in play(players, seed):
            if test(engine):
                return engine
    raise LookupError("no random game showed the situation asked for")


async def game_of(pilot, engine: Engine) -> GameScreen:
    """The game screen of `engine`, past its curtain."""
    await pilot.pause()
    await pilot.app.push_screen(GameScreen(Host(engine)))
    for _ in range(50):
        await pilot.pause()
        if isinstance(pilot.app.screen, CurtainScreen):
            await pilot.press("enter")
        elif isinstance(pilot.app.screen, GameScreen) and pilot.app.screen.at_keyboard is not None:
            break
    await pilot.pause()
    return pilot.app.screen


def widest_galleries(engine: Engine) -> int:
    """How many face-up galleries read 11 columns ("silver ●●●○", "copper ●●●●")."""
    return sum(
        1
        for site in engine.state.sites.values()
        for column in site.columns
        for g in column
        if g is not None
        and g.face_up
        and len(engine.content.gallery(g.tile).metal or "") == 6
        and engine.content.gallery(g.tile).cubes == 4
    )


# the sizes either side of WIDE: compact with the two sites side by side, and the whole board
BETWEEN = [(80, 24), (149, 43), (150, 44), (160, 50)]


@pytest.mark.parametrize("size", BETWEEN, ids=[f"{w}x{h}" for w, h in BETWEEN])
async def test_a_face_up_gallery_reads_on_one_line_of_the_mining_grid(size):
    """ "silver ●●●○" on one row, not "L2 silver" over "●●●○" in a column that could have had room for it."""
    engine = engine_where(lambda e: e.state.phase == "actions" and widest_galleries(e) >= 2)
    async with LagoonApp(engine.content).run_test(size=size) as pilot:
        screen = await game_of(pilot, engine)
        if screen.has_class("compact"):
            await pilot.press("g")
            await pilot.pause()
        scene = Scene(screen.host.scene(screen.at_keyboard), screen.host.content)  # (what the screen drew)
        checked = 0
        for panel in screen.query(MiningSitePanel):
            rows = rows_inside(pilot.app, panel)
            site = scene.view["sites"][str(panel.island)]
            for column in site["columns"]:
                for gallery in column:
                    if gallery is None or not gallery.get("face_up"):
                        continue
                    cell = gallery_cell(scene, gallery)
                    words = (cell.line() if isinstance(cell, Flow) else cell).plain
                    assert any(words in row for row in rows), f"{words!r} is not on one row:\n" + "\n".join(rows)
                    checked += 1
        assert checked >= 2


# --- the score track -------------------------------------------------------------------------


@pytest.mark.parametrize("size", BETWEEN, ids=[f"{w}x{h}" for w, h in BETWEEN])
async def test_every_tick_of_the_score_track_has_its_label(size):
    """Ticks every 5 (or 10 ...) VP from the low end and the goal: each one labelled, above it.

    (At 160×50 the "30 goal" label took the place of 25's, which was left out.)
    """
    engine = engine_where(lambda e: e.state.phase == "actions")
    goal = engine.content.board.vp_goal
    async with LagoonApp(engine.content).run_test(size=size) as pilot:
        screen = await game_of(pilot, engine)
        if screen.has_class("compact"):
            await pilot.press("t")
            await pilot.pause()
        scale, track = rows_inside(pilot.app, screen.query_one(ScoreTrackPanel))[:2]
    labels = {int(m[1]): m.start() for m in re.finditer(r"(-?\d+)( goal)?", scale)}
    assert re.search(rf"\b{goal} goal\b", scale), scale
    ticks = sorted(labels)
    step = ticks[1] - ticks[0]
    top = max(goal, *(5 * -(-p.vp // 5) for p in engine.state.players))
    assert set(ticks) == set(range(ticks[0], top + 1, step)) | {goal}, f"a label is missing:\n{scale}\n{track}"
    letters = {"R", "Y", "G", "B"}
    for vp, x in labels.items():
        under = track[x : x + len(str(vp))]
        assert any(c in "┼0▐" or c in letters for c in under), f"{vp} is not above a tick:\n{scale}\n{track}"


# --- the replay -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def four_player_game() -> Engine:
    """A finished four-player game: its replay shows four boards side by side, and every hand."""
    return played(4, None, seed=5).engine


WIDE_SIZES = [(150, 44), (160, 50)]


@pytest.mark.parametrize("size", WIDE_SIZES, ids=[f"{w}x{h}" for w, h in WIDE_SIZES])
async def test_the_replay_leaves_four_player_boards_room_for_their_cube_grids(four_player_game, size):
    """The replay's board is as wide as the game's: "raw 1' 2' 3' 4'" on one row of each board, a row per metal.

    (Its side column took 60 columns: at 160×50 the boards were 20 columns
    inside and their grids wrapped, "raw 1' 2' 3'" over "4'".) The hands
    panel beside them wraps between the deals it lists, not inside one, and
    the status between the keys it names.
    """
    engine = four_player_game
    async with LagoonApp(engine.content).run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.app.push_screen(ReplayScreen(Replay(engine.content, engine.events, engine.marks)))
        await pilot.pause()
        screen = pilot.app.screen
        assert not screen.has_class("compact")
        await pilot.press("end")
        await pilot.pause()
        boards = list(screen.query(PlayerBoard))
        assert len(boards) == 4
        for board in boards:
            rows = rows_inside(pilot.app, board)
            assert any(re.fullmatch(r"\s+raw 1' 2' 3' 4'( art)?", row) for row in rows), "\n".join(rows)
            for metal in ("gold", "iron", "copper", "silver"):
                assert any(re.fullmatch(rf"{metal}\s+\d+( (\d'|·) ?){{4}}(\s+\d+)?", row) for row in rows), (
                    f"no whole {metal} row:\n" + "\n".join(rows)
                )
        status = rows_inside(pilot.app, screen.query_one("#replay-status"))
        for keys in ("← → event", "⇧← ⇧→ or p n turn", "Home End", "g round", "Esc back"):
            assert any(keys in row for row in status), "\n".join(status)
        hands = rows_inside(pilot.app, screen.query_one(ReplaySecrets))
        width = screen.query_one(ReplaySecrets).scrollable_content_region.width
        deals = [f"{engine.content.deals[d].vp} VP (" for p in engine.state.players for d in p.deals]
        starts = [row for row in hands if re.search(r"\d+ VP \([^)]*$", row)]  # a deal begun and not ended
        assert deals and not starts, f"a deal is cut in {width} columns:\n" + "\n".join(hands)
