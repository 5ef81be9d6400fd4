"""When the keyboard changes hands in a hot-seat game: what goes, what stays, and which keys count.

Played through key presses on the real app (tests/helpers/drive.py), with
notifications on (Textual's test harness turns them off unless asked), since a
toast is text on screen like any other.
"""

from __future__ import annotations

import random

import pytest

from lagoon_tui.app import LagoonApp
from lagoon_tui.screens.curtain import CurtainScreen
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.screens.inspect import InspectScreen
from lagoon_tui.settings import GameSettings
from lagoon_tui.widgets.island_panel import SHORT_ACTION_NAMES, IslandPanel
from lagoon_tui.widgets.words import deal_needs
from rules import Engine, load_content
from rules import events as ev
from rules.actions import ACTION_NAMES
from rules.decision import OPEN_KINDS
from rules.evolve import evolve
from rules.host import Host
from rules.narrate import narrate
from rules.state import GameState
from rules.view import redact
from tests.helpers.drive import (
    Policy,
    ana_and_ben,
    game_screen,
    pass_curtain,
    pick,
    play_game,
    press,
    prompt_options,
    screen_text,
    start,
    step,
    widget_text,
    widget_texts,
)


def everything_shown(app) -> str:
    """The frame, every widget's text on the screens that can be seen, and every title."""
    texts = [screen_text(app), app.title, app.sub_title]
    for seen in widget_texts(app):
        texts += [seen.shown, seen.wide]
    for screen in app.screen_stack:
        texts += [screen.title or "", screen.sub_title or ""]
    return " ".join(" ".join(texts).split())


async def test_an_undo_toast_naming_a_secret_is_gone_before_the_next_player_sees_the_screen():
    """Ben keeps two objectives, takes it back (the toast names them), keeps them again and hands over."""
    app = ana_and_ben()
    async with app.run_test(size=(160, 50), notifications=True) as pilot:
        run = await start(pilot)
        await pass_curtain(pilot, run)
        await pick(pilot, run, "1")  # Ana keeps her objectives
        await pick(pilot, run, "1")  # and a corporation: Ben's curtain
        await pass_curtain(pilot, run)
        await pick(pilot, run, "1")  # Ben keeps two objectives
        await pick(pilot, run, "u")  # and takes it back
        state = run.engine.state
        bens = [state.content.objectives[o].name for o in state.players[1].objective_offer]
        await pilot.pause()
        assert "Took back" in everything_shown(app)  # the toast is on Ben's screen: the test sees toasts
        await pick(pilot, run, "1")
        await pick(pilot, run, "1")  # Ben's setup is done: Ana chooses an island, in the open
        assert not isinstance(app.screen, CurtainScreen) and game_screen(app).veiled
        await pilot.pause()
        shown = everything_shown(app)
        assert game_screen(app).at_keyboard == 0
        assert "Took back" not in shown
        kept = [state.content.objectives[o].name for o in run.engine.state.players[1].objectives]
        assert kept and not any(name in shown for name in bens + kept)


async def test_a_card_window_open_for_one_seat_closes_when_the_keyboard_changes_hands():
    """`i` on Ben's own deal opens a window; if the game moves on to Ana (here: the prompt picked by a
    digit, which the window lets through), the window is gone before Ana's curtain lifts."""
    app = ana_and_ben()
    async with app.run_test(size=(160, 50), notifications=True) as pilot:
        run = await start(pilot)
        await pass_curtain(pilot, run)
        await pick(pilot, run, "1")
        await pick(pilot, run, "1")
        await pass_curtain(pilot, run)
        await pick(pilot, run, "1")  # Ben keeps objectives; his corporation choice is next
        screen = app.screen
        assert isinstance(screen, GameScreen)
        secret = "Ben's corporation card"
        await app.push_screen(InspectScreen(secret, "only Ben may read this"))
        await pilot.pause()
        assert secret in everything_shown(app)
        screen.choose(run.engine.pending.ids()[0])  # the game moves on while the window is open
        await pilot.pause()
        assert app.screen is screen and screen.at_keyboard == 0  # Ana chooses an island, in the open
        assert secret not in everything_shown(app)


# -- a lone Pass ---------------------------------------------------------------------------------


def test_the_bridge_passes_for_a_player_whose_only_move_is_pass():
    """Over random games: no seat is ever left facing a lone Pass it did not come to by its own move,
    and the log tells each pass made for a player as such."""
    content = load_content()
    forced = 0
    for seed in range(6):
        engine = Engine.new(content, ["Ana", "Ben", "Cleo"], seed=seed, start_player=0)
        host, rng = Host(engine), random.Random(seed)
        while engine.state.phase != "over":
            mover = engine.pending.seat
            ids = engine.legal_ids()
            assert host.choose(ids[rng.randrange(len(ids))])
            pending = engine.pending
            if pending.seat not in (None, mover):
                assert engine.legal_ids() != ["pass"], f"seed {seed}: seat {pending.seat} left with a lone Pass"
        told = [line.text for line in host.chronicle.lines(None) if line.text.endswith("nothing else was possible.")]
        passes = [e for e in engine.events if isinstance(e, ev.Passed)]
        assert len(told) <= len(passes)
        forced += len(told)
    assert forced > 0  # the situation came up, and was told


@pytest.mark.slow
async def test_no_curtain_is_raised_for_a_lone_pass():
    """Three players through key presses: every curtain calls a player who has something to decide."""
    app = LagoonApp(settings=GameSettings(("Ana", "Ben", "Cleo"), ("red", "yellow", "green"), 23, 0))
    curtains_for_a_lone_pass = []

    def after_key(key: str) -> None:
        if isinstance(app.screen, CurtainScreen):
            engine = game_screen(app).host.engine
            if engine.legal_ids() == ["pass"]:
                curtains_for_a_lone_pass.append(engine.state.round)

    def log() -> str:
        return "\n".join(line.text for line in game_screen(app).host.chronicle.lines(None))

    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        # (until a lone Pass has been passed for someone, or the game is well on: the test is then void)
        passed = lambda r: "nothing else was possible" in log() or r.engine.state.round > 12  # noqa: E731
        await play_game(pilot, 23, run=run, after_key=after_key, until=passed)
        told = log()
    assert curtains_for_a_lone_pass == []
    assert "nothing else was possible" in told


# -- what the others did meanwhile -----------------------------------------------------------------


@pytest.mark.slow
async def test_the_curtain_tells_what_the_others_did_and_the_board_marks_their_last_action():
    """Three players by key presses: each curtain lists, in public words, what happened since the player
    it calls last moved (the latest sentences, as many as fit); past it, the island of the others' latest
    action marks that action space with », and no other island has a mark."""
    app = LagoonApp(settings=GameSettings(("Ana", "Ben", "Cleo"), ("red", "yellow", "green"), 23, 0))
    checked = {"curtains": 0, "marks": 0}

    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        engine = run.engine

        def after_key(key: str) -> None:
            if isinstance(app.screen, CurtainScreen):
                check_curtain(engine.pending.seat)
            elif key == "enter" and engine.state.phase == "actions":
                check_marks(engine.pending.seat)

        def since(seat: int) -> int | None:
            """Where the events after the seat's last choice begin (the engine's record of who chose what)."""
            marks = engine.marks
            mine = [n for n, m in enumerate(marks) if m.seat == seat]
            if not mine:
                return None
            return marks[mine[-1] + 1].pos if mine[-1] + 1 < len(marks) else len(engine.events)

        def check_curtain(seat: int) -> None:
            start_at = since(seat)
            if start_at is None:
                return
            state = GameState(content=engine.content)
            told = []
            for n, e in enumerate(engine.events):
                evolve(state, e)
                line = narrate(redact(e, None), state) if n >= start_at else ""
                if line:
                    told.append(line)
            card = " ".join(screen_text(app).split())
            shown = [" ".join(t.split()) for t in told]
            name = engine.state.players[seat].name
            if not shown:
                return
            checked["curtains"] += 1
            assert f"Since {name}'s last move" in card
            assert card.count("•") <= len(shown)
            newest = shown[-1].removesuffix(".")  # (a forced pass is told with more words)
            assert newest in card, f"the curtain for {name} misses {newest!r}"

        def check_marks(seat: int) -> None:
            start_at = since(seat)
            started = [
                e for e in engine.events[start_at or 0 :] if isinstance(e, (ev.ActionStarted, ev.ActionWithdrawn))
            ]
            screen = game_screen(app)
            marked = [p for p in screen.query(IslandPanel) if "» " in screen_text_of(p)]
            if (
                start_at is None
                or not started
                or isinstance(started[-1], ev.ActionWithdrawn)
                or not started[-1].source.startswith("island:")
            ):
                return
            _, island, action = started[-1].source.split(":")
            checked["marks"] += 1
            assert [p.island for p in marked] == [int(island)]
            text = screen_text_of(marked[0])
            assert f"» {ACTION_NAMES[action]}" in text or f"» {SHORT_ACTION_NAMES[action]}" in text
            assert "» last move" in text

        await play_game(pilot, 23, run=run, after_key=after_key, until=lambda r: r.engine.state.round > 4)
    assert checked["curtains"] > 5 and checked["marks"] > 3


def screen_text_of(widget) -> str:
    return widget_text(widget) + "\n" + str(widget.border_subtitle or "")


# -- open decisions: no curtain ------------------------------------------------------------------


@pytest.mark.slow
async def test_an_island_is_chosen_in_the_open_and_the_cards_come_after_the_curtain():
    """Two players by key presses: no curtain is ever raised for choosing an island; the player chooses on
    the board as everyone sees it (their own cards hidden, v to see them behind the curtain); a curtain
    comes before any decision that is not open, even for the player who has the keyboard already."""
    app = LagoonApp(settings=GameSettings(("Ana", "Ben"), ("red", "yellow"), 21, 0))
    seen = {"open": 0, "curtains": 0}

    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        engine = run.engine

        def after_key(key: str) -> None:
            pending = engine.pending
            if isinstance(app.screen, CurtainScreen):
                seen["curtains"] += 1
                assert pending.kind not in OPEN_KINDS, "a curtain for an open decision"
                return
            game = game_screen(app)
            if not isinstance(app.screen, GameScreen) or pending.seat is None:
                return
            assert game.veiled == (pending.kind in OPEN_KINDS), f"{pending.kind}: veiled {game.veiled}"
            if game.veiled:
                seen["open"] += 1
                shown = everything_shown(app)
                me = engine.state.players[pending.seat]
                assert not any(engine.content.objectives[o].name in shown for o in me.objectives)
                assert "v Show my cards" in shown and "Island 1" in shown

        await play_game(pilot, 21, run=run, after_key=after_key, until=lambda r: r.engine.state.round > 3)
        assert seen["open"] >= 4 and seen["curtains"] > 0

        # v while choosing an island: the curtain, then the player's own cards
        while engine.pending.kind not in OPEN_KINDS or isinstance(app.screen, CurtainScreen):
            await step_once(pilot, run)
        seat = engine.pending.seat
        await press(pilot, "v", lambda: isinstance(app.screen, CurtainScreen), run=run)
        await pass_curtain(pilot, run)
        game = game_screen(app)
        assert not game.veiled and game.at_keyboard == seat
        me = engine.state.players[seat]
        assert any(engine.content.objectives[o].name in everything_shown(app) for o in me.objectives)


async def step_once(pilot, run) -> None:
    await step(pilot, run, Policy(1))


def ana_and_ben_after(moves: int) -> Host:
    """Seed 9 of purposeful random play: after 45 moves Ana passes, the last to move in round 1, and round 2
    starts with her island choice."""
    return Host.at_random(load_content(), ("Ana", "Ben"), ("red", "yellow"), 9, moves)


def own_cards(engine: Engine, seat: int) -> list[str]:
    """What of `seat`'s own cards its board names: objectives, deals in hand, and "(yours)" on its face-down tiles."""
    content, state = engine.content, engine.state
    me = state.players[seat]
    cards = [content.objectives[o].name for o in me.objectives]
    cards += [deal_needs(content.deals[d].requires) for d in me.deals]
    face_down = [
        g for site in state.sites.values() for pair in site.columns for g in pair if g and not g.face_up and g.tile
    ]
    return cards + ["(yours)"] * any(g.placed_by == seat for g in face_down)


async def open_game_screen(pilot, host: Host) -> GameScreen:
    """The host's game on a new game screen (as a resumed game is): its first curtain passed."""
    app = pilot.app
    await pilot.pause()
    await app.push_screen(GameScreen(host))
    for _ in range(200):
        await pilot.pause()
        if isinstance(app.screen, CurtainScreen):
            break
    assert isinstance(app.screen, CurtainScreen), "a curtain first, whose turn it is"
    await pilot.press("enter")
    for _ in range(200):
        await pilot.pause()
        if isinstance(app.screen, GameScreen):
            return app.screen
    raise AssertionError(f"the curtain did not go; on {app.screen!r}")


async def test_an_island_chosen_after_ones_own_private_move_is_chosen_on_the_board_as_everyone_sees_it():
    """Ana passes, the last to move in round 1, and chooses her island first in round 2: in front of everyone,
    so her objectives, her deals and her face-down tiles go from the board, though the keyboard stays hers
    (issue 32: the island choice showed them)."""
    host = ana_and_ben_after(45)
    engine = host.engine
    async with LagoonApp(load_content()).run_test(size=(160, 50), notifications=True) as pilot:
        game = await open_game_screen(pilot, host)
        assert game.at_keyboard == 0 and not game.veiled
        mine = own_cards(engine, 0)
        shown = everything_shown(pilot.app)
        assert mine and all(card in shown for card in mine)  # behind her curtain: her cards
        await pilot.press(str(engine.legal_ids().index("pass") + 1))
        for _ in range(200):
            await pilot.pause()
            if engine.pending.kind in OPEN_KINDS and "Island 1" in everything_shown(pilot.app):
                break
        assert engine.pending.seat == 0 and engine.pending.kind in OPEN_KINDS
        assert pilot.app.screen is game and game.at_keyboard == 0 and game.veiled, "no curtain: it is still Ana"
        await pilot.pause()
        shown = everything_shown(pilot.app)
        assert not any(card in shown for card in own_cards(engine, 0)) and "(yours)" not in shown
        assert "v Show my cards" in shown and mine == own_cards(engine, 0)


async def test_a_game_opened_at_an_island_choice_shows_whose_turn_it_is_then_the_board_as_everyone_sees_it():
    """A game resumed where Ana chooses her island: the curtain says it is her turn; passed, the board is
    everyone's, her own cards hidden until she presses v."""
    host = ana_and_ben_after(46)
    engine = host.engine
    assert engine.pending.seat == 0 and engine.pending.kind in OPEN_KINDS
    async with LagoonApp(load_content()).run_test(size=(80, 24), notifications=True) as pilot:
        game = await open_game_screen(pilot, host)
        await pilot.pause()
        assert game.at_keyboard == 0 and game.veiled
        shown = everything_shown(pilot.app)
        assert not any(card in shown for card in own_cards(engine, 0)) and "(yours)" not in shown
        assert engine.pending.kind in OPEN_KINDS


async def test_an_island_refused_in_the_open_says_only_who_chose_it():
    """Ben chooses his island after Ana, on the board as everyone sees it: her island is listed, dimmed, with
    the engine's reason, which names only what everyone knows; picked, it says so and changes nothing; none
    of Ben's own cards shows meanwhile (issue 34: refused options and their reasons on screen)."""
    host = ana_and_ben_after(47)
    engine = host.engine
    assert engine.pending.seat == 1 and "island:2" not in engine.pending.ids()
    async with LagoonApp(load_content()).run_test(size=(80, 24), notifications=True) as pilot:
        game = await open_game_screen(pilot, host)
        await pilot.pause()
        assert game.at_keyboard == 1 and game.veiled
        reason = "Island 2 was chosen by Ana this round"
        shown = everything_shown(pilot.app)
        assert f"Island 2: Foundry Key — not now: {reason}" in shown
        before = len(engine.events)
        await pilot.press(str(len(engine.pending.ids()) + 1))  # the refused island's digit, after the legal ones
        await pilot.pause()
        shown = everything_shown(pilot.app)
        assert f"Not now: {reason}." in shown and len(engine.events) == before
        assert not any(card in shown for card in own_cards(engine, 1)) and "(yours)" not in shown


# -- keys meant for the screen before ------------------------------------------------------------


async def test_an_enter_meant_for_the_curtain_or_the_last_question_picks_nothing_on_the_next():
    """Enter passes the curtain; an Enter more only highlights the first option of the prompt now shown;
    the next picks it. The same after a move that leads to a new question of the same player."""
    app = ana_and_ben()
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        engine = run.engine
        await pass_curtain(pilot, run)
        options = prompt_options(game_screen(app))
        before = len(engine.events)
        await pilot.press("enter")
        await pilot.pause()
        assert len(engine.events) == before and options.highlighted == 0
        await pick(pilot, run, "enter")  # now it picks: Ana keeps her first pair of objectives
        assert engine.pending.kind == "choose_corporation" and options.highlighted is None
        before = len(engine.events)
        await pilot.press("enter")
        await pilot.pause()
        assert len(engine.events) == before  # the corporation was not chosen by the Enter that chose objectives
