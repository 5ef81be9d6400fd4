"""Events: every change of the game state, as a fact in the past tense.

Random outcomes (deck orders, the start player, a reshuffle) are written into
events, so replaying a log needs no random numbers. Each event type has one
handler in `rules.evolve`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar, dataclass_transform

from . import codec
from .record import Record, record

if TYPE_CHECKING:
    from collections.abc import Mapping

    # An action's fixed data and counters, as the log keeps them: a JSON object whose keys depend on the
    # activity and come partly from the cards' TOML parameters (`rules.actions.equipment_activity`).
    ActionData = dict[str, Any]
else:
    # A bare dict at run time, as before it was annotated: the codec then reads it back as it is, without
    # a copy, and a log's audit checks it as it always has.
    ActionData = dict


class Event(Record):
    """What every event is: a record of the fields it names."""

    __slots__ = ()


E = TypeVar("E", bound=Event)

EVENT_TYPES: dict[str, type[Event]] = {}


@dataclass_transform(eq_default=False)
def event(cls: type[E]) -> type[E]:
    cls = record(cls)
    EVENT_TYPES[cls.__name__] = cls
    return cls


# --- setup -----------------------------------------------------------------


@event
class GameCreated(Event):
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
class ObjectivesDealt(Event):
    seat: int
    objectives: tuple[str, ...]


@event
class CorporationsDealt(Event):
    seat: int
    corporations: tuple[str, ...]


@event
class ObjectivesKept(Event):
    seat: int
    kept: tuple[str, ...]
    returned: tuple[str, ...]


@event
class CorporationChosen(Event):
    seat: int
    corporation: str


@event
class EquipmentRevealed(Event):
    card: str


@event
class ShipmentRevealed(Event):
    tile: str


# --- rounds and turns ----------------------------------------------------------


@event
class RoundBegan(Event):
    round: int
    token: int


@event
class IslandChosen(Event):
    seat: int
    island: int


@event
class ActionPhaseBegan(Event):
    turn_order: tuple[int, ...]


@event
class TurnBegan(Event):
    seat: int


@event
class Passed(Event):
    seat: int


@event
class ActionStarted(Event):
    seat: int
    source: str
    kind: str
    merchants: int
    miners: int
    data: ActionData


@event
class Picked(Event):
    """A player added one choice to the plan of the action under way."""

    seat: int
    # JSON, as the option chosen carries it: a name ("gold") or a list of names and numbers ([0, 2, 2]).
    # (Any is also what the codec and a log's audit read as "as it is", as they read the bare `list` before.)
    pick: Any


@event
class Unpicked(Event):
    seat: int


@event
class ActionWithdrawn(Event):
    seat: int


@event
class ActionFinished(Event):
    seat: int


@event
class Scored(Event):
    seat: int
    vp: int
    source: str


@event
class EndOfGameTriggered(Event):
    seat: int
    vp: int


@event
class CentreEnriched(Event):
    removed: tuple[tuple[str, int], ...]  # (metal, owner) of cubes that left past 4'


@event
class WagesPaid(Event):
    seat: int
    due: int
    paid: int


@event
class RoundEnded(Event):
    round: int


@event
class ObjectiveScored(Event):
    seat: int
    objective: str
    measure: int
    vp: int


@event
class GameEnded(Event):
    reason: str  # "vp_goal" | "last_round"
    places: tuple[int, ...]  # place of each seat, 1 = winner
    tiebreak_used: bool


# --- island actions and equipment ------------------------------------------


@event
class ArtifactBought(Event):
    seat: int
    island: int
    metal: str
    price: int


@event
class GalleryFlipped(Event):
    island: int
    column: int
    level: int
    tile: str
    cubes: int


@event
class MinersWorked(Event):
    seat: int
    island: int
    miners: int


@event
class ResourcesMined(Event):
    seat: int
    island: int
    column: int
    level: int
    metal: str
    cubes: int


@event
class GalleryRemoved(Event):
    """A gallery left the board (exhausted, pushed off, demolished) for the discard pile."""

    island: int
    column: int
    level: int
    tile: str
    cubes: int
    why: str  # "exhausted" | "pushed_off" | "demolished"
    face_up: bool = True


@event
class GallerySlid(Event):
    island: int
    column: int


@event
class GalleriesDrawn(Event):
    seat: int | None
    tiles: tuple[str, ...]


@event
class GalleryDeckReshuffled(Event):
    order: tuple[str, ...]


@event
class GalleryPlaced(Event):
    seat: int | None
    tile: str
    island: int
    column: int
    face_up: bool
    cubes: int


@event
class GalleryRewardPaid(Event):
    seat: int
    money: int


@event
class DealDrawn(Event):
    seat: int
    deal: str


@event
class DealClosed(Event):
    seat: int
    deal: str
    paid: tuple[tuple[str, int], ...]  # (metal, level) of the enriched cubes given


@event
class DealDiscarded(Event):
    seat: int
    deal: str
    money: int


@event
class Traded(Event):
    seat: int
    give: tuple[str, ...]  # metals or "money"
    get: str


@event
class EquipmentBought(Event):
    seat: int
    card: str
    cost: int


@event
class MerchantRecruited(Event):
    seat: int
    cost: int


@event
class MinerRecruited(Event):
    seat: int
    cost: int


@event
class ShipmentMade(Event):
    seat: int
    tile: str


@event
class ResourcesEnriched(Event):
    seat: int
    metals: tuple[str, ...]


@event
class EnrichedCubeBought(Event):
    seat: int
    metal: str
    level: int
    owner: int
    price: int


@event
class EnrichedCubeUpgraded(Event):
    seat: int
    metal: str
    level: int  # level before
    cost: int


@event
class CentreCubeUpgraded(Event):
    seat: int
    metal: str
    level: int  # level before; from 4' the cube leaves the game
    owner: int


@event
class ResourceCollected(Event):
    seat: int
    island: int
    column: int
    level: int
    metal: str


@event
class EnrichedCubeCrushed(Event):
    seat: int
    metal: str
    level: int


@event
class MetalSold(Event):
    seat: int
    metal: str
    money: int


@event
class MoneyReceived(Event):
    seat: int
    money: int


@event
class ShipDeparted(Event):
    seat: int
    origin: int
    destination: int


def to_json(ev: Event) -> dict[str, Any]:
    """An event as a JSON object: its fields plus "type"."""
    d: dict[str, Any] = codec.to_plain(ev)
    d["type"] = type(ev).__name__
    return d


def from_json(d: Mapping[str, Any]) -> Event:
    """Rebuild an event; raises KeyError/TypeError/ValueError on a malformed one."""
    fields = dict(d)
    cls = EVENT_TYPES[fields.pop("type")]
    rebuilt: Event = codec.from_plain(cls, fields)
    return rebuilt
