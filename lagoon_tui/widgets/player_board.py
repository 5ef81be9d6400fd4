"""One player's board: company, money, VP, workers, cubes, cards; secrets only for their owner."""
from __future__ import annotations

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from rules.cards import ENRICHED_LEVELS, METALS

from ..scene import Scene
from ._common import EMPTY_SLOT, Flow, Panel, acting_seat, deal_needs, join, label, muted, plural


def _bullets() -> Table:
    """A list with hanging indents: long card texts wrap under their first word."""
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True, width=3, justify="right")
    table.add_column(ratio=1)
    return table


class CubeGrid:
    """Raw cubes, enriched cubes by level (1' to 4') and artifacts, one metal a row.

    A fixed-width grid; when the panel is too narrow for the artifacts
    column, the artifacts go on a line of their own under the grid.
    """

    def __init__(self, player: dict):
        self.p = player

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(min(22, options.max_width), min(32, options.max_width))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        p = self.p
        name_w = max(len(m) for m in METALS)
        wide = options.max_width >= name_w + 4 + 3 * len(ENRICHED_LEVELS) + 10
        head = Text(" " * name_w + " raw", style="bold")
        for level in ENRICHED_LEVELS:
            head.append(f" {level}'")
        if wide:
            head.append(" artifacts")
        yield head
        for metal in METALS:
            raw = p["raw"].get(metal, 0)
            owned = set(p["enriched"].get(metal) or [])
            line = Text(metal.ljust(name_w), style="bold")
            line.append(f"{raw:>4}", style="" if raw else "dim")
            for level in ENRICHED_LEVELS:
                line.append(" ")
                if level in owned:
                    line.append(f"{level}'", style="bold")
                else:
                    line.append(f"{EMPTY_SLOT} ", style="dim")
            if wide:
                art = p["artifacts"].get(metal, 0)
                line.append(f"{art:>10}", style="" if art else "dim")
            yield line
        if not wide:
            arts = [f"{n} {m}" for m, n in p["artifacts"].items() if n]
            yield Text.assemble(label("Artifacts: "), ", ".join(arts) if arts else muted("none"))


class PlayerBoard(Panel):
    """The board of seat `seat`. Objectives and deals in hand are listed only for the seat at the keyboard."""

    DEFAULT_CSS = """
    PlayerBoard {
        border: round $panel-lighten-2;
    }
    PlayerBoard.-acting {
        border: heavy $accent;
    }
    PlayerBoard.-passed {
        border: round $panel;
        color: $text-muted;
    }
    """

    def __init__(self, seat: int, **kwargs) -> None:
        super().__init__(**kwargs)
        self.seat = seat
        self.border_title = f"Player {seat + 1}"

    def show(self, scene: Scene) -> None:
        view, content = scene.view, scene.content
        p = scene.player(self.seat)
        key = (p, scene.seat, acting_seat(scene), view.get("phase"), view.get("islands_chosen"))
        if self.unchanged(scene, key):
            return
        mine = self.seat == scene.seat
        acting = acting_seat(scene) == self.seat
        passed = bool(p.get("passed")) and view.get("phase") == "actions"
        self.set_class(acting, "-acting")
        self.set_class(passed, "-passed")

        title = scene.tag(self.seat)
        if mine:
            title.append(" (you)")
        if acting:
            title.append(" ▶ to play")
        elif passed:
            title.append(" · passed")
        self.border_title = title

        lines: list = []
        head = scene.tag(self.seat)
        if acting:
            head.append("  ▶ to play", style="bold reverse")
        elif passed:
            head.append("  passed for this round", style="bold")
        lines.append(head)

        corp = p.get("corporation")
        if corp:
            lines.append(Text.assemble(label("Corporation: "), content.corporations[corp].name))
        elif mine and p.get("corporation_offer"):
            offer = ", ".join(content.corporations[c].name for c in p["corporation_offer"] if c)
            lines.append(Text.assemble(label("Corporation: "), muted("to choose from "), offer))
        else:
            lines.append(Text.assemble(label("Corporation: "), muted("not chosen yet")))

        ship = p.get("island")
        if ship is None and view.get("phase") == "island_selection":
            chosen = {seat: int(isl) for isl, seat in (view.get("islands_chosen") or {}).items()}
            ship = chosen.get(self.seat)
        lines.append(Flow([
            Text.assemble(label("Money "), (f"${p['money']}", "bold")),
            Text.assemble(label("VP "), (str(p["vp"]), "bold")),
            Text.assemble(label("Ship "), f"at island {ship}" if ship is not None else muted("not placed yet")),
        ]))
        lines.append(Flow([
            Text.assemble(label("Merchants "), f"{p['merchants'] - p['merchants_used']} free of {p['merchants']}"),
            Text.assemble(label("Miners "), f"{p['miners'] - p['miners_used']} free of {p['miners']}"),
        ]))
        lines.append(CubeGrid(p))

        equipment = p.get("equipment") or []
        used = set(p.get("equipment_used") or [])
        if equipment:
            items = []
            for card_id in equipment:
                card = content.equipment[card_id]
                state = "no ability" if card.effect is None else ("used this round" if card_id in used else "ready")
                items.append(Text.assemble(card.name, (f" ({state})", "dim" if state != "ready" else "")))
            lines.append(Text.assemble(label("Equipment: "), join(items)))
        else:
            lines.append(Text.assemble(label("Equipment: "), muted("none")))

        shipments = p.get("shipments") or []
        ship_vp = sum(content.shipments[s].vp for s in shipments if s)
        closed = p.get("deals_closed") or []
        deal_vp = sum(content.deals[d].vp for d in closed if d)
        lines.append(Flow([
            Text.assemble(label("Shipments "), f"{len(shipments)} made, {ship_vp} VP"),
            Text.assemble(label("Deals closed "), f"{len(closed)}, {deal_vp} VP"),
        ]))
        lines.extend(self._secrets(scene, p, mine))
        self.update(Group(*lines))

    @staticmethod
    def _secrets(scene: Scene, p: dict, mine: bool) -> list:
        content = scene.content
        objectives = p.get("objectives") or []
        offer = p.get("objective_offer") or []
        deals = p.get("deals") or []
        over = scene.view.get("phase") == "over"
        known = mine or (over and None not in objectives and None not in deals)
        if not known:
            parts = []
            if objectives or not offer:
                parts.append(plural(len(objectives), "objective"))
            else:
                parts.append(f"{plural(len(offer), 'objective')} offered")
            parts.append(f"{plural(len(deals), 'deal')} in hand")
            return [Text.assemble(label("Secret: "), ", ".join(parts))]

        out: list = []
        if objectives:
            out.append(label("Objectives" + (" (only you can see these)" if mine and not over else "") + ":"))
            shown = objectives
        elif offer:
            keep = content.board.objectives_kept
            out.append(label(f"Objectives offered (keep {keep}; only you can see these):"))
            shown = offer
        else:
            out.append(Text.assemble(label("Objectives: "), muted("none")))
            shown = []
        items = _bullets()
        for obj_id in shown:
            if obj_id is None:
                continue
            o = content.objectives[obj_id]
            items.add_row("•", Text.assemble((o.name, "bold"), " — ", o.text))
        if items.row_count:
            out.append(items)

        if deals:
            out.append(label(f"Deals in hand ({len(deals)}):"))
            items = _bullets()
            for deal_id in deals:
                if deal_id is None:
                    continue
                d = content.deals[deal_id]
                items.add_row("•", Text.assemble(deal_needs(d.requires), " → ", (f"{d.vp} VP", "bold")))
            out.append(items)
        else:
            out.append(Text.assemble(label("Deals in hand: "), muted("none")))
        return out
