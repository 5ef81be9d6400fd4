"""The computer player levels (rules/bots/levels.py): easy, normal and hard.

- The hard player (`SearchPlayer`) deals its worlds from its seat's message
  alone: a twin game with every card it was never shown dealt anew
  (tests/helpers/redeal.py) gets the same choice and the same searched scores; each
  world it deals agrees with the seat's view, uses each card once and only
  cards the seat has not seen.
- Every level is deterministic for a seed, plays whole games with legal
  choices, and the hard player falls back to the normal move when its time
  cap is reached before it has played enough.
- `simulate` seats levels in turn and reports by level and by seat.

Strength is measured by bench/bot_strength.py, not here (docs/performance.md,
"Computer players"); the slow tests only check that the levels are in order.
The hard player's time cap is made huge in these tests, so its rollout budget
alone decides what it plays, whatever the machine's speed.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter

import pytest

from rules import Engine, Rejection, load_content, state_to_json, view
from rules.bots import LEVELS, Bot, RandomPlayer, computer_player
from rules.bots.search import SEARCHED, SearchPlayer
from rules.bots.worlds import Worlds
from rules.seat import SeatScene, Witness, seat_scene
from rules.simulate import NAMES, level_game, rotated, simulate
from tests.helpers.invariants import final_replay_matches
from tests.helpers.redeal import redealt

CONTENT = load_content()
NO_CAP = 1e9  # seconds: the budget decides, never the clock
SMALL = dict(rollouts=4, candidates=2, min_worlds=2, time_cap=NO_CAP)


def message(engine: Engine, seat: int) -> SeatScene:
    return seat_scene(engine, None, seat)


def normal_game_positions(players: int, seed: int, kinds=SEARCHED, from_round: int = 0):
    """The engine of a game between normal bots at each decision of `kinds` (from `from_round` on)."""
    engine = Engine.new(CONTENT, list(NAMES[:players]), seed=seed)
    bots = [Bot(CONTENT, seat, seed=seat) for seat in range(players)]
    while engine.state.phase != "over":
        ask = engine.asking()
        if ask.kind in kinds and engine.state.round >= from_round:
            yield engine
        engine.choose(bots[ask.seat].choose(message(engine, ask.seat)))


# --- no peeking --------------------------------------------------------------------------


def hidden(engine: Engine, seat: int) -> tuple:
    """Some of what `seat` cannot see: the decks' orders and the other players' hands."""
    s = engine.state
    others = [(p.deals, p.objectives) for p in s.players if p.seat != seat]
    return s.objective_deck, s.equipment_deck, s.deal_deck, s.gallery_deck, others


@pytest.mark.parametrize("players, seed", [(2, 3), (3, 4)])
def test_the_hard_player_chooses_the_same_in_a_twin_dealt_anew(players, seed):
    """Everything the seat was never shown (other hands, deck orders, face-down tiles others
    placed) is dealt anew, through the whole game: the hard player, briefed on every decision
    so far as its host would brief it, reads the others alike, and its worlds, scores and choice
    are the same."""
    rng = random.Random(seed)
    compared = Counter()
    for n, engine in enumerate(normal_game_positions(players, seed, from_round=8)):
        if n % 5 or sum(compared.values()) >= 4:
            continue
        seat = engine.asking().seat
        twin = redealt(engine, seat, rng)
        assert hidden(twin, seat) != hidden(engine, seat)  # (another game: the check means something)
        assert message(twin, seat) == message(engine, seat)
        here, there = SearchPlayer(CONTENT, seat, seed=11, **SMALL), SearchPlayer(CONTENT, seat, seed=11, **SMALL)
        Witness(CONTENT, seat).brief(engine, here)
        Witness(CONTENT, seat).brief(twin, there)
        assert here.choose(message(engine, seat)) == there.choose(message(twin, seat))
        assert here.reading.guesses == there.reading.guesses
        if here.last is not None:
            assert here.last == there.last and here.last.rollouts > 0
            compared[engine.asking().kind] += 1
    assert compared["choose_action"] >= 2 and sum(compared.values()) >= 3, compared
    assert len(here.reading.guesses) == players - 1 and here.reading.read > 20  # (it read the others)


def test_a_world_agrees_with_the_seat_s_view_and_deals_each_unseen_card_once():
    for engine in normal_game_positions(3, 9, kinds=("choose_action",), from_round=4):
        break
    seat = engine.asking().seat
    seen = message(engine, seat).view
    worlds = Worlds(CONTENT, seat)
    worlds.observe(seen)
    for world in dealt_worlds(worlds, seen, seat):
        assert world.given == {}
    assert worlds.deal(seen, random.Random(1)) != worlds.deal(seen, random.Random(2))


def test_a_world_dealt_from_a_reading_gives_the_others_hands_it_reads_and_still_agrees():
    """The others' objectives and deals come from the hard player's reading of them (a guess at
    each one's hand), with no card twice and nothing the seat has seen."""
    for engine in normal_game_positions(4, 9, kinds=("choose_action",), from_round=6):
        break
    seat = engine.asking().seat
    player = SearchPlayer(CONTENT, seat, seed=3, **SMALL)
    Witness(CONTENT, seat).brief(engine, player)
    seen = message(engine, seat).view
    player.recall(seen, message(engine, seat).turn)
    player.reading.catch_up(seen)
    guesses = player.reading.guesses
    assert sorted(guesses) == [n for n in range(4) if n != seat]
    read = Counter()
    for world in dealt_worlds(player.worlds, seen, seat, player.reading):
        assert sorted(world.given) == sorted(guesses)
        for other, hand in world.given.items():
            assert len(hand["objectives"]) == 2 and len(hand["deals"]) == len(seen["players"][other]["deals"])
            read[
                any(g.objectives == hand["objectives"] and tuple(g.deals) == hand["deals"] for g in guesses[other])
            ] += 1
    assert read[True] >= 14, read  # (unless none fits what the others were dealt)


def test_the_hard_player_reads_the_others_hands_from_what_they_do():
    """Against normal players, the hard player's reading of the others comes to weigh the
    objectives each really kept above what it could tell at setup, and its guesses at their deals
    hold the deals each really holds far more often than a hand dealt at random would."""
    seat, rounds = 0, set()
    player = SearchPlayer(CONTENT, seat, seed=5, **SMALL)
    witness = Witness(CONTENT, seat)
    objectives, deals, by_chance = {}, [], []
    for engine in normal_game_positions(4, 17, kinds=("choose_island",), from_round=1):
        witness.brief(engine, player)
        seen = message(engine, seat).view
        player.reading.catch_up(seen)
        if len(player.reading.guesses) < 3:
            continue  # (a keeping of objectives is read once the next player's turn shows it done)
        for other in (1, 2, 3):
            true = engine.state.players[other]
            shares = player.reading.shares(other)
            held = sum(share * len(set(g.objectives) & set(true.objectives)) for g, share in shares) / 2
            objectives.setdefault(other, []).append(held)
            if true.deals:
                deals.append(sum(share * len(set(g.deals) & set(true.deals)) for g, share in shares) / len(true.deals))
                by_chance.append(1 / len(player.worlds.unseen(seen)["deals"]))
        rounds.add(engine.state.round)
        if engine.state.round >= 12:
            break
    assert len(rounds) >= 12
    at_setup, late = [share[0] for share in objectives.values()], [share[-1] for share in objectives.values()]
    assert statistics.fmean(late) > 1.5 * statistics.fmean(at_setup)
    assert statistics.fmean(deals) > 3 * statistics.fmean(by_chance)


def dealt_worlds(worlds: Worlds, seen: dict, seat: int, reading=None):
    """Five worlds dealt from `seen`, each checked: its state shows the seat its view, and every card
    dealt into it is one the seat has not seen, once in the whole game."""
    unseen = worlds.unseen(seen)
    every = {kind: set(cards) for kind, cards in worlds.every.items()}
    rng = random.Random(1)
    for _ in range(5):
        world = worlds.deal(seen, rng, reading)
        s = worlds.state(seen, world)
        assert view(s, seat) == seen
        words: Counter = Counter()
        _count_strings(state_to_json(s), words)
        given = [(kind, cards) for hand in world.given.values() for kind, cards in hand.items()]
        for kind, cards in [*world.cards.items(), *given]:
            assert set(cards) <= set(unseen[kind])
            assert all(words[card] == 1 for card in cards)
            assert all(words[card] <= 1 for card in every[kind])  # no card twice in the game
        yield world


def _count_strings(value, into: Counter) -> None:
    if isinstance(value, str):
        into[value] += 1
    elif isinstance(value, dict):
        for v in value.values():
            _count_strings(v, into)
    elif isinstance(value, list | tuple):
        for v in value:
            _count_strings(v, into)


# --- deterministic, legal, to the end ---------------------------------------------------------


def play(levels: tuple[str, ...], seed: int, hard: dict | None = None, engine: Engine | None = None) -> Engine:
    """A game (or the rest of `engine`'s) between these levels, each player briefed before it
    decides as a host briefs it, and every choice checked to be offered."""
    if engine is None:
        engine = Engine.new(CONTENT, list(NAMES[: len(levels)]), seed=seed)
    seats = [
        computer_player(CONTENT, seat, seed + seat, level, **((hard or {}) if level == "hard" else {}))
        for seat, level in enumerate(levels)
    ]
    witnesses = [Witness(CONTENT, seat) for seat in range(len(levels))]
    while engine.state.phase != "over":
        seat = engine.asking().seat
        witnesses[seat].brief(engine, seats[seat])
        scene = message(engine, seat)
        choice = seats[seat].choose(scene)
        assert choice in [option.id for option in scene.prompt.options]
        assert not isinstance(engine.choose(choice), Rejection)
    return engine


@pytest.mark.parametrize("levels", [("easy", "normal"), ("normal", "easy", "easy", "normal")])
def test_easy_and_normal_play_whole_games_the_same_for_a_seed(levels):
    first = play(levels, seed=5)
    final_replay_matches(first)
    assert first.state.end_reason in ("vp_goal", "last_round")
    assert play(levels, seed=5).events == first.events
    assert play(levels, seed=6).events != first.events


def test_the_easy_player_misjudges_now_and_then():
    """Its noise changes some choices from the normal player's, not all of them."""
    same = differ = 0
    for engine in normal_game_positions(2, 12, kinds=("choose_action", "choose_island")):
        seat = engine.asking().seat
        scene = message(engine, seat)
        easy = computer_player(CONTENT, seat, len(engine.events), "easy").choose(scene)
        normal = computer_player(CONTENT, seat, len(engine.events), "normal").choose(scene)
        same, differ = same + (easy == normal), differ + (easy != normal)
    assert differ >= 5 and same >= 2 * differ, (same, differ)


def test_the_hard_player_plays_out_a_game_legally_and_the_same_for_a_seed():
    """From round 10 of a game on, the hard player (a small budget) against the normal one."""
    positions = normal_game_positions(2, 21, kinds=("choose_island",), from_round=10)
    start = next(positions).events[:]
    first = play(("hard", "normal"), seed=3, hard=SMALL, engine=Engine(CONTENT, start))
    final_replay_matches(first)
    assert first.state.phase == "over"
    assert play(("hard", "normal"), seed=3, hard=SMALL, engine=Engine(CONTENT, start)).events == first.events


def test_the_hard_player_searches_its_decisions_and_follows_its_plan_in_the_steps():
    searched = Counter()
    for position in normal_game_positions(2, 8, kinds=("choose_action",), from_round=8):
        engine = Engine(CONTENT, position.events[:])  # (a copy to play on: the game goes on without it)
        seat = engine.asking().seat
        player = SearchPlayer(CONTENT, seat, seed=2, **SMALL)
        choice = player.choose(message(engine, seat))
        if player.last is None:
            continue
        searched[player.last.kind] += 1
        assert set(player.last.means) >= {choice}
        assert player.last.worlds == 2 and not player.last.fell_back
        # the steps of the action chosen are the plan's: the normal bot given the same plan agrees
        engine.choose(choice)
        while engine.asking().seat == seat and engine.asking().kind not in SEARCHED and player.bot.plan:
            follower = Bot(CONTENT, seat)
            follower.plan, follower.started = list(player.bot.plan), player.bot.started
            scene = message(engine, seat)
            step = player.choose(scene)
            assert step == follower.choose(scene)
            engine.choose(step)
        if searched["choose_action"] >= 3:
            break
    assert searched["choose_action"] >= 3


@pytest.mark.parametrize("players, more", [(2, 0), (3, 1), (4, 1)])
def test_the_hard_player_plays_out_one_round_more_at_three_and_four_players(players, more):
    """Its play-outs stop at the start of a round: the next one at two players, the one after it
    at three and four (`HORIZON`), unless it is told otherwise."""
    ended: list[int] = []

    class Watched(SearchPlayer):
        def score(self, state):
            ended.append(state.round)
            return super().score(state)

    for engine in normal_game_positions(players, 5, kinds=("choose_action",), from_round=3):
        seat = engine.asking().seat
        player = Watched(CONTENT, seat, seed=1, **SMALL)
        player.choose(message(engine, seat))
        if player.last is None:
            continue
        assert set(ended) == {engine.state.round + 1 + more}
        ended.clear()
        Watched(CONTENT, seat, seed=1, horizon=2, **SMALL).choose(message(engine, seat))
        assert set(ended) == {engine.state.round + 3}
        return
    pytest.fail("no searched decision found")


def test_the_hard_player_takes_the_normal_move_when_out_of_time():
    for engine in normal_game_positions(2, 5, kinds=("choose_action",), from_round=3):
        seat = engine.asking().seat
        scene = message(engine, seat)
        hurried = SearchPlayer(CONTENT, seat, seed=1, rollouts=8, time_cap=-1.0)
        choice = hurried.choose(scene)
        if hurried.last is None:
            continue
        assert hurried.last.fell_back and hurried.last.rollouts == 0
        assert choice == Bot(CONTENT, seat, seed=1).choose(scene)
        return
    pytest.fail("no searched decision found")


def test_computer_player_levels():
    assert LEVELS == ("easy", "normal", "hard")
    assert isinstance(computer_player(CONTENT, 0, 1, "hard", rollouts=5), SearchPlayer)
    assert computer_player(CONTENT, 0, 1, "hard", rollouts=5).rollouts == 5
    assert computer_player(CONTENT, 1, 1, "easy").noise > 0
    assert computer_player(CONTENT, 1, 1).noise == 0 and computer_player(CONTENT, 1, 1, "easy", noise=3).noise == 3
    with pytest.raises(ValueError, match=r"the levels are easy, normal, hard"):
        computer_player(CONTENT, 0, 1, "expert")


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_the_hard_player_plays_whole_games(players):
    """Whole games from the setup on, with a tiny budget: legal, to the end, the same twice."""
    tiny = dict(rollouts=2, candidates=1, min_worlds=1, time_cap=NO_CAP)
    levels = ("hard",) + ("normal",) * (players - 1)
    first = play(levels, seed=40 + players, hard=tiny)
    final_replay_matches(first)
    assert first.state.end_reason in ("vp_goal", "last_round")
    assert play(levels, seed=40 + players, hard=tiny).events == first.events


@pytest.mark.slow
def test_the_levels_are_in_order_of_strength():
    """Seat-swapped: easy beats random nearly always, normal beats easy more often than not."""

    def a_wins(a: str, b: str, deals: int) -> float:
        won = 0.0
        for deal in range(deals):
            for a_seat in (0, 1):
                levels = (a, b) if a_seat == 0 else (b, a)
                s = level_game(CONTENT, 900 + deal, levels)[0].state
                winners = [st.seat for st in s.standings if st.place == 1]
                won += 1 / len(winners) if a_seat in winners else 0.0
        return won / (2 * deals)

    assert a_wins("easy", "random", 10) >= 0.95
    assert a_wins("normal", "easy", 20) > 0.55


# --- simulate ----------------------------------------------------------------------------------


def test_simulate_seats_the_levels_in_turn_and_reports_by_level():
    assert rotated(("hard", "normal"), 4, 0) == ("hard", "normal", "hard", "normal")
    assert rotated(("easy", "normal", "normal"), 3, 1) == ("normal", "normal", "easy")
    report = simulate(CONTENT, 2, 4, seed=2, levels=("easy", "random"))
    assert report["players_are"] == "levels" and report["levels"] == ["easy", "random"]
    by = report["by_level"]
    assert by["easy"]["seat_games"] == by["random"]["seat_games"] == 4
    assert by["easy"]["wins"] + by["random"]["wins"] == pytest.approx(4)
    assert by["easy"]["win_share"] >= 0.75 and by["easy"]["score_mean"] > by["random"]["score_mean"]
    assert sum(report["win_share"]) == pytest.approx(1)
    assert simulate(CONTENT, 2, 4, seed=2, levels=("easy", "random")) == report
    normal = simulate(CONTENT, 2, 2, seed=3, bots=True)
    assert normal["players_are"] == "bots" and "by_level" not in normal
    assert simulate(CONTENT, 2, 2, seed=3, levels=("normal",))["score_mean"] == normal["score_mean"]
    with pytest.raises(ValueError, match="no computer player level expert"):
        simulate(CONTENT, 2, 1, seed=1, levels=("expert",))


def test_the_random_player_answers_its_own_seat_only():
    engine = Engine.new(CONTENT, ["A", "B"], seed=1)
    seat = engine.asking().seat
    assert RandomPlayer(CONTENT, seat, 1).choose(message(engine, seat)) in engine.legal_ids()
    with pytest.raises(ValueError, match="is not deciding"):
        RandomPlayer(CONTENT, 1 - seat, 1).choose(message(engine, 1 - seat))
