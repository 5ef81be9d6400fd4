"""The host of a game: it owns the `Engine` and hands each seat its message.

Choices go in (`choose`, `undo`), seat messages come out (`scene`, a
`rules.seat.SeatScene`). Whoever plays through a host, a screen at this
keyboard or (later) a session at another terminal, needs nothing else of the
engine. It decides nothing about the rules; it spares the players one thing:
a turn whose only legal move is Pass is passed for them. And it lets a person
see their turn end before the game goes on: for the seats in `confirming`, a
move that ended the turn, or left only Pass, is held until that seat ends its
turn ("End turn", `END_TURN`), so that undo still reaches it while the rules
allow (nothing revealed). Meanwhile the game is that seat's to end, in every
message and in `turn()`; nobody else decides, no computer either.

Every change of the game (a choice, a pass made for a player, an undo) is
counted in `changes` and told to whoever listens (`on_change`), whoever
made it. Hot-seat play is one host and one screen that follows the deciding
seat.

This module is also all the app asks of the rules besides `rules.seat`: a
game started, saved and resumed (`Host.new`, `Host.resume`), a recorded game
to step through (`Replay`), the saved games, the decks loaded and checked,
and the checks on what a new game is set up with; see `__all__`. The app
never holds an `Engine`, a `GameState` or an event.
"""

from __future__ import annotations

import dataclasses
import importlib
import random
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .cards import Content
from .choose import NoLegalChoice
from .codec import read_time
from .decision import Rejection
from .engine import Engine, JournalError, JournalLost, replay
from .loader import ContentError, check_content, default_content_dir, load_content
from .names import LINE_SHOWN, NAME_SHOWN, computer_words, level_word, name_key, names_problems, normal_name, printable
from .record import FrozenRecord, frozen_record
from .saves import GameInfo, GameInUse, SavedRematch, SavedRoom, SavedSeat, Store, StoreError
from .saves.recorder import Recorder, check_saved_game, open_game, record_new, saved_asides
from .saves.recorder import check_content as check_saved_content
from .saves.store import SEED_MAX, check_can_make, seed_problem
from .seat import Choice, Chronicle, Line, Prompt, Refers, SeatScene, Turn, Undo, Witness, seat_scene, turn_of
from .undo import NoUndo, UndoPoint
from .view import View, view

if TYPE_CHECKING:
    from .bots import Bot, SearchPlayer
    from .bots.levels import LEVELS
    from .events import Event
    from .playback import Replay, replay_from_json
    from .saves.archive import ArchiveError, check_import, export_game, import_game, save_import

LATER = {
    "Replay": ".playback",
    "ArchiveError": ".saves.archive",
    "export_game": ".saves.archive",
    "import_game": ".saves.archive",
    "check_import": ".saves.archive",
    "save_import": ".saves.archive",
    "LEVELS": ".bots.levels",
    "replay_from_json": ".playback",
}
"""Names loaded when first asked for (PEP 562): a game starts without the replay and the export."""


def __getattr__(name: str) -> object:
    if name not in LATER:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(LATER[name], __package__), name)
    globals()[name] = value
    return value


__all__ = [
    # a game being played, and its answers
    "Host",
    "END_TURN",  # the one option of a turn held for its seat to end (`Host.confirming`)
    "NotMade",
    "Rejection",
    "NoUndo",
    "UndoPoint",
    # a recorded game to step through
    "Replay",
    "replay_from_json",  # the replay of a log another process sent (`Host.log_json`)
    # the saved games (rules/saves)
    "Store",
    "GameInfo",
    "StoreError",
    "GameInUse",
    "SavedRoom",  # a room of the lobby of `lagoon serve`, as the save file keeps it
    "SavedSeat",
    "SavedRematch",  # the rematch of a finished room: who accepted, and its own room once started
    "ArchiveError",
    "export_game",
    "import_game",
    "check_import",  # an import checked with the save file open to read, then
    "save_import",  # saved with it open to write
    "check_can_make",  # a save file that is not there refused, making nothing, if it could not be made
    "check_saved_game",  # a saved game refused, only reading, if it cannot be played on here
    "read_time",  # a saved or exported time, or None if it cannot be read or shown
    "check_saved_content",  # a saved game refused if it was played with other decks
    # the decks (rules/loader)
    "Content",
    "ContentError",
    "load_content",
    "check_content",
    "default_content_dir",
    # what a new game may be set up with
    "normal_name",  # a name as it is checked and saved
    "names_problems",
    "name_key",  # what two names that look the same have in common
    # text from a deck, an import or the save file, made safe to print
    "printable",
    "NAME_SHOWN",
    "LINE_SHOWN",
    "computer_words",  # "computer, Hard": a computer's seat told apart wherever its name shows
    "level_word",
    "seed_problem",
    "SEED_MAX",
    # computer players (rules/bots), and games played headless by them (rules/simulate)
    "computer_player",
    "LEVELS",
    "simulate",
]


@frozen_record
class NotMade(FrozenRecord):
    """A choice the rules allowed that was not made all the same: the save file could not take it (a full
    disk, another window's write), or it led to a position nobody can play on (decks the limits missed).
    False, as a Rejection is; told apart from one, since no rule refused it. `title` heads the message."""

    choice: str
    reason: str
    title: str

    def __bool__(self) -> bool:
        return False


END_TURN = "end_turn"
"""The one option of a turn held for its seat to end (see `Host.confirming`)."""


@frozen_record
class Held(FrozenRecord):
    """A person's turn that is over and waits for them to end it: `point` is the move undo would take
    back; `passing`: ending it passes for them (Pass was all that was left), else the move ended it;
    `open`: the move was made in front of everyone (an open decision)."""

    point: UndoPoint
    passing: bool
    open: bool


class Host:
    def __init__(self, engine: Engine, computers: Mapping[int, str] | None = None) -> None:
        """`computers`: the seats a computer plays, each with its level (one of `LEVELS`)."""
        self.engine = engine
        self.computers: dict[int, str] = dict(computers or {})
        self._players: dict[int, Bot | SearchPlayer] = {}  # the computer players made so far, by seat
        self._witnesses: dict[int, Witness] = {}  # what each of them has been briefed on
        self.chronicle = Chronicle(engine)  # the log told to each reader (a pass made for a player says so)
        self.lost: str | None = None  # why this host can no longer save the game (another took it), if so
        # its players are at other machines (`lagoon serve`): a save file's fault is told them without this
        # machine's details (its path), as `JournalError.public` says it
        self.players_elsewhere = False
        self.changes = 0  # how many times the game has changed since the host was made
        self.game: int | None = None  # its number in the save file, if it is saved
        self._listeners: list[Callable[[], None]] = []
        self.confirming: set[int] = set()  # the seats whose turns wait for "End turn" (people, as the app says)
        self.held: Held | None = None  # the turn that waits for its seat to end it, if one does
        self._mover: tuple[int, bool] | None = None  # while a person's choice is made: their seat, and if it is open
        engine.subscribe(lambda _events: self._moved())

    @classmethod
    def new(
        cls,
        content: Content,
        names: Sequence[str],
        colours: Sequence[str],
        *,
        seed: int | None = None,
        start_player: int | None = None,
        store: Store | None = None,
        computers: Mapping[int, str] | None = None,
    ) -> Host:
        """A new game (a random seed unless given), saved in `store` from its first event if there is one;
        `computers`: the seats a computer plays, by level (kept in the save file with the seats).

        StoreError if the store refuses it: then there is no game.
        """
        seed = seed if seed is not None else random.randrange(1, 2**31)
        engine = Engine.new(content, list(names), seed=seed, start_player=start_player, colours=list(colours))
        game = record_new(store, engine, computers) if store is not None else None
        host = cls(engine, computers)
        host.game = game
        return host

    @classmethod
    def resume(cls, store: Store, game: int, content: Content, *, take_over: bool = False) -> Host:
        """Saved game `game` exactly where it was left, saving on (see `rules.saves.recorder.open_game`)."""
        engine = open_game(store, game, content, take_over=take_over)
        host = cls(engine, dict(store.info(game).computers))
        host.game = game
        host.chronicle.asides, host.chronicle.stand_ins = saved_asides(store, game, engine)
        if not host.over:  # a game opened again waits for its players again: no computer plays for anyone now
            names = [player["name"] for player in host.scene(None).view["players"]]
            for seat in host.chronicle.stand_ins_under_way():
                host.aside(seat, f"No computer plays for {names[seat]} now: the game waits for them.", stand_in=False)
        return host

    @classmethod
    def at_random(
        cls, content: Content, names: Sequence[str], colours: Sequence[str], seed: int, moves: int | None
    ) -> Host:
        """A game after `moves` choices of purposeful random play (None: to its end), for pictures of the app."""
        rng = random.Random(seed)
        engine = Engine.new(content, list(names), seed=seed, start_player=0, colours=list(colours))
        made = 0
        while engine.state.phase != "over" and (moves is None or made < moves):
            ids = engine.legal_ids()
            useful = [i for i in ids if i not in ("pass", "back")]
            pool = useful if useful and rng.random() < 0.85 else ids
            engine.choose(pool[rng.randrange(len(pool))])
            made += 1
        return cls(engine)

    @property
    def people(self) -> tuple[int, ...]:
        """The seats people play (every seat a computer does not)."""
        return tuple(p.seat for p in self.engine.state.players if p.seat not in self.computers)

    @property
    def away(self) -> frozenset[int]:
        """Players whose seat no screen shows (at one keyboard, nobody; a host of remote seats says)."""
        return frozenset()

    @property
    def over(self) -> bool:
        return self.engine.state.phase == "over"

    @property
    def levels(self) -> dict[int, str]:
        """Every seat a computer plays, by level: `computers`, all played wherever this host is."""
        return self.computers

    stood_in: frozenset[int] = frozenset()
    elsewhere: frozenset[int] = frozenset()  # (nobody plays another game at this host's own screen)
    watchers: tuple[str, ...] = ()
    """(Nobody watches a host's own screen from elsewhere: spectators are a server's.)"""
    """(Nobody is away, so no computer plays for anyone: see `stand_in`.)"""

    thinking = False
    """(Whoever plays this host's computers knows when one thinks: nobody elsewhere tells it.)"""

    pace: tuple[int, str] | None = None
    """(A game at one keyboard has no clock: only a server's games over days do.)"""

    def stand_in(self, seat: int) -> str:
        """Nobody is away from a host's own screen, so no computer stands in for anyone (see `away`)."""
        return "Every player is here: no computer needs to play for anyone."

    def aside(self, seat: int, text: str, *, stand_in: bool | None = None) -> None:
        """`text` about `seat`'s player in every reader's log, after what happened so far: something of the
        table, not of the game (no event of the rules). `stand_in`: True where a computer begins to play for
        the seat, False where its player takes it back (the moves between are not the player's: see
        `Chronicle.own_move_end`). A saved game keeps it with its log (`Store.add_aside`), for a restart and
        the replay; if the save file refuses it, the line is told all the same (the next move would find the
        file's trouble and say it)."""
        self.chronicle.aside(Line(seat, text), stand_in)
        journal = self.engine.journal
        if isinstance(journal, Recorder):
            kind = None if stand_in is None else "began" if stand_in else "back"
            try:
                journal.store.add_aside(journal.game, len(self.engine.events), seat, text, kind)
            except StoreError:
                pass
        self._changed()

    def replay(self) -> Replay:
        """The game so far, to step through."""
        from .playback import Replay

        return Replay(self.content, self.engine.events, self.engine.marks, self.chronicle.asides)

    def log_json(self) -> str:
        """The game's whole log as JSON text, for `replay_from_json` in another process. Every seat's secrets
        are in it: only a finished game's (public then) may be sent to anyone."""
        from .playback import log_json

        return log_json(self.engine.events, self.engine.marks, self.chronicle.asides)

    @staticmethod
    def replay_saved(store: Store, game: int, content: Content) -> Replay:
        """Saved game `game` to step through (it is only read); StoreError if it cannot be."""
        from .playback import Replay

        engine = open_game(store, game, content, record=False)
        return Replay(content, engine.events, engine.marks, saved_asides(store, game, engine)[0])

    def on_change(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call `listener()` after every change of the game; returns what stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _changed(self) -> None:
        self.changes += 1
        for listener in list(self._listeners):
            listener()

    @property
    def content(self) -> Content:
        """The cards and the board (public: the same for every seat)."""
        return self.engine.content

    def scene(self, seat: int | None, *, at_table: bool = False, log_from: int = 0) -> SeatScene:
        """Everything `seat` may know now (see `rules.seat.seat_scene`); while a turn is held, the game is
        its seat's to end (`Held`), with "End turn" its one option."""
        held = self.held
        if held is None:
            return seat_scene(self.engine, self.chronicle, seat, at_table=at_table, log_from=log_from)
        scene = seat_scene(self.engine, self.chronicle, None if at_table else seat, log_from=log_from)
        mine = seat == held.point.seat
        prompt = Prompt(END_TURN, "Your turn is over.", None, (Choice(END_TURN, "End turn", Refers(), {}),), (), None)
        undo = Undo(True, "your last move" if at_table else held.point.what)
        return dataclasses.replace(
            scene, turn=self.turn(), prompt=prompt if mine else None, undo=undo if mine else None
        )

    def view_after_last_move(self, seat: int) -> View | None:
        """The board as `seat` saw it just after its last move (None: it has made none): its own view then,
        which holds nothing it did not know, for a reader who comes back to mark what changed since (a
        computer's moves for the seat while its player was away are not theirs: `Chronicle.own_move_end`)."""
        start = self.chronicle.own_move_end(seat)
        if start is None:
            return None
        return view(replay(self.content, self.engine.events[:start]), seat)

    def turn(self) -> Turn:
        """Who decides now, and what kind of decision, as anyone may be told (also in every message)."""
        held = self.held
        if held is not None:
            name = self.engine.state.players[held.point.seat].name
            return Turn(held.point.seat, END_TURN, f"{name} is ending their turn", held.open)
        return turn_of(self.engine)

    def holds_turns(self, seats: Collection[int]) -> bool:
        """Whether the turns of `seats` wait for End turn (any of them: one keyboard asks for all its people)."""
        return any(seat in self.confirming for seat in seats)

    def hold_turns(self, seats: Collection[int], on: bool) -> str | None:
        """The turns of `seats` wait for End turn from now on, or no more (a turn held now stays held until
        ended). Never a computer's seat. None: done (a host in this process never refuses)."""
        seats = set(seats) - set(self.computers)
        self.confirming = self.confirming | seats if on else self.confirming - seats
        return None

    def choose(self, option_id: str, *, hold: bool = True) -> list[Event] | Rejection | NotMade:
        """The engine's answer; a choice that could not be saved or played on is NotMade (and was never made).

        While a turn is held, `END_TURN` ends it (see `end_turn`), and nothing else is allowed. `hold`: False
        for a choice a computer makes for a person's seat (standing in for them): it is never held."""
        if self.held is not None:
            if option_id != END_TURN:
                return Rejection(option_id, "End your turn first, or take back your last move.")
            return self.end_turn()
        mover = self.engine.pending.seat
        if hold and mover in self.confirming:
            self._mover = (mover, turn_of(self.engine).open)
        try:
            result = self.engine.choose(option_id)
        except JournalError as error:
            self._note_lost(error)
            return NotMade(option_id, f"{self._told(error)} Your move was not made.", "Not saved")
        except NoLegalChoice as error:  # (found while it was saved: the engine took the choice back)
            return NotMade(option_id, f"{error} Your move was not made.", "The game cannot go on")
        finally:
            self._mover = None
        if result and self.held is None:
            try:
                self.pass_where_forced(mover, hold=hold)
            except NoLegalChoice as error:  # (a game not saved finds it only now)
                return NotMade(option_id, str(error), "The game cannot go on")
        return result

    def _moved(self) -> None:
        """A choice was made: if a person's move ended their turn and may still be taken back, the turn is held."""
        if self._mover is not None and self.held is None:
            seat, shown = self._mover
            if not self.engine.undo_point():
                point = self.engine.undo_point(ended=True)
                if isinstance(point, UndoPoint):
                    self.held = Held(point, False, shown)
        self._changed()

    def end_turn(self) -> list[Event] | Rejection | NotMade:
        """The held turn ended by its seat ("End turn"): the game goes on (a pass made for them if that was all
        that was left, and the log says so)."""
        held = self.held
        if held is None:
            return Rejection(END_TURN, "No turn is waiting to be ended.")
        self.held = None
        made: list[Event] = []
        try:
            if held.passing:
                made = self._pass()
            self.pass_where_forced(held.point.seat)
        except NoLegalChoice as error:
            return NotMade(END_TURN, str(error), "The game cannot go on")
        if not made:
            self._changed()  # (nothing new in the log: the screens are told all the same)
        return made

    def _pass(self) -> list[Event]:
        """Pass for the seat deciding, Pass being all it may do; the log says it was made for them ([] if not saved).

        The pass is marked as made for them before it is made: the engine tells the host's listeners while it
        makes it, and a screen that reads the log then must read it with the mark."""
        at = len(self.engine.events)
        self.chronicle.forced.add(at)
        made: list[Event] | Rejection | None = None
        try:
            made = self.engine.choose("pass")
        except JournalError:
            return []
        finally:
            if not isinstance(made, list):  # (not made after all: nothing at `at` is a pass made for them)
                self.chronicle.forced.discard(at)
        return made if isinstance(made, list) else []

    def pass_where_forced(self, mover: int | None = None, *, hold: bool = True) -> None:
        """Pass for whoever must decide next while Pass is all the engine allows them (the log says so).

        For `mover`, the seat that has just chosen, too: unless it waits for
        "End turn" (`confirming`) and its move can still be taken back; then the
        turn is held, and ending it passes (unless not `hold`: see `choose`). Never for another seat while a move
        of this turn could be taken back. If the pass cannot be saved, it is
        left to the player.
        """
        engine = self.engine
        while (seat := engine.pending.seat) is not None and engine.legal_ids() == ["pass"]:
            point = engine.undo_point()
            if isinstance(point, UndoPoint) and hold and seat == mover and seat in self.confirming:
                self.held = Held(point, True, turn_of(engine).open)
                self._changed()
                return
            if point and seat != mover:
                return
            if not self._pass():
                return

    # `options`: the level's own keyword options (`Bot`'s or `SearchPlayer`'s), passed through: Any
    def computer(self, seat: int, **options: Any) -> Bot | SearchPlayer:
        """The computer player of `seat` (a seat of `computers`), made when first asked for (with
        `options`, its level's tuning: see `rules.bots.computer_player`): its `choose(message)` answers
        that seat's message with an option id. Seeded from the game's seed and the seat, so a game of
        computers plays the same for a seed.

        Each time it is asked for, a player that reads what the others chose (the searching level) is
        briefed on every decision made since (`rules.seat.Witness`); made in a game under way (a
        resumed one), on every decision before, so it plays on as if the game had never been left."""
        player = self._players.get(seat)
        if player is None:
            seed = self.engine.state.seed * 7 + seat
            player = self._players[seat] = computer_player(self.content, seat, seed, self.computers[seat], **options)
            self._witnesses[seat] = Witness(self.content, seat)
        self._witnesses[seat].brief(self.engine, player)
        return player

    def stop_computers(self) -> None:
        """Every computer player of the game stops searching, a search under way at once: from now on
        each plays its level's plain move (for a game being left, whose moves nobody will make)."""
        for player in self._players.values():
            stop = getattr(player, "stop", None)  # (the searching level has one)
            if stop is not None:
                stop()

    def undo(self) -> UndoPoint | NoUndo:
        """Take back the deciding seat's last move of this turn (the engine decides whether it may).

        Never a computer's move: while a computer decides there is nothing a person may take back."""
        held = self.held
        if held is None and self.engine.pending.seat in self.computers:
            return NoUndo("a computer player's moves are never taken back")
        try:
            point = self.engine.undo(ended=held is not None)
        except JournalError as error:
            self._note_lost(error)
            return NoUndo(f"{self._told(error)} Nothing was taken back")
        if point:
            self.held = None
            self.chronicle.forget()  # the log lost its last lines: told afresh
            self._changed()
        return point

    def _told(self, error: JournalError) -> str:
        """A journal's failure as the players are told it (see `players_elsewhere`)."""
        return error.public if self.players_elsewhere else str(error)

    def _note_lost(self, error: JournalError) -> None:
        if isinstance(error, JournalLost):
            self.lost = str(error)


def computer_player(
    content: Content, seat: int, seed: int, level: str = "normal", **options: Any
) -> Bot | SearchPlayer:
    """A computer player of `level` (one of `LEVELS`, from rules.bots) for `seat`: `choose(message)`
    answers that seat's message with an option id."""
    from .bots import computer_player as seated

    return seated(content, seat, seed, level, **options)


def simulate(content: Content, **how: Any) -> dict[str, Any]:
    """Many games played headless, summarised (`rules.simulate.simulate`; loaded only when asked for)."""
    from .simulate import simulate as play

    return play(content, **how)
