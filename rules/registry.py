"""Names that content may use, with the parameters each takes.

Equipment effects, objective measures and island actions in the TOML files are
names from these tables. The loader checks every name and parameter against
them; the engine binds each name to its implementation (and a test checks
that every name here has one).

A parameter spec is `(kind, default)`: kind is "int" (a whole number ≥ 0),
"count" (a whole number ≥ 1), "level" (1–4), "metal" (one of the four metals)
or a tuple of allowed words.
A default of `REQUIRED` means the parameter must be given.
"""

from __future__ import annotations

REQUIRED = object()

Parameter = tuple[str | tuple[str, ...], object]
"""A parameter's `(kind, default)`: its default is whatever the content may give it, or REQUIRED."""

EFFECTS: dict[str, dict[str, Parameter]] = {
    "discard_deal_for_money": {"money": ("int", REQUIRED)},
    "buy_enriched": {"count": ("int", 1)},
    "enrich": {"count": ("int", 1)},
    "upgrade_own_enriched": {"cost": ("int", 1)},
    "upgrade_centre": {},
    "collect_from_gallery": {"level": ("level", REQUIRED)},
    "close_deal": {"bonus_vp": ("int", 0)},
    "crush": {"min_level": ("level", REQUIRED), "vp": ("int", REQUIRED)},
    "sell_metal": {"metal": ("metal", REQUIRED), "money": ("int", REQUIRED)},
    "draw_or_close_deal": {},
    "draw_deal": {},
    "gain_money": {"amount": ("int", REQUIRED)},
    "demolish_gallery": {},
    "trade": {"trades": ("count", 1), "give": ("count", 1)},  # giving nothing for a good is no trade
}

MEASURES: dict[str, dict[str, Parameter]] = {
    "centre_value": {},
    "shipments_of_size": {"min_size": ("int", REQUIRED)},
    "enriched_on_board": {"metal": ("metal", None)},
    "artifacts": {"metal": ("metal", None)},
    "artifact_shipments": {},
    "equipment": {},
    "deals_closed": {},
    "shipments": {},
    "money": {},
    "workers": {"kind": (("miners", "merchants", "all"), "all")},
    "raw_resources": {"metal": ("metal", None)},
    "metals_enriched": {},
}

ISLAND_ACTIONS: tuple[str, ...] = (
    "buy_artifact",
    "operate_mining_site",
    "draw_or_close_deal",
    "trade",
    "buy_equipment",
    "recruit_merchant",
    "recruit_miner",
    "make_shipment",
    "draw_place_galleries",
    "enrichment_transaction",
    "depart_island",
)

MINER_ACTIONS: frozenset[str] = frozenset({"operate_mining_site"})
"""Island actions done with miners; every other island action takes merchants."""
