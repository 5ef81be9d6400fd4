"""Machine instructions the terminal app spends on a move: a measure that the machine's load does not move.

    python bench/tui_instructions.py [--moves N] [--size 80x24]

A benchmark, not a test. The app plays the opening of a seeded 2-player game
at 160x50 (or --size) in Textual's test pilot (the same key presses as the whole-game
tests: random legal options by digit, Enter on each curtain), once with no
move and once with N moves (default 40), each run under
`valgrind --tool=callgrind`; the difference divided by N is the cost of a
move, hand-overs included. The pilot's own waiting is counted too, so
this overstates the app's share; compare versions with the same N. The
game's modules are compiled to bytecode first, as they are for a player
(see bench/bytecode.py).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

import callgrind
from bytecode import compile_game

ROOT = Path(__file__).resolve().parent.parent


def play(moves: int, size: tuple[int, int]) -> None:
    sys.path.insert(0, str(ROOT))
    from lagoon_tui.app import LagoonApp
    from lagoon_tui.settings import GameSettings
    from tests.helpers.drive import Policy, start, step

    async def main() -> None:
        app = LagoonApp(settings=GameSettings(("Ana", "Ben"), ("red", "yellow"), 5, 0))
        async with app.run_test(size=size) as pilot:
            run = await start(pilot)
            policy = Policy(8)
            for _ in range(moves):
                await step(pilot, run, policy)

    asyncio.run(main())


def instructions(moves: int, size: str) -> int:
    return callgrind.instructions([sys.executable, __file__, "--play", str(moves), "--size", size])[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40, help="moves to play (default 40)")
    parser.add_argument("--size", default="160x50", help="the terminal's size, WIDTHxHEIGHT (default 160x50)")
    parser.add_argument("--play", type=int, help=argparse.SUPPRESS)  # the run under valgrind
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    if args.play is not None:
        play(args.play, (width, height))
        return
    compile_game()  # as a player's installed game is
    base, played = instructions(0, args.size), instructions(args.moves, args.size)
    print(
        f"{args.size}: start-up {base / 1e6:,.0f} M instructions; {args.moves} moves "
        f"{(played - base) / 1e6:,.0f} M; per move {(played - base) / args.moves / 1e6:,.1f} M"
    )


if __name__ == "__main__":
    main()
