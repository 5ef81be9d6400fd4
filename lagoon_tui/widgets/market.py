"""The market: equipment cards and shipment tiles on display, and how many cards are left in each deck."""
from __future__ import annotations

from rich.console import Group
from rich.padding import Padding
from rich.text import Text

from ..scene import Scene
from ._common import Panel, Spread, label, muted, needs

CAN_PAY = "✓"


def _islands(scene: Scene, action: str) -> str:
    numbers = [str(i.number) for i in scene.content.board.islands if action in i.actions]
    return " or ".join(numbers) or "-"


class MarketPanel(Panel):
    """Equipment for sale (name, $, VP, what it does) and shipments on display (needs, VP, $)."""

    DEFAULT_CSS = """
    MarketPanel {
        border: round $panel-lighten-2;
    }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = "Market"

    def show(self, scene: Scene) -> None:
        view, content = scene.view, scene.content
        me = scene.player(scene.seat) if scene.seat is not None else None
        decks = ("equipment_deck", "shipment_deck", "deal_deck", "gallery_deck", "gallery_discard")
        purse = None if me is None else (me["money"], me["raw"], me["artifacts"])
        key = (scene.seat, purse, view.get("equipment_display"), view.get("shipment_display"),
               [view.get(d) for d in decks])
        if self.unchanged(scene, key):
            return

        parts: list = [label("Equipment for sale")]
        for card_id in view.get("equipment_display") or []:
            card = content.equipment[card_id]
            ok = me is not None and me["money"] >= card.cost
            what = card.text if card.effect else "No ability: it only scores its VP."
            name = Text.assemble(f"{CAN_PAY if ok else ' '} ", (card.name, "bold"))
            parts.append(Spread(name, Text(f"${card.cost} · {card.vp} VP")))
            parts.append(Padding(Text(what, style="dim"), (0, 0, 0, 4)))

        parts += [Text(""), label("Shipments on display")]
        for tile_id in view.get("shipment_display") or []:
            tile = content.shipments[tile_id]
            ok = me is not None and self._can_ship(me, tile)
            wants = Text.assemble(f"{CAN_PAY if ok else ' '} ", needs(tile.resources, tile.artifacts))
            parts.append(Spread(wants, Text(f"{tile.vp} VP · ${tile.money}")))

        decks = Text.assemble(
            label("Decks: "),
            f"equipment {view.get('equipment_deck', 0)} · shipments {view.get('shipment_deck', 0)} · "
            f"deals {view.get('deal_deck', 0)} · galleries {view.get('gallery_deck', 0)}")
        discard = view.get("gallery_discard", 0)
        if discard:
            decks.append(f" (+{discard} discarded)")
        parts += [Text(""), decks]
        if me is not None:
            where = f"buy on island {_islands(scene, 'buy_equipment')}, ship on island {_islands(scene, 'make_shipment')}"
            parts.append(Text.assemble(muted(f"{CAN_PAY} = "), scene.tag(scene.seat),
                                       muted(f" could pay for it now ({where})")))
        self.update(Group(*parts))

    @staticmethod
    def _can_ship(p: dict, tile) -> bool:
        return (all(p["raw"].get(m, 0) >= n for m, n in tile.resources.items())
                and all(p["artifacts"].get(m, 0) >= n for m, n in tile.artifacts.items()))
