"""The engine facade: one object holding a game's state and event log.

The terminal app, the store, bots and tests all talk to the game through this:
`pending`, `choose(...)`, `view(seat)`, `events`, `subscribe(callback)`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from . import codec
from . import events as ev
from .cards import Content
from .choose import candidates, decision_of, playable, resolve
from .decision import Ask, Decision, Rejection
from .evolve import HANDLERS, evolve
from .flow import create_game, set_up_board
from .state import GameState
from .undo import Mark, NoUndo, UndoPoint, undo_point
from .view import View, view


class JournalError(Exception):
    """What a journal raises when it cannot keep a change; the message says why, for the player at this
    machine. `public` says it for a player at another one (`lagoon serve`): nothing of this machine, no path."""

    def __init__(self, message: str = "", public: str = "The game could not be saved.") -> None:
        super().__init__(message)
        self.public = public


class JournalLost(JournalError):
    """The journal can keep nothing more of this game (another window took it over): stop playing it here."""


class Journal(Protocol):
    """Somewhere that keeps the log (a save file): told of every change before anyone sees it.

    If `record` or `rewind` raises, the engine undoes the change it reported,
    so a choice that could not be saved was never made. A journal raises a
    JournalError where a player can do something about it (a full disk).
    """

    def record(self, start: int, events: list[ev.Event], mark: Mark) -> None: ...

    def rewind(self, length: int) -> None: ...


def replay(content: Content, events: Iterable[ev.Event]) -> GameState:
    """The state a log leads to, with no randomness involved."""
    state = GameState(content=content)
    for e in events:
        evolve(state, e)
    return state


def clone(state: GameState) -> GameState:
    copy: GameState = codec.from_plain(GameState, codec.to_plain(state))
    copy.content = state.content
    return copy


# A state as JSON is untyped data (`codec`): Any as JSON is.
def state_to_json(state: GameState) -> dict[str, Any]:
    plain: dict[str, Any] = codec.to_plain(state)
    return plain


def state_from_json(content: Content, data: Mapping[str, Any]) -> GameState:
    state: GameState = codec.from_plain(GameState, data)
    state.content = content
    return state


def decide(state: GameState, choice: str) -> list[ev.Event] | Rejection:
    """The events a choice would bring about, without touching `state`."""
    scratch = clone(state)
    out: list[ev.Event] = []

    def emit(e: ev.Event) -> None:
        evolve(scratch, e)
        out.append(e)

    rejection = resolve(scratch, choice, emit)
    return rejection if rejection is not None else out


REVERSIBLE = frozenset((ev.ActionStarted, ev.Picked))
"""A choice whose only event is one of these can be taken back by "back" (see `Engine.choose`)."""
TAKEN_BACK = frozenset((ev.ActionWithdrawn, ev.Unpicked))
"""The events of "back": each undoes the last reversible choice exactly."""


class Engine:
    def __init__(self, content: Content, events: Iterable[ev.Event] = (), marks: Iterable[Mark] = ()) -> None:
        """A game from its log; `marks` (where each choice began) make undo possible after a load."""
        self.content = content
        self.state = GameState(content=content)
        self.events: list[ev.Event] = []
        # each choice's mark as a plain (pos, seat, choice): made into a `Mark` only when read
        self._moves: list[tuple[int, int | None, str]] = [(m.pos, m.seat, m.choice) for m in marks]
        self.journal: Journal | None = None
        self._subscribers: list[Callable[[list[ev.Event]], None]] = []
        self._ask: Ask | None = None
        # Decisions already worked out in the action under way, used again rather than built
        # again: the decision before each reversible choice still in force, last on top ("back"
        # returns to exactly that state), and the decision each reversible choice led to, by
        # the decision it was made at (its id; the value keeps it alive) and the choice.
        self._before: list[Ask] = []
        self._led_to: dict[tuple[int, str], tuple[Ask, Ask]] = {}
        for e in events:
            self._emit(e)

    @classmethod
    def new(
        cls,
        content: Content,
        names: Sequence[str],
        seed: int,
        start_player: int | None = None,
        colours: Sequence[str] | None = None,
    ) -> Engine:
        board = content.board
        if not board.players_min <= len(names) <= board.players_max:
            raise ValueError(f"Miner's Lagoon is for {board.players_min} to {board.players_max} players")
        engine = cls(content)
        engine._emit(create_game(content, names, seed, start_player, colours))
        set_up_board(engine.state, engine._emit)
        return engine

    @property
    def marks(self) -> list[Mark]:
        """Where each accepted choice began in the log, who made it and what it was (read only)."""
        return [Mark(*m) for m in self._moves]

    def after_last_move(self, seat: int | None, before: int | None = None) -> int | None:
        """Where in the log the events after `seat`'s last choice begin (its last begun before event `before`, if
        given); None if it has made none."""
        moves = self._moves
        for n in range(len(moves) - 1, -1, -1):
            if moves[n][1] == seat and (before is None or moves[n][0] < before):
                return moves[n + 1][0] if n + 1 < len(moves) else len(self.events)
        return None

    def _emit(self, event: ev.Event) -> None:
        HANDLERS[type(event)](self.state, event)  # evolve(self.state, event), a call less per event
        self.events.append(event)

    def _candidates(self) -> Ask:
        if self._ask is None:
            self._ask = playable(self.state, candidates(self.state))
        return self._ask

    def state_edited(self) -> None:
        """Tell the engine that `state` was changed by hand (tests do): what it worked out
        from the state before is forgotten."""
        self._ask = None
        self._before.clear()
        self._led_to.clear()

    @property
    def pending(self) -> Decision:
        return decision_of(self._candidates())

    def asking(self) -> Ask:
        """The pending decision with every candidate, the refused ones with their reasons (read, never change)."""
        return self._ask or self._candidates()

    def legal_ids(self) -> list[str]:
        """Ids of the legal options (what a bot picks from)."""
        return list((self._ask or self._candidates()).legal)

    def choose(self, choice: str) -> list[ev.Event] | Rejection:
        """Resolve one choice: the new events, or a Rejection that changed nothing."""
        start = len(self.events)
        ask = self._ask or self._candidates()
        try:
            rejection = resolve(self.state, choice, self._emit, ask)
            if rejection is None:
                self._ask = None  # the journal may ask what is pending now
                if self.journal is not None:
                    self.journal.record(start, self.events[start:], Mark(start, ask.seat, choice))
        except BaseException:
            # never leave a half-applied (or unsaved) choice behind: rebuild from the log before it
            self._cut(start)
            raise
        if rejection is not None:
            return rejection
        self._moves.append((start, ask.seat, choice))
        new = self.events[start:]
        self._ask = self._after(ask, choice, new)
        if self._subscribers:
            for callback in list(self._subscribers):
                callback(new)
        return new

    def _after(self, ask: Ask, choice: str, new: list[ev.Event]) -> Ask | None:
        """The decision after `choice` at `ask` brought `new`, if it is known already.

        A "back" returns to the decision before the choice it takes back; a reversible
        choice made again at the same decision leads to the same decision as before.
        Any other choice may change anything, and all that is known is forgotten.
        """
        before = self._before
        if len(new) == 1:
            kind = type(new[0])
            if kind in REVERSIBLE:
                before.append(ask)
                key = (id(ask), choice)
                known = self._led_to.get(key)
                if known is None:
                    known = self._led_to[key] = (ask, playable(self.state, candidates(self.state)))
                return known[1]
            if kind in TAKEN_BACK and before:
                return before.pop()
        if self._led_to:  # not empty whenever `before` is not
            before.clear()
            self._led_to.clear()
        return None

    def _cut(self, length: int) -> None:
        del self.events[length:]
        self._moves = [m for m in self._moves if m[0] < length]
        self.state = replay(self.content, self.events)
        self.state_edited()

    def undo_point(self, *, ended: bool = False) -> UndoPoint | NoUndo:
        """Where `undo()` would take the game now, or why it cannot (see `rules.undo`; `ended`: the last
        choice ended its seat's turn, and the game waits for that seat to end it)."""
        last = Mark(*self._moves[-1]) if self._moves else None
        return undo_point(self.state, self.events, last, self._candidates().seat, ended=ended)

    def undo(self, *, ended: bool = False) -> UndoPoint | NoUndo:
        """Take back the deciding seat's last choice of this turn, if the rules of undo allow it.

        The log is cut back to where that choice began and the journal is told
        first, so a failed save leaves the game as it was. Subscribers are not
        called: nothing new happened, and whoever asked for the undo redraws.
        """
        point = self.undo_point(ended=ended)
        if isinstance(point, NoUndo):
            return point
        if self.journal is not None:
            self.journal.rewind(point.pos)
        self._cut(point.pos)
        return point

    def view(self, seat: int | None) -> View:
        return view(self.state, seat)

    def subscribe(self, callback: Callable[[list[ev.Event]], None]) -> Callable[[], None]:
        """Call `callback(new_events)` after every accepted choice; returns an unsubscribe."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback)
