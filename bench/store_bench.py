"""Save-file speed: resuming a finished 4-player game, and committing one choice.

    python bench/store_bench.py [--runs N] [--db-dir DIR]

Resume = open the SQLite file, load the game's events and moves, and replay
them into an Engine (what `lagoon resume` does before drawing anything).
Commit = the transaction that saves one accepted choice's events, timed over
every choice of a whole 4-player game, with synchronous=NORMAL (Lagoon's
setting: in WAL mode a commit survives the app being killed or the SSH link
dropping; only an OS crash or power cut may lose the last moves) and, for
comparison, FULL (an fsync per commit, so power cuts lose nothing either).
Targets: resume ≤ 50 ms, commit p95 ≤ 5 ms. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import load_content  # noqa: E402
from rules.saves import Store  # noqa: E402
from rules.saves.recorder import open_game, record_new, summary_of  # noqa: E402
from rules.simulate import random_game  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def save_finished_game(db: Path, content, seed: int) -> tuple[int, int]:
    engine, _ = random_game(content, 4, seed)
    with Store(db) as store:
        game = record_new(store, engine)  # the whole log in one go is enough to resume it
    return game, len(engine.events)


def measure_resume(db: Path, game: int, content, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        with Store(db) as store:
            engine = open_game(store, game, content)
        times.append(time.perf_counter() - start)
        assert engine.state.phase == "over"
    return times


def measure_commits(db: Path, content, seed: int, synchronous: str) -> list[float]:
    """Replays a random 4-player game choice by choice into a fresh game, timing each commit."""
    engine, _ = random_game(content, 4, seed)
    marks = engine.marks
    bounds = [m.pos for m in marks] + [len(engine.events)]
    times = []
    with Store(db, synchronous=synchronous) as store:
        first = bounds[0]
        game = store.create(
            seed=engine.state.seed,
            names=[p.name for p in engine.state.players],
            colours=[p.colour for p in engine.state.players],
            fingerprint=content.fingerprint,
            events=engine.events[:first],
            marks=[],
            summary=summary_of(engine),
        )
        summary = summary_of(engine)
        for mark, end in zip(marks, bounds[1:]):
            start = time.perf_counter()
            store.append(game, mark.pos, engine.events[mark.pos : end], mark, summary)
            times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--db-dir", type=Path, default=None, help="where to put the test files (default: a temp dir)")
    args = parser.parse_args()
    content = load_content()
    with tempfile.TemporaryDirectory(dir=args.db_dir) as tmp:
        db = Path(tmp) / "bench.db"
        game, events = save_finished_game(db, content, seed=1)
        resume = measure_resume(db, game, content, args.runs)
        print(
            f"resume a finished 4-player game ({events} events), {args.runs} runs: "
            f"median {statistics.median(resume) * 1000:.1f} ms, max {max(resume) * 1000:.1f} ms (target ≤ 50 ms)"
        )
        for sync in ("NORMAL", "FULL"):
            commits = measure_commits(Path(tmp) / f"commits-{sync}.db", content, 2, sync)
            print(
                f"commit one choice, synchronous={sync}, {len(commits)} choices: "
                f"median {statistics.median(commits) * 1000:.2f} ms, p95 {percentile(commits, 0.95) * 1000:.2f} ms, "
                f"max {max(commits) * 1000:.2f} ms"
                + (" (Lagoon's setting; target p95 ≤ 5 ms)" if sync == "NORMAL" else "")
            )


if __name__ == "__main__":
    main()
