"""The link between the engine and the screen: choices go in, scenes come out.

`GameBridge` owns the `Engine`, narrates its events into log lines (redacted
for whoever reads them) and builds the `Scene` the panels draw. It decides
nothing about the rules: legality is always the engine's.
"""
from __future__ import annotations

from rules import Engine
from rules.decision import Rejection
from rules.narrate import narrate
from rules.view import redact, view

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
        return self.engine.choose(option_id)

    def log(self, seat: int | None) -> list[LogLine]:
        """The whole game told to `seat`, extended with any new events."""
        lines = self._logs.setdefault(seat, [])
        state = self.engine.state
        for e in self.engine.events[self._told.get(seat, 0):]:
            text = narrate(redact(e, seat), state)
            if text:
                lines.append(LogLine(getattr(e, "seat", None), text))
        self._told[seat] = len(self.engine.events)
        return lines

    def scene(self, seat: int | None) -> Scene:
        """Everything `seat` may see now (seat None: only what everyone may see)."""
        return Scene(view(self.engine.state, seat), self.content, seat, self.engine.pending, tuple(self.log(seat)))
