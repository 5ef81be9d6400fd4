"""The app with a save file: every move saved, undo with u / ctrl+z, Resume and Load, replays.

All through key presses on the real LagoonApp with a real SQLite file in tmp_path.
"""

from __future__ import annotations

import random
import re

import pytest
from textual.widgets import DataTable, OptionList

from lagoon_tui.app import LagoonApp
from lagoon_tui.screens.curtain import CurtainScreen
from lagoon_tui.screens.end import EndScreen
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.screens.help import HelpScreen
from lagoon_tui.screens.load import LoadScreen
from lagoon_tui.screens.replay import ReplayScreen
from lagoon_tui.screens.title import TitleScreen
from lagoon_tui.settings import GameSettings
from lagoon_tui.widgets import EnrichmentCenterPanel, IslandPanel, MiningSitePanel, PlayerBoard, ScoreTrackPanel
from lagoon_tui.widgets.replay_log import ReplayLog
from lagoon_tui.widgets.replay_secrets import ReplaySecrets
from rules import Engine, load_content, replay
from rules import events as ev
from rules.host import Host, Replay
from rules.saves import Store
from rules.saves.recorder import open_game, record_new
from tests.helpers.drive import Policy, screen_text, settle, start, step, title_of
from tests.helpers.privacy import deal_patterns
from tests.helpers.scenario import saved_game

CONTENT = load_content()
SETTINGS = GameSettings(("Ana", "Ben"), ("red", "yellow"), 11, 0)


async def wait(pilot, ok, tries: int = 60) -> None:
    for _ in range(tries):
        await pilot.pause()
        if ok():
            return
    raise AssertionError(f"never happened; on {pilot.app.screen!r}")


async def open_replay(pilot, game: int) -> ReplayScreen:
    await pilot.pause()
    pilot.app.replay_game(game)
    await wait(pilot, lambda: isinstance(pilot.app.screen, ReplayScreen))
    return pilot.app.screen


async def test_moves_are_saved_and_u_takes_back_a_move_of_this_turn(store):
    app = LagoonApp(CONTENT, SETTINGS, store=store)
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        policy = Policy(3)
        (info,) = store.games()
        undone = refused = 0
        rng = random.Random(5)
        for _ in range(70):
            await step(pilot, run, policy)
            engine = run.engine
            assert store.info(info.id).length == len(engine.events)  # saved before it was shown
            screen = app.screen
            if not isinstance(screen, GameScreen) or screen.at_keyboard != engine.pending.seat:
                continue
            text = screen_text(app)
            point = engine.undo_point()
            if point:
                assert "u: Take back: " in text
                if rng.random() > 0.3:
                    continue
                before = len(engine.marks)
                key = "u" if undone % 2 else "ctrl+z"
                await pilot.press(key)
                await settle(pilot)
                assert len(engine.marks) == before - 1
                assert store.info(info.id).length == len(engine.events)
                assert open_game(store, info.id, CONTENT, record=False).state == engine.state
                undone += 1
            else:
                assert f"No undo ({point.reason[:30]}" in " ".join(text.split())
                refused += 1
        assert undone >= 3 and refused >= 3


async def test_resume_brings_back_the_game_exactly_with_a_curtain_first(store):
    game, engine = saved_game(store, 60)
    app = LagoonApp(CONTENT, store=store, resume=game)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait(pilot, lambda: isinstance(app.screen, CurtainScreen))
        assert engine.state.players[engine.pending.seat].name in screen_text(app)
        await pilot.press("enter")
        await wait(pilot, lambda: isinstance(app.screen, GameScreen))
        resumed = app.screen.host.engine
        assert resumed.state == engine.state and resumed.pending == engine.pending
        assert engine.pending.prompt.split(":")[0] in screen_text(app)


async def test_title_offers_resume_and_load_and_load_lists_the_games(store):
    finished, done = saved_game(store, 10_000, seed=2)
    assert done.state.phase == "over"
    game, engine = saved_game(store, 40, seed=5)
    app = LagoonApp(CONTENT, store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait(pilot, lambda: isinstance(app.screen, TitleScreen))
        menu = app.screen.query_one(OptionList)
        labels = [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)]
        assert any(f"Resume (round {engine.state.round})" in label for label in labels)
        assert any("Load a game" in label for label in labels)
        await pilot.press("l")
        await wait(pilot, lambda: isinstance(app.screen, LoadScreen))
        table = app.screen.query_one(DataTable)
        assert table.row_count == 2
        text = screen_text(app)
        assert "finished" in text and "to play" in text and "Ana, Ben" in text
        await pilot.press("enter")  # the newest first: the unfinished game, resumed
        await wait(pilot, lambda: isinstance(app.screen, CurtainScreen))
        await pilot.press("enter")
        await wait(pilot, lambda: isinstance(app.screen, GameScreen))
        assert app.screen.host.engine.state == engine.state


async def test_a_finished_game_from_load_opens_its_replay_with_nothing_secret(store):
    game, done = saved_game(store, 10_000, seed=2)
    app = LagoonApp(CONTENT, store=store)
    async with app.run_test(size=(160, 50)) as pilot:
        await wait(pilot, lambda: isinstance(app.screen, TitleScreen))
        await pilot.press("l")
        await wait(pilot, lambda: isinstance(app.screen, LoadScreen))
        await pilot.press("enter")
        await wait(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        assert screen.replay.reveal
        await pilot.press("g")
        await pilot.pause()
        await pilot.press("3", "enter")
        await wait(pilot, lambda: screen.pos == screen.replay.round_start(3))
        text = screen_text(app)
        state = replay(CONTENT, done.events[: screen.pos])
        assert state.round == 3 and "Round 3" in text
        for p in state.players:  # every player's objectives are shown: the game is over
            for o in p.objectives:
                assert CONTENT.objectives[o].name in " ".join(text.split())


@pytest.mark.parametrize("size", [pytest.param((160, 50), marks=pytest.mark.slow), (80, 24)], ids=["160x50", "80x24"])
async def test_replay_keys_step_by_event_turn_round_and_ends(store, size):
    """The same keys on a big terminal and in the compact layout, where p still means the previous turn."""
    game, engine = saved_game(store, 80, seed=6)
    app = LagoonApp(CONTENT, store=store)
    async with app.run_test(size=size) as pilot:
        screen = await open_replay(pilot, game)
        r: Replay = screen.replay
        assert not r.reveal and screen.pos == r.first
        await pilot.press("right")
        await pilot.pause()
        assert screen.pos == r.step(r.first, 1) and screen.pos > r.first
        log = screen.query_one(ReplayLog)
        assert log.highlighted == r.line_at(screen.pos)
        await pilot.press("shift+right")
        await pilot.pause()
        first_turn = r.turn(r.step(r.first, 1), 1)
        assert screen.pos == first_turn
        await pilot.press("n")
        await pilot.pause()
        assert screen.pos == r.turn(first_turn, 1)
        await pilot.press("p")
        await pilot.pause()
        assert screen.pos == first_turn
        await pilot.press("end")
        await pilot.pause()
        assert screen.pos == len(engine.events)
        assert log.highlighted == len(r.lines) - 1
        await pilot.press("left")
        await pilot.pause()
        assert screen.pos < len(engine.events)
        await pilot.press("home")
        await pilot.pause()
        assert screen.pos == r.first
        await pilot.press("escape")
        await wait(pilot, lambda: isinstance(app.screen, TitleScreen))


async def every_page(pilot, screen: ReplayScreen) -> list[str]:
    """The screen's text on each page of the compact layout in turn (] all the way round); else just the screen."""
    if not screen.has_class("compact"):
        return [screen_text(pilot.app)]
    texts = []
    for _ in screen.pages:
        await pilot.press("right_square_bracket")
        await pilot.pause()
        texts.append(screen_text(pilot.app))
    return texts


@pytest.mark.slow
@pytest.mark.parametrize("size", [(160, 50), (80, 24)], ids=["160x50", "80x24"])
async def test_an_unfinished_games_replay_keeps_every_secret(store, size):
    """No objective and no deal in a hand, on any page of the compact layout either."""
    game, engine = saved_game(store, 150, seed=8, players=3)
    state = engine.state
    secrets = {CONTENT.objectives[o].name for p in state.players for o in p.objectives}

    def needs(deal: str) -> tuple:
        return tuple(sorted(CONTENT.deals[deal].requires.items()))

    closed = {needs(e.deal) for e in engine.events if isinstance(e, ev.DealClosed)}  # shown when closed
    patterns = [
        pat for p in state.players for d in p.deals if needs(d) not in closed for pat in deal_patterns(CONTENT.deals[d])
    ]
    assert patterns  # the game has deals that were never shown
    app = LagoonApp(CONTENT, store=store)
    async with app.run_test(size=size) as pilot:
        screen = await open_replay(pilot, game)
        assert screen.has_class("compact") == (size == (80, 24))
        assert not screen.query(ReplaySecrets)
        for key in ["home"] + ["shift+right"] * 15 + ["end"]:
            await pilot.press(key)
            await pilot.pause()
            for page in await every_page(pilot, screen):
                text = " ".join(page.split())
                leaked = {name for name in secrets if name in text}
                leaked |= {pat.text for pat in patterns if pat.search(text)}
                assert not leaked, f"the replay shows {leaked} at event {screen.pos}"
        lines = " ".join(ln.line.text for ln in screen.replay.lines)
        assert not {name for name in secrets if name in lines}


def on_screen(app, panel) -> bool:
    """The panel is shown with its border title (its first words: a narrow panel may shorten it)."""
    title = title_of(panel)
    return panel.display and re.search(f"[─━═] {re.escape(title[:12])}", screen_text(app)) is not None


@pytest.mark.slow
async def test_every_panel_of_a_replay_is_reachable_by_keys_at_80x24(store):
    """80×24: one page at a time, like the game screen; ] goes round every page, a letter jumps to a kind
    (pressed again: the next of that kind), j / k scroll the log, and the status line stays on screen."""
    game, done = saved_game(store, 10_000, seed=2, players=3)
    app = LagoonApp(CONTENT, store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_replay(pilot, game)
        assert screen.has_class("compact") and screen.replay.reveal
        await pilot.press("end")
        await pilot.pause()
        panels = screen.panels
        assert {type(p) for p in panels} >= {ReplayLog, ReplaySecrets, PlayerBoard, IslandPanel}
        seen, shown_by_page = set(), []
        for n, _ in enumerate(screen.pages):
            await pilot.press("right_square_bracket")
            await pilot.pause()
            assert f"{screen.page + 1}/{len(screen.pages)}" in screen_text(app)  # the hint line
            assert f"event {screen.replay.last} of {screen.replay.last}" in screen_text(app)  # the status, always
            shown = tuple(p for p in panels if on_screen(app, p))
            assert shown, f"page {screen.page + 1} shows no panel:\n{screen_text(app)}"
            shown_by_page.append(shown)
            seen.update(shown)
        assert screen.page == 0 and len(set(shown_by_page)) == len(screen.pages)
        assert seen == set(panels)

        for key, kind in [
            ("o", IslandPanel),
            ("s", MiningSitePanel),
            ("e", EnrichmentCenterPanel),
            ("t", ScoreTrackPanel),
            ("b", PlayerBoard),
            ("l", ReplayLog),
            ("h", ReplaySecrets),
        ]:
            await pilot.press(key)
            await pilot.pause()
            assert any(on_screen(app, p) for p in screen.query(kind)), f"{key}: no {kind.__name__}"
            assert isinstance(app.screen, ReplayScreen)  # b is a page here; Esc goes back
        await pilot.press("b")
        await pilot.pause()
        first = [p.seat for p in screen.query(PlayerBoard) if on_screen(app, p)]
        await pilot.press("b")
        await pilot.pause()
        assert [p.seat for p in screen.query(PlayerBoard) if on_screen(app, p)] == [first[0] + 1]

        await pilot.press("l")
        await pilot.pause()
        log = screen.query_one(ReplayLog)
        assert log.highlighted == len(screen.replay.lines) - 1 and log.scroll_y > 0  # the end, in view
        before = log.scroll_y
        await pilot.press("k", "k")
        await pilot.pause()
        assert log.scroll_y < before
        await pilot.press("right_square_bracket")  # from the last page round to the islands
        await pilot.pause()
        await pilot.press("escape")
        await wait(pilot, lambda: isinstance(app.screen, TitleScreen))


async def test_a_game_screen_gone_to_the_end_screen_ignores_a_stretch_it_asked_for_before(store):
    """The game screen asks to fit its boards after the next paint; by then a finished game may have left it.

    (An intermittent crash: the stretch looked for the board of a screen already removed.)
    """
    game, engine = saved_game(store, 10_000, seed=12)
    app = LagoonApp(CONTENT, store=store)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        screen = GameScreen(Host(engine))
        app.push_screen(screen)
        await wait(pilot, lambda: isinstance(app.screen, EndScreen))
        assert not screen.is_attached
        screen._stretch()  # what a late callback does
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)


async def test_after_the_end_p_replays_the_game(store):
    """The game screen hands a finished game to the end screen; p there opens its replay."""
    game, engine = saved_game(store, 10_000, seed=12)
    assert engine.state.phase == "over"
    app = LagoonApp(CONTENT, store=store)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        app.push_screen(GameScreen(Host(engine)))
        await wait(pilot, lambda: isinstance(app.screen, EndScreen))
        await pilot.press("p")
        await wait(pilot, lambda: isinstance(app.screen, ReplayScreen))
        assert app.screen.replay.reveal and app.screen.replay.last == len(engine.events)
        await pilot.press("escape")
        await wait(pilot, lambda: isinstance(app.screen, TitleScreen))


async def test_a_move_the_disk_cannot_take_is_said_as_not_saved_not_as_a_rule(tmp_path):
    """SQLite's page limit stands in for a full disk: the toast says the move was not saved, never "Not allowed"
    (no rule refused it), and the game is as it was."""
    from tests.helpers.drive import screen_text, settle, start

    with Store(tmp_path / "lagoon.db") as store:
        app = LagoonApp(settings=GameSettings(("Ana", "Ben"), ("red", "yellow"), 3, 0), store=store)
        async with app.run_test(size=(160, 50), notifications=True) as pilot:
            engine = (await start(pilot)).engine
            pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
            store.conn.execute(f"PRAGMA max_page_count = {pages}")
            for _ in range(300):  # moves fit in the free room of the last pages, until one does not
                before = len(engine.events)
                on_the_board = isinstance(app.screen, GameScreen)
                await pilot.press("1" if on_the_board else "enter")  # a digit picks at once; Enter passes a curtain
                await settle(pilot)  # (the next decision on screen: a digit pressed before would pick from the last)
                if on_the_board and len(engine.events) == before:
                    break
            await pilot.pause()
            shown = " ".join(screen_text(app).split())
    assert "Not saved" in shown and "Your move was not made" in shown and "Not allowed" not in shown


async def test_a_move_into_a_position_nobody_can_play_on_is_said_and_not_made(tmp_path):
    """Decks the limits missed (built by hand here: two islands for three players): the choice that would
    leave Cleo no island is taken back (it is found while the move is saved) and the screen says why,
    instead of the app ending in a traceback."""
    from rules.host import Host
    from tests.helpers.drive import screen_text
    from tests.helpers.scenario import two_islands_for_three

    engine = two_islands_for_three()
    store = Store(tmp_path / "lagoon.db")
    record_new(store, engine)
    host = Host(engine)
    before = list(engine.events)
    refused = host.choose("island:2")
    assert not refused and refused.title == "The game cannot go on" and "Cleo must decide" in refused.reason
    assert engine.events == before and engine.pending.seat == 1  # Ben may still choose: nothing was made

    app = LagoonApp(engine.content)
    async with app.run_test(size=(160, 50), notifications=True) as pilot:
        await app.push_screen(GameScreen(host))
        await pilot.pause()
        await pilot.press("enter")  # the curtain for Ben
        await pilot.pause()
        await pilot.press("1")  # island 2, the one left (island 1 is Ana's)
        await pilot.pause()
        shown = " ".join(screen_text(app).split())
    store.close()
    assert "The game cannot go on" in shown and engine.events == before


async def test_the_replay_log_names_players_as_the_games_log_does(store):
    """ "Ana [R] chose island 2", as in the game; never "[R] Ana chose island 2"."""
    game, engine = saved_game(store, 80, seed=6)
    app = LagoonApp(CONTENT, store=store)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await open_replay(pilot, game)
        await pilot.press("end")
        await pilot.pause()
        log = screen.query_one(ReplayLog)
        lines = [str(log.get_option_at_index(i).prompt) for i in range(log.option_count)]
        tags = {p.name: f"{p.name} [{p.colour[0].upper()}]" for p in engine.state.players}
        about_players = [line for line in lines if any(line.startswith(tag) for tag in tags.values())]
        assert len(about_players) > len(lines) // 2
        assert not any(re.match(r"\[[RYGB]\] ", line) for line in lines)
        shown = screen_text(app)
        assert any(tag in shown for tag in tags.values())
        assert not re.search(r"\[[RYGB]\] [A-Z]", shown)


async def resume_offers(pilot) -> dict[str, bool]:
    """Where the title offers Resume: its menu, its keys (?) and its commands (ctrl+p)."""
    app = pilot.app
    menu = app.screen.query_one(OptionList)
    in_menu = any("Resume" in str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count))
    await pilot.press("question_mark")
    await wait(pilot, lambda: isinstance(app.screen, HelpScreen))
    in_keys = "Resume" in screen_text(app)
    await pilot.press("escape")
    await pilot.press("ctrl+p")
    await wait(pilot, lambda: "Load" in screen_text(app))  # (the palette lists its commands in a worker)
    in_commands = "Resume" in screen_text(app)
    await pilot.press("escape")
    await wait(pilot, lambda: isinstance(app.screen, TitleScreen))
    return {"menu": in_menu, "keys": in_keys, "commands": in_commands}


async def test_the_title_offers_resume_only_with_a_game_to_resume(store):
    saved_game(store, 10_000, seed=2)  # a finished game: nothing to resume
    app = LagoonApp(CONTENT, store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait(pilot, lambda: isinstance(app.screen, TitleScreen))
        assert "solo against computers, hot-seat at one keyboard, or over SSH" in screen_text(app)
        assert await resume_offers(pilot) == {"menu": False, "keys": False, "commands": False}
        await pilot.press("c")  # its key does nothing either
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
    saved_game(store, 40, seed=5)
    app = LagoonApp(CONTENT, store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait(pilot, lambda: isinstance(app.screen, TitleScreen))
        assert await resume_offers(pilot) == {"menu": True, "keys": True, "commands": True}


async def test_load_marks_the_seats_computers_played_with_their_level(store):
    record_new(store, Engine.new(CONTENT, ["Ana", "Ben", "Cleo"], seed=3), computers={1: "easy", 2: "hard"})
    app = LagoonApp(CONTENT, store=store)
    async with app.run_test(size=(160, 50)) as pilot:
        await wait(pilot, lambda: isinstance(app.screen, TitleScreen))
        await pilot.press("l")
        await wait(pilot, lambda: isinstance(app.screen, LoadScreen))
        assert "Ana, Ben (computer, Easy), Cleo (computer, Hard)" in screen_text(app)
