"""Buy an Artifact (islands 1 and 2): one artifact still on the island, paid in raw cubes of its metal.

An island holds one artifact of each metal; the price (`artifact_price` on the
board, 4 in the rulebook) is the same for every metal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import events as ev
from ..cards import METALS
from ..decision import Cand
from ..flow import finish_action
from .base import activity, player

if TYPE_CHECKING:
    from collections.abc import Iterator

    from ..decision import Emit
    from ..state import GameState, Step
    from .base import Data, StepView


def _artifact_cands(s: GameState, step: StepView) -> Iterator[Cand]:
    p, price = player(s, step), s.board.artifact_price
    island = step.data["island"]
    for metal in METALS:
        label = _ARTIFACT_LABELS.get((metal, price)) or _artifact_label(metal, price)
        if metal not in s.artifacts.get(island, ()):
            yield Cand(
                "artifact:" + metal,
                label,
                metal,
                lambda metal=metal: f"The {metal} artifact of island {island} has been bought",  # type: ignore[misc]  # mypy#15459: the default keeps the loop's value
            )
        elif p.raw[metal] < price:
            yield Cand(
                "artifact:" + metal,
                label,
                metal,
                lambda metal=metal: f"An artifact costs {price} {metal}; you have {p.raw[metal]}",  # type: ignore[misc]  # mypy#15459: the default keeps the loop's value
            )
        else:
            yield Cand("artifact:" + metal, label, metal)


def _artifact_label(metal: str, price: int) -> str:
    return f"{metal.capitalize()} artifact for {price} {metal}"


_ARTIFACT_LABELS = {(m, n): _artifact_label(m, n) for m in METALS for n in range(1, 10)}
"""The usual labels, made once; a deck's price outside them (up to 20) gets its label when asked."""


def _can_buy_artifact(s: GameState, seat: int, data: Data) -> bool:
    """An artifact still on this island that the player has the raw cubes for."""
    raw, price = s.players[seat].raw, s.content.board.artifact_price
    for metal in s.artifacts.get(data["island"], ()):
        if raw[metal] >= price:
            return True
    return False


def _artifact_apply(s: GameState, step: Step, cand: Cand, emit: Emit) -> None:
    emit(ev.ArtifactBought(step.seat, step.data["island"], cand.payload, s.board.artifact_price))
    finish_action(s, step.seat, emit)


activity(
    kind="buy_artifact",
    prompt="Which artifact do you buy?",
    candidates=_artifact_cands,
    apply=_artifact_apply,
    feasible=_can_buy_artifact,
)
