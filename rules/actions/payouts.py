"""Equipment that only pays out from the bank: a metal Loader sells one raw cube, the Rock Cutter gives money.

Neither asks anything, so both are done at once. The Generator also pays, but
for a deal, so it lives with the deals in `deals.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import events as ev
from .base import activity

if TYPE_CHECKING:
    from ..state import GameState
    from .base import Data


def _sell_blocked(s: GameState, seat: int, data: Data) -> str | None:
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
