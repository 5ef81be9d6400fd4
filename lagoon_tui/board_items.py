"""Everything on the board that has a name, as one seat may read it: `board_items(scene)`.

Look mode (`lagoon_tui.screens.look`) moves a cursor over these and reads
each in full. They are made from the scene the panels were drawn from (the
seat's message: a face-down gallery, another player's objectives and deals
in hand are not in it, so they cannot be read), in the order the board shows
them: the tracks, the islands' action spaces, the mining sites, the
Enrichment Center, the market, then each player's board. The cards' words are
the content's (`cards_text`); nothing here works out a rule.
"""

from __future__ import annotations

from typing import NamedTuple

from rules.seat import METALS, action_help, plural

from .cards_text import corporation_text, deal_text, equipment_text, objective_text, shipment_text
from .scene import Scene

LEVELS = (2, 1)  # a mining site's levels, top to bottom as the panel draws them


class Spot(NamedTuple):
    """The panel an item is drawn on: its kind ("score", "rounds", "island", "site", "centre",
    "market", "board") and which one (an island's number, a seat), if there are several."""

    panel: str
    number: int | None = None


class Item(NamedTuple):
    """One thing on the board: where it is, a short name for the look line, its full text, and the key
    its panel tags the words it draws for it with (`widgets.spotlight`; "" for a panel that is the item)."""

    spot: Spot
    name: str
    text: str
    key: str = ""

    @property
    def summary(self) -> str:
        """The first line of its text (for the look line)."""
        return self.text.split("\n", 1)[0]


def card_key(card_id: str) -> str:
    """A card or tile on display or on a player's board (each is in one place at a time)."""
    return f"card:{card_id}"


def gallery_key(island: int, column: int, level: int) -> str:
    """A slot of a mining site (`column` from 0)."""
    return f"gallery:{island}:{column}:{level}"


def space_key(space: str) -> str:
    """An action space of an island, as `Space.key` names it ("2:trade")."""
    return f"space:{space}"


def centre_key(metal: str) -> str:
    """A metal's row of the Enrichment Center."""
    return f"centre:{metal}"


def supplies_key(seat: int) -> str:
    """A player's money, VP and ship (the first line of their board)."""
    return f"supplies:{seat}"


DECKS_KEY = "decks"
"""The market's line of cards left in each deck."""


def secret_key(seat: int) -> str:
    """What a player's board says of their secret cards."""
    return f"secret:{seat}"


def board_items(scene: Scene) -> list[Item]:
    """Every item of the board `scene` shows, in the order the board shows them."""
    return [
        *_tracks(scene),
        *_islands(scene),
        *_sites(scene),
        *_centre(scene),
        *_market(scene),
        *(item for p in scene.players for item in _player(scene, p["seat"])),
    ]


def _who(scene: Scene, seat: int | None) -> str:
    return scene.tag(seat).plain


def _tracks(scene: Scene) -> list[Item]:
    view, board = scene.view, scene.content.board
    scores = "\n".join(f"{_who(scene, p['seat'])}: {p['vp']} VP" for p in scene.players)
    goal = f"Goal: {board.vp_goal} VP"
    if view.get("end_triggered"):
        goal += " (reached: this round is the last)"
    order = ", ".join(_who(scene, seat) for seat in view.get("turn_order") or [])
    wages = ", ".join(str(r) for r in board.wage_rounds) or "none"
    rounds = f"Round {view.get('round', 0)} of {board.rounds}\nWage rounds: {wages}"
    if order:
        rounds += f"\nTurn order: {order}"
    return [
        Item(Spot("score"), "Score track", f"{goal}\n{scores}"),
        Item(Spot("rounds"), "Round track", rounds),
    ]


def _islands(scene: Scene) -> list[Item]:
    board, out = scene.content.board, []
    for space in scene.spaces:
        users = ", ".join(_who(scene, seat) for seat in space.users) or "nobody yet"
        facts = [f"Taken this round by: {users}"]
        if scene.seat is not None and not space.by_miners:
            facts.append(f"It would cost you {plural(space.merchants, 'merchant')}")
        if space.action == "buy_artifact":
            left = (scene.view.get("artifacts") or {}).get(str(space.island)) or []
            facts.append(f"Artifacts here: {', '.join(left) or 'none left'}")
        text = "\n".join([action_help(board, space.action), "", *facts])
        name = f"Island {space.island} · {space.name}"
        out.append(Item(Spot("island", space.island), name, text, space_key(space.key)))
    return out


def _sites(scene: Scene) -> list[Item]:
    out = []
    for number, site in sorted(((int(k), v) for k, v in (scene.view.get("sites") or {}).items())):
        for c, column in enumerate(site["columns"]):
            for level in LEVELS:
                gallery = column[level - 1] if level - 1 < len(column) else None
                name = f"Island {number} mines · column {c + 1}, level {level}"
                out.append(Item(Spot("site", number), name, _gallery(scene, gallery), gallery_key(number, c, level)))
    return out


def _gallery(scene: Scene, gallery: dict | None) -> str:
    """A slot of a mining site as the seat may know it."""
    if gallery is None:
        return "An empty slot: no gallery here."
    placed = gallery.get("placed_by")
    by = f"\nPlaced by {_who(scene, placed)}" if placed is not None else "\nLaid out at the start of the game"
    tile_id = gallery.get("tile")
    if not gallery.get("face_up"):
        if tile_id is None:
            return f"A face-down gallery: what it holds is not known to you until it is mined.{by}"
        hidden = scene.content.gallery(tile_id)
        holds = f"{hidden.cubes} {hidden.metal}" if hidden.metal else "nothing (an empty gallery)"
        return f"A face-down gallery you placed: it holds {holds}; nobody else knows.{by}"
    tile = scene.content.gallery(tile_id) if tile_id else None
    if tile is None or not tile.metal:
        return f"A face-up empty gallery: it holds no cubes.{by}"
    left = gallery.get("cubes", 0)
    return f"A face-up {tile.metal} gallery: {left} of its {plural(tile.cubes, 'cube')} left.{by}"


def _centre(scene: Scene) -> list[Item]:
    centre, out = scene.view.get("centre") or {}, []
    for metal in METALS:
        rows = []
        for level, owners in enumerate(centre.get(metal) or []):
            if owners:
                rows.append(f"{level}': " + ", ".join(_who(scene, seat) for seat in owners))
        text = "\n".join(rows) if rows else f"No enriched {metal} cubes in the centre."
        out.append(Item(Spot("centre"), f"Enrichment Center · {metal}", text, centre_key(metal)))
    return out


def _market(scene: Scene) -> list[Item]:
    view, content, out = scene.view, scene.content, []
    for card_id in view.get("equipment_display") or []:
        name, text = equipment_text(content, card_id)
        out.append(Item(Spot("market"), f"For sale: {name}", _payable(scene, card_id, text), card_key(card_id)))
    for tile_id in view.get("shipment_display") or []:
        _, text = shipment_text(content, tile_id)
        name = f"Shipment on display: {_first(text)}"
        out.append(Item(Spot("market"), name, _payable(scene, tile_id, text), card_key(tile_id)))
    decks = (
        f"Equipment: {view.get('equipment_deck', 0)}\nShipments: {view.get('shipment_deck', 0)}\n"
        f"Deals: {view.get('deal_deck', 0)}\nGalleries: {view.get('gallery_deck', 0)}"
        f" ({view.get('gallery_discard', 0)} discarded)"
    )
    out.append(Item(Spot("market"), "Decks", f"Cards left in each deck\n{decks}", DECKS_KEY))
    return out


def _first(text: str) -> str:
    return text.split("\n", 1)[0]


def _payable(scene: Scene, card_id: str, text: str) -> str:
    if scene.seat is None:
        return text
    could = "You could pay for it now." if card_id in scene.can_pay else "You could not pay for it now."
    return f"{text}\n\n{could}"


def _player(scene: Scene, seat: int) -> list[Item]:
    content, p, who = scene.content, scene.player(seat), _who(scene, seat)
    spot, out = Spot("board", seat), []
    out.append(Item(spot, f"{who} · supplies", _supplies(p), supplies_key(seat)))
    corp = p.get("corporation")
    if corp:
        name, text = corporation_text(content, corp)
        out.append(Item(spot, f"{who} · {name}", f"Corporation of {who}\n{text}", card_key(corp)))
    used = set(p.get("equipment_used") or [])
    for card_id in p.get("equipment") or []:
        name, text = equipment_text(content, card_id)
        state = "used this round" if card_id in used else "not used this round"
        out.append(Item(spot, f"{who} · {name}", f"Equipment of {who}, {state}\n{text}", card_key(card_id)))
    for tile_id in p.get("shipments") or []:
        if tile_id is not None:
            _, text = shipment_text(content, tile_id)
            out.append(Item(spot, f"{who} · shipment made: {_first(text)}", f"Shipment made by {who}\n{text}"))
    for deal_id in p.get("deals_closed") or []:
        if deal_id is not None:
            _, text = deal_text(content, deal_id)
            out.append(Item(spot, f"{who} · deal closed", f"Deal closed by {who}\n{text}"))
    out.extend(_secrets(scene, seat))
    return out


def _supplies(p: dict) -> str:
    raw = ", ".join(f"{n} {metal}" for metal, n in (p.get("raw") or {}).items() if n) or "none"
    enriched = (
        ", ".join(
            f"{metal} at {' '.join(f'{level}{chr(39)}' for level in levels)}"
            for metal, levels in (p.get("enriched") or {}).items()
            if levels
        )
        or "none"
    )
    artifacts = ", ".join(f"{n} {metal}" for metal, n in (p.get("artifacts") or {}).items() if n) or "none"
    return (
        f"Money ${p['money']} · {p['vp']} VP\n"
        f"Merchants: {p['merchants'] - p['merchants_used']} free of {p['merchants']}\n"
        f"Miners: {p['miners'] - p['miners_used']} free of {p['miners']}\n"
        f"Raw cubes: {raw}\nEnriched cubes: {enriched}\n"
        f"Artifacts: {artifacts}"
    )


def _secrets(scene: Scene, seat: int) -> list[Item]:
    """The player's objectives and deals in hand: each in full where the seat may know it, else only how many."""
    content, p, who = scene.content, scene.player(seat), _who(scene, seat)
    spot, out = Spot("board", seat), []
    objectives = p.get("objectives") or p.get("objective_offer") or []
    deals = p.get("deals") or []
    for objective_id in objectives:
        if objective_id is not None:
            name, text = objective_text(content, objective_id)
            out.append(Item(spot, f"{who} · objective: {name}", f"Objective of {who}\n{text}", card_key(objective_id)))
    for deal_id in deals:
        if deal_id is not None:
            _, text = deal_text(content, deal_id)
            out.append(Item(spot, f"{who} · deal in hand", f"Deal in hand of {who}\n{text}", card_key(deal_id)))
    hidden = [
        plural(n, word, many)
        for n, word, many in (
            (sum(o is None for o in objectives), "objective", None),
            (sum(d is None for d in deals), "deal in hand", "deals in hand"),
        )
        if n
    ]
    if hidden:
        text = f"Secret: {' and '.join(hidden)}. Only {who} can read them until the game is over."
        out.append(Item(spot, f"{who} · secret cards", text, secret_key(seat)))
    return out
