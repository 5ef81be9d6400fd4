"""Replays of saved games: every position of every game, finished or not, shown and stepped to.

Each game is played at random from its seed (2 to 4 players, "back" among the
choices, and now and then an undo), saved move by move in a real SQLite file,
stopped at a random point and read back as the Load screen reads it
(`Host.replay_saved`: the undo's rows are in the file and must be skipped).
Then every position is shown (`scene_at`), and stepping by event, turn and
round, forwards and backwards, from every position stays inside the game.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rules import Engine, load_content
from rules import events as ev
from rules.evolve import evolve
from rules.host import Host, Replay
from rules.saves import Store
from rules.saves.recorder import record_new
from rules.state import GameState
from rules.view import SECRET_HAND, view
from tests.helpers.redeal import redealt

CONTENT = load_content()
NAMES = ("Ana", "Ben", "Cleo", "Dev")
LONGEST = 600  # choices: more than any whole game, so some of the games are played to the end


def saved_game(store: Store, seed: int) -> tuple[int, Engine, int]:
    """A game of 2-4 players played at random from `seed` and stopped at a random choice; and its undos."""
    rng = random.Random(seed)
    players = 2 + seed % 3
    engine = Engine.new(CONTENT, list(NAMES[:players]), seed=seed)
    game = record_new(store, engine)
    undos = 0
    for _ in range(rng.randrange(LONGEST)):
        if engine.state.phase == "over":
            break
        if rng.random() < 0.2 and engine.undo_point():
            engine.undo()
            undos += 1
            continue
        ids = engine.legal_ids()
        engine.choose(ids[rng.randrange(len(ids))])
    return game, engine, undos


def hidden_from_onlookers(view: dict) -> list[str]:
    """What an onlooker's view of a game under way shows that it must not: every secret left in it."""
    shown = []
    for p in view["players"]:
        for key in SECRET_HAND:
            shown += [f"{p['name']}'s {key}: {v}" for v in p[key] if v is not None]
    shown += [f"drawn gallery {t}" for t in view["drawn_galleries"] if t is not None]
    for island, site in view["sites"].items():
        for column in site["columns"]:
            for g in column:
                if g and not g["face_up"] and g["tile"] is not None:
                    shown.append(f"face-down gallery {g['tile']} on island {island}")
    if view["seed"] is not None:
        shown.append("the seed")
    return shown


def check_every_position(r: Replay, engine: Engine) -> int:
    """Show every position of the replay and step from each; the number of positions."""
    events, marks = engine.events, engine.marks
    assert (r.first, r.last) == (1, len(events))
    assert r.reveal == (engine.state.phase == "over")
    assert r.scene_at(r.last).view == view(engine.state, None, reveal=r.reveal)  # the log as played, undos applied
    choices = {m.pos: m.seat for m in marks}
    deciding = None  # the seat whose choice the events at this point carry out (None: the setup)
    state = GameState(content=CONTENT)
    for pos in range(r.first, r.last + 1):
        if pos - 1 in choices:  # the events of the choice made at pos - 1 are being applied
            deciding = choices[pos - 1]
        scene = r.scene_at(pos)
        evolve(state, events[pos - 1])  # the state after `pos` events
        assert scene.view["round"] == state.round and scene.view["phase"] == state.phase
        if pos in choices:  # the game waited here for this seat's choice
            assert scene.turn.seat == choices[pos], (pos, scene.turn)
        elif pos == r.last:
            assert scene.turn.seat == engine.asking().seat, (pos, scene.turn)
        else:
            assert scene.turn.seat == deciding, (pos, scene.turn, events[pos - 1])
        assert scene.prompt is None and scene.undo is None
        if not r.reveal:
            assert not hidden_from_onlookers(scene.view), (pos, hidden_from_onlookers(scene.view))

        for move in (r.step, r.turn):
            ahead, back = move(pos, 1), move(pos, -1)
            assert r.first <= back <= pos <= ahead <= r.last
            assert ahead > pos or pos == r.last
            assert back < pos or pos == r.first
        assert r.step(pos, 1) in r.stops or r.step(pos, 1) == r.last
        line = r.line_at(pos)
        assert line is None or r.lines[line].at < pos

    walked = [r.first]
    while walked[-1] != r.last:  # every line of the log, one after the other
        walked.append(r.step(walked[-1], 1))
        assert len(walked) <= len(r.stops) + 2
    assert set(walked) >= set(r.stops)
    back = [r.last]
    while back[-1] != r.first:
        back.append(r.step(back[-1], -1))
        assert len(back) <= len(r.stops) + 2
    assert set(back) == set(walked)

    for number in r.rounds:
        start = r.round_start(number)
        assert r.first <= start <= r.last and r.scene_at(start).view["round"] == number
    assert r.round_start(max(r.rounds, default=0) + 1) is None
    return r.last - r.first + 1


def check_nothing_hidden_is_shown(r: Replay, engine: Engine, seed: int) -> None:
    """The replay of a game under way is the same, position by position and line by line, as the replay
    of the game dealt anew wherever nobody has looked (tests/helpers/redeal.py): it shows nothing hidden."""
    twin = redealt(engine, None, random.Random(seed))
    other = Replay(CONTENT, twin.events, twin.marks)
    assert twin.events != engine.events
    assert (other.lines, other.stops, other.turns, other.rounds) == (r.lines, r.stops, r.turns, r.rounds)
    for pos in range(r.first, r.last + 1):
        assert other.scene_at(pos) == r.scene_at(pos), f"event {pos} shows what was hidden"


def replay_games(folder: Path, seeds: range) -> tuple[int, int, int]:
    """Positions checked, games played to the end, undos made, over the games of `seeds`."""
    positions = finished = undos = 0
    with Store(folder / "lagoon.db") as store:
        for seed in seeds:
            game, engine, undone = saved_game(store, seed)
            r = Host.replay_saved(store, game, CONTENT)
            assert r.lines and any(isinstance(e, ev.GameCreated) for e in engine.events[:1])
            positions += check_every_position(r, engine)
            if not r.reveal and seed % 4 == 0:
                check_nothing_hidden_is_shown(r, engine, seed)
            finished += engine.state.phase == "over"
            undos += undone
    return positions, finished, undos


def test_every_position_of_a_few_saved_games_shows_and_steps(tmp_path):
    positions, finished, undos = replay_games(tmp_path, range(8))
    assert undos and finished < 8 and positions > 1000


@pytest.mark.slow
@pytest.mark.parametrize("batch", range(4))
def test_every_position_of_hundreds_of_saved_games_shows_and_steps(tmp_path, batch):
    positions, finished, undos = replay_games(tmp_path, range(1000 + 60 * batch, 1060 + 60 * batch))
    assert undos > 30 and 0 < finished < 60 and positions > 10_000
