"""Whether the hard player's budget or its short list of options holds it back.

    python bench/search_convergence.py budget PLAYERS BUDGET REFERENCE GAMES
    python bench/search_convergence.py options PLAYERS REFERENCE GAMES

Both sample about one island or action decision in eight to ten of GAMES games between normal
players and search there apart from the game itself, with a hard player made for the decision:
it has the normal player's plan and memory, and knows only the message of that moment (not the
offers its seat was shown earlier).

`budget`: the hard player at BUDGET rollouts (seeded 1, then 2) against a reference search at
REFERENCE rollouts (seed 999). Prints how often the two choose the same option, and the regret:
how many VP, by the reference's mean scores, the option chosen at BUDGET is worth less than the
reference's choice. If a ten times larger budget seldom chooses otherwise, and then loses little,
a larger budget would not make the player stronger.

`options`: a reference search of every option (REFERENCE rollouts shared among them) at the
decisions with more than four. Prints how often the best of them is not among the four the hard
player plays out (the normal move and the three it values most after it), and the VP it would
gain on average by the reference's scores. The reference's means are noisy, so both figures are
upper bounds.

Not a test: docs/performance.md ("Computer players") keeps the figures.
"""

from __future__ import annotations

import copy
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import Engine, load_content  # noqa: E402
from rules.bots import Bot  # noqa: E402
from rules.bots.search import SEARCHED, SearchPlayer  # noqa: E402
from rules.seat import seat_scene  # noqa: E402
from rules.simulate import NAMES  # noqa: E402

CONTENT = load_content()
NO_CAP = 1e9  # seconds: the budget decides, never the clock


def twin(bot: Bot) -> Bot:
    """A copy of a bot in the same frame of mind (plan, memory and random numbers)."""
    other = copy.copy(bot)
    other.plan, other.withdrawn, other.rng = list(bot.plan), set(bot.withdrawn), copy.deepcopy(bot.rng)
    return other


def searcher(seat: int, seed: int, rollouts: int, bot: Bot, **options) -> SearchPlayer:
    player = SearchPlayer(CONTENT, seat, seed=seed, rollouts=rollouts, time_cap=NO_CAP, **options)
    player.bot = twin(bot)
    return player


def sampled(players: int, games: int, first_seed: int, share: float, sample_seed: int):
    """(engine, its normal bots, the deciding seat's message) at a share of the searched decisions of
    normal games (deals `first_seed`, `first_seed` + 1...; which decisions: `sample_seed`)."""
    rng = random.Random(sample_seed)
    for game in range(games):
        engine = Engine.new(CONTENT, list(NAMES[:players]), seed=first_seed + game)
        bots = [Bot(CONTENT, seat, seed=seat) for seat in range(players)]
        while engine.state.phase != "over":
            ask = engine.asking()
            scene = seat_scene(engine, None, ask.seat)
            if ask.kind in SEARCHED and rng.random() < share:
                yield engine, bots, scene
            engine.choose(bots[ask.seat].choose(scene))


def budget(players: int, small: int, big: int, games: int) -> str:
    agree = compared = 0
    regret = 0.0
    for _, bots, scene in sampled(players, games, first_seed=1000, share=0.12, sample_seed=3):
        bot = bots[scene.seat]
        reference = searcher(scene.seat, 999, big, bot)
        best = reference.choose(scene)
        if reference.last is None:
            continue
        means = reference.last.means
        for seed in (1, 2):
            chosen = searcher(scene.seat, seed, small, bot).choose(scene)
            if chosen in means:
                compared += 1
                agree += chosen == best
                regret += means[best] - means[chosen]
    return (
        f"{players} players, {small} against {big} rollouts: the same choice in {agree} of {compared} "
        f"({agree / max(1, compared):.0%}), mean regret {regret / max(1, compared):.3f} VP a decision"
    )


def options(players: int, big: int, games: int) -> str:
    compared = outside = 0
    gain = 0.0
    for _, bots, scene in sampled(players, games, first_seed=2000, share=0.1, sample_seed=4):
        bot = bots[scene.seat]
        reference = searcher(scene.seat, 999, big, bot, candidates=99)
        ranked = [c.id for c in reference.ranked(scene, twin(bot).choose(scene))]
        reference.choose(scene)
        if reference.last is None or len(ranked) <= 4:
            continue
        means = reference.last.means
        kept = max(ranked[:4], key=means.__getitem__)
        best = max(means, key=means.__getitem__)
        compared += 1
        outside += best != kept
        gain += means[best] - means[kept]
    return (
        f"{players} players, every option at {big} rollouts: of {compared} decisions with more than four "
        f"options, the best is not among the four played out in {outside}; mean gain {gain / max(1, compared):.3f} VP"
    )


def main(argv: list[str]) -> int:
    started = time.perf_counter()
    if argv[:1] == ["budget"] and len(argv) == 5:
        print(budget(*map(int, argv[1:])))
    elif argv[:1] == ["options"] and len(argv) == 4:
        print(options(*map(int, argv[1:])))
    else:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    print(f"  {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
