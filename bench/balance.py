"""Balance check for the designed numbers: many games between heuristic bots.

    python bench/balance.py [--games N] [--players P [P ...]] [--seed S] [--content DIR] [--jobs J]

Every seat is a `rules.bots.Bot` that picks its corporation at random, so each
corporation is measured on its own merits. For each player count it prints:
scores (mean, median, spread, the winner's), how the game ended (someone
reached the VP goal, or the last round, and in which round), win share by seat
order (counted clockwise from the start player, with each order's mean score,
first island picks and the islands taken by the first, second... to pick) and by
corporation, both with their standard error, each objective's pick rate
and how its keepers fared, how often each equipment card was bought when on
display and how often it was used, deals and shipments per player, and VP by
source. Games are deterministic per seed, and `--jobs` plays them in parallel
processes with the same results. Not a test: a tool for tuning
`content/*.toml` (see content/README.md).

`--level hard` seats a computer player of that level in every seat instead
(each picks its best corporation; `--rollouts N` sets the hard player's budget
of play-outs a decision, with no time cap, so a seed gives the same games on
any machine): is a finding a property of the rules, or of the heuristic bot?
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections import Counter
from functools import partial
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import events as ev  # noqa: E402
from rules import load_content  # noqa: E402
from rules.simulate import bot_game, level_game  # noqa: E402


def summary(content, players: int, seed: int, level: str | None = None, rollouts: int | None = None) -> dict:
    """One bot game (or a game of `level` players in every seat), boiled down to what the report needs."""
    if level is None:
        engine = bot_game(content, players, seed, corporations="random")
    else:
        hard = {"time_cap": 1e9, **({"rollouts": rollouts} if rollouts else {})}
        engine, _ = level_game(content, seed, (level,) * players, hard=hard)
    s = engine.state
    winners = {st.seat for st in s.standings if st.place == 1}
    win = {seat: (1 / len(winners) if seat in winners else 0.0) for seat in range(players)}
    g = {
        "reason": s.end_reason,
        "rounds": s.round,
        "vp": [p.vp for p in s.players],
        "win": win,
        "order": {seat: (seat - s.start_player) % players for seat in range(players)},
        "corporation": {p.seat: p.corporation for p in s.players},
        "kept": {p.seat: list(p.objectives) for p in s.players},
        "offered": Counter(),
        "objective_vp": Counter(),
        "shown": set(),
        "bought": Counter(),
        "used": Counter(),
        "sources": Counter(),
        "counts": Counter(),
        "first_picks": Counter(),
        "island_by_pick": Counter(),
    }
    pick = 0
    for e in engine.events:
        kind = type(e).__name__
        g["counts"][kind] += 1
        if isinstance(e, ev.RoundBegan):
            pick = 0
        elif isinstance(e, ev.IslandChosen):
            if pick == 0:
                g["first_picks"][g["order"][e.seat]] += 1
            g["island_by_pick"][(pick, e.island)] += 1
            pick += 1
        elif isinstance(e, ev.ObjectivesDealt):
            g["offered"].update(e.objectives)
        elif isinstance(e, ev.ObjectiveScored):
            g["objective_vp"][e.objective] += e.vp
        elif isinstance(e, ev.EquipmentRevealed):
            g["shown"].add(e.card)
        elif isinstance(e, ev.EquipmentBought):
            g["bought"][e.card] += 1
        elif isinstance(e, ev.ActionStarted) and e.source.startswith("equipment:"):
            g["used"][e.source.split(":", 1)[1]] += 1
        elif isinstance(e, ev.Scored):
            g["sources"][e.source] += e.vp
    g["counts"]["ArtifactShipped"] = sum(1 for p in s.players for t in p.shipments if content.shipments[t].artifacts)
    return g


def ratio(part: float, whole: float) -> float:
    return part / whole if whole else 0.0


def stderr(share: float, n: int) -> float:
    """Standard error of a win share measured over n seats."""
    return math.sqrt(share * (1 - share) / n) if n else 0.0


def report_scores(games: list[dict], goal: int) -> None:
    scores = [v for g in games for v in g["vp"]]
    top = [max(g["vp"]) for g in games]
    reached = sum(g["reason"] == "vp_goal" for g in games)
    print(
        f"scores: mean {statistics.fmean(scores):.1f}, median {statistics.median(scores):.0f}, "
        f"stdev {statistics.pstdev(scores):.1f}, range {min(scores)}..{max(scores)}; "
        f"winner mean {statistics.fmean(top):.1f}, median {statistics.median(top):.0f}"
    )
    print(
        f"ended by {goal} VP in {ratio(reached, len(games)):.0%} of games, after the last round in "
        f"{ratio(len(games) - reached, len(games)):.0%}; mean rounds {statistics.fmean(g['rounds'] for g in games):.1f}"
    )
    rounds = Counter(g["rounds"] for g in games)
    print("games by their last round: " + ", ".join(f"{r}: {n}" for r, n in sorted(rounds.items())))


def report_wins(content, games: list[dict], players: int) -> None:
    """Win shares by seat order and by corporation, each with its standard error."""
    fair = 1 / players
    by_order, by_corp, corp_games = Counter(), Counter(), Counter()
    vp_order, first = Counter(), Counter()
    for g in games:
        first.update(g["first_picks"])
        for seat, share in g["win"].items():
            by_order[g["order"][seat]] += share
            vp_order[g["order"][seat]] += g["vp"][seat]
            by_corp[g["corporation"][seat]] += share
            corp_games[g["corporation"][seat]] += 1
    n = len(games)
    print(
        "win share by seat order (1 = start player), ± standard error: "
        + ", ".join(
            f"{k + 1}: {ratio(by_order[k], n):.2f}±{stderr(ratio(by_order[k], n), n):.2f}" for k in range(players)
        )
        + f" (fair {fair:.2f})"
    )
    print(
        "  mean VP by seat order: "
        + ", ".join(f"{k + 1}: {ratio(vp_order[k], n):.1f}" for k in range(players))
        + "; rounds picking first: "
        + ", ".join(f"{k + 1}: {ratio(first[k], n):.2f}" for k in range(players))
    )
    picks = Counter()
    for g in games:
        picks.update(g["island_by_pick"])
    total = Counter()
    for (k, _), c in picks.items():
        total[k] += c
    print(
        "  island taken by the k-th to pick: "
        + "; ".join(
            f"{k + 1}: " + "/".join(f"{ratio(picks[(k, i)], total[k]):.2f}" for i in range(1, 5))
            for k in range(players)
        )
    )
    print("win share by corporation, as a multiple of fair ± standard error (games):")
    shares = {c: ratio(by_corp[c], corp_games[c]) for c in corp_games}
    ranked = sorted(corp_games, key=lambda c: -shares[c])
    print(
        "  "
        + ", ".join(
            f"{content.corporations[c].name} {shares[c] / fair:.2f}±"
            f"{stderr(shares[c], corp_games[c]) / fair:.2f} ({corp_games[c]})"
            for c in ranked
        )
    )


def report_objectives(content, games: list[dict], players: int) -> None:
    offered, kept, wins, paid = Counter(), Counter(), Counter(), Counter()
    for g in games:
        offered.update(g["offered"])
        paid.update(g["objective_vp"])
        for seat, objectives in g["kept"].items():
            for o in objectives:
                kept[o] += 1
                wins[o] += g["win"][seat]
    print("objectives: picked/offered, keepers' win share as a multiple of fair, mean VP paid to keepers:")
    for o in sorted(content.objectives, key=lambda o: -ratio(kept[o], offered[o])):
        print(
            f"  {content.objectives[o].name:22} {ratio(kept[o], offered[o]):4.0%} of {offered[o]:4}  "
            f"win x{ratio(wins[o], kept[o]) * players:4.2f}  {ratio(paid[o], kept[o]):4.1f} VP"
        )


def report_equipment(content, games: list[dict]) -> None:
    shown, bought, used = Counter(), Counter(), Counter()
    for g in games:
        shown.update(g["shown"])
        bought.update(g["bought"])
        used.update(g["used"])
    print("equipment ($cost/VP): bought in games it was shown, uses per purchase:")
    cards = sorted(content.equipment.values(), key=lambda e: -ratio(bought[e.id], shown[e.id]))
    for i in range(0, len(cards), 3):
        print(
            "  "
            + "   ".join(
                f"{e.name:18} ${e.cost}/{e.vp} {ratio(bought[e.id], shown[e.id]):4.0%} "
                f"{ratio(used[e.id], bought[e.id]):4.1f}"
                for e in cards[i : i + 3]
            )
        )


def report_play(games: list[dict], players: int) -> None:
    n = len(games) * players
    counts, sources = Counter(), Counter()
    for g in games:
        counts.update(g["counts"])
        sources.update(g["sources"])
    per = {
        k: counts[k] / n
        for k in (
            "DealDrawn",
            "DealClosed",
            "ShipmentMade",
            "ArtifactShipped",
            "ArtifactBought",
            "EquipmentBought",
            "MinerRecruited",
            "MerchantRecruited",
        )
    }
    print("per player: " + ", ".join(f"{k} {v:.1f}" for k, v in per.items()))
    print("VP per player by source: " + ", ".join(f"{src} {vp / n:.1f}" for src, vp in sources.most_common()))


def play(content_dir, players: int, level: str | None, rollouts: int | None, seed: int) -> dict:
    return summary(_content(content_dir), players, seed, level, rollouts)


_LOADED: dict = {}


def _content(content_dir):
    if content_dir not in _LOADED:
        _LOADED[content_dir] = load_content(content_dir)
    return _LOADED[content_dir]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--content", default=None, help="a content directory (default: the shipped one)")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    parser.add_argument("--level", default=None, help="every seat a computer of this level (default: the bot)")
    parser.add_argument("--rollouts", type=int, default=None, help="the hard player's play-outs a decision")
    args = parser.parse_args()
    content = _content(args.content)
    for players in args.players:
        seeds = [args.seed * 1_000_003 + players * 10_007 + i for i in range(args.games)]
        if args.jobs > 1:
            with Pool(args.jobs) as pool:
                games = pool.map(partial(play, args.content, players, args.level, args.rollouts), seeds, chunksize=1)
        else:
            games = [summary(content, players, seed, args.level, args.rollouts) for seed in seeds]
        who = "bot" if args.level is None else f"{args.level} ({args.rollouts or 'default'} rollouts)"
        print(f"\n=== {players} players, {args.games} {who} games (seed {args.seed})")
        report_scores(games, content.board.vp_goal)
        report_wins(content, games, players)
        report_play(games, players)
        report_equipment(content, games)
        report_objectives(content, games, players)


if __name__ == "__main__":
    main()
