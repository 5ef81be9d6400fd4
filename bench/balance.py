"""Balance check for the designed numbers: many games between simple policies.

    python bench/balance.py [--games N] [--players P] [--seed S]

Each seat plays "eager": a random legal option, but never Pass or Back while
anything else is legal, and scoring options (close a deal, make a shipment,
buy equipment or an artifact, buy enriched cubes) first when offered. Prints
win share and mean final VP by corporation, mean VP by source, and the end
reasons. Not a test: a tool to see whether any designed card stands out.
"""
from __future__ import annotations

import argparse
import collections
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import Engine, load_content  # noqa: E402
from rules import events as ev  # noqa: E402

SCORING = ("close:", "pay:", "shipment:", "equipment:", "artifact:", "buy:", "do:2:buy_equipment",
           "do:3:make_shipment", "do:4:make_shipment")


def eager(rng: random.Random, ids: list[str]) -> str:
    useful = [i for i in ids if i not in ("pass", "back")] or ids
    scoring = [i for i in useful if i.startswith(SCORING)]
    pool = scoring if scoring and rng.random() < 0.8 else useful
    return pool[rng.randrange(len(pool))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    content = load_content()
    wins, seen, vp_by_corp = collections.Counter(), collections.Counter(), collections.defaultdict(list)
    by_source, reasons, rounds, top = collections.Counter(), collections.Counter(), [], []
    for g in range(args.games):
        rng = random.Random(args.seed * 100_003 + g)
        engine = Engine.new(content, [f"P{i + 1}" for i in range(args.players)], seed=args.seed * 100_003 + g)
        while engine.state.phase != "over":
            engine.choose(eager(rng, engine.legal_ids()))
        s = engine.state
        winners = [st.seat for st in s.standings if st.place == 1]
        for p in s.players:
            seen[p.corporation] += 1
            vp_by_corp[p.corporation].append(p.vp)
            if p.seat in winners:
                wins[p.corporation] += 1 / len(winners)
        for e in engine.events:
            if isinstance(e, ev.Scored):
                by_source[e.source] += e.vp
        reasons[s.end_reason] += 1
        rounds.append(s.round)
        top.append(max(p.vp for p in s.players))
    fair = 1 / args.players
    print(f"{args.games} games, {args.players} players: end reasons {dict(reasons)}, "
          f"mean rounds {statistics.fmean(rounds):.1f}, mean winning score {statistics.fmean(top):.1f}")
    print(f"\n{'corporation':32} {'games':>6} {'win share':>10} {'vs fair':>8} {'mean VP':>8}")
    for corp, n in sorted(seen.items(), key=lambda kv: -wins[kv[0]] / kv[1]):
        name = content.corporations[corp].name
        share = wins[corp] / n
        print(f"{name:32} {n:>6} {share:>10.3f} {share / fair:>8.2f} {statistics.fmean(vp_by_corp[corp]):>8.1f}")
    per_player = args.games * args.players
    print("\nmean VP per player by source:")
    for source, vp in by_source.most_common():
        print(f"  {source:24} {vp / per_player:6.2f}")


if __name__ == "__main__":
    main()
