"""Headless play, random or by bots: for tests, benchmarks and `lagoon simulate`.

`simulate` plays many games and summarises them: with random players, with
the heuristic `Bot` in every seat (`bots=True`), or with computer players of
given levels (`levels`, rotated through the seats game by game, so that no
level keeps the advantage or handicap of a seat).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Mapping
from typing import Any, TypedDict

from .bots import LEVELS, Bot, RandomPlayer, SearchPlayer, computer_player
from .cards import Content
from .engine import Engine
from .seat import Witness, seat_scene

NAMES = ("Ana", "Ben", "Cleo", "Dev")

Seated = Bot | SearchPlayer | RandomPlayer
"""A player `seated` makes: each answers its seat's message with an option id (`choose`)."""

RANDOM = "random"
"""A level `level_game` and `simulate` also seat: `RandomPlayer`, any legal option with equal chance."""


class Tally(TypedDict):
    """One level's games in `simulate`."""

    seat_games: int
    wins: float  # a tie for first shared
    scores: list[int]


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
        assert seat is not None, "somebody decides in a game not over"
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


# `hard`: `SearchPlayer`'s keyword options by name, as given on the command line (Any: each its own type)
def seated(content: Content, seat: int, seed: int, level: str, hard: Mapping[str, Any] | None = None) -> Seated:
    """The player of `level` (one of `LEVELS`, or "random") for `seat`; `hard`: the hard player's options."""
    if level == RANDOM:
        return RandomPlayer(content, seat, seed=seed)
    return computer_player(content, seat, seed, level, **((hard or {}) if level == "hard" else {}))


def level_game(
    content: Content,
    seed: int,
    levels: tuple[str, ...],
    hard: Mapping[str, Any] | None = None,
    on_decision: Callable[[int, object, str, float, float], None] | None = None,
) -> tuple[Engine, int]:
    """Play one game with the player of `levels[seat]` in each seat (as many seats as levels),
    each handed its seat's message with no log, and briefed before it on the decisions made since
    its last (`rules.seat.Witness`), as a host briefs its computer players. Deterministic for a
    seed (the hard player's time cap aside). Returns the engine and the number of decisions taken.

    `on_decision(seat, player, kind, cpu, wall)` is told, after each decision, the seconds
    it took its player (process CPU time and wall time), for benchmarks."""
    players = len(levels)
    engine = Engine.new(content, list(NAMES[:players]), seed=seed)
    seats = [seated(content, seat, seed * 7 + seat, level, hard) for seat, level in enumerate(levels)]
    witnesses = [Witness(content, seat) for seat in range(players)]
    decisions = 0
    while engine.state.phase != "over":
        seat = engine.asking().seat
        assert seat is not None, "somebody decides in a game not over"
        witnesses[seat].brief(engine, seats[seat])
        scene = seat_scene(engine, None, seat)
        if on_decision is None:
            choice = seats[seat].choose(scene)
        else:
            cpu, wall = time.process_time(), time.perf_counter()
            choice = seats[seat].choose(scene)
            on_decision(seat, seats[seat], scene.turn.kind, time.process_time() - cpu, time.perf_counter() - wall)
        engine.choose(choice)
        decisions += 1
    return engine, decisions


def rotated(levels: tuple[str, ...], players: int, game: int) -> tuple[str, ...]:
    """The level of each seat in game number `game`: seat i plays `levels[(i + game) % len(levels)]`."""
    return tuple(levels[(seat + game) % len(levels)] for seat in range(players))


def simulate(
    content: Content,
    players: int,
    games: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
    bots: bool = False,
    levels: tuple[str, ...] | None = None,
    hard: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Play `games` games and summarise rounds, end reasons, scores and wins per seat.

    The players are random, or with `bots` the heuristic `Bot` (the normal level) in every
    seat, or with `levels` (names of `LEVELS`, or "random") computer players of those levels:
    in game g, seat i plays `levels[(i + g) % len(levels)]`, so each level takes every seat in
    turn (("hard", "normal", "normal", "normal") at four players: one hard player, in each seat
    once every four games). `hard`: options for the hard player (`rules.bots.SearchPlayer`).
    With `levels`, the report also gives, by level, the seat-games played, wins (a tie for first
    shared), win share per seat-game and mean score."""
    if levels is not None:
        levels = tuple(levels)
        unknown = [level for level in levels if level not in (*LEVELS, RANDOM)]
        if not levels or unknown:
            raise ValueError(
                f"no computer player level {', '.join(unknown) or '(none given)'}: the levels are "
                f"{', '.join((*LEVELS, RANDOM))}"
            )
    rounds: list[int] = []
    decisions: list[int] = []
    scores: list[int] = []
    reasons: dict[str, int] = {}
    wins = [0.0] * players
    by_level = {level: Tally(seat_games=0, wins=0.0, scores=[]) for level in levels or ()}
    for g in range(games):
        game_seed = seed * 1_000_003 + g
        if levels is not None:
            sitting = rotated(levels, players, g)
            engine, n = level_game(content, game_seed, sitting, hard)
        else:
            sitting = ()
            engine, n = (counted_bot_game if bots else random_game)(content, players, game_seed)
        s = engine.state
        rounds.append(s.round)
        decisions.append(n)
        reasons[s.end_reason] = reasons.get(s.end_reason, 0) + 1
        winners = [st.seat for st in s.standings if st.place == 1]
        for seat in winners:
            wins[seat] += 1 / len(winners)
        scores.extend(p.vp for p in s.players)
        for seat, level in enumerate(sitting):
            tally = by_level[level]
            tally["seat_games"] += 1
            tally["wins"] += 1 / len(winners) if seat in winners else 0.0
            tally["scores"].append(s.players[seat].vp)
        if progress is not None:
            progress(g + 1)
    report: dict[str, Any] = {  # (as JSON: `lagoon simulate --json` prints it)
        "players": players,
        "players_are": "levels" if levels is not None else "bots" if bots else "random",
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
    if levels is not None:
        report["levels"] = list(levels)
        report["by_level"] = {
            level: {
                "seat_games": tally["seat_games"],
                "wins": round(tally["wins"], 4),
                "win_share": round(tally["wins"] / tally["seat_games"], 4) if tally["seat_games"] else None,
                "score_mean": round(statistics.fmean(tally["scores"]), 3) if tally["scores"] else None,
            }
            for level, tally in by_level.items()
        }
    return report
