"""The market: equipment cards and shipment tiles on display, and how many cards are left in each deck."""

from __future__ import annotations

from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ..board_items import DECKS_KEY, card_key
from ..scene import Scene
from .note import SteadyLayout, changed_rows
from .options import out_of_sight
from .renderables import Fit, Flow, Spread, draw, render_key
from .spotlight import Spotlit, spotlit, tagged, tagged_text
from .svg import svg_safe
from .words import CHANGED_NOTE, changed_after, label, muted, needs

CAN_PAY = "✓"


def _islands(scene: Scene, action: str) -> str:
    numbers = [str(i.number) for i in scene.content.board.islands if action in i.actions]
    return " or ".join(numbers) or "-"


class MarketPanel(Spotlit, SteadyLayout, ScrollView, can_focus=False):
    """Equipment for sale (name, $, VP, what it does) and shipments on display (needs, VP, $).

    `details` (set by the screen where there is room, or on a page of its
    own) adds each card's ability under its name; else the names, costs and
    rewards alone keep the panel short (`i` on a prompt option, and the rules
    screen, give the abilities).

    It scrolls its own lines: the compact layout's market page is shorter
    than the market with its details, and j and k (the page's scroll keys)
    bring the shipments and the decks into sight; its lower border says how
    many lines are out of sight. It has no scrollbar, like the log and the
    prompt's options. Each part of the market (a card, a tile, a heading) is
    laid out once per width, and a change repaints only the lines it changed.
    """

    DEFAULT_CSS = """
    MarketPanel {
        height: auto;
        padding: 0 1;
        background: $surface;
        border: round $panel-lighten-2;
        border-title-color: $accent;
        border-title-style: bold;
        border-subtitle-color: $text-muted;
        overflow-x: hidden;
        overflow-y: hidden;
    }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.set_border_title("Market")
        self.details = True
        self.scene: Scene | None = None
        self._drawn_from: object = None
        self._parts: list = []  # what the market shows, part by part
        self.lines: list[Strip] = []  # the parts laid out at `_width` in `_style` (what a test reads, as a log's lines)
        self._width = 0
        self._style: Style | None = None
        self._laid_out: dict[tuple, list[Strip]] = {}  # a part's lines, by the part, width and style
        self._tallest = 0  # the most lines the market has had at this width and these details (wide layout)

    def set_details(self, details: bool) -> None:
        """Show (or leave out) the abilities of the equipment cards."""
        if details != self.details:
            self.details = details
            self._drawn_from = None
            self._tallest = 0
            if self.scene is not None:
                self.show(self.scene)

    def show(self, scene: Scene) -> None:
        view, content = scene.view, scene.content
        decks = ("equipment_deck", "shipment_deck", "deal_deck", "gallery_deck", "gallery_discard")
        shown = (view.get("equipment_display") or []) + (view.get("shipment_display") or [])
        key = (
            scene.seat,
            scene.can_pay,
            view.get("equipment_display"),
            view.get("shipment_display"),
            [view.get(d) for d in decks],
            self.details,
            [card for card in shown if scene.new_on_display(card)],
        )
        self.scene = scene
        if key == self._drawn_from:  # (a move mostly leaves the market as it was)
            return
        self._drawn_from = key

        parts: list = [Spread(label("Equipment for sale"), muted("cost · VP"))]
        for card_id in view.get("equipment_display") or []:
            card = content.equipment[card_id]
            ok = card_id in scene.can_pay
            name = Text.assemble(f"{CAN_PAY if ok else ' '} ", tagged_text(Text(card.name, "bold"), card_key(card_id)))
            name.append_text(_new(scene, card_id))
            parts.append(Spread(name, Text(f"${card.cost} · {card.vp} VP")))
            if self.details:
                what = card.text if card.effect else "No ability: it only scores its VP."
                parts.append(Padding(Text(what, style="dim"), (0, 0, 0, 2)))

        parts.append(Spread(label("Shipments on display"), muted("VP · $")))
        for tile_id in view.get("shipment_display") or []:
            tile = content.shipments[tile_id]
            ok = tile_id in scene.can_pay
            mark = f"{CAN_PAY if ok else ' '} "
            gives = Text(f"{tile.vp} VP · ${tile.money}")
            wants, new = needs(tile.resources, tile.artifacts), _new(scene, tile_id)
            look = card_key(tile_id)
            tight = Spread(Text.assemble(mark, tagged_text(Text(wants.replace(" + ", "+")), look), new), gives)
            parts.append(Fit(Spread(Text.assemble(mark, tagged_text(Text(wants), look), new), gives), tight))

        if any(scene.new_on_display(card) for card in shown):
            parts.append(CHANGED_NOTE)
        counts = (
            view.get("equipment_deck", 0),
            view.get("shipment_deck", 0),
            view.get("deal_deck", 0),
            view.get("gallery_deck", 0),
        )
        discard = view.get("gallery_discard", 0)
        more = f" (+{discard} discarded)" if discard else ""
        parts.append(
            Fit(
                tagged_text(
                    Text.assemble(
                        label("Decks: "), "equipment {} · shipments {} · deals {} · galleries {}".format(*counts), more
                    ),
                    DECKS_KEY,
                ),
                tagged(
                    Flow(
                        [
                            label("Decks:"),
                            *"equipment {}|shipments {}|deals {}|galleries {}".format(*counts).split("|"),
                        ],
                        "  ",
                    ),
                    DECKS_KEY,
                ),
            )
        )
        if scene.seat is not None:
            where = f"buy on island {_islands(scene, 'buy_equipment')}, ship on {_islands(scene, 'make_shipment')}"
            tag = scene.tag(scene.seat)
            parts.append(
                Fit(
                    Text.assemble(muted(f"{CAN_PAY} = "), tag, muted(f" could pay for it now ({where})")),
                    Text.assemble(muted(f"{CAN_PAY} = "), tag, muted(" could pay for it now")),
                    Text.assemble(muted(f"{CAN_PAY} = "), tag, muted(" can pay")),
                )
            )
        else:  # nobody's cards (a spectator, the public board at one keyboard): the same height as a player's legend
            parts.append(
                Fit(
                    muted(f"{CAN_PAY} marks what a player could pay for, while their own cards are shown"),
                    muted(f"{CAN_PAY} = can pay (their own cards shown)"),
                )
            )
        self._show_parts(parts)

    # --- drawing: the market's own lines, scrolled ---------------------------------------

    def _show_parts(self, parts: list) -> None:
        """Lay out `parts` and repaint the lines that changed (all of them if the market changed height)."""
        self._parts = parts
        width = self.scrollable_content_region.width
        if not width:  # laid out once the market has a size (see get_content_height)
            self._width = 0
            self.refresh(layout=True)
            return
        old = self.lines
        new = self._lay_out(width)
        if len(new) != len(old) or self.scroll_offset.y:
            self.refresh()
            return
        changed = changed_rows(old, new, width)
        if changed:
            self.refresh(*changed)
        if not self.styles.auto_dimensions:  # (else it is arranged to its new height, and resized)
            self._say_what_is_out_of_sight()

    def _lay_out(self, width: int) -> list[Strip]:
        """The parts as lines `width` cells wide (a part laid out before at this width is not laid out again)."""
        style = self.visual_style.rich_style
        options = self.app.console_options.update(width=width, highlight=False, height=None)
        known, self._laid_out = self._laid_out, {}
        lines: list[Strip] = []
        for part in self._parts:
            key = (render_key(part), width, style)
            drawn = known.get(key) if key[0] is not None else None
            if drawn is None:
                segments = Segment.apply_style(draw(self.app.console, options, part), style)
                drawn = [
                    Strip(line, width)
                    for line in Segment.split_and_crop_lines(segments, width, style, pad=True, include_new_lines=False)
                ]
            if key[0] is not None:
                self._laid_out[key] = drawn
            lines += drawn
        if width != self._width:
            self._tallest = 0
        if self.styles.auto_dimensions:
            # wide layout: the market keeps its tallest height (blank lines at its foot), so a line more or
            # less (a card's note, a longer name) moves neither the log nor the prompt above and arranges nothing
            self._tallest = max(self._tallest, len(lines))
            lines += [Strip.blank(width, style)] * (self._tallest - len(lines))
        self.lines, self._width, self._style = lines, width, style
        self.virtual_size = Size(width, len(lines))
        return lines

    def _current(self, width: int) -> list[Strip]:
        """The lines at `width` in the market's colours now (laid out again if either changed)."""
        if width != self._width or self.visual_style.rich_style != self._style:
            return self._lay_out(width)
        return self.lines

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._current(width))

    def on_resize(self, event: events.Resize) -> None:
        self.fit_to_size()

    def fit_to_size(self) -> None:
        self._current(self.scrollable_content_region.width)
        self._say_what_is_out_of_sight()

    def render_line(self, y: int) -> Strip:
        lines = self._current(self.scrollable_content_region.width)
        line = y + self.scroll_offset.y
        if line >= len(lines):
            return Strip.blank(self.size.width, self.visual_style.rich_style)
        return spotlit(lines[line], self.looked)

    def spot_lines(self) -> list[Strip]:
        return self.lines

    def render_lines(self, crop: Region) -> list[Strip]:
        return svg_safe(super().render_lines(crop))

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._say_what_is_out_of_sight()

    def _say_what_is_out_of_sight(self) -> None:
        """The lower border: how many lines are above and below the window (none in a market shown whole)."""
        self.set_border_subtitle(out_of_sight(round(self.scroll_y), round(self.max_scroll_y - self.scroll_y)) or None)


def _new(scene: Scene, card_id: str) -> Text:
    """After a card for sale: the mark, if it came onto the display since the reader's last move."""
    return changed_after(scene.new_on_display(card_id))
