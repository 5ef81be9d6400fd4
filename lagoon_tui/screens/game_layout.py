"""How the game screen's panels fit the terminal: the wide layout's boards, the compact layout's pages.

Wide terminals show everything at once, the player boards stretched down to
the bottom of the screen. Below `paging.WIDE` the screen gets the class
"compact": one page of panels at a time over the prompt, switched with [ and ]
or a letter per page (o islands, g mining sites, e the Enrichment Center, t
the tracks, b your board, p the next player's board, m the market, l the
log); when the keyboard changes hands the page jumps to what that player
needs first (their board while setting up, the island of their ship while
playing). `GameLayout` is the game screen's part that does this; it reads the
game as everyone may see it (`public`) and who has the keyboard (`keyboard`).
"""

from __future__ import annotations

from textual import events
from textual.containers import VerticalScroll
from textual.css.query import NoMatches
from textual.geometry import Size
from textual.widget import Widget

from rules.seat import SeatScene

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

ROOMY = 58  # from this height on, the market also says what each equipment card does


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
    _paged_for: int | None = None  # the seat the compact page last jumped for

    @property
    def public(self) -> SeatScene:
        raise NotImplementedError  # (the game screen's: the game as everyone may see it)

    def _fit(self, size: Size) -> None:
        super()._fit(size)
        self.query_one(MarketPanel).set_details(self.has_class("compact") or size.height >= ROOMY)
        self.call_after_refresh(self._stretch)

    def on_board_area_resized(self) -> None:
        self._stretch()

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
        for panel in panels:
            panel.styles.min_height = max(0, board.scrollable_content_region.height - above)

    @property
    def pages(self) -> list[Page]:
        """The compact layout's pages, in the order [ and ] go through them."""
        return [
            *board_pages(self, self._seat_name),
            Page("Market", (self.query_one(MarketPanel),)),
            Page("Log", (self.query_one(LogPanel),)),
        ]

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

    def _default_page(self, seat: int) -> int | None:
        """The page a player needs first when the keyboard comes to them."""
        phase = self.public.view["phase"]
        if phase == "setup":
            return self._board_page(seat)
        if phase == "actions":
            return self._island_page(self._ship_of(seat))
        if phase == "island_selection":
            return 0
        return None

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # the keyboard changed hands (a curtain has just been passed): the new player's page, if
        # the curtain went before it was turned to under it
        self.call_after_refresh(lambda: self._page_for(self.keyboard.at_keyboard))

    def _page_for(self, seat: int | None) -> None:
        """The compact layout turned to the page `seat` starts their decisions on, once per hand-over."""
        if seat is None or seat == self._paged_for:
            return
        self._paged_for = seat
        page = self._default_page(seat)
        if page is not None:
            self._go(page)


def _row_height(row: Widget) -> int:
    """The height of a row of panels: its tallest panel, from the lines each has laid out at its width."""
    panels = [panel for panel in row.children if isinstance(panel, Note) and panel.display]
    if not panels or not all(panel.rows for panel in panels):  # not laid out yet: as arranged last
        return row.outer_size.height
    return max(panel.rows + panel.styles.gutter.height for panel in panels)
