"""How often the keyboard changes hands behind a curtain: curtains per round in hot-seat games.

Not a speed benchmark: a count of the moments a player must stop and press
Enter. Games are played through the real app by key presses (the test
driver, tests/helpers/drive.py) at 160x50, and every curtain that comes up is
counted by the round it comes in. The first round is left out (setup's
curtains fall in it).

    .venv/bin/python bench/hand_overs.py --players 2 --seeds 21 22 5 --rounds 8
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lagoon_tui.app import LagoonApp  # noqa: E402
from lagoon_tui.screens.curtain import CurtainScreen  # noqa: E402
from lagoon_tui.settings import GameSettings  # noqa: E402
from tests.helpers.drive import play_game, start  # noqa: E402

NAMES = ("Ana", "Ben", "Cleo", "Dev")
COLOURS = ("red", "yellow", "green", "blue")


async def curtains_per_round(players: int, seed: int, rounds: int) -> list[int]:
    app = LagoonApp(settings=GameSettings(NAMES[:players], COLOURS[:players], seed, 0))
    counted: Counter = Counter()
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)

        def after_key(key: str) -> None:
            if isinstance(app.screen, CurtainScreen):  # (a curtain stays up for one key: the Enter)
                counted[run.engine.state.round] += 1

        await play_game(pilot, seed, run=run, after_key=after_key, until=lambda r: r.engine.state.round > rounds)
    return [counted[r] for r in range(2, rounds + 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seeds", type=int, nargs="+", default=[21, 22, 5])
    parser.add_argument("--rounds", type=int, default=8, help="play to the end of this round")
    args = parser.parse_args()
    everything = []
    for seed in args.seeds:
        counts = asyncio.run(curtains_per_round(args.players, seed, args.rounds))
        everything += counts
        print(f"seed {seed}: curtains in rounds 2-{args.rounds}: {counts}, mean {statistics.mean(counts):.1f}")
    print(f"{args.players} players, {len(args.seeds)} games: {statistics.mean(everything):.2f} curtains a round")


if __name__ == "__main__":
    main()
