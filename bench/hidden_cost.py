"""What not seeing the other hands costs the hard player: a diagnostic that lets it peek.

    python bench/hidden_cost.py MODE DEALS LOG [--seed S] [--jobs J]

Four-player games of one hard player against three normal ones, on the deals and seats of
`bench/bot_strength.py hard normal --players 4 --seed S` (the hard player in each seat in turn),
so each game pairs with the same game of that match. MODE:

- `hands`: the hard player's worlds are the real game with only the decks shuffled: it knows
  every player's objectives and deals, not the order of the decks;
- `all`: its worlds are the real game itself, deck orders included (one world, played out
  again and again);
- `objectives`, `deals`, `galleries`: its worlds are dealt as the real player's are, but with the
  other players' objectives (or deals in hand, or the tiles of the galleries they placed face down
  and drew) as they are: what knowing that part alone is worth.

Nothing else changes: the same budget, options and forecast. LOG keeps a JSON line per game;
the summary compares each with the same game of the match's log (`--log` of bot_strength.py,
`--match FILE`). A player that peeks is for this measurement only: the game's computer players
deal their worlds from their seat's message alone (rules/bots/worlds.py).

Not a test: docs/performance.md ("Computer players") keeps the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from functools import partial
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import Engine, clone, load_content, view  # noqa: E402
from rules.bots import Bot  # noqa: E402
from rules.bots.search import SearchPlayer  # noqa: E402
from rules.bots.worlds import World, Worlds  # noqa: E402
from rules.seat import seat_scene  # noqa: E402
from rules.simulate import NAMES  # noqa: E402
from rules.view import DECKS  # noqa: E402

CONTENT = load_content()
PLAYERS = 4


class RealWorlds:
    """Worlds that are the real game (`engine`), its decks shuffled unless `decks_known`."""

    def __init__(self, engine: Engine, decks_known: bool) -> None:
        self.engine, self.decks_known = engine, decks_known

    def observe(self, seen: dict) -> None:
        pass

    def deal(self, seen: dict, rng: random.Random, reading=None) -> World:
        return World({}, rng.randrange(2**31))

    def state(self, seen: dict, world: World):
        s = clone(self.engine.state)
        if not self.decks_known:
            shuffle = random.Random(world.seed).shuffle
            for deck in DECKS:
                shuffle(getattr(s, deck))
            s.seed = world.seed
        return s


class PeekWorlds(Worlds):
    """The real player's worlds, dealt from its view with the others' `key` (their objectives or
    deals) written in as they are in `engine`."""

    def __init__(self, engine: Engine, seat: int, key: str) -> None:
        super().__init__(engine.content, seat)
        self.engine, self.key = engine, key

    def peek(self, seen: dict) -> dict:
        if self.key == "galleries":
            return view(self.engine.state, self.seat, reveal=True) | {
                key: value for key, value in seen.items() if key not in ("sites", "drawn_galleries")
            }
        seen = dict(seen, players=[dict(p) for p in seen["players"]])
        for seat, real in enumerate(self.engine.state.players):
            if seat != self.seat:
                seen["players"][seat][self.key] = list(getattr(real, self.key))
        return seen

    def deal(self, seen: dict, rng: random.Random, reading=None) -> World:
        return super().deal(self.peek(seen), rng)  # (what it peeks at, not what it reads)

    def state(self, seen: dict, world: World):
        return super().state(self.peek(seen), world)


def one_game(task: tuple[int, int], mode: str) -> dict:
    seed, a_seat = task
    engine = Engine.new(CONTENT, list(NAMES[:PLAYERS]), seed=seed)
    seats = []
    for seat in range(PLAYERS):  # (seeded as rules.simulate.level_game seeds them)
        if seat == a_seat:
            player = SearchPlayer(CONTENT, seat, seed=seed * 7 + seat)
            if mode in ("objectives", "deals", "galleries"):
                player.worlds = PeekWorlds(engine, seat, mode)
            else:
                player.worlds = RealWorlds(engine, decks_known=mode == "all")
        else:
            player = Bot(CONTENT, seat, seed=seed * 7 + seat)
        seats.append(player)
    while engine.state.phase != "over":
        seat = engine.asking().seat
        engine.choose(seats[seat].choose(seat_scene(engine, None, seat)))
    vp = [p.vp for p in engine.state.players]
    winners = [st.seat for st in engine.state.standings if st.place == 1]
    return {
        "seed": seed,
        "a_seat": a_seat,
        "mode": mode,
        "a_won": 1 / len(winners) if a_seat in winners else 0.0,
        "margin": vp[a_seat] - max(v for other, v in enumerate(vp) if other != a_seat),
    }


def summary(log: Path, match: Path) -> None:
    peeked = [json.loads(line) for line in log.read_text().splitlines()]
    played = {}
    for line in match.read_text().splitlines():
        result = json.loads(line)["result"]
        played[result["seed"], result["a_seat"]] = result
    for mode in sorted({r["mode"] for r in peeked}):
        games = [r for r in peeked if r["mode"] == mode and (r["seed"], r["a_seat"]) in played]
        if len(games) < 2:
            continue
        same = [played[r["seed"], r["a_seat"]] for r in games]
        margin = [r["margin"] - s["margin"] for r, s in zip(games, same)]
        print(
            f"{mode}: {len(games)} games; win share {statistics.fmean(r['a_won'] for r in games):.1%} "
            f"against {statistics.fmean(s['a_won'] for s in same):.1%} in the same games of the match; "
            f"margin {statistics.fmean(r['margin'] for r in games):+.2f} against "
            f"{statistics.fmean(s['margin'] for s in same):+.2f} VP (difference {statistics.fmean(margin):+.2f}, "
            f"se {statistics.stdev(margin) / len(margin) ** 0.5:.2f})"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("hands", "all", "objectives", "deals", "galleries", "summary"))
    parser.add_argument("deals", type=int, nargs="?", default=0)
    parser.add_argument("log", type=Path)
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--match", type=Path, help="the match's log (bot_strength.py --log), for the summary")
    args = parser.parse_args(argv)
    if args.mode == "summary":
        summary(args.log, args.match)
        return 0
    tasks = [(args.seed * 1_000_003 + d, seat) for d in range(args.deals) for seat in range(PLAYERS)]
    with Pool(args.jobs) as pool, open(args.log, "a") as out:
        for result in pool.imap_unordered(partial(one_game, mode=args.mode), tasks):
            out.write(json.dumps(result) + "\n")
            out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
