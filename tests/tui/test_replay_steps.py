"""The replay of an unfinished saved game, stepped through with the keys from its first event to its last and back.

A real SQLite file in tmp_path holds a game stopped in round 2 in the middle
of an action, with an undo in its history; it is opened as a player would
(title, l for Load, p for Replay). After each key the status says which event
is shown, the round (or the setup) is the one the log reached there, and the
player board of whoever was deciding at that point is marked "▶ to play".
"""

from __future__ import annotations

import random
import re

import pytest

from lagoon_tui.app import LagoonApp
from lagoon_tui.screens.load import LoadScreen
from lagoon_tui.screens.replay import ReplayScreen
from lagoon_tui.screens.title import TitleScreen
from rules import Engine, load_content, replay
from rules.host import Host, Replay
from rules.saves import Store
from rules.saves.recorder import record_new
from tests.helpers.drive import screen_text

CONTENT = load_content()


def unfinished_game(store: Store) -> tuple[int, Engine]:
    """Two players, played at random into round 2 and stopped with an action under way; one undo on the way."""
    engine = Engine.new(CONTENT, ["Ana", "Ben"], seed=21, start_player=0)
    game = record_new(store, engine)
    rng, undone = random.Random(21), 0
    while not (engine.state.round == 2 and engine.state.step is not None and undone):
        assert engine.state.phase != "over"
        if not undone and engine.state.round == 1 and engine.undo_point():
            engine.undo()
            undone += 1
            continue
        ids = [i for i in engine.legal_ids() if i != "back"]
        engine.choose(ids[rng.randrange(len(ids))])
    return game, engine


def deciding(engine: Engine, pos: int) -> int | None:
    """Who decided at `pos` events: the seat the game waited on there, or whose choice was being carried out."""
    if pos == len(engine.events):
        return engine.asking().seat
    begun = [m for m in engine.marks if m.pos <= pos]
    return begun[-1].seat if begun else None


async def wait(pilot, ok, tries: int = 60) -> None:
    for _ in range(tries):
        await pilot.pause()
        if ok():
            return
    raise AssertionError(f"never happened; on {pilot.app.screen!r}")


def check_shown(app: LagoonApp, engine: Engine, pos: int) -> None:
    screen = app.screen
    assert isinstance(screen, ReplayScreen) and screen.pos == pos
    text = screen_text(app)
    last = len(engine.events)
    state = replay(CONTENT, engine.events[:pos])
    where = f"Round {state.round}" if state.round else "Setup"
    assert f"Replay · {where} · event {pos} of {last}" in text, f"at event {pos}:\n{text}"
    assert "unfinished game: secrets stay hidden" in text
    acting = re.findall(r"(Ana|Ben) \[\w\] ▶ to play", text)
    seat = deciding(engine, pos)
    assert acting == ([] if seat is None else [engine.state.players[seat].name]), f"at event {pos}: {acting}"


async def press(pilot, key: str) -> None:
    await pilot.press(key)
    await pilot.pause()


async def open_replay_from_load(pilot) -> Replay:
    """Title, l for Load, p to replay the game the list starts on (the only one)."""
    app = pilot.app
    await wait(pilot, lambda: isinstance(app.screen, TitleScreen))
    await pilot.press("l")
    await wait(pilot, lambda: isinstance(app.screen, LoadScreen))
    await pilot.press("p")
    await wait(pilot, lambda: isinstance(app.screen, ReplayScreen))
    return app.screen.replay


async def test_an_unfinished_games_replay_goes_back_from_its_end_and_through_its_setup(tmp_path):
    """End, then ← back into round 1 (it raised KeyError: None between two rounds), and → through the setup."""
    with Store(tmp_path / "lagoon.db") as store:
        game, engine = unfinished_game(store)
        app = LagoonApp(CONTENT, store=store)
        async with app.run_test(size=(160, 50)) as pilot:
            r = await open_replay_from_load(pilot)
            assert not r.reveal and (r.first, r.last) == (1, len(engine.events))
            check_shown(app, engine, r.first)
            await press(pilot, "end")
            check_shown(app, engine, r.last)
            while app.screen.pos >= r.round_start(2):  # back over the end of round 1
                before = app.screen.pos
                await press(pilot, "left")
                check_shown(app, engine, r.step(before, -1))
            await press(pilot, "home")
            while app.screen.pos <= r.round_start(1):
                before = app.screen.pos
                await press(pilot, "right")
                check_shown(app, engine, r.step(before, 1))
            before = app.screen.pos
            await press(pilot, "p")
            check_shown(app, engine, r.turn(before, -1))


@pytest.mark.slow
async def test_an_unfinished_games_replay_steps_from_its_first_event_to_its_last_and_back(tmp_path):
    with Store(tmp_path / "lagoon.db") as store:
        game, engine = unfinished_game(store)
        app = LagoonApp(CONTENT, store=store)
        async with app.run_test(size=(160, 50)) as pilot:
            r = await open_replay_from_load(pilot)
            assert not r.reveal and (r.first, r.last) == (1, len(engine.events))

            # every line of the log, from the first event to the last and back
            await press(pilot, "home")
            check_shown(app, engine, r.first)
            seen = [r.first]
            while seen[-1] != r.last:
                await press(pilot, "right")
                assert app.screen.pos > seen[-1]
                check_shown(app, engine, app.screen.pos)
                seen.append(app.screen.pos)
            assert seen[1:-1] == [stop for stop in r.stops if r.first < stop < r.last]
            while seen:
                check_shown(app, engine, seen.pop())
                if seen:
                    await press(pilot, "left")

            # by turn, forwards (n, shift+→) and back (p, shift+←): each stop the start of a turn or a round
            turns = [r.first]
            while turns[-1] != r.last:
                await press(pilot, "n" if len(turns) % 2 else "shift+right")
                check_shown(app, engine, app.screen.pos)
                turns.append(app.screen.pos)
            assert turns[1:-1] == [t for t in r.turns if r.first < t < r.last] and len(turns) > 4
            while turns:
                check_shown(app, engine, turns.pop())
                if turns:
                    await press(pilot, "p" if len(turns) % 2 else "shift+left")

            # by round: g and the number
            for number in (2, 1):
                await press(pilot, "g")
                await pilot.press(*str(number), "enter")
                await wait(pilot, lambda: isinstance(app.screen, ReplayScreen))
                await pilot.pause()
                check_shown(app, engine, r.round_start(number))
            await press(pilot, "escape")
            await wait(pilot, lambda: isinstance(app.screen, TitleScreen))


async def test_a_replay_shows_the_lines_of_the_table_where_they_happened(tmp_path):
    """A saved game's line that is no event (a computer began to play for Ben) is in its replay's log, and a step
    onto it marks it, at the board as it was then."""
    left = "Ben left: a computer plays for them from here."
    with Store(tmp_path / "lagoon.db") as store:
        host = Host.new(CONTENT, ["Ana", "Ben"], ["red", "yellow"], seed=5, start_player=0, store=store)
        for moves in (4, 3):
            for _ in range(moves):
                assert host.choose([i for i in host.engine.legal_ids() if i != "back"][0], hold=False)
            if moves == 4:
                host.aside(1, left, stand_in=True)
                said_at = len(host.engine.events)
        app = LagoonApp(CONTENT, store=store)
        async with app.run_test(size=(160, 50)) as pilot:
            r = await open_replay_from_load(pilot)
            line = [told.line.text for told in r.lines].index(left)
            assert r.stops[line] == said_at and r.line_at(said_at) == line
            while app.screen.pos < said_at:
                await press(pilot, "right")
            assert app.screen.pos == said_at and "Ben [Y] left: a computer plays for" in screen_text(app)
