"""One game of computer players on an edge deck of tests/edge_decks.py: its CPU time and decisions.

    python bench/edge_games.py ["every board number at its most"] [--levels normal,hard,easy,normal]
                               [--hard '{"guesses": 4, "sets": 4}'] [--seed 1]

The hard player plays at the budget of tests/test_deck_edges.py (`TINY`), changed by `--hard`
(options of `rules.bots.SearchPlayer`, as JSON). The game is played by `rules.simulate.level_game`,
so it is the test's game, move for move. A benchmark, not a test: the test counts decisions only.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules.loader import load_content  # noqa: E402
from rules.simulate import level_game  # noqa: E402
from tests.helpers.edge_decks import CASES, TINY, edge_deck  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("case", nargs="?", default="every board number at its most", choices=sorted(CASES))
    parser.add_argument("--levels", default="normal,hard,easy,normal", help="one level a seat, by commas")
    parser.add_argument("--hard", default="{}", help="the hard player's options over TINY's, as JSON")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    levels = tuple(args.levels.split(","))
    hard = {**TINY, **json.loads(args.hard)}
    with tempfile.TemporaryDirectory() as folder:
        content = load_content(edge_deck(args.case, Path(folder) / "content"))
    cpu = time.process_time()
    engine, decisions = level_game(content, args.seed, levels, hard)
    cpu = time.process_time() - cpu
    print(f"{args.case!r}, {','.join(levels)}, hard {json.dumps(hard)}, seed {args.seed}:")
    print(f"  {decisions} decisions, {engine.state.round} rounds, {cpu:.1f} s CPU")


if __name__ == "__main__":
    main()
