"""What a player will still score: a forecast of the VP to come, from what it holds as a round begins.

The search player (`search.py`) plays its options out for a round or two,
not to the end of the game: the further a game is played, the more its end
hangs on luck (the next tiles and deals) and the less on the option tried.
Where it stops, each player is scored by the VP it has plus the VP it can
still expect: a linear sum of what it holds (money, cubes, artifacts,
workers, equipment, deals, and the VP its objectives would pay now), with
weights that depend on the round about to begin.

The weights were fitted by least squares to games between heuristic bots
(the players the rollouts use): `python -m rules.bots.forecast [GAMES]`
plays them and prints the table below. Refit it when the content or the bot
changes much.
"""

from __future__ import annotations

import sys

from rules import METALS, Content, Engine, GameState, measure, vp_at
from rules.seat import seat_scene

from .heuristic import Bot

FEATURES = (
    "constant",
    "money",
    "raw cubes",
    "enriched cubes",
    "enriched levels",
    "artifacts",
    "merchants",
    "miners",
    "equipment",
    "deals in hand",
    "objective VP now",
)

WEIGHTS: dict[int, tuple[float, ...]] = {
    # in the order of FEATURES
    1: (1.559, 1.456, 1.96, 0.0, 0.0, 0.0, 6.482, 1.314, 0.0, 0.827, 0.091),
    2: (5.443, 0.329, 0.089, 0.0, 0.0, 0.0, 4.054, 4.917, 3.413, 0.13, 0.388),
    3: (8.438, 0.183, 0.373, -0.214, -0.214, -4.687, 3.068, 3.92, 2.662, -0.122, 0.184),
    4: (5.142, 0.284, 0.409, -1.066, 0.489, 2.63, 3.312, 3.447, 2.824, 0.816, 0.635),
    5: (2.556, 0.467, 0.422, -0.187, 0.112, 2.043, 2.869, 3.454, 2.447, 1.26, 0.477),
    6: (4.581, 0.444, 0.355, 0.265, -0.212, 2.98, 2.014, 2.814, 1.971, 1.312, 0.523),
    7: (4.358, 0.377, 0.355, 0.523, -0.228, 2.945, 1.844, 2.6, 1.476, 1.227, 0.485),
    8: (1.179, 0.242, 0.462, 0.57, -0.241, 2.836, 1.816, 2.369, 1.212, 1.454, 0.51),
    9: (1.137, 0.21, 0.37, 0.575, -0.222, 3.033, 1.533, 1.934, 0.801, 1.391, 0.435),
    10: (1.021, 0.218, 0.374, 0.572, -0.177, 3.039, 1.088, 1.648, 0.405, 1.467, 0.554),
    11: (-0.967, 0.193, 0.381, 0.264, -0.084, 2.725, 1.065, 1.284, -0.158, 1.863, 0.599),
    12: (-0.724, 0.171, 0.324, 0.367, -0.129, 2.626, 0.817, 0.957, -0.439, 1.436, 0.672),
    13: (0.091, 0.111, 0.357, 0.341, -0.1, 2.922, 0.157, 0.981, -0.094, 1.463, 0.699),
    14: (-0.582, 0.082, 0.277, 0.404, -0.123, 2.542, 0.614, 0.744, -0.24, 0.725, 0.667),
    15: (-1.084, 0.089, 0.122, 0.189, -0.022, 2.793, 0.408, 0.678, -0.192, 0.599, 0.733),
}
"""The forecast's weights, one per feature, by the round about to begin (fitted: see the module's docstring)."""


def features(s: GameState, seat: int) -> tuple[float, ...]:
    """What one player holds, as the forecast reads it (in the order of FEATURES)."""
    p = s.players[seat]
    enriched = [level for metal in METALS for level in p.enriched[metal]]
    return (
        1.0,
        p.money,
        sum(p.raw.values()),
        len(enriched),
        sum(enriched),
        sum(p.artifacts.values()),
        p.merchants,
        p.miners,
        len(p.equipment),
        len(p.deals),
        objective_vp(s, seat),
    )


def objective_vp(s: GameState, seat: int) -> float:
    """The VP the player's objectives would pay if the game ended now."""
    total = 0.0
    for objective_id in s.players[seat].objectives:
        objective = s.content.objectives[objective_id]
        best = max(measure(s, other.seat, objective) for other in s.players)
        total += vp_at(objective, measure(s, seat, objective), best)
    return total


def forecast(s: GameState, seat: int) -> float:
    """The VP the player may expect at the end of the game: what it has, and what is still to come."""
    p = s.players[seat]
    if s.phase == "over":
        return float(p.vp)
    weights = WEIGHTS[min(max(s.round, min(WEIGHTS)), max(WEIGHTS))]
    return p.vp + sum(w * x for w, x in zip(weights, features(s, seat)))


# --- fitting ------------------------------------------------------------------------------


def samples(content: Content, players: int, seed: int) -> list[tuple[int, tuple[float, ...], float]]:
    """(round, features, VP still to come) of each player as each round of a bot game begins."""
    engine = Engine.new(content, [f"P{n}" for n in range(players)], seed=seed)
    bots = [Bot(content, seat, seed=seed * 7 + seat) for seat in range(players)]
    taken: list[tuple[int, int, tuple[float, ...], int]] = []
    seen_round = 0
    while engine.state.phase != "over":
        s = engine.state
        if s.round != seen_round and s.phase == "island_selection":
            seen_round = s.round
            taken += [(s.round, seat, features(s, seat), s.players[seat].vp) for seat in range(players)]
        seat = engine.asking().seat
        engine.choose(bots[seat].choose(seat_scene(engine, None, seat)))  # type: ignore[index]  # (not over: a seat decides)
    final = [p.vp for p in engine.state.players]
    return [(r, x, final[seat] - vp) for r, seat, x, vp in taken]


def fit(content: Content, games: int, ridge: float = 1.0) -> dict[int, tuple[float, ...]]:
    """Least-squares weights by round, from `games` bot games of each player count."""
    by_round: dict[int, list[tuple[tuple[float, ...], float]]] = {}
    for players in range(content.board.players_min, content.board.players_max + 1):
        for game in range(games):
            for r, x, y in samples(content, players, 10_000 * players + game):
                by_round.setdefault(r, []).append((x, y))
    return {r: solve(rows, ridge) for r, rows in sorted(by_round.items())}


def solve(rows: list[tuple[tuple[float, ...], float]], ridge: float) -> tuple[float, ...]:
    """The weights w minimising the squared error of w·x against y, plus `ridge` times |w|²."""
    n = len(rows[0][0])
    a = [[ridge * (i == j) for j in range(n)] for i in range(n)]
    b = [0.0] * n
    for x, y in rows:
        for i in range(n):
            b[i] += x[i] * y
            for j in range(n):
                a[i][j] += x[i] * x[j]
    for col in range(n):  # Gaussian elimination with partial pivoting
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot], b[col], b[pivot] = a[pivot], a[col], b[pivot], b[col]
        for r in range(col + 1, n):
            f = a[r][col] / a[col][col]
            for c in range(col, n):
                a[r][c] -= f * a[col][c]
            b[r] -= f * b[col]
    w = [0.0] * n
    for r in range(n - 1, -1, -1):
        w[r] = (b[r] - sum(a[r][c] * w[c] for c in range(r + 1, n))) / a[r][r]
    return tuple(round(v, 3) for v in w)


if __name__ == "__main__":
    from rules import load_content

    table = fit(load_content(), int(sys.argv[1]) if len(sys.argv) > 1 else 100)
    print("WEIGHTS = {")
    print("    # in the order of FEATURES")
    for r, w in table.items():
        print("    " + str(r) + ": (" + ", ".join(repr(v) for v in w) + "),")
    print("}")
