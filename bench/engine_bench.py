"""Engine speed: random legal play, measured on one core.

    python bench/engine_bench.py [--games N] [--profile]

Prints, for 2, 3 and 4 players: decisions per second, games per second, the
mean number of decisions per game, and the median time of one whole game.
This is a benchmark, not a test: it never fails on time.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import load_content  # noqa: E402
from rules.simulate import random_game  # noqa: E402


def measure(content, players: int, games: int) -> dict:
    times, decisions = [], []
    for seed in range(games):
        start = time.perf_counter()
        _, n = random_game(content, players, seed)
        times.append(time.perf_counter() - start)
        decisions.append(n)
    total = sum(times)
    return {
        "players": players,
        "games": games,
        "decisions_per_s": sum(decisions) / total,
        "games_per_s": games / total,
        "mean_decisions": statistics.fmean(decisions),
        "median_game_ms": statistics.median(times) * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per player count (default 200)")
    parser.add_argument("--profile", action="store_true", help="profile 20 four-player games instead")
    args = parser.parse_args()
    content = load_content()
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(lambda: [random_game(content, 4, s) for s in range(20)])
        pstats.Stats(profile).sort_stats("tottime").print_stats(20)
        return
    random_game(content, 4, 10_000)  # warm-up
    print(f"{'players':>7} {'decisions/s':>12} {'games/s':>8} {'decisions/game':>15} {'median game':>12}")
    for players in (2, 3, 4):
        r = measure(content, players, args.games)
        print(f"{players:>7} {r['decisions_per_s']:>12,.0f} {r['games_per_s']:>8.1f} "
              f"{r['mean_decisions']:>15.1f} {r['median_game_ms']:>10.1f} ms")


if __name__ == "__main__":
    main()
