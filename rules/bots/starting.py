"""What a start is worth to the bot: the corporations and objectives it may choose at setup."""

from __future__ import annotations

from rules import vp_at
from rules.cards import Corporation, Objective

TYPICAL_END: dict[str | tuple[str, object], int] = {
    "centre_value": 2,
    "shipments_of_size": 2,
    "enriched_on_board": 4,
    "artifacts": 1,
    "artifact_shipments": 0,
    "equipment": 1,
    "deals_closed": 2,
    "shipments": 2,
    "money": 5,
    "workers": 8,
    ("workers", "miners"): 4,
    ("workers", "merchants"): 4,
    "raw_resources": 3,
    "metals_enriched": 2,
}
"""What a bot typically ends the game with (measured with bench/balance.py), by measure
or by measure and kind of worker; used only to guess, at setup, which objectives are
worth keeping."""

KEEPER_END = {"raw_resources": 7, "money": 9}
"""What a bot that keeps an objective on these measures typically reaches, since it
steers toward them (it holds cubes or cash back); estimated from what keepers of War
Chest and Stockpiler scored in bench/balance.py."""


def objective_prospect(objective: Objective, players: int) -> float:
    """What an objective will probably pay a bot, judged from a typical bot's end of game."""
    typical: float = TYPICAL_END.get((objective.measure, objective.params.get("kind")), TYPICAL_END[objective.measure])
    if objective.scoring != "most":
        typical = KEEPER_END.get(objective.measure, typical)
    if objective.params.get("metal"):
        typical /= 2
    if objective.scoring == "most":
        return objective.vp * 1.3 / players
    return (vp_at(objective, typical) + vp_at(objective, typical + 1)) / 2


def corporation_worth(corporation: Corporation) -> float:
    """A start in dollars: a merchant $6, a miner $4, a raw cube $1.5, a deal card $1."""
    return (
        6 * corporation.merchants
        + 4 * corporation.miners
        + corporation.money
        + 1.5 * sum(corporation.resources.values())
        + corporation.deals
    )
