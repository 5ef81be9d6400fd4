"""The link between the engine and the screen: choices go in, scenes come out.

`GameBridge` owns the `Engine`, narrates its events into log lines (redacted
for whoever reads them) and builds the `Scene` the panels draw. It decides
nothing about the rules: legality is always the engine's.
"""
from __future__ import annotations

from rules import Engine
from rules.decision import Rejection
from rules.narrate import tell
from rules.undo import NoUndo, UndoPoint
from rules.view import view

from .saves.store import StoreError
from .scene import LogLine, Scene


class GameBridge:
    def __init__(self, engine: Engine):
        self.engine = engine
        self._logs: dict[int | None, list[LogLine]] = {}
        self._told: dict[int | None, int] = {}  # events narrated so far, per reader

    @property
    def content(self):
        return self.engine.content

    def choose(self, option_id: str) -> list | Rejection:
        """The engine's answer; a choice that could not be saved is refused (and was never made)."""
        try:
            return self.engine.choose(option_id)
        except StoreError as error:
            return Rejection(option_id, f"{error} Your move was not made.")

    def undo(self) -> UndoPoint | NoUndo:
        """Take back the deciding seat's last move of this turn (the engine decides whether it may)."""
        try:
            point = self.engine.undo()
        except StoreError as error:
            return NoUndo(f"{error} Nothing was taken back")
        if point:
            self._logs.clear()  # the log lost its last lines: tell it afresh
            self._told.clear()
        return point

    def undo_note(self, seat: int | None) -> str:
        """For the prompt: what `u` would take back now, or why it cannot."""
        if seat is None or seat != self.engine.pending.seat:
            return ""
        point = self.engine.undo_point()
        return f"u: undo ({point.what})" if point else f"No undo ({point.reason})"

    def log(self, seat: int | None) -> list[LogLine]:
        """The whole game told to `seat`, extended with any new events."""
        lines = self._logs.setdefault(seat, [])
        lines.extend(LogLine(who, text) for _, who, text in
                     tell(self.engine.events[self._told.get(seat, 0):], self.engine.state, seat))
        self._told[seat] = len(self.engine.events)
        return lines

    def scene(self, seat: int | None) -> Scene:
        """Everything `seat` may see now (seat None: only what everyone may see)."""
        return Scene(view(self.engine.state, seat), self.content, seat, self.engine.pending, tuple(self.log(seat)),
                     self.undo_note(seat))
