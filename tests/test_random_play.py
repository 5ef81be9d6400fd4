"""Random legal play: hundreds of seeded games to the end, invariants checked after every choice."""

from __future__ import annotations

import pytest

from rules import load_content
from rules.simulate import random_game
from tests.helpers.invariants import Watcher, final_replay_matches

CONTENT = load_content()
GAMES_PER_SIZE = {2: 170, 3: 170, 4: 170}  # 510 games per run


def _play(players: int, seed: int) -> None:
    watcher = None

    def check(engine):
        nonlocal watcher
        if watcher is None:
            watcher = Watcher(engine)
        # the privacy scan (a view per seat) every 5th choice keeps the run quick
        watcher.check(privacy=len(engine.events) % 5 == 0)

    engine, _ = random_game(CONTENT, players, seed, on_choice=check)
    final_replay_matches(engine)
    s = engine.state
    assert s.phase == "over"
    assert s.round == s.board.rounds or s.end_triggered
    assert sorted(st.place for st in s.standings)[0] == 1


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("batch", range(10))
def test_random_games_keep_every_invariant(players, batch):
    n = GAMES_PER_SIZE[players]
    for seed in range(batch, n, 10):
        _play(players, seed * 7919 + players)


def test_random_game_draws_as_random_choice():
    """`random_game` draws its choice as `rng.choice(ids)` would, without the calls: the same
    games as a player that calls `rng.choice`, choice by choice."""
    import random

    from rules import Engine
    from rules.simulate import NAMES

    for players, seed in ((2, 3), (3, 4), (4, 5)):
        chosen = []
        engine, _ = random_game(CONTENT, players, seed, on_choice=lambda e: chosen.append(e.marks[-1].choice))
        rng, twin = random.Random(seed), Engine.new(CONTENT, list(NAMES[:players]), seed=seed)
        for choice in chosen:
            expected = rng.choice(twin.legal_ids())
            assert choice == expected
            twin.choose(expected)
        assert twin.events == engine.events
