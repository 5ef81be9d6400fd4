"""Headless play, random or by bots: for tests, benchmarks and `lagoon simulate`."""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable

from .bots import Bot
from .cards import Content
from .engine import Engine
from .seat import seat_scene

NAMES = ("Ana", "Ben", "Cleo", "Dev")


def random_game(
    content: Content, players: int, seed: int, on_choice: Callable[[Engine], None] | None = None
) -> tuple[Engine, int]:
    """Play one game to the end choosing uniformly among legal options.

    Returns the engine and the number of decisions taken. `on_choice` is called
    after every choice (tests check invariants there).
    """
    rng = random.Random(seed)
    bits = rng.getrandbits
    engine = Engine.new(content, list(NAMES[:players]), seed=seed)
    decisions = 0
    while engine.state.phase != "over":
        ids = engine.legal_ids()
        # rng.choice(ids), as CPython draws it (tests/test_random_play.py checks), without its two calls
        n = len(ids)
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        engine.choose(ids[r])
        decisions += 1
        if on_choice is not None:
            on_choice(engine)
    return engine, decisions


def bot_game(
    content: Content,
    players: int,
    seed: int,
    random_seats: tuple[int, ...] = (),
    on_choice: Callable[[Engine], None] | None = None,
    corporations: str = "best",
) -> Engine:
    """Play one game with a `Bot` in every seat, except `random_seats`, which choose
    uniformly among legal options. Deterministic for a seed. A bot is handed its
    seat's message with no log (`seat_scene(engine, None, seat)`), as any client
    of a host would be."""
    engine = Engine.new(content, list(NAMES[:players]), seed=seed)
    rng = random.Random(seed)
    bots = {
        seat: Bot(content, seat, seed=seed * 7 + seat, corporations=corporations)
        for seat in range(players)
        if seat not in random_seats
    }
    while engine.state.phase != "over":
        seat = engine.asking().seat
        bot = bots.get(seat)
        if bot is not None:
            engine.choose(bot.choose(seat_scene(engine, None, seat)))
        else:
            ids = engine.legal_ids()
            engine.choose(ids[rng.randrange(len(ids))])
        if on_choice is not None:
            on_choice(engine)
    return engine


def counted_bot_game(content: Content, players: int, seed: int) -> tuple[Engine, int]:
    """`bot_game` with every seat a bot, and the number of decisions it took."""
    count = [0]
    engine = bot_game(content, players, seed, on_choice=lambda _: count.__setitem__(0, count[0] + 1))
    return engine, count[0]


def simulate(
    content: Content,
    players: int,
    games: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
    bots: bool = False,
) -> dict:
    """Play `games` games (random legal players, or bots with `bots`); summarise rounds,
    end reasons, scores and wins per seat."""
    play = counted_bot_game if bots else random_game
    rounds, decisions, scores = [], [], []
    reasons: dict[str, int] = {}
    wins = [0.0] * players
    for g in range(games):
        engine, n = play(content, players, seed * 1_000_003 + g)
        s = engine.state
        rounds.append(s.round)
        decisions.append(n)
        reasons[s.end_reason] = reasons.get(s.end_reason, 0) + 1
        winners = [st.seat for st in s.standings if st.place == 1]
        for seat in winners:
            wins[seat] += 1 / len(winners)
        scores.extend(p.vp for p in s.players)
        if progress is not None:
            progress(g + 1)
    return {
        "players": players,
        "players_are": "bots" if bots else "random",
        "games": games,
        "seed": seed,
        "mean_rounds": round(statistics.fmean(rounds), 3),
        "end_reasons": dict(sorted(reasons.items())),
        "score_mean": round(statistics.fmean(scores), 3),
        "score_stdev": round(statistics.pstdev(scores), 3),
        "score_min": min(scores),
        "score_max": max(scores),
        "win_share": [round(w / games, 4) for w in wins],
        "mean_decisions": round(statistics.fmean(decisions), 1),
    }
