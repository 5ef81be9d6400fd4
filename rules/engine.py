"""The engine facade: one object holding a game's state and event log.

The terminal app, the store, bots and tests all talk to the game through this:
`pending`, `choose(...)`, `view(seat)`, `events`, `subscribe(callback)`.
"""
from __future__ import annotations

from typing import Callable, Iterable

from . import codec
from .cards import Content
from .choose import Ask, candidates, decision_of, resolve
from .decision import Decision, Rejection
from .evolve import evolve
from .state import GameState
from .turns import create_game, set_up_board
from .view import view


def replay(content: Content, events: Iterable) -> GameState:
    """The state a log leads to, with no randomness involved."""
    state = GameState(content=content)
    for e in events:
        evolve(state, e)
    return state


def clone(state: GameState) -> GameState:
    copy = codec.from_plain(GameState, codec.to_plain(state))
    copy.content = state.content
    return copy


def state_to_json(state: GameState) -> dict:
    return codec.to_plain(state)


def state_from_json(content: Content, data: dict) -> GameState:
    state = codec.from_plain(GameState, data)
    state.content = content
    return state


def decide(state: GameState, choice: str) -> list | Rejection:
    """The events a choice would bring about, without touching `state`."""
    scratch = clone(state)
    out: list = []
    rejection = resolve(scratch, choice, lambda e: (evolve(scratch, e), out.append(e)))
    return rejection if rejection is not None else out


class Engine:
    def __init__(self, content: Content, events: Iterable = ()):
        self.content = content
        self.state = GameState(content=content)
        self.events: list = []
        self._subscribers: list[Callable[[list], None]] = []
        self._ask: Ask | None = None
        for e in events:
            self._emit(e)

    @classmethod
    def new(cls, content: Content, names: list[str], seed: int,
            start_player: int | None = None, colours=None) -> "Engine":
        board = content.board
        if not board.players_min <= len(names) <= board.players_max:
            raise ValueError(f"Miner's Lagoon is for {board.players_min} to {board.players_max} players")
        engine = cls(content)
        engine._emit(create_game(content, names, seed, start_player, colours))
        set_up_board(engine.state, engine._emit)
        return engine

    def _emit(self, event) -> None:
        evolve(self.state, event)
        self.events.append(event)

    def _candidates(self) -> Ask:
        if self._ask is None:
            self._ask = candidates(self.state)
        return self._ask

    @property
    def pending(self) -> Decision:
        return decision_of(self._candidates())

    def legal_ids(self) -> list[str]:
        """Ids of the legal options (what a bot picks from)."""
        return [c.id for c in self._candidates().cands if c.reason is None]

    def choose(self, choice: str) -> list | Rejection:
        """Resolve one choice: the new events, or a Rejection that changed nothing."""
        start = len(self.events)
        try:
            rejection = resolve(self.state, choice, self._emit, self._candidates())
        except Exception:
            # never leave a half-applied choice behind: rebuild from the log before it
            del self.events[start:]
            self.state = replay(self.content, self.events)
            self._ask = None
            raise
        if rejection is not None:
            return rejection
        self._ask = None
        new = self.events[start:]
        if self._subscribers:
            for callback in list(self._subscribers):
                callback(new)
        return new

    def view(self, seat: int | None) -> dict:
        return view(self.state, seat)

    def subscribe(self, callback: Callable[[list], None]) -> Callable[[], None]:
        """Call `callback(new_events)` after every accepted choice; returns an unsubscribe."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback)
