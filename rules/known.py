"""A seat's view read back as a game state: the game as that seat knows it.

`view(state, seat)` writes what a seat may know as plain data. `known_state`
reads it back into the engine's own `GameState`, so that code reasoning as
that seat (a computer player) can ask the rules' public questions (an
objective's `measure`, whether a deal may still be closed this round...) of
the game as it knows it, and of nothing more. Whatever the seat cannot see
stays blank: a deck keeps only its size (a list of None), hidden cards and
face-down tiles are None. The view of a known state is the view it was read
from (tests/test_known_state.py), so nothing is added on the way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import codec
from .cards import Content
from .state import GameState
from .view import DECKS


def known_state(content: Content, seen: Mapping[str, Any]) -> GameState:
    """`seen`, a view (`rules.view`, or a seat message's `view`), as a GameState of `content`."""
    plain = dict(seen)
    for deck in DECKS:
        plain[deck] = [None] * seen[deck]
    state: GameState = codec.decoder(GameState)(plain)  # (worked out once, at the first call: not when the app starts)
    state.content = content
    return state
