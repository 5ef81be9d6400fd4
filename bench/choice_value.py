"""What the hard player's choices are worth in the real game, against the normal move.

    python bench/choice_value.py PLAYERS GAMES FIRST_SEED LOG [NAME=OPTIONS ...]

At about one island or action decision in seven of GAMES games between normal players (deals
FIRST_SEED, FIRST_SEED + 1, ...), where there are two options or more to play out, every option
the hard player would play out (the normal move and the three valued next) is taken in the real
game, hidden cards and all, and the game is played on to its end by normal players in every
seat: the option's *value* is the deciding seat's final VP margin over the best other player,
and whether it won (a tie for first shared). Then each variant of the hard player
(NAME=OPTIONS, OPTIONS a JSON object of `SearchPlayer` options; `base` with none is always one)
chooses there from the seat's message, and LOG keeps one JSON line per decision: the values, the
normal move, each variant's choice and mean scores.

A variant's gain is the mean value of its choices less that of the normal move: what one choice
of it, once, adds to a normal player's game. One game played on is chaotic (its value moves by
several VP from one option to the next whatever the option), so the gain has a wide error and
two variants are best compared on the decisions where they choose differently. The summary
(`--summary LOG`) prints each variant's gain, the gain the base would have with a margin it
must beat the normal move by (`prefer`), and each pair of variants' difference, with standard
errors.

Not a test: docs/performance.md ("Computer players") keeps the figures.
"""

from __future__ import annotations

import itertools
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from search_convergence import NO_CAP, sampled, twin  # noqa: E402  (a bench beside this one)

from rules import Engine, clone, load_content  # noqa: E402
from rules.bots import Bot  # noqa: E402
from rules.bots.search import Candidate, SearchPlayer, whole_state_choice  # noqa: E402

CONTENT = load_content()
SHARE = 0.15  # of the searched decisions looked at


def value(engine: Engine, bots: list[Bot], seat: int, option: Candidate) -> tuple[int, float]:
    """(final margin, win) of `seat` if it takes `option` now and normal players play on to the end."""
    played = Engine(CONTENT)
    played.state = clone(engine.state)
    played.state_edited()
    players = [twin(bot) for bot in bots]
    played.choose(option.id)
    players[seat].plan, players[seat].started = list(option.plan), (played.state.round, option.id)
    while played.state.phase != "over":
        ask = played.asking()
        played.choose(whole_state_choice(players[ask.seat], played.state, ask))
    vp = [p.vp for p in played.state.players]
    winners = [st.seat for st in played.state.standings if st.place == 1]
    margin = vp[seat] - max(v for other, v in enumerate(vp) if other != seat)
    return margin, (1 / len(winners) if seat in winners else 0.0)


def run(players: int, games: int, first_seed: int, log: Path, variants: dict[str, dict]) -> None:
    with open(log, "a") as out:
        for engine, bots, scene in sampled(players, games, first_seed, SHARE, sample_seed=first_seed):
            row = decision(engine, bots, scene, variants)
            if row is not None:
                out.write(json.dumps(row) + "\n")
                out.flush()


def decision(engine: Engine, bots: list[Bot], scene, variants: dict[str, dict]) -> dict | None:
    seat = scene.seat
    normal = twin(bots[seat]).choose(scene)
    ranker = SearchPlayer(CONTENT, seat, seed=1, time_cap=NO_CAP)
    ranker.bot = twin(bots[seat])
    ranked = ranker.ranked(scene, normal)
    if len(ranked) < 2:
        return None  # (nothing to choose between)
    row = {
        "players": len(bots),
        "round": scene.view["round"],
        "kind": scene.prompt.kind,
        "normal": normal,
        "values": {o.id: value(engine, bots, seat, o) for o in ranked},
        "chosen": {},
        "means": {},
    }
    for name, options in variants.items():
        player = SearchPlayer(CONTENT, seat, seed=1, time_cap=NO_CAP, **options)
        player.bot = twin(bots[seat])
        row["chosen"][name] = player.choose(scene)
        row["means"][name] = player.last.means if player.last else None
    return row


def gain(rows: list[dict], pick, k: int) -> str:
    """The mean value (k 0: margin, 1: win) of `pick(row)` less the normal move's, and its error."""
    d = [r["values"][pick(r)][k] - r["values"][r["normal"]][k] for r in rows if pick(r) in r["values"]]
    return f"{statistics.fmean(d):+.3f} (se {statistics.stdev(d) / len(d) ** 0.5:.3f})"


def preferring(margin: float):
    def pick(r: dict) -> str:
        means = r["means"]["base"]
        if not means:
            return r["normal"]
        best = max(means, key=means.__getitem__)
        return best if means[best] > means[r["normal"]] + margin else r["normal"]

    return pick


def summary(log: Path) -> None:
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    names = list(rows[0]["chosen"])
    print(f"{len(rows)} decisions of {rows[0]['players']}-player games")
    for k, what in ((0, "final VP margin"), (1, "win")):
        print(f"  {what}, gain per choice over the normal move:")
        for name in names:
            differ = sum(r["chosen"][name] != r["normal"] for r in rows)
            print(f"    {name}: {gain(rows, lambda r, n=name: r['chosen'][n], k)}, not the normal move {differ} times")
        for margin in (0.5, 1.0, 2.0):
            print(f"    base with prefer={margin}: {gain(rows, preferring(margin), k)}")
        for a, b in itertools.combinations(names, 2):
            d = [r["values"][r["chosen"][a]][k] - r["values"][r["chosen"][b]][k] for r in rows]
            differ = sum(r["chosen"][a] != r["chosen"][b] for r in rows)
            se = statistics.stdev(d) / len(d) ** 0.5
            print(f"    {a} less {b}: {statistics.fmean(d):+.3f} (se {se:.3f}), choosing differently {differ} times")


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "--summary":
        summary(Path(argv[1]))
        return 0
    if len(argv) < 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    variants = {"base": {}}
    for given in argv[4:]:
        name, _, options = given.partition("=")
        variants[name] = json.loads(options)
    run(int(argv[0]), int(argv[1]), int(argv[2]), Path(argv[3]), variants)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
