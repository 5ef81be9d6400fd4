"""`known_state`: a seat's view read back as a GameState holds exactly what the seat sees."""

from __future__ import annotations

import json

from rules import known_state, load_content, view
from rules.simulate import random_game

CONTENT = load_content()


def test_the_view_of_a_known_state_is_the_view_it_was_read_from():
    """Nothing is added on the way (a deck keeps its size, a hidden card stays hidden), and
    a view sent as JSON reads back the same (island numbers as keys come back as numbers)."""
    checked = 0

    def check(engine):
        nonlocal checked
        if len(engine.events) % 7:
            return
        s = engine.state
        for seat in (None, *range(len(s.players))):
            seen = view(s, seat)
            known = known_state(CONTENT, seen)
            assert view(known, seat) == seen
            assert known_state(CONTENT, json.loads(json.dumps(seen))) == known
            checked += 1

    random_game(CONTENT, 3, seed=4, on_choice=check)
    assert checked > 100


def test_a_known_state_has_nothing_the_seat_may_not_see():
    engine, _ = random_game(CONTENT, 3, seed=2)
    s = engine.state
    s.phase = "actions"  # (as in the game: the hands of others are shown once it is over)
    known = known_state(CONTENT, view(s, 0))
    assert known.deal_deck == [None] * len(s.deal_deck) and known.seed is None
    assert known.players[0].deals == s.players[0].deals
    assert all(d is None for p in known.players[1:] for d in p.deals + p.objectives)
