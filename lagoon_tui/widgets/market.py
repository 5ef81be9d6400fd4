"""The market: equipment cards and shipment tiles on display, and how many cards are left in each deck."""
from __future__ import annotations

from rich.console import Group
from rich.padding import Padding
from rich.text import Text

from ..scene import Scene
from ._common import Fit, Flow, Panel, Spread, label, muted, needs

CAN_PAY = "✓"


def _islands(scene: Scene, action: str) -> str:
    numbers = [str(i.number) for i in scene.content.board.islands if action in i.actions]
    return " or ".join(numbers) or "-"


class MarketPanel(Panel):
    """Equipment for sale (name, $, VP, what it does) and shipments on display (needs, VP, $).

    `details` (set by the screen where there is room, or on a page of its
    own) adds each card's ability under its name; else the names, costs and
    rewards alone keep the panel short (`i` on a prompt option, and the rules
    screen, give the abilities).
    """

    DEFAULT_CSS = """
    MarketPanel {
        border: round $panel-lighten-2;
    }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = "Market"
        self.details = True

    def set_details(self, details: bool) -> None:
        """Show (or leave out) the abilities of the equipment cards."""
        if details != self.details:
            self.details = details
            self._drawn_from = None
            if self.scene is not None:
                self.show(self.scene)

    def show(self, scene: Scene) -> None:
        view, content = scene.view, scene.content
        me = scene.player(scene.seat) if scene.seat is not None else None
        decks = ("equipment_deck", "shipment_deck", "deal_deck", "gallery_deck", "gallery_discard")
        purse = None if me is None else (me["money"], me["raw"], me["artifacts"])
        key = (scene.seat, purse, view.get("equipment_display"), view.get("shipment_display"),
               [view.get(d) for d in decks], self.details)
        if self.unchanged(scene, key):
            return

        parts: list = [Spread(label("Equipment for sale"), muted("cost · VP"))]
        for card_id in view.get("equipment_display") or []:
            card = content.equipment[card_id]
            ok = me is not None and me["money"] >= card.cost
            name = Text.assemble(f"{CAN_PAY if ok else ' '} ", (card.name, "bold"))
            parts.append(Spread(name, Text(f"${card.cost} · {card.vp} VP")))
            if self.details:
                what = card.text if card.effect else "No ability: it only scores its VP."
                parts.append(Padding(Text(what, style="dim"), (0, 0, 0, 2)))

        parts.append(Spread(label("Shipments on display"), muted("VP · $")))
        for tile_id in view.get("shipment_display") or []:
            tile = content.shipments[tile_id]
            ok = me is not None and self._can_ship(me, tile)
            mark = f"{CAN_PAY if ok else ' '} "
            gives = Text(f"{tile.vp} VP · ${tile.money}")
            wants = needs(tile.resources, tile.artifacts)
            tight = Spread(Text(mark + wants.replace(" + ", "+")), gives)
            parts.append(Fit(Spread(Text(mark + wants), gives), tight))

        counts = (view.get("equipment_deck", 0), view.get("shipment_deck", 0), view.get("deal_deck", 0),
                  view.get("gallery_deck", 0))
        discard = view.get("gallery_discard", 0)
        more = f" (+{discard} discarded)" if discard else ""
        parts.append(Fit(
            Text.assemble(label("Decks: "), "equipment {} · shipments {} · deals {} · galleries {}".format(*counts), more),
            Flow([label("Decks:"), *"equipment {}|shipments {}|deals {}|galleries {}".format(*counts).split("|")],
                 "  ")))
        if me is not None:
            where = f"buy on island {_islands(scene, 'buy_equipment')}, ship on {_islands(scene, 'make_shipment')}"
            tag = scene.tag(scene.seat)
            parts.append(Fit(Text.assemble(muted(f"{CAN_PAY} = "), tag, muted(f" could pay for it now ({where})")),
                             Text.assemble(muted(f"{CAN_PAY} = "), tag, muted(" could pay for it now")),
                             Text.assemble(muted(f"{CAN_PAY} = "), tag, muted(" can pay"))))
        else:  # the same height as a player's legend, so the panels below stay where they are
            parts.append(Fit(muted(f"{CAN_PAY} = the player at the keyboard could pay for it now"),
                             muted(f"{CAN_PAY} = the player at the keyboard can pay")))
        self.update(Group(*parts))

    @staticmethod
    def _can_ship(p: dict, tile) -> bool:
        return (all(p["raw"].get(m, 0) >= n for m, n in tile.resources.items())
                and all(p["artifacts"].get(m, 0) >= n for m, n in tile.artifacts.items()))
