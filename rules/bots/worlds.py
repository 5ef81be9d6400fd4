"""Worlds a seat cannot tell apart: its view with every hidden card dealt at random.

The search player (`search.py`) plays its options out in whole games, and a
game cannot be played with blanks in it. So, starting from the seat's own
message alone (`known_state` of its view, where whatever the seat cannot see
is None), each blank is filled with a card of the right kind that the seat
has not seen anywhere: the other players' objectives, offers and deals in
hand, every deck and its order, the gallery discard pile, the face-down
galleries others placed and the tiles others drew. Each such filling is one
*world*: a whole game state the seat could be in, as far as it knows.

What the seat has seen is read from the view (every card id in it) and from
its own earlier messages: the objectives and corporations it was offered and
the deals it held never go back into a deck (returned or discarded cards
leave the game), so one seen once and gone now is out of the game. Gallery
tiles are not remembered that way: a removed gallery is discarded and
shuffled back into the deck.

The cards are dealt uniformly among those unseen, but for the other
players' objectives and deals when the dealer is given a reading of them
(`reading.py`): each world then deals each other player a hand drawn by how
well it explains what that player did.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple, Protocol

from rules import Content, Engine, GameState, View, known_state


class Reading(Protocol):
    """What a world asks of a reading of the others' hands (`reading.Reading`, which uses the worlds)."""

    def hands(self, rng: random.Random, unseen: dict[str, list[str]]) -> dict[int, dict[str, tuple[str, ...]]]: ...


Blank = tuple[str, Callable[[str], None]]
"""A hidden card of a known state: its kind, and what puts a card of that kind there."""

KINDS = ("objectives", "corporations", "equipment", "shipments", "deals", "galleries")

DECK_KINDS = {
    "objective_deck": "objectives",
    "corporation_deck": "corporations",
    "equipment_deck": "equipment",
    "shipment_deck": "shipments",
    "deal_deck": "deals",
    "gallery_deck": "galleries",
    "gallery_discard": "galleries",
    "drawn_galleries": "galleries",
}
"""The lists of the state whose blanks are cards of one kind."""

HAND_KINDS = {
    "objectives": "objectives",
    "objective_offer": "objectives",
    "corporation_offer": "corporations",
    "deals": "deals",
}
"""A player's lists whose blanks (another player's hand) are cards of one kind."""

REMEMBERED = ("objective_offer", "corporation_offer", "deals")
"""A seat's own lists whose cards, once seen, are never hidden again (kept, played or out of the game)."""


class World(NamedTuple):
    """One filling of the blanks: the cards of each kind in the order the blanks are met (`blanks`),
    the seed the game goes on with (it shuffles the gallery discard), and the hands given the other
    players from a reading (by seat, each kind of card, as `Reading.hands`), which are not blanks."""

    cards: dict[str, tuple[str, ...]]
    seed: int
    given: dict[int, dict[str, tuple[str, ...]]] = {}


class Worlds:
    """The worlds of one seat: it remembers what its seat was shown, and deals the rest."""

    def __init__(self, content: Content, seat: int) -> None:
        self.content, self.seat = content, seat
        self.every = {
            "objectives": tuple(content.objectives),
            "corporations": tuple(content.corporations),
            "equipment": tuple(content.equipment),
            "shipments": tuple(content.shipments),
            "deals": tuple(content.deals),
            "galleries": tuple(content.gallery_instances()),
        }
        self.remembered: set[str] = set()

    def observe(self, seen: View) -> None:
        """Remember what the seat's own hand shows in this view (see the module's docstring)."""
        me = seen["players"][self.seat]
        for key in REMEMBERED:
            self.remembered.update(card for card in me[key] if card is not None)

    def remembering(self, cards: Iterable[str]) -> Worlds:
        """These worlds as they were when the seat remembered only `cards` (to deal a view of the past)."""
        past = copy.copy(self)
        past.remembered = set(cards)
        return past

    def unseen(self, seen: View) -> dict[str, list[str]]:
        """Each kind's cards the seat has not seen: in this view, or before (remembered)."""
        shown = set(self.remembered)
        _strings(seen, shown)
        return {kind: [card for card in cards if card not in shown] for kind, cards in self.every.items()}

    def deal(self, seen: View, rng: random.Random, reading: Reading | None = None) -> World:
        """One world: the unseen cards of each kind shuffled into its blanks (the others' hands drawn
        from `reading`, if given: `Reading.hands`)."""
        unseen = self.unseen(seen)
        given = reading.hands(rng, unseen) if reading is not None else {}
        for hand in given.values():
            for key, held in hand.items():
                unseen[key] = [card for card in unseen[key] if card not in held]
        counts = {kind: 0 for kind in KINDS}
        for kind, _ in blanks(known_state(self.content, _given(seen, given))):
            counts[kind] += 1
        cards: dict[str, tuple[str, ...]] = {}
        for kind in KINDS:
            pool = unseen[kind]
            if len(pool) < counts[kind]:
                raise ValueError(f"{counts[kind]} hidden {kind} but only {len(pool)} unseen")
            rng.shuffle(pool)
            cards[kind] = tuple(pool[: counts[kind]])
        return World(cards, rng.randrange(2**31), given)

    def state(self, seen: View, world: World) -> GameState:
        """A fresh game state of `world`, for one game to be played out from it."""
        plain = dict(_given(seen, world.given))
        plain["step"] = copy.deepcopy(seen["step"])  # (its data is not copied by the reading back)
        s = known_state(self.content, plain)
        dealt = {kind: iter(cards) for kind, cards in world.cards.items()}
        for kind, put in blanks(s):
            put(next(dealt[kind]))
        s.seed = world.seed
        return s


def engine_on(state: GameState) -> Engine:
    """An engine that goes on from `state` (a world's), to play it or ask what it asks."""
    engine = Engine(state.content)
    engine.state = state
    engine.state_edited()
    return engine


def _given(seen: View, given: dict[int, dict[str, tuple[str, ...]]]) -> View:
    """The view with the other players' hands of `given` written in."""
    if not given:
        return seen
    players = [dict(p) for p in seen["players"]]
    for seat, hand in given.items():
        players[seat].update((key, list(cards)) for key, cards in hand.items())
    return dict(seen, players=players)


def blanks(s: GameState) -> Iterator[Blank]:
    """Each hidden card of a known state, in a fixed order: (its kind, a way to put a card there)."""
    for name, kind in DECK_KINDS.items():
        yield from _list_blanks(getattr(s, name), kind)
    for p in s.players:
        for name, kind in HAND_KINDS.items():
            yield from _list_blanks(getattr(p, name), kind)
    for island in sorted(s.sites):
        for column in s.sites[island].columns:
            for g in column:
                if g is not None and g.tile is None:
                    yield "galleries", (lambda card, g=g: setattr(g, "tile", card))


def _list_blanks(cards: list[str | None], kind: str) -> Iterator[Blank]:
    for n, card in enumerate(cards):
        if card is None:
            yield kind, (lambda value, n=n: cards.__setitem__(n, value))  # type: ignore[misc]  # (a Blank's putter)


def _strings(value: object, into: set[str]) -> None:
    """Every string anywhere in plain data."""
    if isinstance(value, str):
        into.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            _strings(v, into)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _strings(v, into)
