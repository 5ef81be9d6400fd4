"""Recruit a Merchant (island 3) and Recruit a Miner (island 4): pay for one more worker, up to the most allowed.

The two actions differ only in the worker, its price and its limit, so one
function makes both; neither asks anything, so both are done at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import events as ev
from .base import activity

if TYPE_CHECKING:
    from ..decision import Emit
    from ..state import GameState
    from .base import Data


def _recruit(worker: str) -> None:
    def blocked(s: GameState, seat: int, data: Data) -> str | None:
        p, board = s.players[seat], s.content.board
        have, cap = (p.merchants, board.merchants_max) if worker == "merchant" else (p.miners, board.miners_max)
        cost = board.merchant_cost if worker == "merchant" else board.miner_cost
        if have >= cap:
            return f"You already have {have} {worker}s, the most a player may have"
        if p.money < cost:
            return f"A {worker} costs ${cost}; you have ${p.money}"
        return None

    def immediate(s: GameState, seat: int, data: Data, emit: Emit) -> None:
        if worker == "merchant":
            emit(ev.MerchantRecruited(seat, s.board.merchant_cost))
        else:
            emit(ev.MinerRecruited(seat, s.board.miner_cost))

    activity(kind=f"recruit_{worker}", prompt=f"Recruit a {worker}", blocked=blocked, immediate=immediate)


_recruit("merchant")
_recruit("miner")
