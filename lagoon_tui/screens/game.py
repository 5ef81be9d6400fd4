"""The game screen: the board panels, the prompt and the log, for the seat at the keyboard.

Data flows down: after every change of the game (a choice, whoever made it,
or an undo) the host's signal arrives as a `GameChanged` message, and the
screen redraws from it, the one way a change reaches the screen: every panel
from a fresh `Scene`, behind a curtain if the keyboard changes hands. Intent
flows up: the prompt posts the option picked and this screen hands it to the
engine, which alone decides whether it is legal.

At one keyboard (`GameScreen(host)`) the screen follows the deciding seat,
behind a curtain between people; who sees what is the keyboard's state
machine (`lagoon_tui.hand_over`), which the screen only follows: an open
decision and a computer's move are drawn as everyone sees them. A screen of one seat (`GameScreen(host,
seat=n)`: a player at their own terminal, their game hosted elsewhere) is
always drawn for that seat, with no curtain; when the decision comes to it,
the terminal's bell rings and the title says so. A spectator's screen
(`watching=True`) is drawn as everyone sees the game.

Seats a computer plays (`host.computers`) are played from here: its search
runs in a worker thread on that seat's message, so the screen answers keys
meanwhile, and its move is made at a pace a person can follow (`pace`
seconds a step; space hurries it). The curtain comes only between people:
with one person the screen is theirs alone, as a remote seat's is; with
none it watches. A remote seat's computers are played by its server, which
tells the host which seats they are and when one thinks; the prompt says so
as it does here (there is no hurrying them from one seat).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.css.query import NoMatches
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget

from rules.host import Host, NotMade, Rejection
from rules.seat import Choice, SeatScene

from ..cards_text import describe_option
from ..hand_over import OWN, READY, UNVEIL, Change, Draw, Key, Keyboard, next_state
from ..quiet_gc import collector
from ..scene import COLOUR_LETTERS, Scene
from ..turbo.screens import UnseenArrangement
from ..turbo.title import set_title
from ..widgets import (
    EnrichmentCenterPanel,
    IslandPanel,
    LogPanel,
    MarketPanel,
    MiningSitePanel,
    PlayerBoard,
    ScoreTrackPanel,
)
from ..widgets.keys_footer import KeysFooter
from ..widgets.note import Note, clear_min_height
from ..widgets.options import Options
from ..widgets.player_board import secrets_text
from ..widgets.prompt import PromptPanel
from .board_layout import Side, compose_board
from .confirm import ConfirmScreen
from .curtain import CurtainScreen
from .inspect import InspectScreen
from .paging import (
    SCROLL_KEYS,
    STEP_KEYS,
    WIDE,  # noqa: F401 - where the compact layout ends; notes and tests name game.WIDE
    Page,
    PagedScreen,
    board_pages,
    goto_key,
)

PACE = 0.5
"""Seconds a computer's step stays on screen before its next (`lagoon play --pace`), so people can follow it."""
ROOMY = 58  # from this height on, the market also says what each equipment card does
QUIET_AFTER = 0.1  # seconds from a move to the collection of its garbage (see lagoon_tui.quiet_gc)
FRAME_OUT = 0.01  # seconds a curtain's frame is given to reach the terminal before the board is drawn under it


class GameScreen(UnseenArrangement, PagedScreen):
    """The board, the prompt, the market and the log.

    Wide terminals show everything at once. Below WIDE the screen gets the
    class "compact": one page of panels at a time over the prompt, switched
    with [ and ] or a letter per page (o islands, g mining sites, e the
    Enrichment Center, t the tracks, b your board, p the next player's board,
    m the market, l the log); when the keyboard changes hands the page jumps to
    what that player needs first (their board while setting up, the island of
    their ship while playing).
    """

    # (its stylesheet, game.tcss, is the app's: see LagoonApp.CSS_PATH)
    # The options have the keyboard from the start: focus moved to them from the board
    # (Textual's first choice) restyled every panel on it, 8 ms at the first move.
    AUTO_FOCUS = "#options"
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("i", "inspect", "Inspect"),
        *STEP_KEYS,
        Binding("f", "filter_log", "Log filter"),
        Binding("b", "my_cards", "My cards"),
        goto_key("b", "board", "my board"),
        goto_key("p", "players", "next player's board"),
        goto_key("o", "islands", "islands"),
        goto_key("g", "sites", "mining sites"),
        goto_key("e", "centre", "Enrichment Center"),
        goto_key("t", "tracks", "score and rounds"),
        goto_key("m", "market", "market"),
        goto_key("l", "log", "log"),
        *SCROLL_KEYS,
        Binding("u,ctrl+z", "undo", "Undo"),  # saves: take back a move of this turn
        Binding("v", "unveil", "Show my cards"),  # only while the board is shown as everyone sees it
        Binding("space", "hurry", "Hurry the computers"),  # only while a computer plays
        # priority: picked as the key comes in, not after it has travelled up from the focused widget
        *(Binding(str(n), f"pick({n - 1})", f"Option {n}", show=False, priority=True) for n in range(1, 10)),
    ]
    HELP_TITLE = "Game"
    WIDE_ONLY = frozenset({"my_cards"})
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

    class GameChanged(Message):
        """The game changed (a choice was made, or taken back): the screen shows it."""

    def __init__(self, host: Host, seat: int | None = None, *, watching: bool = False) -> None:
        """`seat`: the one seat this screen shows (its player at their own terminal); `watching`: nobody's.
        Neither: every seat in turn, at one keyboard; one person among computers gets their seat,
        and a game of computers alone is watched."""
        super().__init__()
        self.host = host
        self.computers: dict[int, str] = getattr(host, "computers", {})  # (a remote seat's are played elsewhere)
        people = host.people if seat is None and not watching else ()  # (at one keyboard the host is here)
        self.keyboard = Keyboard.start(people, seat, watching=watching)  # who has it, whose cards show
        self.bell = seat is not None  # the turn is rung in (a screen of one seat; not a person playing computers here)
        self.own = self.keyboard.seat if self.keyboard.mode == OWN else None  # the screen's one reader
        self.hurry = False  # the computers play on at once until a person decides (space)
        self._stopped = False  # the screen is going: its computers play no more
        self._due: tuple[Timer, tuple[int, int, str]] | None = None  # a computer's move waiting for its pace
        self._thinking: tuple[int, int] | None = None  # a computer's search under way: its seat, at which change
        self.says = ""  # a screen of one reader: whose turn it is, as the window's title says it
        self._paged_for: int | None = None  # the seat the compact page last jumped for
        self._shown = -1  # the host's count of changes the screen shows (-1: none yet)
        self._drawn: tuple[Draw, int] | None = None  # what was drawn last, and at which of the host's changes
        self._prompt: dict[str, Choice] = {}  # the options on screen, by id
        self._back: str | None = None  # the option that backs out of the step on screen
        self._public: tuple[int, SeatScene] | None = None  # the message for everyone, and at which change
        self._unsubscribe = host.on_change(lambda: self.post_message(self.GameChanged()))

    # --- layout ---------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        self.set_layout_class()
        with Horizontal(id="main"):
            yield from compose_board(self.host.content, len(self.public.view["players"]))
            with Side(id="side"):
                yield MarketPanel(classes="panel")
                yield LogPanel(classes="panel")
                yield Note(id="page-hint")
                yield PromptPanel()
        yield KeysFooter()

    def on_mount(self) -> None:
        self._fit(self.app.size)
        self.host.pass_where_forced()  # (a game saved just before a lone Pass)
        self.advance()
        self.start_paint_timer()

    @property
    def public(self) -> SeatScene:
        """The game as everyone may see it now (who decides, whose ship is where)."""
        if self._public is None or self._public[0] != self.host.changes:
            # (a screen of one seat has that seat's message only: it holds all that everyone may see)
            self._public = (self.host.changes, self.host.scene(self.own))
        return self._public[1]

    @property
    def at_keyboard(self) -> int | None:
        """The seat whose keys count now (None: behind a curtain, or while computers move at a shared keyboard)."""
        return self.keyboard.at_keyboard

    @property
    def veiled(self) -> bool:
        """The seat at the keyboard makes an open decision on the board as everyone sees it."""
        return self.keyboard.veiled

    @property
    def board_drawn(self) -> bool:
        """Whether the board has been drawn for anyone yet (a new screen's first curtain comes first)."""
        return self._drawn is not None

    @property
    def covered(self) -> bool:
        """Whether the curtain is up, hiding the whole board."""
        return isinstance(self.app.screen, CurtainScreen)

    def on_unmount(self) -> None:
        self._unsubscribe()
        self.stop_computers()

    def _fit(self, size) -> None:
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
        except (
            NoMatches
        ):  # the screen has gone (a finished game handed to the end screen) before a stretch it asked for
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

    def commands(self) -> Iterator[SystemCommand]:
        """The game's own commands, for the command palette (ctrl+p); each names its key."""
        yield SystemCommand("Undo", "Take back your last move of this turn (u)", self.action_undo)
        yield SystemCommand("Inspect", "The card or action behind the highlighted option (i)", self.action_inspect)
        if not self.has_class("compact"):
            yield SystemCommand("My cards", "Your objectives and deals in full (b)", self.action_my_cards)
        yield SystemCommand("Log filter", "The log of one player, or of everyone (f)", self.action_filter_log)
        for seat in sorted(self.host.away):  # (a game hosted elsewhere: players who left)
            name = self.public.view["players"][seat]["name"]
            yield SystemCommand(
                f"Let a computer play for {name}",
                f"{name} left: once every player here agrees, a computer plays for them until they come back",
                lambda seat=seat: self.notify(self.host.stand_in(seat), markup=False),
            )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "unveil":
            return self.veiled  # (shown in the footer only while the player's cards are hidden)
        if action == "hurry":
            return self._thinking is not None and not self.hurry
        return super().check_action(action, parameters)

    def action_my_cards(self) -> None:
        """Wide layout: the seat at the keyboard's objectives and deals in full, in a window."""
        if not self.is_active:
            return  # (a command the palette kept, run once this screen is covered or gone)
        if self.veiled:
            self.action_unveil()  # (the curtain first: others may be looking)
            return
        if self.at_keyboard is None:
            return
        scene = Scene(self.host.scene(self.at_keyboard), self.host.content)
        self.app.push_screen(
            InspectScreen(f"{scene.tag(self.at_keyboard).plain}: your cards", secrets_text(scene, self.at_keyboard))
        )

    def _ship_of(self, seat: int | None) -> int | None:
        if seat is None:
            return None
        return self.public.view["players"][seat]["island"]

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

    def on_screen_resume(self) -> None:
        # the keyboard changed hands (a curtain has just been passed): the new player's page, if
        # the curtain went before it was turned to under it
        self.call_after_refresh(lambda: self._page_for(self.at_keyboard))

    def _page_for(self, seat: int | None) -> None:
        """The compact layout turned to the page `seat` starts their decisions on, once per hand-over."""
        if seat is None or seat == self._paged_for:
            return
        self._paged_for = seat
        page = self._default_page(seat)
        if page is not None:
            self._go(page)

    # --- the flow of the game -------------------------------------------------------------

    def on_game_screen_game_changed(self, message: GameChanged) -> None:
        if self._shown != self.host.changes:  # (one message shows every change made before it)
            self.advance()

    def advance(self) -> None:
        """Show the game as it is now: the keyboard (`lagoon_tui.hand_over`) says for whom, behind a curtain or not."""
        self._shown = self.host.changes
        turn = self.host.turn()
        over = turn.kind == "game_over"
        computer = not over and turn.seat in self.computers
        if computer:
            self._think(turn.seat)
        elif self._thinking is not None or self.hurry:  # a person decides: the computers' keys go
            self._thinking, self.hurry = None, False
            self._keys_changed()
        if self.keyboard.mode == OWN and not over:
            self._ring(turn)
        self._step(Change(turn.seat, computer, turn.open, over))

    def _step(self, event: Change | Key) -> None:
        """One step of the keyboard's state machine, and what it says to do."""
        before = self.keyboard
        self.keyboard, do = next_state(before, event)
        if do.forget:
            self._forget_the_last_seat()
        if before.veiled != self.keyboard.veiled:
            self._keys_changed()  # (v shows in the footer only while veiled)
        if do.draw is not None and self._drawn != (do.draw, self.host.changes):
            self._draw(do.draw)
        if do.page is not None:
            self._page_for(do.page)
        if do.curtain is not None:
            since = [line.text for line in self.host.scene(do.curtain).since] if isinstance(event, Change) else []
            self._raise_curtain(do.curtain, since)
        elif isinstance(event, Change) and self.covered:  # (a curtain no longer called for: the board is public)
            self.app.pop_screen()
        if do.end:
            self.app.game_over(self.host, self.own)

    def _ring(self, turn) -> None:
        """A screen of one reader: their turn rung in when it comes, and whose turn it is in the window's title."""
        mine = turn.seat == self.own
        if mine and self.says != "Your turn" and self.bell:
            self.app.bell()
        says = "Your turn" if mine else turn.says
        if says != self.says:
            # (in the window's title, not the screen's sub_title: setting that arranged the screen again,
            # a second frame after each move, 25 ms at 160x50 over SSH)
            self.says = says
            set_title(self.app, f"Lagoon · {says}")

    def _forget_the_last_seat(self) -> None:
        """The keyboard changes hands: nothing said or opened for the last seat stays on screen.

        A toast ("Took back: Ben kept the objectives …"), a card opened with `i`
        or `b`, a refusal: each was for the seat that had the keyboard and may
        name its secrets, so each goes before anyone else can see the screen.
        """
        self.app.clear_notifications()
        while (
            self.app.screen is not self
            and self in self.app.screen_stack
            and not isinstance(self.app.screen, CurtainScreen)
        ):
            self.app.pop_screen()

    def _prepare(self, seat: int, *, frame_out: bool = False) -> None:
        """While a curtain is up: draw the board for `seat`, then arrange and render it once Textual has taken it in."""
        if not self.covered or self.host.turn().seat != seat:  # the curtain was passed first (READY)
            return
        ready = next_state(self.keyboard, READY)[1].draw  # the board as Enter will show it
        if ready is not None and self._drawn != (ready, self.host.changes):
            if not frame_out:
                # The curtain's frame is still on its way to the terminal: Textual's writer thread
                # takes the interpreter back after each piece the terminal accepts, and a board
                # drawn meanwhile held the frame back by up to 6 ms. The board is drawn a moment later.
                self.set_timer(FRAME_OUT, lambda: self._prepare(seat, frame_out=True))
                return
            self._draw(ready)
        self._page_for(seat)  # (turned after Enter, the page was arranged and painted then)
        self.call_after_refresh(self.arrange_unseen)

    def _keys_changed(self) -> None:
        """A key came or went (v, space): the footer is told at once, so the move is still painted once."""
        self.refresh_bindings()
        self.query_one(KeysFooter).show_keys()

    def action_unveil(self) -> None:
        """v, while the board is shown as everyone sees it: the curtain, then the player's own cards."""
        self._step(UNVEIL)

    def _raise_curtain(self, seat: int, since: list[str] = ()) -> None:
        """The curtain calling `seat`, with `since` (what happened meanwhile, in public words) on it."""
        tag = Scene(self.public, self.host.content).tag(seat)
        name = CurtainScreen.shown_for(self.app, tag, lambda: self._prepare(seat), lambda: self._step(READY), since)
        if not self.covered:
            self.app.push_screen(name)

    def _draw(self, draw: Draw) -> None:
        """Every panel and the prompt as `draw` says: for its seat, or as everyone may see them.

        At the table (a person's open decision in front of everyone), every
        panel is drawn as everyone sees it, and the prompt gives its options.
        """
        self._drawn = (draw, self.host.changes)
        seat, turn = draw.seat, self.host.turn()
        if seat is None:
            message = self.public
        elif draw.at_table:  # everyone's board, with the seat's prompt while it makes its open decision
            message = self.host.scene(seat, at_table=True) if turn.seat == seat and turn.open else self.public
        else:
            message = self.host.scene(seat)
        scene = Scene(message, self.host.content, self.host.away, *self._computers_shown())
        for panel in self.panels:
            panel.show(scene)
        prompt = self.query_one(PromptPanel)
        prompt.show(scene)  # (a seat's options: in that seat's message only)
        self._prompt = {choice.id: choice for choice in message.prompt.options} if message.prompt else {}
        self._back = message.prompt.back if message.prompt else None
        options = prompt.query_one(Options)
        if self.focused is not options:  # (focus() costs a round of messages even when nothing moves)
            options.focus()
        # a row that grew or shrank leaves the boards too tall or too short: fit them again
        self._stretch()
        # a quiet moment once the move is on screen (Textual runs after-refresh callbacks before the
        # frame is painted; the paint of a move takes well under QUIET_AFTER)
        self.set_timer(QUIET_AFTER, collector.after_move)

    # --- computer players ----------------------------------------------------------------

    def _computers_shown(self) -> tuple[dict[int, str], bool]:
        """The seats computers play, by level, and whether the deciding one is thinking: those played here,
        or (a seat whose game is hosted elsewhere) as its server says of the computers it plays."""
        if self.computers:
            return self.computers, self._thinking is not None and self._thinking[1] == self.host.changes
        return getattr(self.host, "levels", {}), getattr(self.host, "thinking", False)

    @property
    def pace(self) -> float:
        """Seconds each computer step stays on screen before the next (the app's setting)."""
        return getattr(self.app, "computer_pace", PACE)

    def _think(self, seat: int) -> None:
        """A computer decides for `seat`: its search runs in a worker thread on the seat's message
        (the screen answers keys meanwhile); its move is made when found and its pace is up."""
        at = self.host.changes
        if self._thinking == (seat, at) or self._stopped:
            return
        self._thinking = (seat, at)
        self._keys_changed()  # (space, to hurry, shows in the footer while a computer plays)
        options = getattr(self.app, "computer_options", {}).get(self.computers[seat], {})
        message, player, started = self.host.scene(seat), self.host.computer(seat, **options), time.monotonic()

        def search() -> None:
            choice = player.choose(message)
            self.app.call_from_thread(self._found, seat, at, choice, started)

        self.run_worker(search, thread=True, group="computers", description=f"computer of seat {seat + 1}")

    def _found(self, seat: int, at: int, choice: str, started: float) -> None:
        """The computer of `seat` chose: its move is made once its step has been on screen `pace` seconds."""
        wait = 0.0 if self.hurry else self.pace - (time.monotonic() - started)
        if wait > 0:
            self._due = (self.set_timer(wait, lambda: self._computer_moves(seat, at, choice)), (seat, at, choice))
        else:
            self._computer_moves(seat, at, choice)

    def _computer_moves(self, seat: int, at: int, choice: str) -> None:
        self._due = None
        if self._thinking != (seat, at) or self.host.changes != at or self._stopped:
            return  # (the game moved on, or the screen went, while it thought)
        result = self.host.choose(choice)
        if self._lost():
            return
        if isinstance(result, (NotMade, Rejection)):  # (a move the save file could not take)
            self._thinking = None
            self.notify(result.reason, title="The computer's move was not made", severity="error", markup=False)

    def stop_computers(self) -> None:
        """The screen plays no more computer moves, and a search under way gives up at once (so
        leaving the game, or the app, never waits for it)."""
        self._stopped = True
        if self.computers:
            self.host.stop_computers()

    def action_hurry(self) -> None:
        """Space while computers play: they make their moves at once, until a person decides."""
        self.hurry = True
        self._keys_changed()
        if self._due is not None:  # a move found and waiting for its pace: made now
            timer, move = self._due
            timer.stop()
            self._computer_moves(*move)

    def on_prompt_panel_chosen(self, message: PromptPanel.Chosen) -> None:
        self.choose(message.option_id)

    def choose(self, option_id: str) -> None:
        """Hand a choice to the engine; what came of it is shown when the host's signal arrives.

        A key that comes before the screen has shown the last change names an
        option of a prompt no longer current: it is dropped, as the player
        never saw the prompt it would answer.
        """
        if self.at_keyboard is None or self._shown != self.host.changes or option_id not in self._prompt:
            return
        result = self.host.choose(option_id)
        if self._lost():
            return
        if isinstance(result, NotMade):
            self.notify(result.reason, title=result.title, severity="error", markup=False, timeout=15)
        elif isinstance(result, Rejection):
            self.notify(result.reason, title="Not allowed", severity="warning", markup=False)

    # --- keys -------------------------------------------------------------------------------

    def _lost(self) -> bool:
        """If another window took the game (or it was deleted), say so and offer the title; True then."""
        if self.host.lost is None:
            return False
        self.app.push_screen(
            ConfirmScreen(f"{self.host.lost} Go back to the title?"),
            lambda yes: self.app.back_to_title() if yes else None,
        )
        return True

    def action_pick(self, index: int) -> None:
        option_id = self.query_one(PromptPanel).option_at(index)
        if option_id is not None:
            self.choose(option_id)

    def action_back(self) -> None:
        if self._back is not None:
            self.choose(self._back)

    def action_undo(self) -> None:
        """Take back this seat's last move of the turn, if the engine allows it (saves)."""
        if not self.is_active:
            return  # (a command the palette kept, run once this screen is covered or gone)
        if self.at_keyboard is None:
            return
        point = self.host.undo()
        if self._lost():
            return
        if not point:
            self.notify(
                point.reason[:1].upper() + point.reason[1:] + ".", title="Cannot undo", severity="warning", markup=False
            )
            return
        # (on the board as everyone sees it, the move is not told: it may name the player's own cards)
        self.notify(
            "Took back your last move." if self.veiled else f"Took back: {point.what}", title="Undo", markup=False
        )

    def action_inspect(self) -> None:
        if not self.is_active:
            return  # (a command the palette kept, run once this screen is covered or gone)
        option = self.query_one(PromptPanel).highlighted_id
        choice = self._prompt.get(option) if option else None
        details = describe_option(self.host.content, choice) if choice else None
        if details is None:
            self.notify(
                "This option has no card to inspect."
                if option
                else "Highlight an option with ↑ ↓ first, then i shows its card."
            )
            return
        self.app.push_screen(InspectScreen(*details))

    def action_filter_log(self) -> None:
        """`f` anywhere on the screen: the log's own filter key (one piece of code for both)."""
        if not self.is_active:
            return  # (a command the palette kept, run once this screen is covered or gone)
        self.query_one(LogPanel).action_cycle_filter()


def _row_height(row: Widget) -> int:
    """The height of a row of panels: its tallest panel, from the lines each has laid out at its width."""
    panels = [panel for panel in row.children if isinstance(panel, Note) and panel.display]
    if not panels or not all(panel.rows for panel in panels):  # not laid out yet: as arranged last
        return row.outer_size.height
    return max(panel.rows + panel.styles.gutter.height for panel in panels)
