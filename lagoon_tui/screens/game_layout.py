"""How the game screen's panels fit the terminal: the wide layout's boards, the compact layout's pages.

Wide terminals show everything at once, the player boards stretched down to
the bottom of the screen. Below `paging.WIDE` the screen gets the class
"compact": one page of panels at a time over the prompt, switched with [ and ]
or a letter per page (o islands, g mining sites, e the Enrichment Center, t
the tracks, b your board, p the next player's board, m the market, l the
log). At each new decision on screen the page turns to where it is made
(`DECISION_PAGES`: mining and galleries on the mining sites, enriching in the
centre, buying, shipping and deals at the market, paying on the player's
board), unless the player turned the page by hand during that decision.
`GameLayout` is the game screen's part that does this; it reads the game as
everyone may see it (`public`) and who has the keyboard (`keyboard`).
"""

from __future__ import annotations

from textual import events
from textual.containers import VerticalScroll
from textual.css.query import NoMatches
from textual.geometry import Region, Size
from textual.widget import Widget

from rules.seat import Prompt, SeatScene

from ..hand_over import Keyboard
from ..scene import COLOUR_LETTERS
from ..widgets import (
    EnrichmentCenterPanel,
    IslandPanel,
    LogPanel,
    MarketPanel,
    MiningSitePanel,
    PlayerBoard,
    ScoreTrackPanel,
)
from ..widgets.note import Note, clear_min_height
from .paging import Page, PagedScreen, board_pages

TOASTS = "textual-toastrack"
"""Where Textual puts a screen's toasts (its id for them, as a style sheet may name it)."""
TOAST_WIDTH = 60  # columns of a toast in the wide layout (at 80x24: half the screen)

ROOMY = 58  # from this height on, the market also says what each equipment card does

DECISION_PAGES = {
    "keep_objectives": "board",
    "choose_corporation": "board",
    "choose_island": "islands",
    "choose_action": "ship",
    "depart_island": "ship",
    "buy_artifact": "ship",
    "operate_mining_site": "sites",
    "collect_from_gallery": "sites",
    "demolish_gallery": "sites",
    "draw_place_galleries": "sites",
    "enrichment_transaction": "centre",
    "upgrade_centre": "centre",
    "upgrade_own_enriched": "board",
    "crush": "board",
    "trade": "board",
    "buy_equipment": "market",
    "make_shipment": "market",
    "deal": "market",
    "discard_deal": "market",
}
"""Where each kind of decision (`Prompt.kind`) is made: a `goto` name of `GameLayout.PAGE_KINDS`,
"ship" for the island of the deciding player's ship. A kind not here leaves the page as it is."""


def pays(prompt: Prompt) -> bool:
    """Whether every option of the decision (but the one backing out) names one of the deciding
    player's own enriched cubes (a metal at a level, nobody else's, on no island): a cube to pay
    with, from their board."""
    cubes = [c.refers for c in prompt.options if c.id != prompt.back]
    return bool(cubes) and all(
        r.metal is not None and r.level is not None and r.seat is None and r.island is None for r in cubes
    )


class GameLayout(PagedScreen):
    """The game screen's panels laid out for the terminal's size (the screen itself: `GameScreen`)."""

    PAGE_KINDS = {
        "islands": IslandPanel,
        "sites": MiningSitePanel,
        "centre": EnrichmentCenterPanel,
        "tracks": ScoreTrackPanel,
        "board": PlayerBoard,
        "players": PlayerBoard,
        "market": MarketPanel,
        "log": LogPanel,
    }
    HINT_KEYS = [
        ("[ ]", "panels"),
        ("o", "islands"),
        ("g", "mines"),
        ("e", "centre"),
        ("t", "tracks"),
        ("b", "you"),
        ("p", "players"),
        ("m", "market"),
        ("l", "log"),
    ]

    keyboard: Keyboard
    _decision: tuple[int, int | None, Prompt, bool] | None = None  # on screen: (its change, seat, prompt, open)
    _followed: int | None = None  # the change of the decision the page last turned for
    _pages: list[Page] | None = None  # (see `pages`)
    toasts_at: Region | None = None
    """The columns the toasts are shown in, top to bottom, once placed (`_place_toasts`)."""

    @property
    def public(self) -> SeatScene:
        raise NotImplementedError  # (the game screen's: the game as everyone may see it)

    def _fit(self, size: Size) -> None:
        super()._fit(size)
        self.query_one(MarketPanel).set_details(self.has_class("compact") or size.height >= ROOMY)
        self.call_after_refresh(self._stretch)
        self.call_after_refresh(self._place_toasts)

    def on_board_area_resized(self) -> None:
        self._stretch()

    def _place_toasts(self) -> None:
        """Toasts in a column of their own width, the newest always in sight.

        Wide layout: at the foot of the board, beside the side column, whose
        log they would cover (its newest lines, at its foot, are what a toast
        is often about). At 80x24 the screen's style puts them at the top,
        over the page, half its width (the prompt is at the bottom).

        Textual's rack of toasts is invisible (only the toasts show), and so
        is never told its size: it cannot scroll, and once more toasts were up
        than half the screen holds the newest were cut off. Made visible (the
        screen's style), it scrolls to the newest as each comes; it is then
        made as narrow as a toast and set at the right edge, so that it covers
        no more of the board than the toasts (and the row between two).
        """
        try:
            side = self.query_one("#side")
            rack = self.get_child_by_id(TOASTS)
        except NoMatches:  # (no toasts: Textual's tests run without them unless asked)
            return
        compact = self.has_class("compact")
        room = self.size.width if compact else self.size.width - side.outer_size.width
        width = max(1, room // 2 if compact else min(TOAST_WIDTH, room))
        rack.styles.width = width
        rack.styles.margin = (0, 0, 0 if compact else 1, max(0, room - width))  # (wide: over the footer's line)
        self.toasts_at = Region(max(0, room - width), 0, width, self.size.height)

    def _stretch(self) -> None:
        """Wide layout: the player boards grow down to the bottom of the screen, leaving no empty band.

        The rows above them keep their natural heights; the boards' minimum
        height takes up what is left (never less than their content needs, so
        nothing is cut: if the board does not fit it scrolls instead). The
        heights of the rows above come from the lines their panels have laid
        out, so a move that changes them is fitted in the same arrangement of
        the screen, not in a second one after it.
        """
        try:
            board = self.query_one("#board", VerticalScroll)
        except NoMatches:  # the screen went (a finished game handed to the end screen) before a stretch it asked
            return
        panels = [panel for panel in self.panels if isinstance(panel, PlayerBoard)]
        if self.has_class("compact"):
            for panel in panels:
                clear_min_height(panel)
            return
        above = sum(_row_height(row) for row in board.children if row.id != "boards")
        height = max(0, board.scrollable_content_region.height - above)
        for panel in panels:
            panel.styles.min_height = height

    @property
    def pages(self) -> list[Page]:
        """The compact layout's pages, in the order [ and ] go through them.

        Found once the panels are there and kept: the page each decision is made on is looked up at every
        move, and finding the panels in the screen's tree took about 4 ms of a move."""
        if self._pages is None:
            self._pages = [
                *board_pages(self, self._seat_name),
                Page("Market", (self.query_one(MarketPanel),)),
                Page("Log", (self.query_one(LogPanel),)),
            ]
        return self._pages

    def _seat_name(self, seat: int) -> str:
        player = self.public.view["players"][seat]
        return f"{player['name']} [{COLOUR_LETTERS.get(player['colour'], '?')}]"

    def _board_page(self, seat: int | None) -> int | None:
        found = self._index(lambda p: isinstance(p, PlayerBoard) and p.seat == seat)
        return found[0] if found else None

    def _island_page(self, island: int | None) -> int | None:
        found = self._index(lambda p: isinstance(p, IslandPanel) and p.island == island)
        return found[0] if found else None

    def _goto_page(self, where: str, matches: list[int]) -> int | None:
        """b: the board of the player at the keyboard; o and p, first pressed: their island, the next player."""
        if where == "board":
            return self._board_page(self.keyboard.seat)
        following = super()._goto_page(where, matches)
        if following is not None:
            return following
        if where == "islands":
            return self._island_page(self._ship_of(self.keyboard.seat))
        if where == "players":
            seats = len(self.public.view["players"])
            start = self.keyboard.seat if self.keyboard.seat is not None else -1
            return self._board_page((start + 1) % seats)
        return None

    def _ship_of(self, seat: int | None) -> int | None:
        if seat is None:
            return None
        island: int | None = self.public.view["players"][seat]["island"]
        return island

    def decision_page(self, seat: int | None, prompt: Prompt, open: bool) -> int | None:
        """The page `seat`'s decision `prompt` is made on (None: none in particular).

        From the kind of decision and, when the decision is not open, what its
        options refer to (an open decision is made in front of everyone: its
        page says nothing of the seat's cards).
        """
        where = "board" if not open and pays(prompt) else DECISION_PAGES.get(prompt.kind)
        if where is None:
            return None
        if where == "board":
            return self._board_page(seat)
        if where == "ship":
            island = self._island_page(self._ship_of(seat))
            return island if island is not None else self._index(lambda p: isinstance(p, IslandPanel))[0]
        found = self._index(lambda p: isinstance(p, self.PAGE_KINDS[where]))
        return found[0] if found else None

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # (the curtain went before the page was turned under it)
        self.call_after_refresh(self.follow)

    def decided_on_screen(self, at: int, seat: int | None, prompt: Prompt | None, open: bool) -> None:
        """The decision drawn: the host's change `at`, made by `seat` with its `prompt` (None: nobody's
        prompt on screen), `open` if made in front of everyone."""
        self._decision = (at, seat, prompt, open) if prompt is not None else None
        self.follow()

    def follow(self) -> None:
        """The compact layout turned to the page the decision on screen is made on, once per decision.

        So a page the player turns to by hand stays until the next decision.
        """
        if self._decision is None:
            return
        at, seat, prompt, open = self._decision
        if at == self._followed:
            return
        self._followed = at
        page = self.decision_page(seat, prompt, open)
        if page is not None and page != self.page:
            self._go(page)


def _row_height(row: Widget) -> int:
    """The height of a row of panels: its tallest panel, from the lines each has laid out at its width."""
    panels = [panel for panel in row.children if isinstance(panel, Note) and panel.display]
    if not panels or not all(panel.rows for panel in panels):  # not laid out yet: as arranged last
        return row.outer_size.height
    return max(panel.rows + panel.styles.gutter.height for panel in panels)
