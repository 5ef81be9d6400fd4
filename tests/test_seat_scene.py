"""The seat message (rules.seat): what a seat may know, whole, and nothing more.

- Privacy by construction: a twin game in which everything a seat was never
  shown is dealt anew (tests/helpers/redeal.py) gives that seat the same message,
  byte for byte, at any point of random games (a Hypothesis property).
- Only the seat that decides gets the decision's options; the others are told
  who decides and what kind of decision, in public words.
- A message reads back from JSON equal to itself, for every kind of decision.
- Once the game is over, every message carries the same final ranking (`results`); before, none.
- The facts it gives are the engine's: each space's merchant cost is what the
  option to take it costs, what a seat can pay for is what the engine lets it buy.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Engine, load_content
from rules.actions import ACTIVITIES
from rules.actions.base import Probe
from rules.decision import OPEN_KINDS
from rules.seat import (
    FORMAT,
    Chronicle,
    SeatScene,
    catalogue_from_json,
    catalogue_to_json,
    from_json,
    replay_scene,
    seat_scene,
    to_json,
)
from tests.helpers.redeal import redealt, shown_to

CONTENT = load_content()
NAMES = ["Ana", "Ben", "Cy", "Di"]


def played(seed: int, players: int, moves: int) -> Engine:
    """A game of random legal moves, `moves` of them or to its end."""
    rng = random.Random(seed)
    engine = Engine.new(CONTENT, NAMES[:players], seed=seed)
    for _ in range(moves):
        if engine.pending.kind == "game_over":
            break
        engine.choose(rng.choice(engine.legal_ids()))
    return engine


def message(engine: Engine, seat: int | None) -> str:
    return to_json(seat_scene(engine, Chronicle(engine), seat))


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 4),
    moves=st.integers(0, 300),
    watcher=st.integers(-1, 3),
    deal=st.integers(0, 10**6),
)
def test_a_seat_cannot_tell_its_game_from_one_dealt_anew_where_it_cannot_see(seed, players, moves, watcher, deal):
    engine = played(seed, players, moves)
    seat = None if watcher < 0 else watcher % players
    if engine.state.phase == "over":  # (everything is shown at the end)
        return
    twin = redealt(engine, seat, random.Random(deal))
    assert twin.events != engine.events or moves == 0  # (something was dealt otherwise)
    assert message(twin, seat) == message(engine, seat)


def test_the_twin_deals_otherwise_what_the_seat_was_never_shown():
    """The re-deal is not empty: the other players' hands and the decks are others in the twin."""
    engine = played(5, 3, 150)
    twin = redealt(engine, 0, random.Random(1))
    them, us = engine.state, twin.state
    assert [p.deals for p in them.players[1:]] != [p.deals for p in us.players[1:]] or them.deal_deck != us.deal_deck
    assert [p.objectives for p in them.players[1:]] != [p.objectives for p in us.players[1:]]
    assert them.equipment_deck != us.equipment_deck
    assert them.players[0].objectives == us.players[0].objectives and them.players[0].deals == us.players[0].deals
    assert shown_to(0, engine.events) == shown_to(0, twin.events)


def test_the_twin_would_be_told_apart_if_the_message_showed_a_hidden_card():
    """The property above can fail: the message of another seat (which sees that seat's hand) differs."""
    engine = played(5, 3, 150)
    twin = redealt(engine, 0, random.Random(1))
    assert message(twin, 1) != message(engine, 1)


def decisions(seeds=range(6), moves=600):
    """(engine, seat deciding) at every decision of a few random games of 2 to 4 players."""
    for seed in seeds:
        rng = random.Random(seed)
        engine = Engine.new(CONTENT, NAMES[: 2 + seed % 3], seed=seed)
        for _ in range(moves):
            yield engine
            if engine.pending.kind == "game_over":
                break
            engine.choose(rng.choice(engine.legal_ids()))


def test_only_the_deciding_seat_is_given_the_options():
    for engine in decisions(seeds=range(3), moves=300):
        chronicle, decider = Chronicle(engine), engine.pending.seat
        for seat in (None, *range(len(engine.state.players))):
            scene = seat_scene(engine, chronicle, seat)
            assert scene.turn.seat == decider and scene.turn.kind == engine.pending.kind
            if seat == decider and decider is not None:
                assert [c.id for c in scene.prompt.options] == list(engine.pending.ids())
                assert [c.label for c in scene.prompt.options] == [o.label for o in engine.pending.options]
                assert scene.undo is not None
            else:
                assert scene.prompt is None and scene.undo is None
                assert not any(o.label in scene.turn.says for o in engine.pending.options)


def test_others_are_told_who_decides_and_what_in_public_words():
    engine = played(2, 2, 0)
    ana = engine.state.players[engine.pending.seat].name
    assert seat_scene(engine, Chronicle(engine), None).turn.says == f"{ana} is choosing the objectives to keep"
    while engine.pending.kind != "choose_island":
        engine.choose(engine.legal_ids()[0])
    who = engine.state.players[engine.pending.seat].name
    assert seat_scene(engine, Chronicle(engine), None).turn.says == f"{who} is choosing an island"
    while engine.state.step is None or engine.state.step.source != "island:1:trade":
        if engine.pending.kind == "choose_action" and "do:1:trade" in engine.legal_ids():
            engine.choose("do:1:trade")
            break
        engine.choose(engine.legal_ids()[-1] if engine.pending.kind == "choose_action" else engine.legal_ids()[0])
    if engine.state.step is not None:
        who = engine.state.players[engine.pending.seat].name
        assert seat_scene(engine, Chronicle(engine), None).turn.says == f"{who} is deciding: Trade on island 1"


def test_every_message_reads_back_from_json_equal_for_every_kind_of_decision():
    kinds, finished = set(), 0
    for n, engine in enumerate(decisions()):
        if engine.pending.kind in kinds and n % 4 and engine.pending.kind != "game_over":
            continue  # (each kind when first met, then every fourth decision; every finished game)
        chronicle = Chronicle(engine)
        for seat in (None, *range(len(engine.state.players))):
            scene = seat_scene(engine, chronicle, seat)
            assert from_json(to_json(scene)) == scene
            json.loads(to_json(scene))  # (plain JSON)
            finished += scene.results is not None
        if engine.pending.kind in OPEN_KINDS:
            scene = seat_scene(engine, chronicle, engine.pending.seat, at_table=True)
            assert from_json(to_json(scene)) == scene
        kinds.add(engine.pending.kind)
    assert {"choose_island", "choose_action", "keep_objectives", "choose_corporation", "game_over", "trade"} <= kinds
    assert len(kinds) >= 15, kinds
    assert finished >= 3  # (every message of a finished game at least, with its final ranking, read back too)


def test_a_finished_games_messages_carry_the_same_final_ranking_and_others_none():
    engine = played(4, 3, 10**4)
    assert engine.state.phase == "over"
    chronicle = Chronicle(engine)
    ranking = seat_scene(engine, chronicle, None).results
    assert ranking is not None
    assert [p.total for p in ranking.players] == [p.vp for p in engine.state.players]
    for seat in range(3):
        assert seat_scene(engine, chronicle, seat).results == ranking
        assert seat_scene(engine, None, seat).results == ranking  # (a computer player's message too)
    assert replay_scene(engine.state, reveal=True).results is None  # (a replay tells its own end)
    for engine in decisions(seeds=range(2), moves=400):
        if engine.state.phase != "over":
            for seat in (None, *range(len(engine.state.players))):
                assert seat_scene(engine, None, seat).results is None


def test_a_message_of_another_format_is_refused():
    scene = seat_scene(played(1, 2, 10), Chronicle(played(1, 2, 10)), 0)
    plain = json.loads(to_json(scene))
    plain["format"] = FORMAT + 1
    with pytest.raises(ValueError, match="format"):
        from_json(json.dumps(plain))
    assert isinstance(from_json(to_json(scene)), SeatScene)


def test_the_catalogue_reads_back_as_the_content_it_was():
    assert catalogue_from_json(catalogue_to_json(CONTENT)) == CONTENT


def test_an_option_says_what_it_is_about_in_named_parts():
    seen = set()
    for engine in decisions(seeds=range(4)):
        seat = engine.pending.seat
        if seat is None:
            continue
        scene = seat_scene(engine, Chronicle(engine), seat)
        for choice in scene.prompt.options + scene.prompt.refused:
            head = choice.id.partition(":")[0]
            seen.add(head)
            refers = choice.refers
            if head == "do":
                space = next(sp for sp in scene.spaces if sp.key == f"{refers.island}:{refers.action}")
                assert choice.cost == ({} if space.by_miners else {"merchants": space.merchants})
            if head in ("equipment", "use"):
                assert refers.cards and refers.cards[0] in CONTENT.equipment
            if head == "equipment":
                assert choice.cost == {"money": CONTENT.equipment[refers.cards[0]].cost}
            if head == "shipment":
                assert refers.cards[0] in CONTENT.shipments
            if head == "island":
                assert refers.island in [i.number for i in CONTENT.board.islands]
            if head == "place":
                assert refers.cards[0] in CONTENT.galleries and refers.face_up in (True, False)
            if head == "keep":
                assert len(refers.cards) == CONTENT.board.objectives_kept
            if head in ("mine", "collect", "demolish") and ":" in choice.id:
                assert refers.column is not None and refers.island is not None
            if choice.refused is not None:
                assert choice.refused and choice.refused[0].isupper()
    assert {"do", "island", "equipment", "shipment", "keep", "corporation", "place", "mine", "pass"} <= seen, seen


def test_the_space_costs_and_what_a_seat_can_pay_for_are_the_engines():
    for engine in decisions(seeds=range(3), moves=400):
        s = engine.state
        for seat in range(len(s.players)):
            scene = seat_scene(engine, Chronicle(engine), seat)
            probe = Probe("buy_equipment", seat, "island:2:buy_equipment", (), {})
            buyable = [c.payload for c in ACTIVITIES["buy_equipment"].candidates(s, probe) if c.reason is None]
            probe = Probe("make_shipment", seat, "island:3:make_shipment", (), {})
            shippable = [c.payload for c in ACTIVITIES["make_shipment"].candidates(s, probe) if c.reason is None]
            assert list(scene.can_pay) == buyable + shippable
            if engine.pending.kind == "choose_action" and engine.pending.seat == seat:
                for choice in scene.prompt.options + scene.prompt.refused:
                    if choice.id.startswith("do:"):
                        space = next(sp for sp in scene.spaces if sp.key == choice.id[3:])
                        if not space.by_miners and not space.taken:
                            assert choice.cost["merchants"] == space.merchants
