"""Buy an Equipment (island 2): pay for one card on display, score its VP once, refill the display.

This is only the buying. What a card does when a miner activates it lives with
the island action it resembles (the Underground Loader with mining, a crusher
with the Enrichment Center...); the table in `rules/__init__.py` says where each is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import events as ev
from ..decision import Cand
from ..flow import finish_action, score
from .base import activity, player

if TYPE_CHECKING:
    from collections.abc import Iterator

    from ..decision import Emit
    from ..state import GameState, Step
    from .base import Data, StepView


def _equipment_cands(s: GameState, step: StepView) -> Iterator[Cand]:
    p = player(s, step)
    for card_id in s.equipment_display:
        card = s.content.equipment[card_id]
        reason = (
            (lambda card=card: f"{card.name} costs ${card.cost}; you have ${p.money}") if card.cost > p.money else None
        )
        yield Cand(
            "equipment:" + card_id,
            lambda card=card: f"{card.name} (${card.cost}, {card.vp} VP)",  # type: ignore[misc]  # mypy#15459: the default keeps the loop's value
            card_id,
            reason,
        )


def _can_buy_equipment(s: GameState, seat: int, data: Data) -> bool:
    """A card on display that the player can pay for."""
    money, cards = s.players[seat].money, s.content.equipment
    for card_id in s.equipment_display:
        if cards[card_id].cost <= money:
            return True
    return False


def affordable_equipment(s: GameState, seat: int) -> tuple[str, ...]:
    """The cards on display the player could pay for now."""
    money, cards = s.players[seat].money, s.content.equipment
    return tuple(card_id for card_id in s.equipment_display if cards[card_id].cost <= money)


def _equipment_apply(s: GameState, step: Step, cand: Cand, emit: Emit) -> None:
    card = s.content.equipment[cand.payload]
    emit(ev.EquipmentBought(step.seat, card.id, card.cost))
    score(s, step.seat, card.vp, "equipment", emit)
    if s.equipment_deck:
        emit(ev.EquipmentRevealed(s.equipment_deck[0]))
    finish_action(s, step.seat, emit)


activity(
    kind="buy_equipment",
    prompt="Which equipment do you buy?",
    candidates=_equipment_cands,
    apply=_equipment_apply,
    feasible=_can_buy_equipment,
)
