"""Events: every change of the game state, as a fact in the past tense.

Random outcomes (deck orders, the start player, a reshuffle) are written into
events, so replaying a log needs no random numbers. Each event type has one
handler in `rules.evolve`.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import codec

EVENT_TYPES: dict[str, type] = {}


def event(cls):
    # a docstring of its own spares `dataclass` from making one out of the signature (slow at import)
    cls.__doc__ = cls.__doc__ or f"The event {cls.__name__}."
    cls = dataclass(slots=True)(cls)
    EVENT_TYPES[cls.__name__] = cls
    return cls


# --- setup -----------------------------------------------------------------

@event
class GameCreated:
    seed: int
    names: tuple[str, ...]
    colours: tuple[str, ...]
    start_player: int
    objective_deck: tuple[str, ...]
    corporation_deck: tuple[str, ...]
    equipment_deck: tuple[str, ...]
    shipment_deck: tuple[str, ...]
    deal_deck: tuple[str, ...]
    gallery_deck: tuple[str, ...]


@event
class ObjectivesDealt:
    seat: int
    objectives: tuple[str, ...]


@event
class CorporationsDealt:
    seat: int
    corporations: tuple[str, ...]


@event
class ObjectivesKept:
    seat: int
    kept: tuple[str, ...]
    returned: tuple[str, ...]


@event
class CorporationChosen:
    seat: int
    corporation: str


@event
class EquipmentRevealed:
    card: str


@event
class ShipmentRevealed:
    tile: str


# --- rounds and turns ----------------------------------------------------------

@event
class RoundBegan:
    round: int
    token: int


@event
class IslandChosen:
    seat: int
    island: int


@event
class ActionPhaseBegan:
    turn_order: tuple[int, ...]


@event
class TurnBegan:
    seat: int


@event
class Passed:
    seat: int


@event
class ActionStarted:
    seat: int
    source: str
    kind: str
    merchants: int
    miners: int
    data: dict


@event
class Picked:
    """A player added one choice to the plan of the action under way."""

    seat: int
    pick: list


@event
class Unpicked:
    seat: int


@event
class ActionWithdrawn:
    seat: int


@event
class ActionFinished:
    seat: int


@event
class Scored:
    seat: int
    vp: int
    source: str


@event
class EndOfGameTriggered:
    seat: int
    vp: int


@event
class CentreEnriched:
    removed: tuple[tuple[str, int], ...]  # (metal, owner) of cubes that left past 4'


@event
class WagesPaid:
    seat: int
    due: int
    paid: int


@event
class RoundEnded:
    round: int


@event
class ObjectiveScored:
    seat: int
    objective: str
    measure: int
    vp: int


@event
class GameEnded:
    reason: str  # "vp_goal" | "last_round"
    places: tuple[int, ...]  # place of each seat, 1 = winner
    tiebreak_used: bool


# --- island actions and equipment ------------------------------------------

@event
class ArtifactBought:
    seat: int
    island: int
    metal: str
    price: int


@event
class GalleryFlipped:
    island: int
    column: int
    level: int
    tile: str
    cubes: int


@event
class MinersWorked:
    seat: int
    island: int
    miners: int


@event
class ResourcesMined:
    seat: int
    island: int
    column: int
    level: int
    metal: str
    cubes: int


@event
class GalleryRemoved:
    """A gallery left the board (exhausted, pushed off, demolished) for the discard pile."""

    island: int
    column: int
    level: int
    tile: str
    cubes: int
    why: str  # "exhausted" | "pushed_off" | "demolished"
    face_up: bool = True


@event
class GallerySlid:
    island: int
    column: int


@event
class GalleriesDrawn:
    seat: int | None
    tiles: tuple[str, ...]


@event
class GalleryDeckReshuffled:
    order: tuple[str, ...]


@event
class GalleryPlaced:
    seat: int | None
    tile: str
    island: int
    column: int
    face_up: bool
    cubes: int


@event
class GalleryRewardPaid:
    seat: int
    money: int


@event
class DealDrawn:
    seat: int
    deal: str


@event
class DealClosed:
    seat: int
    deal: str
    paid: tuple[tuple[str, int], ...]  # (metal, level) of the enriched cubes given


@event
class DealDiscarded:
    seat: int
    deal: str
    money: int


@event
class Traded:
    seat: int
    give: tuple[str, ...]  # metals or "money"
    get: str


@event
class EquipmentBought:
    seat: int
    card: str
    cost: int


@event
class MerchantRecruited:
    seat: int
    cost: int


@event
class MinerRecruited:
    seat: int
    cost: int


@event
class ShipmentMade:
    seat: int
    tile: str


@event
class ResourcesEnriched:
    seat: int
    metals: tuple[str, ...]


@event
class EnrichedCubeBought:
    seat: int
    metal: str
    level: int
    owner: int
    price: int


@event
class EnrichedCubeUpgraded:
    seat: int
    metal: str
    level: int  # level before
    cost: int


@event
class CentreCubeUpgraded:
    seat: int
    metal: str
    level: int  # level before; from 4' the cube leaves the game
    owner: int


@event
class ResourceCollected:
    seat: int
    island: int
    column: int
    level: int
    metal: str


@event
class EnrichedCubeCrushed:
    seat: int
    metal: str
    level: int


@event
class MetalSold:
    seat: int
    metal: str
    money: int


@event
class MoneyReceived:
    seat: int
    money: int


@event
class ShipDeparted:
    seat: int
    origin: int
    destination: int


def to_json(ev) -> dict:
    """An event as a JSON object: its fields plus "type"."""
    d = codec.to_plain(ev)
    d["type"] = type(ev).__name__
    return d


def from_json(d: dict):
    """Rebuild an event; raises KeyError/TypeError/ValueError on a malformed one."""
    d = dict(d)
    cls = EVENT_TYPES[d.pop("type")]
    return codec.from_plain(cls, d)
