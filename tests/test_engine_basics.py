"""The engine facade: decide, choose, rejections, subscribers, replay, JSON, views and redaction."""

from __future__ import annotations

import json
import random

import pytest

from rules import Engine, Rejection, decide, redact, replay, state_from_json, state_to_json, view
from rules import events as ev
from rules.flow import create_game
from rules.simulate import random_game
from tests.helpers.scenario import CONTENT, act, game, of, ready, stack_gallery_deck


def _snapshot(state) -> str:
    return json.dumps(state_to_json(state), sort_keys=True)


def _played(seed: int = 11, players: int = 3, choices: int = 120) -> Engine:
    """A game some way in, by random legal play."""
    rng = random.Random(seed)
    e = Engine.new(CONTENT, ["Ana", "Ben", "Cleo", "Dev"][:players], seed=seed)
    for _ in range(choices):
        if e.state.phase == "over":
            break
        ids = e.legal_ids()
        e.choose(ids[rng.randrange(len(ids))])
    return e


@pytest.fixture(scope="module")
def finished():
    """One whole random game (3 players)."""
    engine, _ = random_game(CONTENT, 3, 2024)
    return engine


# --- decide / choose / reject ----------------------------------------------------------------


def test_decide_does_not_change_the_state():
    """`decide(state, id)` returns the events a choice would bring, leaving the state as it was;
    choosing it afterwards brings exactly those events."""
    e = _played()
    before = _snapshot(e.state)
    for choice in e.legal_ids():
        result = decide(e.state, choice)
        assert isinstance(result, list) and result
        assert _snapshot(e.state) == before
    choice = e.legal_ids()[0]
    assert decide(e.state, choice) == e.choose(choice)


def test_decide_rejects_what_choose_rejects():
    """An unknown choice is a Rejection from `decide` as from `choose`, with the same reason."""
    e = _played()
    r1, r2 = decide(e.state, "no-such-choice"), e.choose("no-such-choice")
    assert isinstance(r1, Rejection) and r1 == r2 and r1.reason
    assert not r1  # a rejection is falsy, unlike a list of events


def test_a_rejection_changes_nothing():
    """A refused choice adds no event and leaves the state and the pending decision unchanged."""
    e = ready(3, islands=(1, 2, 3))
    before, count, pending = _snapshot(e.state), len(e.events), e.pending
    for choice in ("do:3:recruit_merchant", "island:2", "use:tipper", "nonsense", "do:1:buy_artifact"):
        result = e.choose(choice)
        assert isinstance(result, Rejection) and result.choice == choice and result.reason
        assert len(e.events) == count and _snapshot(e.state) == before and e.pending == pending


def test_rejections_read_like_the_rules():
    """Reasons name the problem in the game's words."""
    e = ready(3, islands=(1, 2, 3))
    assert (
        e.choose("do:3:recruit_merchant").reason
        == "Your ship is at island 1; sail to island 3 with Depart Island first"
    )
    assert e.choose("use:tipper").reason == "You do not own that equipment"
    assert "is not a choice now" in e.choose("nonsense").reason


def test_pending_lists_only_legal_options():
    """`pending.options` and `legal_ids()` agree, and each offered option is accepted."""
    e = _played(seed=3)
    assert list(e.pending.ids()) == e.legal_ids()
    for choice in e.legal_ids():
        assert isinstance(decide(e.state, choice), list)


def test_game_over_refuses_everything():
    """After the game has ended no choice is accepted."""
    engine, _ = random_game(CONTENT, 2, 5)
    assert engine.pending.kind == "game_over" and engine.pending.options == ()
    assert engine.choose("pass").reason == "The game is over"


def test_player_count_is_checked():
    """Miner's Lagoon takes 2 to 4 players."""
    with pytest.raises(ValueError):
        Engine.new(CONTENT, ["Solo"], seed=1)
    with pytest.raises(ValueError):
        Engine.new(CONTENT, list("ABCDE"), seed=1)


# --- subscribers ----------------------------------------------------------------------------


def test_subscribers_get_exactly_the_new_events():
    """A subscriber is called once per accepted choice with that choice's events; not for a
    rejection; not after unsubscribing."""
    e = ready(3, islands=(1, 2, 3))
    calls = []
    unsubscribe = e.subscribe(calls.append)
    start = len(e.events)
    new = e.choose("do:1:draw_or_close_deal")
    assert calls == [new] and e.events[start:] == new
    e.choose("nonsense")
    assert len(calls) == 1
    new = e.choose("draw")
    assert calls[-1] == new and len(calls) == 2
    unsubscribe()
    e.choose("pass")
    assert len(calls) == 2


# --- replay and JSON --------------------------------------------------------------------------


def test_replay_gives_the_live_state(finished):
    """Replaying the log from scratch gives the live state, at the end and part way."""
    assert replay(CONTENT, finished.events) == finished.state
    e = _played(seed=8)
    assert replay(CONTENT, e.events) == e.state


def test_an_engine_rebuilt_from_its_log_plays_on_identically():
    """`Engine(content, events)` restores a game: same state, same pending decision."""
    e = _played(seed=21)
    again = Engine(CONTENT, list(e.events))
    assert again.state == e.state and again.pending == e.pending
    choice = e.legal_ids()[-1]
    assert again.choose(choice) == e.choose(choice)


def test_state_survives_json(finished):
    """The state (mid-game and at the end) round-trips through JSON text unchanged."""
    for engine in (_played(seed=4), finished):
        text = json.dumps(state_to_json(engine.state))
        assert state_from_json(CONTENT, json.loads(text)) == engine.state


def test_every_event_survives_json(finished):
    """Every event of a whole game round-trips through JSON text unchanged, and the log
    rebuilt from JSON replays to the same state."""
    copies = [ev.from_json(json.loads(json.dumps(ev.to_json(e)))) for e in finished.events]
    assert copies == finished.events
    assert {type(e).__name__ for e in finished.events} >= {"GameCreated", "RoundBegan", "GameEnded"}
    assert replay(CONTENT, copies) == finished.state


# --- what a seat may see ------------------------------------------------------------------------


def test_view_hides_other_seats_secrets_and_shows_ones_own():
    """Each seat sees its own objectives and deals, but only how many others hold; every deck
    (and the gallery discard pile) is a count, never an order."""
    e = ready(3, islands=(1, 2, 3))
    s = e.state
    s.players[1].deals = ["deal_05", "deal_07"]
    for seat in range(3):
        v = e.view(seat)
        assert v == view(s, seat)
        for p, vp in zip(s.players, v["players"]):
            if p.seat == seat:
                assert vp["objectives"] == p.objectives and vp["deals"] == p.deals
            else:
                assert vp["objectives"] == [None] * len(p.objectives)
                assert vp["deals"] == [None] * len(p.deals)
        for deck in (
            "objective_deck",
            "corporation_deck",
            "equipment_deck",
            "shipment_deck",
            "deal_deck",
            "gallery_deck",
            "gallery_discard",
        ):
            assert v[deck] == len(getattr(s, deck))
        text = json.dumps(v)
        if seat != 1:
            assert "deal_05" not in text and "deal_07" not in text


def test_view_hides_face_down_tiles_and_drawn_galleries():
    """Face-down galleries show no tile (except to whoever placed them); tiles drawn but not
    yet placed are seen by the drawer only."""
    e = game(2)
    act(e, "island:3", "island:4")
    drawn = stack_gallery_deck(e, "gold_4", "silver_4")
    act(e, "do:3:draw_place_galleries")
    assert e.view(0)["drawn_galleries"] == drawn
    assert e.view(1)["drawn_galleries"] == [None, None]
    for seat in (0, 1):
        assert _face_down_tiles(e.view(seat)) == [None] * 4  # setup's face-down tiles


def _face_down_tiles(v) -> list:
    return [
        g["tile"]
        for site in v["sites"].values()
        for column in site["columns"]
        for g in column
        if g and not g["face_up"]
    ]


def test_the_seatless_view_hides_face_down_tiles():
    """`view(state, None)` (no seat: a spectator or the screen between two players) shows no
    face-down tile at all, not even setup's (whose placed_by is None too)."""
    e = game(2)
    assert _face_down_tiles(e.view(None)) == [None] * 4


def test_view_keeps_a_deal_secret_while_its_payment_is_chosen():
    """While a player picks which cubes pay for a deal, others do not see which deal it is
    (the player may still go back)."""
    e = ready(2, islands=(1, 2))
    p = e.state.players[0]
    p.deals, p.enriched["iron"] = ["deal_04"], [2, 3]
    e.state_edited()
    events = act(e, "do:1:draw_or_close_deal", "close:deal_04")
    assert e.pending.kind == "deal"  # choosing 2' or 3' iron
    assert "deal_04" not in json.dumps(e.view(1))
    assert "deal_04" in json.dumps(e.view(0))
    picked = of(events, ev.Picked)[0]
    assert redact(picked, 1).pick == ["close", None] and redact(picked, 0) == picked


def test_redact_hides_other_seats_draws():
    """In the log, a seat sees the deal and gallery tiles it drew, but not those others drew, nor
    any deck order or the cards dealt to others."""
    e = game(2)
    act(e, "island:1", "island:3")
    act(e, "do:1:draw_or_close_deal", "draw", "pass")
    act(e, "do:3:draw_place_galleries")
    deal = of(e.events, ev.DealDrawn)[-1]
    tiles = of(e.events, ev.GalleriesDrawn)[-1]
    assert redact(deal, 0) == deal and redact(deal, 1).deal is None
    assert redact(tiles, 1) == tiles and redact(tiles, 0).tiles == (None, None)
    created = redact(e.events[0], 0)
    assert all(x is None for x in created.deal_deck + created.gallery_deck + created.objective_deck)
    dealt = of(e.events, ev.ObjectivesDealt)
    assert all(redact(d, d.seat) == d for d in dealt)
    assert all(set(redact(d, 1 - d.seat).objectives) == {None} for d in dealt)
    placed = act(e, f"place:{tiles.tiles[0].split('#')[0]}:1:0:down")
    down = of(placed, ev.GalleryPlaced)[0]
    assert redact(down, 0).tile is None and redact(down, 1) == down


def _decks_from(public: dict, names, colours):
    """Try to rebuild the deal deck from what a seat can read."""
    seed = public.get("seed")
    if seed is None:
        return None
    return create_game(CONTENT, names, seed, public.get("start_player"), colours).deal_deck


def test_nothing_a_seat_sees_reveals_the_deck_order():
    """The seed that shuffled the decks is itself secret: with it and the public names, a seat
    could recompute the order of every deck."""
    e = ready(3, islands=(1, 2, 3), seed=5)
    s = e.state
    names = [p.name for p in s.players]
    colours = [p.colour for p in s.players]
    remaining = tuple(s.deal_deck)
    for public in (e.view(1), ev.to_json(redact(e.events[0], 1))):
        rebuilt = _decks_from(public, names, colours)
        assert rebuilt is None or rebuilt[-len(remaining) :] != remaining
