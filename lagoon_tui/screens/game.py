"""The game screen: the board panels, the prompt and the log, for the seat at the keyboard.

Data flows down: after every change of the game (a choice, whoever made it,
or an undo) the host's signal arrives as a `GameChanged` message, and the
screen redraws from it, the one way a change reaches the screen: every panel
from a fresh `Scene`, behind a curtain if the keyboard changes hands. Intent
flows up: the prompt posts the option picked and this screen hands it to the
engine, which alone decides whether it is legal. The host is a `SeatHost`:
the engine here, or a seat's link to a game hosted elsewhere.

At one keyboard (`GameScreen(host)`) the screen follows the deciding seat,
behind a curtain between people; who sees what is the keyboard's state
machine (`lagoon_tui.hand_over`), which the screen only follows: an open
decision and a computer's move are drawn as everyone sees them. A screen of
one seat (`GameScreen(host, seat=n)`: a player at their own terminal, their
game hosted elsewhere) is always drawn for that seat, with no curtain; when
the decision comes to it, the terminal's bell rings and the title says so. A
spectator's screen (`watching=True`) is drawn as everyone sees the game.

Seats a computer plays here (`host.computers`) are played by the screen's
`ComputerTurns` (`lagoon_tui.computer_turns`), which the screen lends its
worker threads, its timers and its keys: each search runs in a worker, so the
screen answers keys meanwhile, and each move is made at a pace a person can
follow (space hurries it). The curtain comes only between people: with one
person the screen is theirs alone, as a remote seat's is; with none it
watches. A remote seat's computers are played by its server, which tells the
host which seats they are and when one thinks; the prompt says so as it does
here. How the panels fit the terminal is `GameLayout`'s (`game_layout.py`);
what each key does, `GameKeys`'s (`game_keys.py`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.timer import Timer

from rules.host import END_TURN, Host, NotMade, Rejection
from rules.seat import Choice, SeatScene, Turn

from ..computer_turns import ComputerTurns
from ..hand_over import OWN, READY, Change, Draw, Key, Keyboard, next_state
from ..quiet_gc import collector
from ..scene import Scene
from ..seat_host import SeatHost
from ..settings import save_end_turn
from ..turbo.screens import UnseenArrangement
from ..turbo.title import set_title
from ..widgets import LogPanel, MarketPanel
from ..widgets.keys_footer import KeysFooter
from ..widgets.note import Note
from ..widgets.options import Options
from ..widgets.prompt import PromptPanel
from .board_layout import Side, compose_board
from .curtain import CurtainScreen
from .game_keys import GameKeys
from .paging import WIDE  # noqa: F401 - where the compact layout ends; notes and tests name game.WIDE

QUIET_AFTER = 0.1  # seconds from a move to the collection of its garbage (see lagoon_tui.quiet_gc)
FRAME_OUT = 0.01  # seconds a curtain's frame is given to reach the terminal before the board is drawn under it


@dataclass(frozen=True)
class Drawn:
    """What the panels were last drawn as (`draw`), at the host's change `at`."""

    draw: Draw
    at: int


@dataclass(frozen=True)
class Public:
    """The game as everyone may see it (`message`), at the host's change `at`."""

    message: SeatScene
    at: int


class GameScreen(UnseenArrangement, GameKeys):
    """The board, the prompt, the market and the log (laid out by `GameLayout`, its keys `GameKeys`).

    (Its stylesheet, game.tcss, is the app's: see LagoonApp.CSS_PATH.)"""

    class GameChanged(Message):
        """The game changed (a choice was made, or taken back): the screen shows it."""

    def __init__(self, host: SeatHost, seat: int | None = None, *, watching: bool = False) -> None:
        """`seat`: the one seat this screen shows (its player at their own terminal); `watching`: nobody's.
        Neither: every seat in turn, at one keyboard; one person among computers gets their seat,
        and a game of computers alone is watched."""
        super().__init__()
        self.host = host
        self.computers = host.computers  # the seats whose computers this screen plays (a remote seat's: none)
        people = host.people if seat is None and not watching else ()  # (at one keyboard the host is here)
        self.keyboard = Keyboard.start(people, seat, watching=watching)  # who has it, whose cards show
        self.watching = watching  # a spectator's screen: no player's keys, no player's words
        if watching:
            self.HELP_EXTRA = [extra for extra in self.HELP_EXTRA if extra[0] != "1–9"]  # (no options to pick)
        self.bell = seat is not None  # the turn is rung in (a screen of one seat; not a person playing computers here)
        self.own = self.keyboard.seat if self.keyboard.mode == OWN else None  # the screen's one reader
        self.turns = ComputerTurns(host, self)  # its pace and the levels' tuning are the app's (on_mount)
        self.says = ""  # a screen of one reader: whose turn it is, as the window's title says it
        self._shown = -1  # the host's count of changes the screen shows (-1: none yet)
        self._drawn: Drawn | None = None  # what was drawn last
        self._public: Public | None = None  # the message for everyone, last asked for
        self._prompt: dict[str, Choice] = {}  # the options on screen, by id
        self._refused: dict[str, Choice] = {}  # the options on screen the engine refuses now, by id
        self._back: str | None = None  # the option that backs out of the step on screen
        self.holder: int | None = self.own  # the seat that had the keyboard last
        self.finished = False  # the game is over, its last board on screen until Enter (`action_scores`)
        self._decider: int | None = None  # who decides, as of the host's last change
        self._after_move: dict[int, dict] = {}  # each person's view just after their last move (to mark changes)
        self._unsubscribe = host.on_change(self._host_changed)

    def marks_since(self, view: dict) -> None:
        """The board as this screen's seat saw it just after its last move, made before this screen was (a
        player back at their seat, whose server keeps it): what changed since is marked from it."""
        if self.own is not None:
            self._after_move[self.own] = view

    def _host_changed(self) -> None:
        # (at each change, not each redraw: a pass made for a person is their move too, as the curtain counts it)
        shown = self._public  # (the message as of an earlier change, if one was asked for)
        previous = shown.message if shown is not None and shown.at != self.host.changes else None
        decider, self._decider = self._decider, self.host.turn().seat
        if decider is not None and decider not in self.computers and self.own in (None, decider):
            public = self.public  # (a remote seat's is the same message when only who is away changed: no move)
            if public is not previous:
                self._after_move[decider] = public.view  # (their move, or an undo: marks count from here)
        self.post_message(self.GameChanged())

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
        self.turns.pace = self.lagoon.computer_pace  # (`lagoon play --pace`)
        self.turns.options = self.lagoon.computer_options  # (tests give Hard a small budget)
        self._fit(self.app.size)
        self._confirm(self.lagoon.confirm_turns)
        self._decider = self.host.turn().seat
        self.host.pass_where_forced()  # (a game saved just before a lone Pass)
        self.advance()
        self.start_paint_timer()

    def _confirm(self, on: bool) -> None:
        """A turn of a person at this keyboard waits for End turn (`rules.host.Host.confirming`), or not.
        (A remote seat's waits as its server says; computers never wait.)"""
        if isinstance(self.host, Host):
            self.host.hold_turns(self.host.people, on)

    @property
    def _mine(self) -> tuple[int, ...]:
        """The seats whose turns this screen's players play: every person's at one keyboard, else its own."""
        return self.host.people if self.own is None else (self.own,)

    @property
    def own_turn(self) -> bool:
        """Whether the decision now is a person's at this terminal (at one keyboard any person's, else the
        screen's own seat's; a spectator's never): ctrl+q asks before quitting then (`LagoonApp.action_quit`)."""
        turn = self.host.turn()
        if self.finished or turn.kind == "game_over" or turn.seat is None:
            return False
        watching = self.keyboard.mode == OWN and self.own is None  # (nobody's seat, or computers alone)
        return not watching and turn.seat in self._mine

    @property
    def confirms(self) -> bool | None:
        """Whether this screen's players' turns wait for End turn (None: none to play here, or not told)."""
        return self.host.holds_turns(self._mine) if self._mine else None

    def shows_end_turn(self) -> bool:
        """Whether the prompt on screen is a turn's End turn (the turn is over and waits for its player)."""
        return END_TURN in self._prompt

    def toggle_confirm(self) -> None:
        """The command palette: End turn asked for from now on, or no more (at one keyboard kept for the next
        run too, if the app keeps settings; over SSH for the player, in every game of theirs, kept by the server)."""
        confirms = self.confirms
        if not self.is_active or confirms is None:
            return  # (a command the palette kept, run once this screen is covered or gone)
        on = not confirms
        refused = self.host.hold_turns(self._mine, on)
        if refused is not None:
            self.notify(refused, title="Not changed", severity="warning", markup=False)
            return
        if isinstance(self.host, Host):
            self.lagoon.confirm_turns = on
            kept = self.lagoon.kept
            if kept is not None and (problem := save_end_turn(kept, on)) is not None:
                self.notify(problem, title="Not kept for the next run", severity="warning", markup=False)
        if not on and self.shows_end_turn():
            self.choose(END_TURN)  # (the turn waiting for it ends now)
        self.notify("Each turn waits for End turn." if on else "Each turn ends at its last move.", markup=False)

    def on_unmount(self) -> None:
        self._unsubscribe()
        self.stop_computers()

    @property
    def public(self) -> SeatScene:
        """The game as everyone may see it now (who decides, whose ship is where)."""
        if self._public is None or self._public.at != self.host.changes:
            # (a screen of one seat has that seat's message only: it holds all that everyone may see)
            self._public = Public(self.host.scene(self.own), self.host.changes)
        return self._public.message

    @property
    def board_drawn(self) -> bool:
        """Whether the board has been drawn for anyone yet (a new screen's first curtain comes first)."""
        return self._drawn is not None

    @property
    def covered(self) -> bool:
        """Whether the curtain is up, hiding the whole board."""
        return isinstance(self.app.screen, CurtainScreen)

    def shows(self, draw: Draw) -> bool:
        """Whether the panels are drawn as `draw` says, for the game as it is now."""
        return self._drawn == Drawn(draw, self.host.changes)

    # --- the flow of the game -------------------------------------------------------------

    def on_game_screen_game_changed(self, message: GameChanged) -> None:
        if self._shown != self.host.changes:  # (one message shows every change made before it)
            self.advance()

    def advance(self) -> None:
        """Show the game as it is now: the keyboard (`lagoon_tui.hand_over`) says for whom, behind a curtain or not."""
        self._shown = self.host.changes
        turn = self.host.turn()
        over = turn.kind == "game_over"
        computer = self.turns.follow(turn)  # (a computer's search begins; once a person decides, no hurry)
        if self.keyboard.mode == OWN and not over:
            self._ring(turn)
        self._step(Change(turn.seat, computer, turn.open, over))
        self.windows_follow()  # (w's window and look mode, if open, show the move too)

    def _step(self, event: Change | Key) -> None:
        """One step of the keyboard's state machine, and what it says to do."""
        before, fresh = self.keyboard, not self.board_drawn
        self.keyboard, do = next_state(before, event)
        if self.keyboard.at_keyboard is not None:
            self.holder = self.keyboard.at_keyboard
        if do.forget:
            self._forget_the_last_seat()
        if before.veiled != self.keyboard.veiled:
            self.keys_changed()  # (v shows in the footer only while veiled)
        if do.draw is not None and not self.shows(do.draw):
            self._draw(do.draw)
        if do.page is not None:
            self.follow()
        if do.curtain is not None:
            since = [line.text for line in self.host.scene(do.curtain).since] if isinstance(event, Change) else []
            self._raise_curtain(do.curtain, since)
        elif isinstance(event, Change) and self.covered:  # (a curtain no longer called for: the board is public)
            self.app.pop_screen()
        if do.end and fresh:  # (a game that was over before this screen came: its scores at once)
            self.lagoon.game_over(self.host, self.own)
        elif do.end and not self.finished:  # the last board stays until Enter (`action_scores`)
            self.finished = True
            self.set_focus(None)  # (the options, empty now, no longer hold Enter: the footer shows it)
            self.keys_changed()

    def _ring(self, turn: Turn) -> None:
        """A screen of one reader: their turn rung in when it comes, and whose turn it is in the window's title."""
        mine = self.own is not None and turn.seat == self.own  # (a spectator's turn never comes)
        if mine and self.says != "Your turn" and self.bell:
            self.app.bell()
        says = "Your turn" if mine else turn.says
        if says != self.says:
            # (in the window's title, not the screen's sub_title: setting that arranged the screen again,
            # a second frame after each move, 25 ms at 160x50 over SSH)
            self.says = says
            set_title(self.app, self.lagoon.window_title(says))

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
        if ready is not None and not self.shows(ready):
            if not frame_out:
                # The curtain's frame is still on its way to the terminal: Textual's writer thread
                # takes the interpreter back after each piece the terminal accepts, and a board
                # drawn meanwhile held the frame back by up to 6 ms. The board is drawn a moment later.
                self.set_timer(FRAME_OUT, lambda: self._prepare(seat, frame_out=True))
                return
            self._draw(ready)
        self.follow()  # (turned after Enter, the page was arranged and painted then)
        self.call_after_refresh(self.arrange_unseen)

    def keys_changed(self) -> None:
        """A key came or went (v, space): the footer is told at once, so the move is still painted once."""
        self.refresh_bindings()
        self.query_one(KeysFooter).show_keys()

    def _raise_curtain(self, seat: int, since: list[str]) -> None:
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
        self._drawn = Drawn(draw, self.host.changes)
        seat, turn = draw.seat, self.host.turn()
        if seat is None:
            message = self.public
        elif draw.at_table:  # everyone's board, with the seat's prompt while it makes its open decision
            message = self.host.scene(seat, at_table=True) if turn.seat == seat and turn.open else self.public
        else:
            message = self.host.scene(seat)
        reader = seat if seat is not None else self.holder  # (the panels compare only what everyone may see)
        before = self._after_move.get(reader) if reader is not None else None
        host = self.host
        scene = Scene(
            message,
            host.content,
            host.away,
            host.levels,
            self.turns.thinking,
            before,
            host.stood_in,
            host.pace,
            host.elsewhere,
        )
        for panel in self.panels:
            panel.show(scene)  # type: ignore[attr-defined]  # (every panel is a widgets.note.Note with a show)
        prompt = self.query_one(PromptPanel)
        prompt.watched_by(host.watchers)
        prompt.show(scene)  # (a seat's options: in that seat's message only)
        self._prompt = {choice.id: choice for choice in message.prompt.options} if message.prompt else {}
        self._refused = {choice.id: choice for choice in message.prompt.refused} if message.prompt else {}
        back = message.prompt.back if message.prompt else None
        backs_anew = (back is None) != (self._back is None)
        self._back = back
        if backs_anew:
            self.keys_changed()  # (esc shows in the footer only while a step can be backed out of)
        self.decided_on_screen(self.host.changes, message.turn.seat, message.prompt, message.turn.open)
        options = prompt.query_one(Options)
        if END_TURN in self._prompt:  # (one Enter ends the turn: its only option comes highlighted)
            options.highlighted = 0
        if self.focused is not options:  # (focus() costs a round of messages even when nothing moves)
            options.focus()
        # a row that grew or shrank leaves the boards too tall or too short: fit them again
        self._stretch()
        # a quiet moment once the move is on screen (Textual runs after-refresh callbacks before the
        # frame is painted; the paint of a move takes well under QUIET_AFTER). asyncio's own timer: a
        # Textual timer is a task of its own, and Textual works out its callback's signature every time
        asyncio.get_running_loop().call_later(QUIET_AFTER, collector.after_move)

    # --- computer players: the stage of the screen's `ComputerTurns` -------------------------

    def run_search(self, search: Callable[[], str], then: Callable[[str], None], name: str) -> None:
        def work() -> None:
            choice = search()
            self.app.call_from_thread(then, choice)

        self.run_worker(work, thread=True, group="computers", description=name)

    def call_in(self, delay: float, then: Callable[[], None]) -> Timer:
        return self.set_timer(delay, then)

    def computer_made(self, result: object) -> None:
        if not self._lost() and isinstance(result, (NotMade, Rejection)):  # (a move the save file could not take)
            self.notify(result.reason, title="The computer's move was not made", severity="error", markup=False)

    def stop_computers(self) -> None:
        """The screen plays no more computer moves, and a search under way gives up at once (so
        leaving the game, or the app, never waits for it)."""
        self.turns.stop()
