"""Computer players by level: what `computer_player` seats, and the random player the benchmarks need.

All levels share one valuation (`Outlook`, through `Bot`):

  easy     the heuristic with noise over its valuations: it still prefers what is worth more,
           but a good option is often passed over for a fair one
  normal   the heuristic as it is (`Bot`)
  hard     the heuristic's best few options at each island and action decision, each played out
           to the end of the round (or of the next, at three and four players) in games dealt
           from what its seat cannot see and from its reading of the others' hands, and scored
           by the VP each player may then expect (`SearchPlayer`, search.py)

`RandomPlayer` takes any of its options with equal chance: the floor the
levels are measured against (bench/bot_strength.py), never seated in a game.
"""

from __future__ import annotations

import random
from typing import Any

from rules import Content
from rules.seat import SeatScene

from .heuristic import Bot
from .search import SearchPlayer

EASY_NOISE = 1.0
"""How far, in VP, the easy player misjudges each option (the spread of the noise it adds)."""

LEVELS = ("easy", "normal", "hard")
"""The levels a computer player may be given, weakest first."""


# `options`: `Bot`'s or `SearchPlayer`'s keyword options, passed through (Any: each its own type)
def computer_player(
    content: Content, seat: int, seed: int, level: str = "normal", **options: Any
) -> Bot | SearchPlayer:
    """A computer player of `level` for `seat`, seeded: `choose(message)` answers with an option id.

    `options` go to the player's class: `SearchPlayer`'s budget for "hard"
    (`rollouts`, `candidates`, `time_cap`...), `Bot`'s (`noise`...) otherwise."""
    if level not in LEVELS:
        raise ValueError(f"no computer player level {level!r} (the levels are {', '.join(LEVELS)})")
    if level == "hard":
        return SearchPlayer(content, seat, seed=seed, **options)
    if level == "easy":
        options.setdefault("noise", EASY_NOISE)
    return Bot(content, seat, seed=seed, **options)


class RandomPlayer:
    """Any legal option, with equal chance; seeded."""

    def __init__(self, content: Content, seat: int, seed: int = 0) -> None:
        self.seat = seat
        self.rng = random.Random(seed)

    def choose(self, scene: SeatScene) -> str:
        if scene.seat != self.seat or scene.prompt is None:
            raise ValueError(f"seat {self.seat} is not deciding in this message ({scene.turn.says})")
        options = scene.prompt.options
        return options[self.rng.randrange(len(options))].id
