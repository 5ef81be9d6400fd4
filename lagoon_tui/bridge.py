"""The link between the engine and the screen: choices go in, scenes come out.

`GameBridge` owns the `Engine`, narrates its events into log lines (redacted
for whoever reads them) and builds the `Scene` the panels draw. It decides
nothing about the rules: legality is always the engine's. It spares the
players one thing: a turn whose only legal move is Pass is passed for them.

Every change of the game (a choice, a pass made for a player, an undo) is
counted in `changes` and told to whoever listens (`on_change`): the screen
redraws from that one signal, whoever made the change.
"""

from __future__ import annotations

from collections.abc import Callable

from rules import Engine, NoLegalChoice
from rules.decision import Rejection
from rules.record import FrozenRecord, frozen_record
from rules.seat import Chronicle, Line
from rules.undo import NoUndo, UndoPoint
from rules.view import view

from .saves.store import GameLost, StoreError
from .scene import Scene


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


class GameBridge:
    def __init__(self, engine: Engine):
        self.engine = engine
        self.chronicle = Chronicle(engine)  # the log told to each reader (a pass made for a player says so)
        self.lost: str | None = None  # why this window can no longer save the game (another took it), if so
        self.changes = 0  # how many times the game has changed since the bridge was made
        self._listeners: list[Callable[[], None]] = []
        engine.subscribe(lambda _events: self._changed())

    def on_change(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call `listener()` after every change of the game; returns what stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _changed(self) -> None:
        self.changes += 1
        for listener in list(self._listeners):
            listener()

    @property
    def content(self):
        return self.engine.content

    def choose(self, option_id: str) -> list | Rejection | NotMade:
        """The engine's answer; a choice that could not be saved or played on is NotMade (and was never made)."""
        mover = self.engine.pending.seat
        try:
            result = self.engine.choose(option_id)
        except StoreError as error:
            self._note_lost(error)
            return NotMade(option_id, f"{error} Your move was not made.", "Not saved")
        except NoLegalChoice as error:  # (found while it was saved: the engine took the choice back)
            return NotMade(option_id, f"{error} Your move was not made.", "The game cannot go on")
        if result:
            try:
                self.pass_where_forced(mover)
            except NoLegalChoice as error:  # (a game not saved finds it only now)
                return NotMade(option_id, str(error), "The game cannot go on")
        return result

    def pass_where_forced(self, mover: int | None = None) -> None:
        """Pass for whoever must decide next while Pass is all the engine allows them.

        Not for `mover`, the seat that has just chosen (they see what came of
        their move and pass themselves), nor while a move of this turn could be
        taken back. If the pass cannot be saved, it is left to the player.
        """
        engine = self.engine
        while engine.pending.seat not in (None, mover) and engine.legal_ids() == ["pass"] and not engine.undo_point():
            at, mover = len(engine.events), engine.pending.seat
            try:
                engine.choose("pass")
            except StoreError:
                return
            self.chronicle.forced.add(at)

    def undo(self) -> UndoPoint | NoUndo:
        """Take back the deciding seat's last move of this turn (the engine decides whether it may)."""
        try:
            point = self.engine.undo()
        except StoreError as error:
            self._note_lost(error)
            return NoUndo(f"{error} Nothing was taken back")
        if point:
            self.chronicle.forget()  # the log lost its last lines: told afresh
            self._changed()
        return point

    def _note_lost(self, error: StoreError) -> None:
        if isinstance(error, GameLost):
            self.lost = str(error)

    def undo_note(self, seat: int | None) -> str:
        """For the prompt: what `u` would take back now, or why it cannot."""
        if seat is None or seat != self.engine.pending.seat:
            return ""
        point = self.engine.undo_point()
        return f"u: undo ({point.what})" if point else f"No undo ({point.reason})"

    def log(self, seat: int | None) -> tuple[Line, ...]:
        """The whole game told to `seat`."""
        return self.chronicle.lines(seat)

    def scene(self, seat: int | None) -> Scene:
        """Everything `seat` may see now (seat None: only what everyone may see)."""
        return Scene(
            view(self.engine.state, seat),
            self.content,
            seat,
            self.engine.pending,
            self.log(seat),
            self.undo_note(seat),
            self.last_space(seat),
        )

    def open_scene(self, seat: int) -> Scene:
        """The game as everyone sees it, with `seat`'s prompt: for a decision anyone may watch (OPEN_KINDS).

        Its undo note says only whether undo is possible, never what it would take back.
        """
        point = self.engine.undo_point()
        undo = "u: undo your last move" if point else f"No undo ({point.reason})"
        public = self.scene(None)
        return Scene(public.view, self.content, seat, public.decision, public.log, undo, self.last_space(seat))

    def since_last_move(self, seat: int | None) -> tuple[Line, ...]:
        """What happened since `seat` last moved, as everyone may read it (the curtain shows it to all)."""
        return self.chronicle.since(seat)

    def last_space(self, seat: int | None) -> str | None:
        """The action space of the latest action another player took since `seat` last moved (not withdrawn)."""
        return self.chronicle.latest_space(seat)
