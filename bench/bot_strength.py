"""How strong each computer player level is: seat-swapped, paired-seed matches between two levels.

    python bench/bot_strength.py A B [--players 2|3|4] [--games N] [--jobs J] [--seed S]
                                 [--budget R] [--candidates K] [--time-cap T] [--hard NAME=VALUE]
                                 [--log FILE [--logged]] [--json]

A and B are levels (`rules.bots.LEVELS`, or "random"). At two players every
deal (seed) is played twice, A in the first seat and then in the second; at
three or four, one A sits with two or three B, in each seat in turn on the same
deal. So luck of the deal and of the seat is the same for both sides, and a
level's win share is compared on equal terms: 50 %, 33.3 % or 25 % (two, three
or four players) means no difference.

Prints A's win share (a tie for first shared), with a 95 % confidence
interval taken over the deals (each deal's games together, as they are not
independent of each other), A's mean VP margin over the best other player,
and how long each level took to decide: the median and 95th percentile of
every decision it made, in process CPU time and in wall time, and for the
hard player those of the decisions it searched (keep objectives, corporation,
island, action) apart, with the share of them in which its time cap sent it
back to the normal move. `--budget` is the hard player's rollouts per decision,
`--candidates` its options kept besides the normal move, `--time-cap` its
seconds per decision, `--hard` any other option of `SearchPlayer`
(`--hard horizon=1 --hard prefer=0.5`). `--jobs` plays games in parallel processes (results do
not depend on it, times do a little: two jobs on two cores share the caches).

`--log FILE` keeps each game's result, a JSON line, as soon as it is played, so a match too
long for one sitting is played over several: a game the file holds for the same match (levels,
players, options, and the same code: see `code_hash`) is not played again, and the report
covers every game of the run's deals, those read back too. `--logged` reports the games of the
run's deals that the log holds, and plays none (a match stopped part way: its last deal may
lack a game).

Not a test: docs/performance.md ("Computer players") keeps the figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import statistics
import sys
import time
from functools import partial
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import load_content  # noqa: E402
from rules.bots import LEVELS  # noqa: E402
from rules.bots.search import SEARCHED  # noqa: E402
from rules.simulate import RANDOM, level_game  # noqa: E402

CONTENT = None


def one_game(task: tuple[int, int], a: str, b: str, players: int, hard: dict) -> dict:
    """One game of the match: deal `seed`, A in seat `a_seat`, B elsewhere."""
    global CONTENT
    if CONTENT is None:
        CONTENT = load_content()
    seed, a_seat = task
    levels = tuple(a if seat == a_seat else b for seat in range(players))
    times: dict[str, list[tuple[str, float, float]]] = {a: [], b: []}
    fell_back = []

    def timed(seat: int, player, kind: str, cpu: float, wall: float) -> None:
        times[levels[seat]].append((kind, cpu, wall))
        searched = getattr(player, "last", None)
        if searched is not None:
            fell_back.append(searched.fell_back)

    started = time.perf_counter()
    engine, decisions = level_game(CONTENT, seed, levels, hard, on_decision=timed)
    s = engine.state
    winners = [st.seat for st in s.standings if st.place == 1]
    vp = [p.vp for p in s.players]
    return {
        "seed": seed,
        "a_seat": a_seat,
        "a_won": 1 / len(winners) if a_seat in winners else 0.0,
        "margin": vp[a_seat] - max(v for seat, v in enumerate(vp) if seat != a_seat),
        "vp": vp,
        "decisions": decisions,
        "seconds": time.perf_counter() - started,
        "times": times,
        "fell_back": fell_back,
    }


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def timing(rows: list[tuple[str, float, float]]) -> dict:
    cpu = [r[1] for r in rows]
    wall = [r[2] for r in rows]
    return {
        "decisions": len(rows),
        "cpu_p50_ms": round(1000 * percentile(cpu, 0.5), 2),
        "cpu_p95_ms": round(1000 * percentile(cpu, 0.95), 2),
        "wall_p50_ms": round(1000 * percentile(wall, 0.5), 2),
        "wall_p95_ms": round(1000 * percentile(wall, 0.95), 2),
        "wall_max_ms": round(1000 * max(wall, default=float("nan")), 2),
    }


def report(results: list[dict], a: str, b: str, players: int, hard: dict) -> dict:
    by_deal: dict[int, list[dict]] = {}
    for r in results:
        by_deal.setdefault(r["seed"], []).append(r)
    deals = [statistics.fmean(g["a_won"] for g in games) for games in by_deal.values()]
    share = statistics.fmean(deals)
    half = 1.96 * statistics.stdev(deals) / math.sqrt(len(deals)) if len(deals) > 1 else float("nan")
    out = {
        "a": a,
        "b": b,
        "players": players,
        "games": len(results),
        "deals": len(deals),
        "hard": hard,
        "a_win_share": round(share, 4),
        "ci95": [round(share - half, 4), round(share + half, 4)],
        "even_share": round(1 / players, 4),
        "a_margin_mean": round(statistics.fmean(r["margin"] for r in results), 2),
        "game_seconds_mean": round(statistics.fmean(r["seconds"] for r in results), 2),
        "time": {},
    }
    for level in dict.fromkeys((a, b)):
        rows = [row for r in results for row in r["times"][level]]
        out["time"][level] = {"all": timing(rows)}
        if level == "hard":
            out["time"][level]["searched"] = timing([row for row in rows if row[0] in SEARCHED])
    searches = [f for r in results for f in r["fell_back"]]
    if searches:
        out["hard_searches"] = len(searches)
        out["hard_fell_back"] = sum(searches)
    return out


def code_hash() -> str:
    """What the players' play depends on: the source of the computer players (rules/bots), the
    content, and what the engine does: the events of a game between normal players at each player
    count. So a change to the engine that leaves every game as it was (a fix for content other
    than the shipped one, a speed-up) leaves a match's log in use, and one to the players does not."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted([*root.glob("rules/bots/**/*.py"), *root.glob("content/**/*.toml")]):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    content = load_content()
    for players in range(content.board.players_min, content.board.players_max + 1):
        engine, _ = level_game(content, 1, ("normal",) * players)
        digest.update(repr(engine.events).encode())
    return digest.hexdigest()[:16]


def logged(path: Path, match: dict) -> dict[tuple[int, int], dict]:
    """The results a log holds for `match`, by game (deal, A's seat)."""
    if not path.exists():
        return {}
    kept = {}
    for line in path.read_text().splitlines():
        entry = json.loads(line)
        if entry["match"] == match:
            result = entry["result"]
            kept[result["seed"], result["a_seat"]] = result
    return kept


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    choices = (*LEVELS, RANDOM)
    parser.add_argument("a", choices=choices)
    parser.add_argument("b", choices=choices)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--games", type=int, default=100, help="games in all (rounded up to whole deals)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=int, default=None, help="the hard player's rollouts per decision")
    parser.add_argument("--candidates", type=int, default=None, help="options the hard player plays out")
    parser.add_argument("--time-cap", type=float, default=None, help="the hard player's seconds per decision")
    parser.add_argument(
        "--hard", action="append", default=[], metavar="NAME=VALUE", help="another option of the hard player"
    )
    parser.add_argument("--log", type=Path, help="keep every game's result here, and reuse those it holds")
    parser.add_argument("--logged", action="store_true", help="report the games the log holds, playing none")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.logged and not args.log:
        parser.error("--logged reports what a --log FILE holds: give the file")
    hard = {
        key: value
        for key, value in (("rollouts", args.budget), ("candidates", args.candidates), ("time_cap", args.time_cap))
        if value is not None
    }
    for option in args.hard:
        name, _, value = option.partition("=")
        hard[name.replace("-", "_")] = float(value) if "." in value else int(value)
    per_deal = args.players
    deals = -(-args.games // per_deal)
    tasks = [(args.seed * 1_000_003 + d, seat) for d in range(deals) for seat in range(per_deal)]
    play = partial(one_game, a=args.a, b=args.b, players=args.players, hard=hard)
    match = {"a": args.a, "b": args.b, "players": args.players, "hard": hard, "code": code_hash()}
    kept = logged(args.log, match) if args.log else {}
    results = [kept[task] for task in tasks if task in kept]
    todo = [] if args.logged else [task for task in tasks if task not in kept]
    if results:
        print(f"  {len(results)} games read back from {args.log}", file=sys.stderr, flush=True)
    elif not todo:
        print(f"{args.log} holds no game of this match (levels, options and code: {match})", file=sys.stderr)
        return 1
    started = time.perf_counter()
    with Pool(args.jobs) as pool, open(args.log or "/dev/null", "a") as log:
        for n, result in enumerate(pool.imap_unordered(play, todo), start=len(results) + 1):
            results.append(result)
            log.write(json.dumps({"match": match, "result": result}) + "\n")
            log.flush()
            if n % max(1, len(tasks) // 20) == 0 or n == len(tasks):
                won = statistics.fmean(r["a_won"] for r in results)
                print(f"  {n}/{len(tasks)} games, {args.a} won {won:.1%}", file=sys.stderr, flush=True)
    out = report(results, args.a, args.b, args.players, hard)
    out["elapsed_s"] = round(time.perf_counter() - started, 1)
    out["played_now"] = len(todo)
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    low, high = out["ci95"]
    print(
        f"{args.a} vs {args.b}, {args.players} players: {out['games']} games on {out['deals']} deals"
        + (f", hard {hard}" if hard else "")
    )
    print(
        f"  {args.a} win share {out['a_win_share']:.1%} (95% CI {low:.1%} to {high:.1%}; even is "
        f"{out['even_share']:.1%}), mean VP margin {out['a_margin_mean']:+.2f}"
    )
    for level, parts in out["time"].items():
        for part, t in parts.items():
            print(
                f"  {level:6} {part:8} {t['decisions']:6} decisions: cpu p50 {t['cpu_p50_ms']} ms, "
                f"p95 {t['cpu_p95_ms']} ms; wall p50 {t['wall_p50_ms']} ms, p95 {t['wall_p95_ms']} ms, "
                f"max {t['wall_max_ms']} ms"
            )
    if "hard_searches" in out:
        print(
            f"  hard searched {out['hard_searches']} times; fell back to the normal move {out['hard_fell_back']} times"
        )
    print(f"  {out['elapsed_s']} s for the {len(todo)} games played now, {args.jobs} jobs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
