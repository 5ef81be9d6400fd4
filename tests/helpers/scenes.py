"""Scenes from random legal games, for testing the panels without a running app.

`scene_at(players, seed, decisions)` plays a game with uniformly random legal
choices (as `rules.simulate` does) and builds the `Scene` the game screen
would hand to the panels at that moment; `scene_where` looks for the first
moment of a game that shows something a test needs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import lru_cache

from lagoon_tui.scene import Scene
from rules import Engine, load_content
from rules.seat import Chronicle, seat_scene
from rules.simulate import NAMES

CONTENT = load_content()


def scene_of(engine: Engine, seat: int | None = ..., log: bool = True) -> Scene:
    """The scene for `seat`: a seat, None for nobody's secrets, left out for whoever must decide now."""
    if seat is ...:
        seat = engine.pending.seat
    return Scene(seat_scene(engine, Chronicle(engine) if log else None, seat), engine.content)


def play(players: int, seed: int) -> Iterator[Engine]:
    """The engine before each decision of a random game (the same engine object, moved on each time)."""
    rng = random.Random(seed)
    engine = Engine.new(CONTENT, list(NAMES[:players]), seed=seed)
    yield engine
    while engine.state.phase != "over":
        ids = engine.legal_ids()
        engine.choose(ids[rng.randrange(len(ids))])
        yield engine


@lru_cache(maxsize=64)
def scene_at(players: int, seed: int, decisions: int, seat: int | None = None) -> Scene:
    """The scene after `decisions` random choices (or at the end of the game, if it ends first).

    Drawn for `seat`, or when it is None for whoever must decide now (for a
    scene that shows nobody's secrets, use `scene_of(engine, None)`).
    """
    for n, engine in enumerate(play(players, seed)):
        if n == decisions:
            break
    return scene_of(engine, ... if seat is None else seat)


def scene_where(test: Callable[[Engine], bool], players: int = 3, seeds=range(40), seat: int | None = ...) -> Scene:
    """The first moment of the first game (over `seeds`) at which `test(engine)` holds."""
    for seed in seeds:
        for engine in play(players, seed):
            if test(engine):
                return scene_of(engine, seat)
    raise LookupError("no random game showed the situation asked for")


def engine_at(players: int, seed: int, decisions: int) -> Engine:
    """A game's engine after `decisions` random choices (or at its end, if it ends first)."""
    for n, engine in enumerate(play(players, seed)):
        if n == decisions:
            break
    return engine


def engine_before_end(players: int, seed: int, left: int) -> Engine:
    """A game's engine `left` random choices before its end: the boards as full as they get."""
    decisions = sum(1 for _ in play(players, seed)) - 1
    return engine_at(players, seed, decisions - left)
