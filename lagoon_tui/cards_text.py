"""Card and option details in words, for the inspect window.

Given an option of the pending decision (a `rules.seat.Choice`, which names
what it is about) or a card id, say what the card or action is: its name, its
cost, what it does and what it needs.
"""

from __future__ import annotations

from rules.seat import ACTION_NAMES, Choice, Content, action_help, plural


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


def describe_option(content: Content, choice: Choice) -> tuple[str, str] | None:
    """(title, text) for the card or action behind an option, or None if it has none."""
    refers = choice.refers
    if refers.action is not None:
        return ACTION_NAMES[refers.action], action_help(content.board, refers.action)
    if not refers.cards:
        return None
    card = refers.cards[0]
    if card in content.galleries:  # a tile to place
        tile = content.galleries[card]
        what = f"{tile.cubes} {tile.metal}" if tile.metal else "nothing (an empty gallery)"
        return (
            "Gallery tile",
            f"Holds {what}. Face up: its cubes go on it now and everyone sees it. "
            "Face down: nobody else knows it until it is mined.",
        )
    if card in content.objectives:
        parts = [objective_text(content, o) for o in refers.cards]
        return "Objectives to keep", "\n\n".join(f"{name}: {text}" for name, text in parts)
    for cards, text in (
        (content.equipment, equipment_text),
        (content.shipments, shipment_text),
        (content.deals, deal_text),
        (content.corporations, corporation_text),
    ):
        if card in cards:
            return text(content, card)
    return None
