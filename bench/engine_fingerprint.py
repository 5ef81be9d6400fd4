"""A fingerprint of everything the engine says in seeded random games, to show a speed change changed nothing else.

    python bench/engine_fingerprint.py [--games N]

Not a benchmark of time. For 2, 3 and 4 players it plays N seeded random
games (default 6 each) and hashes, decision by decision, the pending
decision (seat, kind, prompt, options with labels), every candidate with the
reason it is refused, the answer to a refused choice, and the events of each
accepted choice. Run it before and after a change to the engine: the same
hash means the same games, options, words and events.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import Engine, load_content  # noqa: E402
from rules.decision import text  # noqa: E402
from rules.simulate import NAMES  # noqa: E402


def fingerprint(games: int) -> str:
    content = load_content()
    digest = hashlib.sha256()
    for players in (2, 3, 4):
        for seed in range(games):
            rng = random.Random(seed)
            engine = Engine.new(content, list(NAMES[:players]), seed=seed)
            while engine.state.phase != "over":
                digest.update(repr(engine.pending).encode())
                cands = engine._candidates().cands
                digest.update(repr([(c.id, text(c.reason)) for c in cands]).encode())
                refused = [c.id for c in cands if c.reason is not None]
                if refused:
                    digest.update(repr(engine.choose(refused[0])).encode())
                digest.update(repr(engine.choose(rng.choice(engine.legal_ids()))).encode())
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="seeded games per player count (default 6)")
    print(fingerprint(parser.parse_args().games))


if __name__ == "__main__":
    main()
