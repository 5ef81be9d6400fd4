"""Engine speed: random legal play, measured on one core.

    python bench/engine_bench.py [--games N] [--repeat R] [--clock cpu|wall] [--profile]

Prints, for 2, 3 and 4 players: decisions per second, games per second, the
mean number of decisions per game, and the median time of one whole game.
Each player count is played `repeat` times and the quickest run is shown.

Time is this process's CPU time by default: on a shared machine the wall clock
also counts the time other work holds the core, which says nothing about the
engine (on an idle machine the two agree). `--clock wall` measures wall time.
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

CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def measure(content, players: int, games: int, clock=time.process_time) -> dict:
    times, decisions = [], []
    for seed in range(games):
        start = clock()
        _, n = random_game(content, players, seed)
        times.append(clock() - start)
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
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs per player count; the quickest is shown (default 3)"
    )
    parser.add_argument("--clock", choices=CLOCKS, default="cpu", help="cpu: this process's CPU time (default); wall")
    parser.add_argument("--profile", action="store_true", help="profile 20 four-player games instead")
    args = parser.parse_args()
    content = load_content()
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(lambda: [random_game(content, 4, s) for s in range(20)])
        pstats.Stats(profile).sort_stats("tottime").print_stats(20)
        return
    random_game(content, 4, 10_000)  # warm-up
    print(f"{args.clock} time, best of {args.repeat} runs of {args.games} games")
    print(f"{'players':>7} {'decisions/s':>12} {'games/s':>8} {'decisions/game':>15} {'median game':>12}")
    for players in (2, 3, 4):
        runs = [measure(content, players, args.games, CLOCKS[args.clock]) for _ in range(max(1, args.repeat))]
        r = max(runs, key=lambda run: run["decisions_per_s"])
        print(
            f"{players:>7} {r['decisions_per_s']:>12,.0f} {r['games_per_s']:>8.1f} "
            f"{r['mean_decisions']:>15.1f} {r['median_game_ms']:>10.1f} ms"
        )


if __name__ == "__main__":
    main()
