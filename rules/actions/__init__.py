"""Island actions and equipment effects, bound by name to their activities.

`island_activity` and `equipment_activity` turn a name from the content (with
its parameters) into the activity kind that runs it and that activity's fixed
data. The same activity serves an island action and the equipment cards that
do a variant of it (a deal closed with a Bulldozer, a trade made with a Tipper...).
"""

from __future__ import annotations

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


def island_activity(action: str, board, island: int) -> tuple[str, dict]:
    data: dict = {"island": island}
    if action == "draw_or_close_deal":
        return "deal", {**data, "draw": True, "close": True, "bonus": 0}
    if action == "trade":
        return "trade", {**data, "max": board.trades_per_action, "give": board.trade_give, "trades": 0}
    if action == "enrichment_transaction":
        return action, {**data, "modes": ["enrich", "buy"], "enrich": board.enrich_max, "buy": board.buy_enriched_max}
    return action, data


def equipment_activity(effect: str, params) -> tuple[str, dict]:
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


__all__ = ["ACTIVITIES", "Activity", "ACTION_NAMES", "island_activity", "equipment_activity"]
