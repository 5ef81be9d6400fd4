"""The compact layout: one page of panels at a time, for the game screen and the replay screen.

Below WIDE a screen shows the whole board no more: it gets the class
"compact" and shows one `Page` of panels (class "-page"), switched with [ and ]
or a letter per kind of page, with a hint line (#page-hint) saying where it is
and which keys go where. Both screens page the same board the same way, so the
paging lives here once; each screen says which pages it has (`pages`), which
letters lead where (`PAGE_KINDS`, `hint_keys`) and may refine where a letter
jumps (`_goto_page`). The styles are in game.tcss (selectors on PagedScreen).

A screen's own BINDINGS list the page keys (STEP_KEYS, SCROLL_KEYS and its
letters) where they belong in its Footer and help; the actions are here.

A page may hold more than the screen has room for (a player's board late in
the game, the market, the log): j and k (or shift and the arrows) scroll it,
and the hint line names them on every page, so nothing on a page is out of
reach at 80×24. What scrolls is the page's own scroller, a panel that
scrolls its own lines (the log, the market), else the board area.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, NamedTuple

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.widget import Widget

from ..turbo.compositor import paint_spots
from ..widgets import EnrichmentCenterPanel, IslandPanel, MiningSitePanel, PlayerBoard, RoundTrackPanel, ScoreTrackPanel
from ..widgets.note import Note
from ..widgets.renderables import Fit

WIDE = (150, 44)  # from this size on, the whole board is shown at once


def compact(size: Size) -> bool:
    """Whether a screen of `size` shows the board a page at a time."""
    return size.width < WIDE[0] or size.height < WIDE[1]


STEP_KEYS = [
    Binding("right_square_bracket", "page(1)", "Next panel"),
    Binding("left_square_bracket", "page(-1)", "Prev panel", show=False),
]
"""[ and ]: the pages in turn."""

SCROLL_KEYS = [
    Binding("shift+down,j", "scroll_page(1)", "Scroll panel down", show=False),
    Binding("shift+up,k", "scroll_page(-1)", "Scroll panel up", show=False),
]
"""The page's own scroller (the log, the market) or the board area, when a page is taller than the screen."""

SCROLL_HINT = (("j k", "scroll"), ("j↓ k↑", ""))
"""How the hint line names SCROLL_KEYS: in words where there is room, else as arrows."""


def goto_key(key: str, where: str, what: str) -> Binding:
    """A letter that jumps to a kind of page (see `PagedScreen.action_goto`); listed by ? only when compact."""
    return Binding(key, f"goto('{where}')", f"Page: {what}", show=False)


def join_keys(keys: list[tuple[str, str]], sep: str) -> list[Text]:
    """Keys in bold, each followed by what it does: "o islands  g mines"."""
    out: list[Text] = []
    for n, (key, what) in enumerate(keys):
        out.append(Text(key, style="bold"))
        out.append(Text(f" {what}" if what else ""))
        if n < len(keys) - 1:
            out.append(Text(sep))
    return out


class Page(NamedTuple):
    """What the compact layout shows at once: one or a few panels, and a name for the hint line."""

    name: str
    panels: tuple[Widget, ...]


def board_pages(screen: Screen, seat_name: Callable[[int], str]) -> list[Page]:
    """The pages of the board of `compose_board`: islands two by two, the mines, the centre, the tracks, each board."""
    islands = list(screen.query(IslandPanel))
    pages = [
        Page(
            f"Islands {pair[0].island}–{pair[-1].island}" if len(pair) > 1 else f"Island {pair[0].island}", tuple(pair)
        )
        for pair in (islands[i : i + 2] for i in range(0, len(islands), 2))
    ]
    pages.append(Page("Mining sites", tuple(screen.query(MiningSitePanel))))
    pages.append(Page("Enrichment Center", (screen.query_one(EnrichmentCenterPanel),)))
    pages.append(Page("Score and rounds", (screen.query_one(ScoreTrackPanel), screen.query_one(RoundTrackPanel))))
    for board in screen.query(PlayerBoard):
        pages.append(Page(f"Board of {seat_name(board.seat)}", (board,)))
    return pages


class PagedScreen(Screen[None]):
    """A screen of the board (#board) and a side column (#side) that pages its panels when small.

    Subclasses provide `pages`, `PAGE_KINDS` (the `goto` names and the panel
    type each leads to) and `HINT_KEYS`, call `_fit` when mounted, and put
    the bindings in their BINDINGS. Everything with the class "panel" is
    paged; a page of panels outside #board (a log, say) takes the whole height
    (class "-side-page").
    """

    COMPACT_ONLY: ClassVar[frozenset[str]] = frozenset({"page", "goto", "scroll_page"})
    WIDE_ONLY: ClassVar[frozenset[str]] = frozenset()
    PAGE_KINDS: ClassVar[dict[str, type[Widget]]] = {}
    SCROLLERS: ClassVar[tuple[type[Widget], ...]] = ()  # panels that scroll by themselves (besides ScrollViews)
    HINT_KEYS: ClassVar[list[tuple[str, str]]] = []

    page: int = 0
    _wide_shown = False  # the wide layout is set up (nothing to do on a resize that stays wide)
    _fitted_to: Size | None = None  # the size the screen was last fitted to

    _panels: list[Widget] | None = None

    def __init__(self, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name, id, classes)
        paint_spots(self)

    @property
    def panels(self) -> list[Widget]:
        """Every panel of the board and the side column (found once: the panels stay for the screen's life)."""
        if not self._panels:
            self._panels = list(self.query(".panel"))
        return self._panels

    @property
    def pages(self) -> list[Page]:  # pragma: no cover - each screen overrides it
        raise NotImplementedError

    @property
    def hint_keys(self) -> list[tuple[str, str]]:
        """The keys the hint line names, "[ ]" first (the first left out when room is short)."""
        return self.HINT_KEYS

    # --- size ------------------------------------------------------------------------

    def set_layout_class(self) -> None:
        """The layout's class, for a screen's `compose` to give before its panels mount.

        So it is in their styles from the start; given once they had mounted (at
        the first `_fit`), it restyled every widget of the screen, about 9 ms of
        a start in a small terminal.
        """
        self.set_class(compact(self.app.size), "compact")

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size)

    def _fit(self, size: Size) -> None:
        if size == self._fitted_to:
            return  # (a start brings Resize events of the size the screen has: each redid the page and its hint)
        self._fitted_to = size
        compact_now = compact(size)
        if not compact_now and self._wide_shown:
            return  # every panel is on screen already
        self._wide_shown = not compact_now
        self.set_class(compact_now, "compact")
        self._show_page()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        compact = self.has_class("compact")
        if action in self.COMPACT_ONLY:
            return compact
        if action in self.WIDE_ONLY:
            return not compact
        return True

    # --- the page shown ------------------------------------------------------------------

    def _show_page(self) -> None:
        pages = self.pages
        self.page %= len(pages)
        shown = pages[self.page]
        compact = self.has_class("compact")
        for panel in self.panels:
            panel.set_class(panel in shown.panels, "-page")
        for row in self.query(".row"):
            visible = [child for child in row.children if child in shown.panels]
            if compact:
                columns = 1 if row.id in ("tracks", "boards") else max(1, len(visible))
            else:
                columns = len(row.children)
            row.styles.grid_size_columns = columns
            row.set_class(compact and not visible, "-empty")
        board = self.query_one("#board")
        side = compact and not any(board in panel.ancestors for panel in shown.panels)
        self.set_class(side, "-side-page")
        if compact:
            if not side:  # (scrolled as it was hidden, the board left the side page shown unsized: a blank log)
                board.scroll_home(animate=False)
            self.query_one("#page-hint", Note).update(self._hint(shown))

    def _hint(self, shown: Page) -> Fit:
        """Where the page is, where the keys lead, and the keys that scroll it (as much as fits)."""
        where = Text(f"{self.page + 1}/{len(self.pages)}", style="bold")
        keys = self.hint_keys
        words, arrows = SCROLL_HINT
        choices = [
            Text.assemble(where, " ", *join_keys([*keys, words], "  ")),
            Text.assemble(where, " ", *join_keys([*keys[1:], words], "  ")),
            Text.assemble(where, " ", *join_keys([*keys[1:], arrows], " ")),
            Text.assemble(where, " ", *join_keys([*((k, "") for k, _ in keys), arrows], " ")),
        ]
        return Fit(*choices)

    def _go(self, index: int) -> None:
        self.page = index
        if self.has_class("compact"):
            self._show_page()
        # (the wide layout shows every panel: the page is shown when the terminal gets smaller, and
        # marking it now would restyle and repaint panels for nothing, at every hand-over)

    def _index(self, test: Callable[[Widget], bool]) -> list[int]:
        return [i for i, page in enumerate(self.pages) if any(test(p) for p in page.panels)]

    # --- keys --------------------------------------------------------------------------

    def action_page(self, step: int) -> None:
        self._go(self.page + step)

    def action_goto(self, where: str) -> None:
        """Jump to a page of a kind (PAGE_KINDS); pressed again, go on to the next page of the same kind."""
        kind = self.PAGE_KINDS[where]
        matches = self._index(lambda p: isinstance(p, kind))
        target = self._goto_page(where, matches)
        self._go(target if target is not None else matches[0])

    def _goto_page(self, where: str, matches: list[int]) -> int | None:
        """Where `goto(where)` leads from this page (None: the first page of the kind).

        Here: the next page of the kind when one is shown. A screen may know
        better (the game screen: the page of the player at the keyboard).
        """
        if self.page in matches:
            return matches[(matches.index(self.page) + 1) % len(matches)]
        return None

    def scroller(self) -> Widget | None:
        """What j and k scroll on the page shown: a panel that scrolls its own lines, else the board area.

        None on a page with neither (a page of the side column shows no board
        area, and scrolling it unseen left the log's page blank).
        """
        shown = self.pages[self.page].panels
        own = [p for p in shown if isinstance(p, (ScrollView, *self.SCROLLERS))]
        if own:
            return own[0]
        board = self.query_one("#board")
        return board if board.display else None

    def action_scroll_page(self, step: int) -> None:
        target = self.scroller()
        if target is not None:
            target.scroll_relative(y=step * 3, animate=False)
