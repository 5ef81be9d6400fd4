"""Recruit a Merchant (island 3) and Recruit a Miner (island 4): pay for one more worker, up to the most allowed.

The two actions differ only in the worker, its price and its limit, so one
function makes both; neither asks anything, so both are done at once.
"""

from __future__ import annotations

from .. import events as ev
from .base import activity


def _recruit(worker: str):
    def blocked(s, seat, data):
        p, board = s.players[seat], s.content.board
        have, cap = (p.merchants, board.merchants_max) if worker == "merchant" else (p.miners, board.miners_max)
        cost = board.merchant_cost if worker == "merchant" else board.miner_cost
        if have >= cap:
            return f"You already have {have} {worker}s, the most a player may have"
        if p.money < cost:
            return f"A {worker} costs ${cost}; you have ${p.money}"
        return None

    def immediate(s, seat, data, emit):
        if worker == "merchant":
            emit(ev.MerchantRecruited(seat, s.board.merchant_cost))
        else:
            emit(ev.MinerRecruited(seat, s.board.miner_cost))

    activity(kind=f"recruit_{worker}", prompt=f"Recruit a {worker}", blocked=blocked, immediate=immediate)


_recruit("merchant")
_recruit("miner")
