"""Island actions and equipment effects, bound by name to their activities.

`island_activity` and `equipment_activity` turn a name from the content (with
its parameters) into the activity kind that runs it and that activity's fixed
data. The same activity serves an island action and the equipment cards that
do a variant of it (a deal closed with a Bulldozer, a trade made with a Tipper...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import (  # noqa: F401  (register activities)
    artifacts,
    deals,
    depart,
    enrichment,
    equipment,
    galleries,
    mining,
    payouts,
    recruiting,
    shipments,
    trade,
)
from .base import ACTIVITIES, Activity

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ..cards import Board
    from ..events import ActionData

ACTION_NAMES = {
    "buy_artifact": "Buy an Artifact",
    "operate_mining_site": "Operate Mining Site",
    "draw_or_close_deal": "Draw or Close a Deal",
    "trade": "Trade",
    "buy_equipment": "Buy an Equipment",
    "recruit_merchant": "Recruit a Merchant",
    "recruit_miner": "Recruit a Miner",
    "make_shipment": "Make a Shipment",
    "draw_place_galleries": "Draw & Place 2 Galleries",
    "enrichment_transaction": "Enrichment Transaction",
    "depart_island": "Depart Island",
}


def action_help(board: Board, action: str) -> str:
    """What an island action does, in a few sentences with this board's numbers (for the inspect window)."""
    gallery_money = " or ".join(f"${m} for {n} face up" for n, m in enumerate(board.gallery_reward) if m)
    texts = {
        "buy_artifact": f"Pay {board.artifact_price} raw cubes of one metal for this island's artifact of that "
        f"metal. Kept to the end it scores {board.artifact_vp} VP; a shipment tile may ask for it instead.",
        "operate_mining_site": "Send miners to the galleries of this island: one cube per miner at level 1, "
        "one per pair at level 2. A face-down gallery is turned up when it is mined.",
        "draw_or_close_deal": "Draw a secret deal card, or close one from your hand by paying the enriched "
        "cubes it asks for (the same metal, at that level or higher) to score its VP.",
        "trade": f"Give {board.trade_give} goods (raw cubes, or $1 each) to the bank for one other good; "
        f"up to {board.trades_per_action} trades.",
        "buy_equipment": "Buy one equipment card on display: pay its cost and score its VP now; use it "
        "later with a miner, once a round.",
        "recruit_merchant": f"Pay ${board.merchant_cost} for one more merchant ({board.merchants_max} at "
        "most). Wages are due in some rounds (the round track marks them).",
        "recruit_miner": f"Pay ${board.miner_cost} for one more miner ({board.miners_max} at most). Wages "
        "are due in some rounds (the round track marks them).",
        "make_shipment": "Give the raw cubes or artifacts a shipment tile on display asks for; take its VP and money.",
        "draw_place_galleries": f"Draw {board.gallery_draw} gallery tiles and lay them on level 1 of the "
        "mining sites, face up or down, in different columns; older galleries are pushed down. "
        f"Paid {gallery_money}.",
        "enrichment_transaction": f"Either send up to {board.enrich_max} raw cubes (at most "
        f"{board.enrich_same_metal_max} of one metal) to the 0' line of the Enrichment Center, or buy up "
        f"to {board.buy_enriched_max} enriched cubes (1' or higher), paying their level to their owner, "
        f"who scores {board.owner_vp} VP.",
        "depart_island": "Sail your ship to another island. As the first action of your round it ends your turn.",
    }
    return texts[action]


def island_activity(action: str, board: Board, island: int) -> tuple[str, ActionData]:
    data: ActionData = {"island": island}
    if action == "draw_or_close_deal":
        return "deal", {**data, "draw": True, "close": True, "bonus": 0}
    if action == "trade":
        return "trade", {**data, "max": board.trades_per_action, "give": board.trade_give, "trades": 0}
    if action == "enrichment_transaction":
        return action, {**data, "modes": ["enrich", "buy"], "enrich": board.enrich_max, "buy": board.buy_enriched_max}
    return action, data


def equipment_activity(effect: str, params: Mapping[str, object]) -> tuple[str, ActionData]:
    p = dict(params)
    if effect == "discard_deal_for_money":
        return "discard_deal", p
    if effect == "buy_enriched":
        return "enrichment_transaction", {"modes": ["buy"], "buy": p["count"], "enrich": 0}
    if effect == "enrich":
        return "enrichment_transaction", {"modes": ["enrich"], "enrich": p["count"], "buy": 0}
    if effect == "close_deal":
        return "deal", {"draw": False, "close": True, "bonus": p["bonus_vp"]}
    if effect == "draw_or_close_deal":
        return "deal", {"draw": True, "close": True, "bonus": 0}
    if effect == "trade":
        return "trade", {"max": p["trades"], "give": p["give"], "trades": 0}
    return effect, p


__all__ = ["ACTIVITIES", "Activity", "ACTION_NAMES", "action_help", "island_activity", "equipment_activity"]
