"""Equipment that only pays out from the bank: a metal Loader sells one raw cube, the Rock Cutter gives money.

Neither asks anything, so both are done at once. The Generator also pays, but
for a deal, so it lives with the deals in `deals.py`.
"""

from __future__ import annotations

from .. import events as ev
from .base import activity


def _sell_blocked(s, seat, data):
    metal = data["metal"]
    return None if s.players[seat].raw[metal] else f"You have no {metal} to sell"


activity(
    kind="sell_metal",
    prompt="Sell a resource",
    blocked=_sell_blocked,
    immediate=lambda s, seat, data, emit: emit(ev.MetalSold(seat, data["metal"], data["money"])),
)

activity(
    kind="gain_money",
    prompt="Take money from the bank",
    blocked=lambda s, seat, data: None,
    immediate=lambda s, seat, data, emit: emit(ev.MoneyReceived(seat, data["amount"])),
)
