"""A game dealt anew where one seat cannot see: the twin that seat must not be able to tell apart.

`redealt(engine, seat, rng)` renames, through the whole log, every card and
tile the seat has never been shown: the other players' objectives, offers and
deals, the face-down gallery tiles it did not place, the tiles others drew,
and every card still in a deck (so every deck's order changes too), each for
another of its kind the seat has never seen. The seed is changed as well.
What the seat has been shown is decided here from the rulebook's reveals
(what is dealt to it, laid out, turned up, closed, chosen, bought), not from
`rules.view`, so a test built on this checks the engine's privacy, not its
own definition of it. Played on from the twin's log, the game is consistent:
every renamed card was only ever where nobody but its holder (or nobody) saw.
"""

from __future__ import annotations

import random

from rules import Engine, codec
from rules import events as ev

KINDS = ("objectives", "corporations", "deals", "equipment", "shipments", "galleries")


def shown_to(seat: int | None, events) -> set[str]:
    """The ids of every card and tile `seat` has been shown (seat None: what everyone has been shown)."""
    mine = lambda e: seat is not None and e.seat == seat  # noqa: E731
    shown: set[str] = set()
    for e in events:
        if isinstance(e, (ev.ObjectivesDealt,)) and mine(e):
            shown.update(e.objectives)
        elif isinstance(e, ev.ObjectivesKept) and mine(e):
            shown.update(e.kept + e.returned)
        elif isinstance(e, ev.CorporationsDealt) and mine(e):
            shown.update(e.corporations)
        elif isinstance(e, ev.CorporationChosen):
            shown.add(e.corporation)
        elif isinstance(e, (ev.EquipmentRevealed, ev.EquipmentBought)):
            shown.add(e.card)
        elif isinstance(e, (ev.ShipmentRevealed, ev.ShipmentMade)):
            shown.add(e.tile)
        elif isinstance(e, ev.ObjectiveScored):
            shown.add(e.objective)
        elif isinstance(e, (ev.DealDrawn, ev.DealDiscarded)) and mine(e):
            shown.add(e.deal)
        elif isinstance(e, ev.DealClosed):
            shown.add(e.deal)
        elif isinstance(e, ev.GalleriesDrawn) and mine(e):
            shown.update(e.tiles)
        elif isinstance(e, ev.GalleryPlaced) and (e.face_up or mine(e)):
            shown.add(e.tile)
        elif isinstance(e, ev.GalleryFlipped) or (isinstance(e, ev.GalleryRemoved) and e.face_up):
            shown.add(e.tile)
    return shown


def redealt(engine: Engine, seat: int | None, rng: random.Random) -> Engine:
    """The twin game (see the module's docstring), with the engine's marks, so undo is the same."""
    content = engine.content
    shown = shown_to(seat, engine.events)
    every = {
        "objectives": list(content.objectives),
        "corporations": list(content.corporations),
        "deals": list(content.deals),
        "equipment": list(content.equipment),
        "shipments": list(content.shipments),
        "galleries": content.gallery_instances(),
    }
    counts: dict[str, int] = {}
    for ids in every.values():
        for i in ids:
            counts[i] = counts.get(i, 0) + 1
    renamed: dict[str, str] = {}
    for kind in KINDS:  # (an id two kinds share is left as it is: its renaming would be ambiguous)
        unseen = [i for i in every[kind] if i not in shown and counts[i] == 1]
        others = unseen[:]
        rng.shuffle(others)
        renamed.update(zip(unseen, others))
    twin = []
    for e in engine.events:
        plain = _rename(codec.to_plain(e), renamed)
        if isinstance(e, ev.GameCreated):
            plain["seed"] = rng.randrange(2**31)
        twin.append(codec.from_plain(type(e), plain))
    return Engine(content, twin, engine.marks)


def _rename(value, renamed: dict[str, str]):
    if isinstance(value, str):
        return renamed.get(value, value)
    if isinstance(value, list):
        return [_rename(v, renamed) for v in value]
    if isinstance(value, dict):
        return {k: _rename(v, renamed) for k, v in value.items()}
    return value
