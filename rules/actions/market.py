"""Buying and recruiting: artifacts, equipment, shipments, merchants, miners; and simple effects."""
from __future__ import annotations


from .. import events as ev
from ..cards import METALS
from ..decision import Cand
from ..memo import once_per_object
from ..turns import finish_action, score
from .base import activity, player


# --- Buy an Artifact (islands 1 and 2) -------------------------------------------

def _artifact_cands(s, step):
    p, price = player(s, step), s.board.artifact_price
    island = step.data["island"]
    for metal in METALS:
        label = _ARTIFACT_LABELS.get((metal, price)) or _artifact_label(metal, price)
        if metal not in s.artifacts.get(island, ()):
            yield Cand("artifact:" + metal, label, metal,
                       lambda metal=metal: f"The {metal} artifact of island {island} has been bought")
        elif p.raw[metal] < price:
            yield Cand("artifact:" + metal, label, metal,
                       lambda metal=metal: f"An artifact costs {price} {metal}; you have {p.raw[metal]}")
        else:
            yield Cand("artifact:" + metal, label, metal)


def _artifact_label(metal: str, price: int) -> str:
    return f"{metal.capitalize()} artifact for {price} {metal}"


_ARTIFACT_LABELS = {(m, n): _artifact_label(m, n) for m in METALS for n in range(1, 10)}
"""The usual labels, made once; a deck's price outside them (up to 20) gets its label when asked."""


def _can_buy_artifact(s, seat, data) -> bool:
    """An artifact still on this island that the player has the raw cubes for."""
    raw, price = s.players[seat].raw, s.content.board.artifact_price
    for metal in s.artifacts.get(data["island"], ()):
        if raw[metal] >= price:
            return True
    return False


def _artifact_apply(s, step, cand, emit):
    emit(ev.ArtifactBought(step.seat, step.data["island"], cand.payload, s.board.artifact_price))
    finish_action(s, step.seat, emit)


activity(kind="buy_artifact", prompt="Which artifact do you buy?",
         candidates=_artifact_cands, apply=_artifact_apply, feasible=_can_buy_artifact)


# --- Buy an Equipment (island 2) -----------------------------------------------------

def _equipment_cands(s, step):
    p = player(s, step)
    for card_id in s.equipment_display:
        card = s.content.equipment[card_id]
        reason = (lambda card=card: f"{card.name} costs ${card.cost}; you have ${p.money}") if card.cost > p.money else None
        yield Cand("equipment:" + card_id, lambda card=card: f"{card.name} (${card.cost}, {card.vp} VP)", card_id, reason)


def _can_buy_equipment(s, seat, data) -> bool:
    """A card on display that the player can pay for."""
    money, cards = s.players[seat].money, s.content.equipment
    for card_id in s.equipment_display:
        if cards[card_id].cost <= money:
            return True
    return False


def _equipment_apply(s, step, cand, emit):
    card = s.content.equipment[cand.payload]
    emit(ev.EquipmentBought(step.seat, card.id, card.cost))
    score(s, step.seat, card.vp, "equipment", emit)
    if s.equipment_deck:
        emit(ev.EquipmentRevealed(s.equipment_deck[0]))
    finish_action(s, step.seat, emit)


activity(kind="buy_equipment", prompt="Which equipment do you buy?",
         candidates=_equipment_cands, apply=_equipment_apply, feasible=_can_buy_equipment)


# --- Make a Shipment (islands 3 and 4) ----------------------------------------------

Need = tuple[int, str, int]  # (0 for raw resources or 1 for artifacts, metal, how many)


@once_per_object
def shipment_needs(content) -> dict[str, tuple[Need, ...]]:
    """What each shipment tile asks for, by tile id, flattened for the quick check."""
    return {t.id: tuple((0, m, n) for m, n in t.resources.items()) + tuple((1, m, n) for m, n in t.artifacts.items())
            for t in content.shipments.values()}


def shipment_shortfall(p, tile):
    """None if `p` can make this shipment, else (lazily) what is missing."""
    for metal, n in tile.resources.items():
        if p.raw[metal] < n:
            return lambda: f"This shipment needs {n} {metal}; you have {p.raw[metal]}"
    for metal, n in tile.artifacts.items():
        if p.artifacts[metal] < n:
            return lambda: f"This shipment needs {n} {metal} artifact; you have {p.artifacts[metal]}"
    return None


def shipment_label(tile) -> str:
    parts = [f"{n} {m}" for m, n in tile.resources.items()]
    parts += [f"{n} {m} artifact" for m, n in tile.artifacts.items()]
    return f"Ship {' + '.join(parts)} for {tile.vp} VP and ${tile.money}"


def _shipment_cands(s, step):
    p = player(s, step)
    for t in s.shipment_display:
        tile = s.content.shipments[t]
        yield Cand("shipment:" + t, lambda tile=tile: shipment_label(tile), t, shipment_shortfall(p, tile))


def _can_make_shipment(s, seat, data) -> bool:
    """A shipment on display whose every resource and artifact the player holds."""
    p, needs = s.players[seat], shipment_needs(s.content)
    holdings = (p.raw, p.artifacts)
    for t in s.shipment_display:
        for held, metal, n in needs[t]:
            if holdings[held][metal] < n:
                break
        else:
            return True
    return False


def _shipment_apply(s, step, cand, emit):
    tile = s.content.shipments[cand.payload]
    emit(ev.ShipmentMade(step.seat, tile.id))
    score(s, step.seat, tile.vp, "shipments", emit)
    if s.shipment_deck:
        emit(ev.ShipmentRevealed(s.shipment_deck[0]))
    finish_action(s, step.seat, emit)


activity(kind="make_shipment", prompt="Which shipment do you make?",
         candidates=_shipment_cands, apply=_shipment_apply, feasible=_can_make_shipment)


# --- Recruit a Merchant / a Miner (islands 3 and 4) ----------------------------------

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


# --- Depart Island -------------------------------------------------------------------

@once_per_object
def _voyages(board) -> tuple[Cand, ...]:
    """The choice of every island a ship can sail to (its number is the payload), built once per board."""
    return tuple(Cand(f"island:{i.number}", f"Sail to island {i.number} ({i.name})", i.number) for i in board.islands)


def _depart_cands(s, step):
    here = player(s, step).island
    for voyage in _voyages(s.content.board):
        if voyage.payload != here:
            yield voyage


def _can_depart(s, seat, data) -> bool:
    """Another island to sail to (on a board of two islands or more there always is)."""
    islands = s.content.board.islands
    return len(islands) > 1 or any(i.number != s.players[seat].island for i in islands)


def _depart_apply(s, step, cand, emit):
    p = player(s, step)
    first_of_round = p.actions_this_round == 0
    emit(ev.ShipDeparted(step.seat, p.island, cand.payload))
    finish_action(s, step.seat, emit, ends_turn=first_of_round)


activity(kind="depart_island", prompt="Where does your ship sail?",
         candidates=_depart_cands, apply=_depart_apply, feasible=_can_depart)


# --- simple equipment effects ----------------------------------------------------------

def _sell_blocked(s, seat, data):
    metal = data["metal"]
    return None if s.players[seat].raw[metal] else f"You have no {metal} to sell"


activity(kind="sell_metal", prompt="Sell a resource",
         blocked=_sell_blocked,
         immediate=lambda s, seat, data, emit: emit(ev.MetalSold(seat, data["metal"], data["money"])))

activity(kind="gain_money", prompt="Take money from the bank",
         blocked=lambda s, seat, data: None,
         immediate=lambda s, seat, data, emit: emit(ev.MoneyReceived(seat, data["amount"])))
