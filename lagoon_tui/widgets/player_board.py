"""One player's board: company, money, VP, workers, cubes, cards; secrets only for their owner."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.text import Text

from rules.seat import ENRICHED_LEVELS, METALS, objective_words, plural

from ..board_items import card_key, secret_key, supplies_key
from ..scene import STANDS_IN, Scene
from .note import Panel
from .renderables import Bullets, ByWidth, Fit, Flow
from .spotlight import tagged, tagged_text
from .words import CHANGED, CHANGED_NOTE, EMPTY_SLOT, changed_after, deal_needs, gain_mark, join, label, muted

Mark = tuple[str | int, ...]
"""A part of a player's board that changed since the reader's last move: ("money",), ("raw", "gold"),
("enriched", "gold", 2), ("equipment", card id)..."""

WHOLE_PARTS = ("island", "corporation", "shipments", "deals_closed", "objectives", "deals")
"""The parts of a player's board marked as a whole when they changed (a hand by its size)."""


def board_marks(scene: Scene, seat: int) -> frozenset[Mark]:
    """What of `seat`'s board changed since the reader's last move, as the scene compares it (so never
    more than everyone may know: a hand by its size only)."""
    at = ("players", seat)
    keys = scene.changed_keys(*at)
    if not keys:
        return frozenset()  # (mostly so: a move changes a board or two)
    marks: set[Mark] = {(part,) for part in WHOLE_PARTS if part in keys}
    marks |= {(number,) for number in ("money", "vp") if number in keys and scene.gain(*at, number)}
    marks |= {(w,) for w in ("merchants", "miners") if w in keys or f"{w}_used" in keys}
    marks |= {("objectives",)} if "objective_offer" in keys else set()
    for metal in METALS:
        marks |= {(kind, metal) for kind in ("raw", "artifacts") if kind in keys and scene.changed(*at, kind, metal)}
        if "enriched" in keys:
            marks |= {("enriched", metal, level) for level in scene.moved(*at, "enriched", metal)}
    if "equipment" in keys or "equipment_used" in keys:
        marks |= {("equipment", card) for card in scene.moved(*at, "equipment") | scene.moved(*at, "equipment_used")}
    return frozenset(marks)


class CubeGrid:
    """Raw cubes, enriched cubes by level (1' to 4') and artifacts, one metal a row.

    A fixed-width grid of 26 columns; in a narrower panel the artifacts
    column goes, and the artifacts are listed on a line of their own. A cell
    that changed since the reader's last move (`marks`) has the mark in its
    leading blank, so the grid keeps its width.
    """

    WIDE = 26

    def __init__(self, player: dict, marks: frozenset[Mark] = frozenset()):
        self.p = player
        self.marks = frozenset(mark for mark in marks if mark[0] in ("raw", "enriched", "artifacts"))  # (its own)

    def key(self) -> tuple:
        p = self.p
        return (
            "CubeGrid",
            tuple(p["raw"].items()),
            tuple(p["artifacts"].items()),
            tuple((metal, tuple(levels or ())) for metal, levels in p["enriched"].items()),
            tuple(sorted(map(repr, self.marks))),
        )

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(min(22, options.max_width), min(self.WIDE, options.max_width))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        p = self.p
        name_w = max(len(m) for m in METALS)
        wide = options.max_width >= self.WIDE
        head = Text(" " * name_w + " raw", style="bold")
        for level in ENRICHED_LEVELS:
            head.append(f" {level}'")
        if wide:
            head.append(" art")
        yield head
        for metal in METALS:
            raw = p["raw"].get(metal, 0)
            owned = set(p["enriched"].get(metal) or [])
            line = Text(metal.ljust(name_w), style="bold")
            line.append_text(self._count(raw, ("raw", metal)))
            for level in ENRICHED_LEVELS:
                line.append(CHANGED if ("enriched", metal, level) in self.marks else " ", style="bold")
                if level in owned:
                    line.append(f"{level}'", style="bold")
                else:
                    line.append(f"{EMPTY_SLOT} ", style="dim")
            if wide:
                line.append_text(self._count(p["artifacts"].get(metal, 0), ("artifacts", metal)))
            yield line
        if not wide:
            arts = [
                Text.assemble(f"{n} {m}", changed_after(("artifacts", m) in self.marks))
                for m, n in p["artifacts"].items()
                if n
            ]
            yield Text.assemble(label("Artifacts: "), join(arts) if arts else muted("none"))

    def _count(self, n: int, part: Mark) -> Text:
        """A count right-aligned in 4 cells, the mark before it if it changed: "  *3"."""
        if part in self.marks:
            return Text(f"{CHANGED}{n}".rjust(4), style="bold")
        return Text(f"{n:>4}", style="" if n else "dim")


class PlayerBoard(Panel):
    """The board of seat `seat`. Objectives and deals in hand are listed only for the seat at the keyboard.

    Compact: a few short lines and the cube grid; the objectives' texts are
    written out where the panel is wide enough (and always while they are
    being chosen), else only their names.
    """

    DEFAULT_CSS = """
    PlayerBoard {
        border: round $panel-lighten-2;
    }
    PlayerBoard.-passed {
        border: round $panel;
        color: $text-muted;
    }
    """

    TEXT_WIDTH = 44  # from this inner width on, objectives are shown with their texts
    keeps_tallest = False  # (a board that fits again once two objectives are kept needs no blank lines to scroll)

    def __init__(self, seat: int, **kwargs: str | None) -> None:
        super().__init__(**kwargs)
        self.seat = seat
        self.set_border_title(f"Player {seat + 1}")

    def show(self, scene: Scene) -> None:
        view, content = scene.view, scene.content
        p = scene.player(self.seat)
        marks = board_marks(scene, self.seat)
        at = ("players", self.seat)
        gains = (scene.gain(*at, "money"), scene.gain(*at, "vp"))
        computer = scene.computer_note(self.seat)  # "computer, Hard", or "" for a person
        acting = scene.acting_seat() == self.seat
        key = (
            p,
            scene.seat,
            acting,  # (whether this board's player is to play: the turn passing between two others changes nothing)
            view.get("phase"),
            view.get("islands_chosen"),
            marks,
            gains,
            computer,
        )
        if self.unchanged(scene, key):
            return
        mine = self.seat == scene.seat
        passed = bool(p.get("passed")) and view.get("phase") == "actions"
        if self.has_class("-passed") != passed:
            self.set_class(passed, "-passed")
        titles = (scene.tag(self.seat), computer, acting, passed, mine)
        if titles != self._titled:
            self._titled = titles
            self._set_titles(*titles)

        ship = p.get("island")
        if ship is None and view.get("phase") == "island_selection":
            chosen = {seat: int(isl) for isl, seat in (view.get("islands_chosen") or {}).items()}
            ship = chosen.get(self.seat)
        corp = p.get("corporation")
        offer = p.get("corporation_offer") if mine and not corp else None
        equipment = p.get("equipment") or []
        used = set(p.get("equipment_used") or [])
        shipments = p.get("shipments") or []
        closed = p.get("deals_closed") or []
        lines = [
            self.made(supplies_line, self.seat, p["money"], p["vp"], gains, ship, ("island",) in marks),
            self.made(
                corporation_line,
                corp,
                content.corporations[corp].name if corp else None,
                tuple(content.corporations[c].name for c in offer if c) if offer else (),
                ("corporation",) in marks,
            ),
            self.made(
                workers_line,
                (p["merchants"] - p["merchants_used"], p["merchants"], ("merchants",) in marks),
                (p["miners"] - p["miners_used"], p["miners"], ("miners",) in marks),
            ),
            CubeGrid(p, marks),
            self.made(
                equipment_line,
                tuple(
                    (card, content.equipment[card].name, content.equipment[card].effect is None, card in used)
                    for card in equipment
                ),
                frozenset(card for card in equipment if ("equipment", card) in marks),
            ),
            self.made(
                deliveries_line,
                (len(shipments), sum(content.shipments[s].vp for s in shipments if s), ("shipments",) in marks),
                (len(closed), sum(content.deals[d].vp for d in closed if d), ("deals_closed",) in marks),
            ),
            *self._secrets(scene, p, mine, marks),
        ]
        self.set_border_subtitle(CHANGED_NOTE if marks else None)
        self.update(Group(*lines))

    _titled: tuple = ()  # what the titles were last made of

    def _set_titles(self, tag: Text, computer: str, acting: bool, passed: bool, mine: bool) -> None:
        # whose turn it is, in the title only: a frame of another kind or colour repaints every line of the board
        state = Text(" ▶ to play ", "reverse") if acting else (" · passed" if passed else "")
        short = Text(" ▶ ", "reverse") if acting else (" passed" if passed else "")
        you = " (you)" if mine else ""
        if computer:  # told apart from a person first, its level next, as the width allows
            word = "stand-in" if computer == STANDS_IN else "computer"  # (a person a computer plays for)
            self.set_titles(
                Text.assemble(tag, f" · {computer}", state),
                Text.assemble(tag, f" · {computer}", short),
                Text.assemble(tag, f" · {word}", short),
                Text.assemble(tag, f" · {word}"),
                tag,
            )
        else:
            self.set_titles(Text.assemble(tag, you, state), Text.assemble(tag, state), Text.assemble(tag, short), tag)

    def _secrets(self, scene: Scene, p: dict, mine: bool, marks: frozenset[Mark]) -> list:
        content = scene.content
        objectives = p.get("objectives") or []
        offer = p.get("objective_offer") or []
        deals = p.get("deals") or []
        over = scene.view.get("phase") == "over"
        known = mine or (over and None not in objectives and None not in deals)
        dealt = ("deals",) in marks
        if not known:  # (how many cards each hand holds, and whether that changed: all anyone may know)
            held = (
                plural(len(objectives), "objective")
                if objectives or not offer
                else f"{plural(len(offer), 'objective')} offered"
            )
            return [self.made(hand_sizes_line, self.seat, held, ("objectives",) in marks, len(deals), dealt)]
        if objectives:
            head, shown = "Objectives", objectives
        elif offer:
            head, shown = f"Objectives offered (keep {content.board.objectives_kept})", offer
        else:
            head, shown = "Objectives", []
        cards = tuple(
            (o, content.objectives[o].name, objective_words(content.objectives[o])) for o in shown if o is not None
        )
        # while they are being chosen the texts always show: the choice depends on them
        choosing = bool(offer) and not objectives
        private = mine and not over
        needs = tuple((d, deal_needs(content.deals[d].requires), content.deals[d].vp) for d in deals if d is not None)
        return [
            self.made(objectives_part, head, cards, private, choosing, self.TEXT_WIDTH),
            self.made(deals_part, len(deals), needs, dealt),
        ]


def supplies_line(
    seat: int, money: int, vp: int, gains: tuple[int, int], ship: int | None, sailed: bool
) -> Text | Flow:
    """Money, VP and where the ship is: "Money $7 *+2   VP 12   Ship at island 3"."""
    cash = Text.assemble(label("Money "), (f"${money}", "bold"), gain_mark(gains[0]))
    points = Text.assemble(label("VP "), (str(vp), "bold"), gain_mark(gains[1]))
    where = f"at island {ship}" if ship is not None else muted("not placed yet")
    ship_line = Text.assemble(label("Ship "), where, changed_after(sailed))
    return tagged(Flow([cash, points, ship_line], "   "), supplies_key(seat))


def corporation_line(corp: str | None, name: str | None, offer: tuple[str, ...], changed: bool) -> Text:
    """The player's corporation, or (to its owner) the ones offered to choose from."""
    if corp and name:
        return tagged_text(Text.assemble((name, "italic"), changed_after(changed)), card_key(corp))
    if offer:
        return Text.assemble(label("Corporation: "), muted("choose "), ", ".join(offer))
    return Text.assemble(label("Corporation: "), muted("not chosen yet"))


def workers_line(merchants: tuple[int, int, bool], miners: tuple[int, int, bool]) -> Fit:
    """Free workers of each kind: "Merchants 3 free of 4   Miners 2 free of 2" (shorter where narrow)."""
    (mer_free, mer, mer_changed), (min_free, mins, min_changed) = merchants, miners
    mer_mark, min_mark = changed_after(mer_changed), changed_after(min_changed)
    return two_facts(
        (
            Text.assemble(label("Merchants "), f"{mer_free} free of {mer}", mer_mark),
            Text.assemble(label("Miners "), f"{min_free} free of {mins}", min_mark),
        ),
        (
            Text.assemble(label("Merchants "), f"{mer_free}/{mer} free", mer_mark),
            Text.assemble(label("Miners "), f"{min_free}/{mins} free", min_mark),
        ),
    )


def equipment_line(cards: tuple[tuple[str, str, bool, bool], ...], changed: frozenset[str]) -> Text:
    """The equipment cards (id, name, whether it only scores VP, whether it is used this round)."""
    if not cards:
        return Text.assemble(label("Equipment: "), muted("none"))
    items = []
    for card_id, name, scores_only, used in cards:
        mark = changed_after(card_id in changed)
        if scores_only:
            item = Text.assemble(name, (" (VP)", "dim"), mark)
        elif used:
            item = Text.assemble((name, "dim"), (" (used)", "dim"), mark)
        else:
            item = Text.assemble(name, mark)
        items.append(tagged_text(item, card_key(card_id)))
    return Text.assemble(label("Equipment: "), join(items))


def deliveries_line(shipments: tuple[int, int, bool], deals: tuple[int, int, bool]) -> Fit:
    """Shipments made and deals closed, each with its VP: "Shipments 2 made, 9 VP   Deals closed 1, 4 VP"."""
    (made, ship_vp, shipped), (closed, deal_vp, dealt) = shipments, deals
    ship_mark, deal_mark = changed_after(shipped), changed_after(dealt)
    short_shipped = Text.assemble(label("Shipped "), f"{made} ({ship_vp} VP)", ship_mark)
    return two_facts(
        (
            Text.assemble(label("Shipments "), f"{made} made, {ship_vp} VP", ship_mark),
            Text.assemble(label("Deals closed "), f"{closed}, {deal_vp} VP", deal_mark),
        ),
        (short_shipped, Text.assemble(label("Deals "), f"{closed} ({deal_vp} VP)", deal_mark)),
        (short_shipped, Text.assemble(label("Deals closed "), f"{closed} ({deal_vp} VP)", deal_mark)),
    )


def two_facts(*forms: tuple[Text, Text]) -> Fit:
    """Two facts on a line, in the first of `forms` (longest first) that fits: the longest three spaces apart,
    the others two; the last one wraps between its two facts where not even it fits."""
    first, *middle, last = forms
    return Fit(
        Text.assemble(first[0], "   ", first[1]),
        *(Text.assemble(one, "  ", other) for one, other in middle),
        Flow(list(last), "  "),
    )


def hand_sizes_line(seat: int, objectives: str, objectives_changed: bool, deals: int, deals_changed: bool) -> Fit:
    """Another player's secret cards, by how many: "Secret: 2 objectives, 3 deals in hand"."""
    parts = [
        Text.assemble(objectives, changed_after(objectives_changed)),
        Text.assemble(f"{plural(deals, 'deal')} in hand", changed_after(deals_changed)),
    ]
    secret = secret_key(seat)
    return Fit(
        tagged_text(Text.assemble(label("Secret: "), join(parts)), secret),
        tagged(Flow([parts[0] + ",", parts[1]], " "), secret),
    )


def objectives_part(
    head: str, cards: tuple[tuple[str, str, str], ...], private: bool, choosing: bool, text_width: int
) -> RenderableType:
    """The objectives (id, name, words) a player holds or is offered, with their words where there is room."""
    if not cards:
        return Text.assemble(label(f"{head}: "), muted("none"))
    texts = Bullets(
        Text.assemble(tagged_text(Text(name, "bold"), card_key(o)), " — ", words) for o, name, words in cards
    )
    full = Group(label(head + (" (only you can see these)" if private else "") + ":"), texts)
    names = Text.assemble(label(head + ": "), join(tagged_text(Text(name), card_key(o)) for o, name, _ in cards))
    return full if choosing else ByWidth(text_width, full, names)


def deals_part(held: int, deals: tuple[tuple[str, str, int], ...], changed: bool) -> RenderableType:
    """The deals in the owner's hand (id, what it needs, VP): "copper 1'+, iron 3'+ → 4 VP"."""
    if not held:
        return Text.assemble(label("Deals in hand: "), muted("none"), changed_after(changed))
    items = [tagged_text(Text.assemble(needs, (f" → {vp} VP", "bold")), card_key(deal)) for deal, needs, vp in deals]
    return Group(Text.assemble(label(f"Deals in hand ({held})"), changed_after(changed), label(":")), Bullets(items))


def secrets_text(scene: Scene, seat: int) -> str:
    """A seat's objectives and deals in hand in full, for that seat's eyes only (the `b` window)."""
    content = scene.content
    p = scene.player(seat)
    lines = []
    objectives = [o for o in (p.get("objectives") or p.get("objective_offer") or []) if o is not None]
    lines.append("Objectives:" if objectives else "Objectives: none")
    for o in objectives:
        card = content.objectives[o]
        lines.append(f"• {card.name}: {objective_words(card)}")
    deals = [d for d in p.get("deals") or [] if d is not None]
    lines.append("")
    lines.append("Deals in hand:" if deals else "Deals in hand: none")
    for d in deals:
        deal = content.deals[d]
        lines.append(f"• {deal_needs(deal.requires)} → {deal.vp} VP")
    return "\n".join(lines)
