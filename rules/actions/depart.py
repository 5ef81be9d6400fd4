"""Depart Island (every island): sail to another island, whose actions are then the player's.

Done as the first action of a round it ends the turn: nobody may leave the
island they chose and act at once on another (unfair to whoever chose that one).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import events as ev
from ..decision import Cand
from ..flow import finish_action
from ..memo import once_per_object
from .base import activity, player

if TYPE_CHECKING:
    from collections.abc import Iterator

    from ..cards import Board
    from ..decision import Emit
    from ..state import GameState, Step
    from .base import Data, StepView


@once_per_object
def _voyages(board: Board) -> tuple[Cand, ...]:
    """The choice of every island a ship can sail to (its number is the payload), built once per board."""
    return tuple(Cand(f"island:{i.number}", f"Sail to island {i.number} ({i.name})", i.number) for i in board.islands)


def _depart_cands(s: GameState, step: StepView) -> Iterator[Cand]:
    here = player(s, step).island
    for voyage in _voyages(s.content.board):
        if voyage.payload != here:
            yield voyage


def _can_depart(s: GameState, seat: int, data: Data) -> bool:
    """Another island to sail to (on a board of two islands or more there always is)."""
    islands = s.content.board.islands
    return len(islands) > 1 or any(i.number != s.players[seat].island for i in islands)


def _depart_apply(s: GameState, step: Step, cand: Cand, emit: Emit) -> None:
    p = player(s, step)
    first_of_round = p.actions_this_round == 0
    assert p.island is not None  # (a player acts on the island their ship is docked at)
    emit(ev.ShipDeparted(step.seat, p.island, cand.payload))
    finish_action(s, step.seat, emit, ends_turn=first_of_round)


activity(
    kind="depart_island",
    prompt="Where does your ship sail?",
    candidates=_depart_cands,
    apply=_depart_apply,
    feasible=_can_depart,
)
