"""Machine instructions per engine decision: the engine's speed in a measure the machine's load does not move.

    python bench/engine_instructions.py [--games 2:10 3:7 4:5]

A benchmark, not a test. For each player count it plays the given number of
seeded random games (the games of bench/engine_bench.py: `random_game` with
seeds 0, 1, ...) under `valgrind --tool=callgrind`, and once more playing
none; the difference divided by the decisions taken is the cost of a
decision, with the set-up of each game included. Timings on this shared
machine swing by 40 % from run to run; instruction counts by well under 1 %.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import callgrind

ROOT = Path(__file__).resolve().parent.parent


def play(players: int, games: int) -> None:
    sys.path.insert(0, str(ROOT))
    from rules import load_content
    from rules.simulate import random_game

    content = load_content()
    decisions = sum(random_game(content, players, seed)[1] for seed in range(games))
    print(f"decisions {decisions}")


def counted(players: int, games: int) -> tuple[int, int]:
    """(instructions, decisions) of `games` games under callgrind."""
    total, out = callgrind.instructions([sys.executable, __file__, "--play", str(players), str(games)])
    return total, int(out.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", nargs="*", default=["2:10", "3:7", "4:5"], help="players:games pairs (default 2:10 3:7 4:5)"
    )
    parser.add_argument("--play", nargs=2, type=int, help=argparse.SUPPRESS)  # the run under valgrind
    args = parser.parse_args()
    if args.play is not None:
        play(*args.play)
        return
    base, _ = counted(2, 0)
    print(f"{'players':>7} {'games':>6} {'decisions':>10} {'instructions/decision':>22}")
    for pair in args.games:
        players, games = (int(n) for n in pair.split(":"))
        total, decisions = counted(players, games)
        print(f"{players:>7} {games:>6} {decisions:>10,} {(total - base) / decisions:>22,.0f}")


if __name__ == "__main__":
    main()
