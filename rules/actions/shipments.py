"""Make a Shipment (islands 3 and 4): hand in the raw cubes and artifacts a tile on display asks for,
take its VP and money, and refill the display from the deck."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import events as ev
from ..decision import Cand
from ..flow import finish_action, score
from ..memo import once_per_object
from .base import activity, player

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from ..cards import Content, Shipment
    from ..decision import Emit
    from ..state import GameState, Player, Step
    from .base import Data, StepView

Need = tuple[int, str, int]  # (0 for raw resources or 1 for artifacts, metal, how many)


@once_per_object
def shipment_needs(content: Content) -> dict[str, tuple[Need, ...]]:
    """What each shipment tile asks for, by tile id, flattened for the quick check."""
    return {
        t.id: tuple((0, m, n) for m, n in t.resources.items()) + tuple((1, m, n) for m, n in t.artifacts.items())
        for t in content.shipments.values()
    }


def shipment_shortfall(p: Player, tile: Shipment) -> Callable[[], str] | None:
    """None if `p` can make this shipment, else (lazily) what is missing."""
    for metal, n in tile.resources.items():
        if p.raw[metal] < n:
            return lambda: f"This shipment needs {n} {metal}; you have {p.raw[metal]}"
    for metal, n in tile.artifacts.items():
        if p.artifacts[metal] < n:
            return lambda: f"This shipment needs {n} {metal} artifact; you have {p.artifacts[metal]}"
    return None


def shipment_label(tile: Shipment) -> str:
    parts = [f"{n} {m}" for m, n in tile.resources.items()]
    parts += [f"{n} {m} artifact" for m, n in tile.artifacts.items()]
    return f"Ship {' + '.join(parts)} for {tile.vp} VP and ${tile.money}"


def _shipment_cands(s: GameState, step: StepView) -> Iterator[Cand]:
    p = player(s, step)
    for t in s.shipment_display:
        tile = s.content.shipments[t]
        yield Cand(
            "shipment:" + t,
            lambda tile=tile: shipment_label(tile),  # type: ignore[misc]  # mypy#15459: the default keeps the loop's value
            t,
            shipment_shortfall(p, tile),
        )


def _can_make_shipment(s: GameState, seat: int, data: Data) -> bool:
    """A shipment on display whose every resource and artifact the player holds."""
    p, needs = s.players[seat], shipment_needs(s.content)
    holdings = (p.raw, p.artifacts)
    for t in s.shipment_display:
        for held, metal, n in needs[t]:
            if holdings[held][metal] < n:
                break
        else:
            return True
    return False


def affordable_shipments(s: GameState, seat: int) -> tuple[str, ...]:
    """The shipments on display the player holds every resource and artifact for."""
    p = s.players[seat]
    return tuple(t for t in s.shipment_display if shipment_shortfall(p, s.content.shipments[t]) is None)


def _shipment_apply(s: GameState, step: Step, cand: Cand, emit: Emit) -> None:
    tile = s.content.shipments[cand.payload]
    emit(ev.ShipmentMade(step.seat, tile.id))
    score(s, step.seat, tile.vp, "shipments", emit)
    if s.shipment_deck:
        emit(ev.ShipmentRevealed(s.shipment_deck[0]))
    finish_action(s, step.seat, emit)


activity(
    kind="make_shipment",
    prompt="Which shipment do you make?",
    candidates=_shipment_cands,
    apply=_shipment_apply,
    feasible=_can_make_shipment,
)
