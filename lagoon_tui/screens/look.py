"""Look mode: a cursor over everything on the board that has a name, opened with x.

The board stays on screen under a line at the bottom (`LookScreen`) naming
the item under the cursor and the first line of what it is; the panel it is
on is outlined, the item's words on it painted in reverse and scrolled into
sight (`widgets.spotlight`), and below the wide layout the page turns to it. → and ← (or
Tab) go from item to item in the board's order, ↓ and ↑ from panel to panel
(and from row to row of a mining site),
i or Enter reads the item in full, and Escape (or x again) goes back to the
decision, which nothing here touches: look mode has no key that answers it
(and the page the player had turned to comes back).

The items are `board_items` of the scene the panels were last drawn from
(the seat at the keyboard's, or everyone's while the board is shown as
everyone sees it), read again as soon as the board is drawn anew (the screen
under it calls `look_follows` after each change it shows, as it tells w's
window): a secret the panels do not show cannot be read here either. A hand-over at one keyboard
closes look mode with every other window. The command palette (ctrl+p) finds
the same items by name (`BoardItemsCommands`).
"""

from __future__ import annotations

from functools import partial

from textual.app import ComposeResult
from textual.binding import Binding
from textual.command import Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import Matcher
from textual.geometry import Region
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Static

from ..board_items import Item, Spot, board_items, gallery_key
from ..scene import Scene
from ..widgets import (
    EnrichmentCenterPanel,
    IslandPanel,
    MarketPanel,
    MiningSitePanel,
    PlayerBoard,
    RoundTrackPanel,
    ScoreTrackPanel,
)
from ..widgets.spotlight import Spotlit
from .help import show_help
from .inspect import InspectScreen
from .paging import PagedScreen

LOOK_KEY = "x"
LOOKED = "-looked"
"""The class of the panel the cursor is on (outlined: see game.tcss)."""

SPOT_PANELS: dict[str, type[Widget]] = {
    "score": ScoreTrackPanel,
    "rounds": RoundTrackPanel,
    "island": IslandPanel,
    "site": MiningSitePanel,
    "centre": EnrichmentCenterPanel,
    "market": MarketPanel,
    "board": PlayerBoard,
}
"""The panel that draws each kind of `Spot`."""


def panel_of(screen: PagedScreen, spot: Spot) -> Widget | None:
    """The panel of `screen` an item at `spot` is drawn on."""
    for panel in screen.query(SPOT_PANELS[spot.panel]):
        number = getattr(panel, "seat" if spot.panel == "board" else "island", None)
        if spot.number is None or number == spot.number:
            return panel
    return None


def shown_scene(screen: PagedScreen) -> Scene | None:
    """The scene the board panels of `screen` were last drawn from (None before the first drawing)."""
    for panel in screen.query(ScoreTrackPanel):
        return panel.scene
    return None


def items_on(screen: PagedScreen, scene: Scene | None) -> list[Item]:
    """The items of `scene` that have a panel on `screen` (a replay has no market)."""
    if scene is None:
        return []
    return [item for item in board_items(scene) if panel_of(screen, item.spot) is not None]


class LookScreen(ModalScreen[None]):
    """The look line over the board of `board` (a game or replay screen); the board itself stays as it is."""

    DEFAULT_CSS = """
    LookScreen { background: transparent; }
    LookScreen #look-line { dock: bottom; width: 100%; height: auto; max-height: 6;
                            background: $panel; border-top: heavy $accent; padding: 0 1; }
    """
    BINDINGS = [
        Binding("right,tab", "move(1)", "Next item", priority=True),
        Binding("left,shift+tab", "move(-1)", "Previous item", priority=True),
        Binding("down", "jump(1)", "Next panel", priority=True),
        Binding("up", "jump(-1)", "Previous panel", priority=True),
        Binding("i,enter", "read", "Read it in full", priority=True),
        Binding(f"escape,{LOOK_KEY}", "leave", "Back to the game", priority=True),
        Binding("question_mark", "help", "Keys", key_display="?"),  # (a modal screen hides the app's own)
    ]
    HELP_TITLE = "Look at the board"

    def __init__(self, board: PagedScreen) -> None:
        super().__init__()
        self.board = board
        self.scene: Scene | None = None
        self.items: list[Item] = []
        self.at = 0  # the cursor: an index into `items`
        self.panel: Widget | None = None  # the panel outlined
        self.page = board.page  # the page shown before (turned back to on leaving)

    def compose(self) -> ComposeResult:
        yield Static("", id="look-line", markup=False)

    def on_mount(self) -> None:
        self._read_board()
        first = self._first_on_page()
        if first is not None:
            self.at = first
        self._show()

    def on_unmount(self) -> None:
        """No panel outlined any more (a hand-over closing look mode too)."""
        self._light(None, None)

    @property
    def item(self) -> Item | None:
        return self.items[self.at] if self.items else None

    def _read_board(self) -> None:
        """The items of the board as last drawn; the cursor stays on the item it was on, if it is still there."""
        scene = shown_scene(self.board)
        if scene is self.scene:
            return
        before = self.item
        self.scene, self.items = scene, items_on(self.board, scene)
        if before is not None:
            same = [n for n, item in enumerate(self.items) if item.name == before.name]
            near = [n for n, item in enumerate(self.items) if item.spot == before.spot]
            self.at = (same or near or [min(self.at, len(self.items) - 1)])[0]
        self.at = max(0, min(self.at, len(self.items) - 1))

    def _first_on_page(self) -> int | None:
        """Below the wide layout: the first item on the page shown, so look mode starts where the player looks."""
        if not self.board.has_class("compact"):
            return None
        shown = self.board.pages[self.board.page].panels
        for n, item in enumerate(self.items):
            if panel_of(self.board, item.spot) in shown:
                return n
        return None

    def follow_board(self) -> None:
        """The board may have been drawn anew (a move made meanwhile): the look line says what is there now.
        (Not before the look line is there: look mode reads the board as it opens.)"""
        if self.query("#look-line") and shown_scene(self.board) is not self.scene:
            self._read_board()
            self._show()

    def on_screen_resume(self) -> None:
        """Back from reading an item (i): a move made meanwhile shows."""
        self.follow_board()

    def _show(self) -> None:
        """The look line for the item under the cursor, its panel outlined and (compact) on the page shown."""
        line = self.query_one("#look-line", Static)
        item = self.item
        if item is None:
            line.update("Nothing on the board yet. Esc: back to the game")
            return
        panel = panel_of(self.board, item.spot)
        self._light(panel, item.key or None)
        if panel is not None:
            self._bring_into_sight(panel)
        where = f"Look {self.at + 1}/{len(self.items)}: "
        line.update(f"{where}{item.name}\n{item.summary}\n→ ← item · ↓ ↑ panel · i read it · Esc back to the game")

    def _light(self, panel: Widget | None, key: str | None) -> None:
        """`panel` outlined, and the words it draws for the item `key` in reverse; the last one no more."""
        if panel is not self.panel and self.panel is not None:
            self.panel.remove_class(LOOKED)
            if isinstance(self.panel, Spotlit):
                self.panel.spotlight(None)
        self.panel = panel
        if panel is not None:
            panel.add_class(LOOKED)
            if isinstance(panel, Spotlit):
                panel.spotlight(key)

    def _bring_into_sight(self, panel: Widget) -> None:
        """The page the panel is on (compact), then the line of the item scrolled into sight."""
        board = self.board
        if board.has_class("compact"):
            pages = [n for n, page in enumerate(board.pages) if panel in page.panels]
            if pages and board.page not in pages:
                self._turn_to(pages[0])
        self.call_after_refresh(self._scroll_to_item, panel)

    def _scroll_to_item(self, panel: Widget) -> None:
        if panel is not self.panel or not panel.is_mounted:
            return
        row = panel.spot_row() if isinstance(panel, Spotlit) else None
        if isinstance(panel, MarketPanel):  # (it scrolls its own lines)
            panel.scroll_visible(animate=False)
            if row is not None:
                panel.scroll_to_region(Region(0, row, 1, 1), animate=False)
            return
        area = self.board.query_one("#board")
        if row is None or not area.region.height:
            panel.scroll_visible(animate=False)
            return
        top = panel.region.y - area.region.y + int(area.scroll_y) + panel.styles.gutter.top
        area.scroll_to_region(Region(0, top + row, 1, 1), animate=False)

    def _turn_to(self, page: int) -> None:
        if self.board.page != page and self.board.has_class("compact"):
            self.board._go(page)  # (the paging's own turn of the page: `PagedScreen._go`)

    # --- keys -------------------------------------------------------------------------------

    def action_move(self, step: int) -> None:
        self._read_board()
        if self.items:
            self.at = (self.at + step) % len(self.items)
        self._show()

    def action_jump(self, step: int) -> None:
        """Down (or up) a row of a mining site as drawn; else to the first item of the next (or previous) panel."""
        self._read_board()
        if not self.items:
            return
        below = row_below(self.items[self.at].key, step)
        keys = [item.key for item in self.items]
        if below in keys:
            self.at = keys.index(below)
            self._show()
            return
        spots = list(dict.fromkeys(item.spot for item in self.items))
        here = spots.index(self.items[self.at].spot)
        target = spots[(here + step) % len(spots)]
        self.at = next(n for n, item in enumerate(self.items) if item.spot == target)
        self._show()

    def action_read(self) -> None:
        self._read_board()
        item = self.item
        if item is not None:
            self.app.push_screen(InspectScreen(item.name, item.text))

    def action_help(self) -> None:
        show_help(self)

    def action_leave(self) -> None:
        """Back to the decision, on the page the player had turned to."""
        self._turn_to(self.page)
        self.dismiss(None)


def row_below(key: str, step: int) -> str | None:
    """The key of the slot a row below (`step` 1) or above (-1) a mining-site slot's, in its column (the panel
    draws the higher level above); None for an item that is no slot."""
    kind, *where = key.split(":")
    if kind != "gallery" or len(where) != 3:
        return None
    island, column, level = where
    return gallery_key(int(island), int(column), int(level) - step)


def look_follows(board: PagedScreen) -> None:
    """`board` was drawn anew: look mode open over it (on top, or under the item it reads) follows it."""
    for window in board.app.screen_stack:
        if isinstance(window, LookScreen) and window.board is board:
            window.follow_board()


class BoardItemsCommands(Provider):
    """The command palette (ctrl+p) finds every item on the board by name as the player types, and reads it.

    (Searched only: listed before anything is typed, they would bury the game's own commands.)
    """

    async def search(self, query: str) -> Hits:
        board = self.screen
        if not isinstance(board, PagedScreen) or not query.strip():
            return
        matcher = self.matcher(query)
        for item in items_on(board, shown_scene(board)):
            score = matcher.match(item.name)
            if score > 0:
                read = partial(self._read, board, item)
                yield Hit(score, _typed(matcher, item.name), read, text=item.name, help=_plain(item.summary))

    @staticmethod
    def _read(board: PagedScreen, item: Item) -> None:
        if board.is_active:  # (not once a hand-over has closed every window: the item may be another seat's)
            board.app.push_screen(InspectScreen(item.name, item.text))


def _typed(matcher: Matcher, name: str) -> Content:
    """`name` as it is, the letters typed marked in it. (Textual's `Matcher.highlight` reads a name as
    markup, and "Ana [R] · Elevator" lost its "[R]": a tag to it.)"""
    content = Content(name)
    _, at = matcher.fuzzy_search.match(matcher.query, name)
    for n in at:
        content = content.stylize(matcher.match_style, n, n + 1)
    return content


def _plain(text: str) -> str:
    """`text` shown as it is where Textual reads markup (its help line): every "[" escaped, as its own
    `escape` leaves "[R]", which its markup then takes for a tag."""
    return text.replace("[", "\\[")
