"""The game screen: the board panels, the prompt and the log, for the seat at the keyboard.

Data flows down: after every accepted choice the engine's new events arrive as
a `GameChanged` message and every panel redraws from a fresh `Scene`. Intent
flows up: the prompt posts the option picked and this screen hands it to the
engine, which alone decides whether it is legal.
"""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static

from ..bridge import GameBridge
from ..cards_text import describe_option
from ..widgets import LogPanel, MarketPanel
from ..widgets.prompt import PromptPanel
from .board_layout import compose_board
from .curtain import CurtainScreen
from .inspect import InspectScreen

WIDE = (150, 44)  # from this size on, the whole board is shown at once


class GameScreen(Screen[None]):
    CSS_PATH = "game.tcss"
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("i", "inspect", "Inspect"),
        Binding("right_square_bracket", "page(1)", "Next panel"),
        Binding("left_square_bracket", "page(-1)", "Prev panel"),
        Binding("f", "filter_log", "Log filter"),
        Binding("u,ctrl+z", "undo", "Undo"),  # saves: take back a move of this turn
        *(Binding(str(n), f"pick({n - 1})", f"Option {n}", show=False) for n in range(1, 10)),
    ]

    class GameChanged(Message):
        """The engine accepted a choice; these are its events."""

        def __init__(self, events: list) -> None:
            self.events = events
            super().__init__()

    def __init__(self, bridge: GameBridge) -> None:
        super().__init__()
        self.bridge = bridge
        self.at_keyboard: int | None = None
        self.page = 0
        self.log_filter: int | None = None
        self._unsubscribe = bridge.engine.subscribe(lambda events: self.post_message(self.GameChanged(events)))

    # --- layout ---------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield from compose_board(self.bridge.content, self.bridge.engine.state.seats)
            with Vertical(id="side"):
                yield PromptPanel()
                yield Static(id="page-hint")
                yield MarketPanel(classes="panel")
                yield LogPanel(classes="panel")
        yield Footer()

    def on_mount(self) -> None:
        self._fit(self.app.size)
        self.advance()

    def on_unmount(self) -> None:
        self._unsubscribe()

    def on_resize(self, event) -> None:
        self._fit(event.size)

    def _fit(self, size) -> None:
        compact = size.width < WIDE[0] or size.height < WIDE[1]
        self.set_class(compact, "compact")
        self._show_page()

    @property
    def panels(self) -> list:
        return list(self.query(".panel"))

    def _show_page(self) -> None:
        panels = self.panels
        self.page %= len(panels)
        for i, panel in enumerate(panels):
            panel.set_class(i == self.page, "-page")
        if self.has_class("compact"):
            title = panels[self.page].border_title or type(panels[self.page]).__name__
            self.query_one("#page-hint", Static).update(
                f"Showing {title} ({self.page + 1}/{len(panels)}) · [ ] other panels")

    def action_page(self, step: int) -> None:
        self.page += step
        self._show_page()

    # --- the flow of the game -------------------------------------------------------------

    def on_game_screen_game_changed(self, message: GameChanged) -> None:
        self.advance()

    def advance(self) -> None:
        """Redraw for whoever decides now, behind a curtain when the keyboard changes hands."""
        engine = self.bridge.engine
        if engine.state.phase == "over":
            self.at_keyboard = None
            self.redraw()
            self.app.game_over(self.bridge)
            return
        seat = engine.pending.seat
        if seat is not None and seat != self.at_keyboard:
            self.at_keyboard = None
            self.redraw()  # nothing private stays on the board while it changes hands
            tag = self.bridge.scene(None).tag(seat)
            self.app.push_screen(CurtainScreen(tag), lambda _: self._hand_over(seat))
            return
        self.redraw()

    def _hand_over(self, seat: int) -> None:
        self.at_keyboard = seat
        self.redraw()

    def redraw(self) -> None:
        scene = self.bridge.scene(self.at_keyboard)
        for panel in self.panels:
            panel.show(scene)
        if self.at_keyboard is None:
            # the prompt of a seat is shown only to that seat
            scene = self.bridge.scene(None)
        self.query_one(PromptPanel).show(scene)
        self.query_one("PromptPanel OptionList").focus()

    def on_prompt_panel_chosen(self, message: PromptPanel.Chosen) -> None:
        if self.at_keyboard is None:
            return
        result = self.bridge.choose(message.option_id)
        if not result and hasattr(result, "reason"):
            self.notify(result.reason, title="Not allowed", severity="warning")

    # --- keys -------------------------------------------------------------------------------

    def action_pick(self, index: int) -> None:
        self.query_one(PromptPanel).pick(index)

    def action_back(self) -> None:
        if any(o.id == "back" for o in self.bridge.engine.pending.options):
            self.on_prompt_panel_chosen(PromptPanel.Chosen("back"))

    def action_undo(self) -> None:
        """Take back this seat's last move of the turn, if the engine allows it (saves)."""
        if self.at_keyboard is None:
            return
        point = self.bridge.undo()
        if not point:
            self.notify(point.reason[:1].upper() + point.reason[1:] + ".", title="Cannot undo", severity="warning")
            return
        self.notify(f"Took back: {point.what}", title="Undo")
        self.redraw()

    def action_inspect(self) -> None:
        option = self.query_one(PromptPanel).highlighted_id
        details = describe_option(self.bridge.content, option) if option else None
        if details is None:
            self.notify("This option has no card to inspect.")
            return
        self.app.push_screen(InspectScreen(*details))

    def action_filter_log(self) -> None:
        seats = [None, *range(self.bridge.engine.state.seats)]
        self.log_filter = seats[(seats.index(self.log_filter) + 1) % len(seats)]
        self.query_one(LogPanel).set_filter(self.log_filter)
