"""Card and option details in words, for the inspect window.

Given an option id of the pending decision (or a card id), say what the card
or action is: its name, cost, what it does and what it needs.
"""

from __future__ import annotations

from rules.actions import ACTION_NAMES
from rules.cards import Content
from rules.decision import plural

ACTION_HELP = {
    "buy_artifact": "Pay 4 raw cubes of one metal for this island's artifact of that metal. "
    "Kept to the end it scores 3 VP; shipped it gives 2 VP and $5.",
    "operate_mining_site": "Send miners to the galleries of this island: one cube per miner at level 1, "
    "one per pair at level 2. Face-down galleries are turned up when mined.",
    "draw_or_close_deal": "Draw a secret deal card, or close one from your hand by paying the enriched "
    "cubes it asks for (same metal, that level or higher) to score its VP.",
    "trade": "Give two goods (raw cubes or $1 each) to the bank for one other good; up to two trades.",
    "buy_equipment": "Buy one equipment card on display: pay its cost, score its VP now, use it later "
    "with a miner once a round.",
    "recruit_merchant": "Pay $3 for one more merchant (7 at most). Wages are due every third round.",
    "recruit_miner": "Pay $2 for one more miner (5 at most). Wages are due every third round.",
    "make_shipment": "Give the raw cubes or artifacts a shipment tile asks for; take its VP and money.",
    "draw_place_galleries": "Draw two gallery tiles and lay them on level 1 of the mining sites, face up or "
    "down, in different columns. Older galleries are pushed down. $2 for one face "
    "up, $3 for two.",
    "enrichment_transaction": "Either send up to 3 raw cubes (2 of a metal at most) to the 0' line of the "
    "Enrichment Center, or buy up to 2 enriched cubes (1' or more) paying their "
    "level to the owner, who scores 1 VP.",
    "depart_island": "Sail your ship to another island. As the first action of your round it ends your turn.",
}


def equipment_text(content: Content, card_id: str) -> tuple[str, str]:
    card = content.equipment[card_id]
    what = card.text if card.effect else "No ability: it only scores its VP when bought."
    return card.name, f"Cost ${card.cost} · {card.vp} VP when bought\n\n{what}"


def shipment_text(content: Content, tile_id: str) -> tuple[str, str]:
    tile = content.shipments[tile_id]
    needs = [f"{n} raw {m}" for m, n in tile.resources.items()] + [
        f"{n} {m} artifact" for m, n in tile.artifacts.items()
    ]
    return "Shipment", f"Needs {', '.join(needs)}\nGives {tile.vp} VP and ${tile.money}"


def deal_text(content: Content, deal_id: str) -> tuple[str, str]:
    deal = content.deals[deal_id]
    needs = ", ".join(f"enriched {metal} at {level}' or higher" for metal, level in deal.requires.items())
    return "Deal", f"Pay {needs}\nScores {deal.vp} VP"


def objective_text(content: Content, objective_id: str) -> tuple[str, str]:
    o = content.objectives[objective_id]
    if o.scoring == "fixed":
        worth = f"{o.vp} VP"
    elif o.scoring == "each":
        worth = f"{o.vp_each} VP each"
    elif o.scoring == "tiers":
        worth = ", ".join(f"{least}+ → {vp} VP" for least, vp in o.tiers)
    else:
        worth = f"{o.vp} VP to whoever has the most (ties share)"
    return o.name, f"{o.text}\nWorth: {worth}"


def corporation_text(content: Content, corp_id: str) -> tuple[str, str]:
    c = content.corporations[corp_id]
    raw = ", ".join(f"{n} {m}" for m, n in c.resources.items()) or "no raw cubes"
    deals = f", {plural(c.deals, 'deal')}" if c.deals else ""
    workers = f"{plural(c.merchants, 'merchant')}, {plural(c.miners, 'miner')}"
    return c.name, f"Starts with {workers}, ${c.money}, {raw}{deals}"


def describe_option(content: Content, option_id: str) -> tuple[str, str] | None:
    """(title, text) for the card or action behind an option, or None if it has none."""
    head, _, rest = option_id.partition(":")
    if head in ("equipment", "use"):
        return equipment_text(content, rest)
    if head == "shipment":
        return shipment_text(content, rest)
    if head in ("close", "discard") and rest:
        return deal_text(content, rest)
    if head == "corporation":
        return corporation_text(content, rest)
    if head == "keep":
        parts = [objective_text(content, o) for o in rest.split("+")]
        return "Objectives to keep", "\n\n".join(f"{name}: {text}" for name, text in parts)
    if head == "do":
        action = rest.split(":")[1]
        return ACTION_NAMES[action], ACTION_HELP[action]
    if head == "place":
        kind = rest.split(":")[0]
        tile = content.galleries[kind]
        what = f"{tile.cubes} {tile.metal}" if tile.metal else "nothing (an empty gallery)"
        return (
            "Gallery tile",
            f"Holds {what}. Face up: its cubes go on it now and everyone sees it. "
            "Face down: nobody else knows it until it is mined.",
        )
    return None
