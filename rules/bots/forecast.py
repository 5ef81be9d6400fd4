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

from rules import METALS, Content, Engine, measure, vp_at
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

WEIGHTS: dict[int, dict[int, tuple[float, ...]]] = {
    2: {  # in the order of FEATURES
        1: (1.944, 1.07, 2.325, 0.0, 0.0, 0.0, 6.74, 2.978, 0.0, -1.135, -0.514),
        2: (8.013, 0.494, 0.784, 0.0, 0.0, 0.0, 3.65, 4.19, 2.996, -0.327, 0.37),
        3: (9.294, -0.029, 0.446, -0.582, -0.582, -6.103, 2.302, 4.948, 2.421, 0.548, 0.03),
        4: (8.105, 0.078, 0.324, -1.836, 1.24, 2.137, 2.559, 3.829, 3.071, 1.304, 0.275),
        5: (11.176, 0.467, 0.256, -0.147, -0.245, 2.561, 1.516, 3.062, 1.537, 1.791, 0.51),
        6: (10.309, 0.074, 0.239, 0.046, -0.391, 2.6, 1.722, 2.665, 0.878, 1.918, 0.418),
        7: (9.767, 0.263, 0.284, 0.392, -0.353, 3.138, 1.569, 2.352, 0.376, 1.183, 0.294),
        8: (5.321, 0.327, 0.383, 0.303, -0.22, 3.245, 1.404, 2.196, 0.366, 1.705, 0.312),
        9: (-0.019, 0.46, 0.451, 0.344, -0.164, 3.804, 1.179, 2.127, 0.241, 1.926, 0.315),
        10: (-1.079, 0.254, 0.392, -0.177, -0.003, 3.428, 0.659, 2.298, 0.052, 2.343, 0.709),
        11: (-4.639, 0.136, 0.534, 0.323, -0.134, 3.606, 1.397, 1.272, 0.121, 2.443, 0.671),
        12: (-3.517, 0.083, 0.357, 0.6, -0.271, 3.453, 1.209, 1.145, -0.129, 1.84, 0.731),
    },
    3: {  # in the order of FEATURES
        1: (1.57, 1.478, 2.382, 0.0, 0.0, 0.0, 5.924, 1.925, 0.0, -0.762, -0.476),
        2: (13.118, 0.473, 0.373, 0.0, 0.0, 0.0, 2.205, 3.96, 1.76, -0.831, 0.238),
        3: (18.019, 0.328, 0.359, -0.281, -0.281, -2.593, 1.606, 2.609, 1.234, -1.265, 0.135),
        4: (15.092, 0.528, 0.344, -0.924, 0.126, 1.989, 2.449, 2.123, 1.004, -0.449, 0.368),
        5: (13.091, 0.519, 0.224, -0.635, 0.179, 1.427, 2.134, 2.304, 0.989, 0.153, 0.075),
        6: (13.21, 0.528, 0.132, -0.321, -0.026, 2.403, 1.457, 1.649, 0.911, 0.838, 0.447),
        7: (9.716, 0.154, 0.17, 0.358, -0.276, 2.379, 1.998, 1.801, 0.975, 0.593, 0.413),
        8: (5.743, 0.297, 0.224, 0.286, -0.202, 2.553, 1.757, 1.689, 0.815, 1.362, 0.491),
        9: (5.008, 0.169, 0.2, 0.403, -0.089, 3.137, 1.685, 0.99, 0.706, 1.01, 0.339),
        10: (3.299, 0.34, 0.284, 0.63, -0.16, 3.198, 1.22, 0.709, 0.383, 1.339, 0.536),
        11: (2.022, 0.269, 0.337, 0.906, -0.359, 2.843, 0.75, 0.724, -0.139, 1.601, 0.616),
        12: (3.437, 0.224, 0.223, 0.391, -0.198, 2.457, 0.297, 0.501, -0.528, 1.378, 0.729),
        13: (4.065, 0.051, 0.285, 0.531, -0.18, 2.875, -0.262, 0.513, -0.2, 1.478, 0.669),
    },
    4: {  # in the order of FEATURES
        1: (1.714, 1.004, 1.235, 0.0, 0.0, 0.0, 6.262, 2.307, 0.0, 1.917, 0.315),
        2: (4.868, 0.155, 0.209, 0.0, 0.0, 0.0, 4.27, 4.601, 2.859, 0.883, 0.394),
        3: (11.774, 0.07, 0.399, -0.112, -0.112, -0.672, 3.103, 2.557, 1.382, 0.282, 0.349),
        4: (12.873, 0.014, 0.323, -1.108, 0.543, 2.578, 2.994, 1.794, 1.065, 0.233, 0.661),
        5: (6.109, 0.11, 0.354, -0.294, 0.305, 0.429, 3.295, 2.255, 1.746, 0.751, 0.647),
        6: (1.828, 0.373, 0.471, 0.35, -0.035, 1.944, 2.922, 2.367, 1.639, 1.34, 0.39),
        7: (0.713, 0.446, 0.555, 0.583, -0.111, 2.022, 2.922, 2.026, 1.223, 1.5, 0.26),
        8: (-0.223, 0.22, 0.576, 0.798, -0.219, 2.097, 2.534, 1.839, 1.201, 1.339, 0.357),
        9: (0.949, 0.084, 0.485, 0.851, -0.306, 1.953, 2.169, 1.639, 0.668, 1.077, 0.353),
        10: (0.803, 0.103, 0.475, 0.868, -0.172, 2.173, 1.626, 1.27, 0.379, 1.203, 0.477),
        11: (-0.703, 0.159, 0.423, 0.538, -0.085, 1.812, 1.537, 1.065, -0.245, 1.431, 0.475),
        12: (-0.497, 0.111, 0.3, 0.552, -0.108, 2.499, 1.088, 0.909, -0.451, 1.343, 0.523),
        13: (-1.559, 0.153, 0.362, 0.468, -0.082, 2.896, 0.827, 0.788, -0.104, 1.304, 0.565),
        14: (0.506, 0.112, 0.265, 0.036, 0.066, 2.756, 0.434, 0.497, -0.05, 0.658, 0.567),
        15: (0.044, 0.102, 0.187, 0.098, 0.034, 2.653, 0.237, 0.475, 0.016, 0.392, 0.677),
    },
}
"""The forecast's weights, one per feature, by player count and the round about to begin (fitted by
`fit(content, 120)`: see the module's docstring; a later round than the table's takes its last)."""


def features(s, seat: int) -> tuple[float, ...]:
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


def objective_vp(s, seat: int) -> float:
    """The VP the player's objectives would pay if the game ended now."""
    total = 0.0
    for objective_id in s.players[seat].objectives:
        objective = s.content.objectives[objective_id]
        best = max(measure(s, other.seat, objective) for other in s.players)
        total += vp_at(objective, measure(s, seat, objective), best)
    return total


def forecast(s, seat: int) -> float:
    """The VP the player may expect at the end of the game: what it has, and what is still to come."""
    p = s.players[seat]
    if s.phase == "over":
        return float(p.vp)
    table = WEIGHTS[len(s.players)]
    weights = table[min(max(s.round, min(table)), max(table))]
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
        engine.choose(bots[seat].choose(seat_scene(engine, None, seat)))
    final = [p.vp for p in engine.state.players]
    return [(r, x, final[seat] - vp) for r, seat, x, vp in taken]


def fit(content: Content, games: int, ridge: float = 1.0, least: int = 150) -> dict[int, dict[int, tuple]]:
    """Least-squares weights by player count and round, from `games` bot games of each player
    count; a round with fewer than `least` samples (one few games reach) gets none."""
    table: dict[int, dict[int, tuple[float, ...]]] = {}
    for players in range(content.board.players_min, content.board.players_max + 1):
        by_round: dict[int, list[tuple[tuple[float, ...], float]]] = {}
        for game in range(games):
            for r, x, y in samples(content, players, 10_000 * players + game):
                by_round.setdefault(r, []).append((x, y))
        table[players] = {r: solve(rows, ridge) for r, rows in sorted(by_round.items()) if len(rows) >= least}
    return table


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

    fitted = fit(load_content(), int(sys.argv[1]) if len(sys.argv) > 1 else 100)
    print("WEIGHTS = {")
    for players, table in fitted.items():
        print("    " + str(players) + ": {  # in the order of FEATURES")
        for r, w in table.items():
            print("        " + str(r) + ": (" + ", ".join(repr(v) for v in w) + "),")
        print("    },")
    print("}")
