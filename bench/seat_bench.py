"""How long a seat's message takes to build and write as JSON, and how big it is, late in a 4-player game.

    python bench/seat_bench.py [--games N] [--round R]

A benchmark, not a test. Computer players (rules/bots) play N seeded
4-player games (default 10). A host keeps each game's log told to every seat
(`rules.seat.Chronicle`) as the game goes and knows how many lines of it each
seat holds, as a host would; after every choice of round R (default 15), the
message of each seat and a spectator's is built with `seat_scene` (bringing
the lines the seat does not hold yet) and written with `to_json`, and that
is timed (`time.perf_counter`, garbage collection as usual). Reports the
median, p95 and largest time and size; then the same for the whole message
(the whole log, as a seat that joins or comes back gets it) at the first
choice of round R. Targets (issue 19): p95 at most 2 ms, size under 64 KB.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import Engine, load_content  # noqa: E402
from rules.seat import Chronicle, seat_scene, to_json  # noqa: E402
from rules.simulate import bot_game  # noqa: E402

Figures = tuple[list[float], list[int]]  # seconds and bytes, one of each per message


class Table:
    """One game's host side as the bench needs it: the log told to each seat, and how much of it each holds."""

    def __init__(self, at_round: int, moves: Figures, whole: Figures) -> None:
        self.at_round, self.moves, self.whole = at_round, moves, whole
        self.chronicle: Chronicle | None = None
        self.held: dict[int | None, int] = {}  # lines of its log each seat holds
        self.measured = False

    def after(self, engine: Engine) -> None:
        """After each choice: each seat told what changed; in the round measured, timed."""
        self.chronicle = self.chronicle or Chronicle(engine)
        seats = (None, *range(len(engine.state.players)))
        if engine.state.round != self.at_round or engine.state.phase == "over":
            for seat in seats:
                self.held[seat] = len(self.chronicle.lines(seat))
            return
        for seat in seats:
            if not self.measured:  # (the round's first move: the whole message too)
                timed(self.whole, lambda seat=seat: seat_scene(engine, self.chronicle, seat))
            scene = timed(
                self.moves, lambda seat=seat: seat_scene(engine, self.chronicle, seat, log_from=self.held[seat])
            )
            self.held[seat] = scene.log_from + len(scene.log)
        self.measured = True


def measure(games: int, at_round: int) -> tuple[Figures, Figures, int]:
    """(the messages after each move, the whole messages, games that reached the round)."""
    content = load_content()
    moves: Figures = ([], [])
    whole: Figures = ([], [])
    reached = 0
    for seed in range(games):
        table = Table(at_round, moves, whole)
        bot_game(content, 4, seed, on_choice=table.after)
        reached += table.measured
    return moves, whole, reached


def timed(figures: Figures, build):
    """Build a message and write it as JSON, noting the time and the size; the message."""
    start = time.perf_counter()
    scene = build()
    written = to_json(scene)
    figures[0].append(time.perf_counter() - start)
    figures[1].append(len(written.encode()))
    return scene


def report(what: str, figures: Figures) -> str:
    ms = sorted(t * 1000 for t in figures[0])
    sizes = sorted(figures[1])
    p95 = ms[int(0.95 * (len(ms) - 1))]
    return (
        f"{what}: {len(ms)} messages, build + JSON median {statistics.median(ms):.2f} ms, p95 {p95:.2f} ms, "
        f"max {ms[-1]:.2f} ms; size median {statistics.median(sizes) / 1024:.1f} KB, "
        f"p95 {sizes[int(0.95 * (len(sizes) - 1))] / 1024:.1f} KB, max {sizes[-1] / 1024:.1f} KB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="4-player games to play (default 10)")
    parser.add_argument("--round", type=int, default=15, help="the round whose messages are measured (default 15)")
    args = parser.parse_args()
    moves, whole, reached = measure(args.games, args.round)
    if not moves[0]:
        sys.exit(f"no game of {args.games} reached round {args.round}")
    print(f"Round {args.round} of {reached} of {args.games} games of 4 players (computer players)")
    print(report("after each move (the new lines of the log)", moves))
    print(report("whole (all the log, at the round's first move)", whole))


if __name__ == "__main__":
    main()
