"""How well the hard player reads the others' hands (rules/bots/reading.py), in games of normal players.

    python bench/reading_quality.py [--players 4] [--games 6] [--seed 100] [--reading NAME=VALUE ...]

Seat 0 watches games of normal players (it plays as one too) and reads the others as the hard
player does, briefed before each decision as a host briefs it. At about a third of the others'
island and action decisions it reports, by part of the game:

- `objectives`: the share of the reading's weight on each card the player really kept (at setup,
  before any move is read, and later);
- `deals`: the same for the deals in its hand, and what a hand dealt at random would score;
- `predicted`: in 10 worlds dealt from the reading, and 10 dealt at random as before the reading,
  how often the player's Bot makes the choice the player really made. This is what the hard
  player's play-outs get right about the others. For comparison, the same in worlds dealt the
  player's true hand (what a perfect reading would reach), its true deals only, or its true
  objectives only (the rest of its hand at random).

`--reading MISREAD=0.03` (or `GUESSES=200`...) sets one of the reading's constants for the run.

Not a test: docs/performance.md ("Computer players") keeps the figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import Engine, load_content, view  # noqa: E402
from rules.bots import Bot  # noqa: E402
from rules.bots import reading as reading_module  # noqa: E402
from rules.bots.heuristic import whole_state_choice  # noqa: E402
from rules.bots.search import SearchPlayer  # noqa: E402
from rules.bots.worlds import engine_on  # noqa: E402
from rules.seat import Witness, seat_scene  # noqa: E402
from rules.simulate import NAMES  # noqa: E402

CONTENT = load_content()
PARTS = ((1, 4), (5, 9), (10, 15))
"""The parts of a game reported, by round."""


def part(round_: int) -> str:
    return next(f"rounds {a}-{b}" for a, b in PARTS if a <= round_ <= b)


def one_game(players: int, seed: int, found: dict) -> None:
    engine = Engine.new(CONTENT, list(NAMES[:players]), seed=seed)
    bots = [Bot(CONTENT, seat, seed=seed * 7 + seat) for seat in range(players)]
    reader, witness = SearchPlayer(CONTENT, 0, seed=seed), Witness(CONTENT, 0)
    sampled = random.Random(seed)
    while engine.state.phase != "over":
        ask = engine.asking()
        choice = bots[ask.seat].choose(seat_scene(engine, None, ask.seat))
        if ask.seat != 0 and ask.kind in ("choose_island", "choose_action") and sampled.random() < 0.3:
            witness.brief(engine, reader)
            seen = view(engine.state, 0)
            reader.reading.catch_up(seen)
            measure(engine, reader, seen, ask, choice, found[part(engine.state.round)])
        engine.choose(choice)


def measure(engine: Engine, reader: SearchPlayer, seen: dict, ask, choice: str, found: dict) -> None:
    seat, reading, worlds = ask.seat, reader.reading, reader.worlds
    true = engine.state.players[seat]
    shares = reading.shares(seat)
    found["objectives"].append(sum(w * len(set(g.objectives) & set(true.objectives)) for g, w in shares) / 2)
    if true.deals:
        found["deals"].append(sum(w * len(set(g.deals) & set(true.deals)) for g, w in shares) / len(true.deals))
        found["deals at random"].append(1 / len(worlds.unseen(seen)["deals"]))
    rng = random.Random(len(engine.events))
    sources = (
        ("dealt at random", None),
        ("dealt from the reading", reading),
        ("dealt the true hand", Truth(seat, true, ("objectives", "deals"))),
        ("dealt the true deals", Truth(seat, true, ("deals",))),
        ("dealt the true objectives", Truth(seat, true, ("objectives",))),
    )
    for name, source in sources:
        for _ in range(10):
            world = worlds.deal(seen, rng, source)
            state = worlds.state(seen, world)
            chosen = whole_state_choice(Bot(CONTENT, seat), state, engine_on(state).asking())
            found[f"predicted, {name}"].append(chosen == choice)


class Truth:
    """Deals a world as a reading would, but the player's true cards of `kinds` (the rest of its hand
    at random): what a reading that is right about them would reach."""

    def __init__(self, seat: int, player, kinds: tuple[str, ...]) -> None:
        self.seat, self.player, self.kinds = seat, player, kinds

    def hands(self, rng: random.Random, unseen: dict[str, list[str]]) -> dict[int, dict[str, tuple[str, ...]]]:
        hand = {}
        for kind in ("objectives", "deals"):
            true = tuple(getattr(self.player, kind))
            others = sorted(set(unseen[kind]).difference(true))
            hand[kind] = true if kind in self.kinds else tuple(rng.sample(others, len(true)))
        return {self.seat: hand}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--reading", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    for setting in args.reading:
        name, _, value = setting.partition("=")
        setattr(reading_module, name, type(getattr(reading_module, name))(value))
    found: dict = defaultdict(lambda: defaultdict(list))
    for game in range(args.games):
        one_game(args.players, args.seed + game, found)
    settings = f", {', '.join(args.reading)}" if args.reading else ""
    print(f"{args.games} games of {args.players} normal players (seed {args.seed}{settings}); the reading of seat 0:")
    parts = [part(a) for a, _ in PARTS]
    print(f"  {'':37} " + "  ".join(f"{p:>11}" for p in parts))
    for name in (
        "objectives",
        "deals",
        "deals at random",
        "predicted, dealt at random",
        "predicted, dealt from the reading",
        "predicted, dealt the true hand",
        "predicted, dealt the true deals",
        "predicted, dealt the true objectives",
    ):
        cells = [f"{statistics.fmean(found[p][name]):11.1%}" if found[p][name] else f"{'-':>11}" for p in parts]
        print(f"  {name:37} " + "  ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
