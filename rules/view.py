"""What one seat may know: `view(state, seat)` and `redact(event, seat)`.

Hidden from a seat: other seats' objectives and the cards they were dealt,
their deals in hand, gallery tiles drawn but not yet placed, the tile of a
face-down gallery (except to whoever placed it), the order and contents of
every deck and of the gallery discard pile, and the seed that shuffled them.
Once the game is over, objectives and hands are shown to all. Hidden entries
become None, so their number stays known.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from . import codec
from . import events as ev
from .state import GameState

DEALT_DECKS = (
    "objective_deck",
    "corporation_deck",
    "equipment_deck",
    "shipment_deck",
    "deal_deck",
    "gallery_deck",
)
"""The decks a new game deals out (`GameCreated` holds their orders)."""
DECKS = (*DEALT_DECKS, "gallery_discard")
SECRET_HAND = ("objectives", "objective_offer", "corporation_offer", "deals")

View = dict[str, Any]
"""A seat's view: the state as plain JSON data (`codec.to_plain`), hidden entries None. Its values are
Any as JSON is: what each key holds is the state's field of that name (`rules.state.GameState`)."""

E = TypeVar("E", bound=ev.Event)


def view(s: GameState, seat: int | None, reveal: bool = False) -> View:
    """What `seat` may know; `reveal` shows every hand and tile (a finished game's replay)."""
    d: View = codec.to_plain(s)
    d["seed"] = None  # the seed would let anyone recompute every deck order
    over = s.phase == "over"
    for deck in DECKS:
        d[deck] = len(d[deck])
    if reveal:
        return d
    for p in d["players"]:
        if p["seat"] != seat and not over:
            for key in SECRET_HAND:
                p[key] = [None] * len(p[key])
    if s.step is None or s.step.seat != seat:
        d["drawn_galleries"] = [None] * len(s.drawn_galleries)
        if s.step is not None and s.step.kind == "deal" and s.step.picks:
            d["step"]["picks"][0] = ["close", None]  # the deal stays secret until it is closed
    for site in d["sites"].values():
        for column in site["columns"]:
            for g in column:
                if g and not g["face_up"] and (seat is None or g["placed_by"] != seat):
                    g["tile"] = None
    return d


def _hide(values: tuple[object, ...]) -> tuple[None, ...]:
    return (None,) * len(values)


def _blanked(e: E, **hidden: object) -> E:
    """`e` with `hidden` in place of what a seat may not see: None, or a tuple of None as long as what
    it hides. A redacted event so holds None where its type says a card, a tile or a seed; it is
    only told (`rules.narrate`) and shown, never applied to a state."""
    return dataclasses.replace(e, **hidden)  # type: ignore[type-var]  # (every Event is a record: a dataclass)


def redact(e: ev.Event, seat: int | None) -> ev.Event:
    """The event as `seat` may read it."""
    if isinstance(e, ev.GameCreated):
        return _blanked(
            e,
            seed=None,
            **{f: _hide(getattr(e, f)) for f in DEALT_DECKS},
        )
    if isinstance(e, ev.GalleryDeckReshuffled):
        return _blanked(e, order=_hide(e.order))
    mine = getattr(e, "seat", None) == seat and seat is not None
    if isinstance(e, ev.ObjectivesDealt) and not mine:
        return _blanked(e, objectives=_hide(e.objectives))
    if isinstance(e, ev.ObjectivesKept) and not mine:
        return _blanked(e, kept=_hide(e.kept), returned=_hide(e.returned))
    if isinstance(e, ev.CorporationsDealt) and not mine:
        return _blanked(e, corporations=_hide(e.corporations))
    if isinstance(e, ev.Picked) and not mine and e.pick and e.pick[0] == "close":
        return _blanked(e, pick=["close", None])
    if isinstance(e, ev.DealDrawn) and not mine:
        return _blanked(e, deal=None)
    if isinstance(e, ev.DealDiscarded) and not mine:
        return _blanked(e, deal=None)
    if isinstance(e, ev.GalleriesDrawn) and not mine:
        return _blanked(e, tiles=_hide(e.tiles))
    if isinstance(e, ev.GalleryPlaced) and not e.face_up and not mine:
        return _blanked(e, tile=None)
    if isinstance(e, ev.GalleryRemoved) and not e.face_up:
        return _blanked(e, tile=None)
    return e
