"""A game's log as something to step through: positions, log lines, turns and rounds.

`Replay` knows nothing of the screen. A position is a number of events
applied (1 = just the game's creation, len(events) = the end). Stepping moves
between events that have a sentence in the log (the silent plan steps change
nothing a viewer would notice), a turn step jumps to the next or previous
start of a turn or round. A finished game is replayed with nothing hidden; an
unfinished one is told as any onlooker may see it (seat None).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from rules import events as ev
from rules.cards import Content
from rules.engine import replay
from rules.narrate import tell
from rules.seat import Line, replay_scene
from rules.state import GameState

from .scene import Scene

TURN_STARTS = (ev.TurnBegan, ev.RoundBegan)


@dataclass(frozen=True)
class Told:
    index: int  # the event told (0-based); the position after it is index + 1
    line: Line


class Replay:
    def __init__(self, content: Content, events: Sequence) -> None:
        self.content = content
        self.events = list(events)
        self.reveal = bool(self.events) and isinstance(self.events[-1], ev.GameEnded)
        final = replay(content, self.events)
        self.lines = self._tell(final)
        self.stops = [ln.index + 1 for ln in self.lines]  # positions a step lands on
        self.turns = [i + 1 for i, e in enumerate(self.events) if isinstance(e, TURN_STARTS)]
        self.rounds = {e.round: i + 1 for i, e in enumerate(self.events) if isinstance(e, ev.RoundBegan)}

    def _tell(self, final: GameState) -> list[Told]:
        return [Told(i, Line(who, text)) for i, who, text in tell(self.events, final, None, self.reveal)]

    @property
    def first(self) -> int:
        return 1 if self.events else 0

    @property
    def last(self) -> int:
        return len(self.events)

    def clamp(self, pos: int) -> int:
        return max(self.first, min(self.last, pos))

    def step(self, pos: int, delta: int) -> int:
        """The next (delta 1) or previous (delta -1) position with a log line."""
        return self._move(self.stops, pos, delta)

    def turn(self, pos: int, delta: int) -> int:
        """The start of the next or previous turn (or round)."""
        return self._move(self.turns, pos, delta)

    def _move(self, marks: list[int], pos: int, delta: int) -> int:
        if delta > 0:
            i = bisect.bisect_right(marks, pos)
            return marks[i] if i < len(marks) else self.last
        i = bisect.bisect_left(marks, pos) - 1
        return marks[i] if i >= 0 else self.first

    def round_start(self, number: int) -> int | None:
        return self.rounds.get(number)

    def line_at(self, pos: int) -> int | None:
        """The index in `lines` of the last line told at or before `pos`."""
        i = bisect.bisect_right(self.stops, pos) - 1
        return i if i >= 0 else None

    def state_at(self, pos: int) -> GameState:
        return replay(self.content, self.events[: self.clamp(pos)])

    def scene_at(self, pos: int) -> tuple[Scene, GameState]:
        """What the board shows after `pos` events (everything, for a finished game)."""
        state = self.state_at(pos)
        return Scene(replay_scene(state, self.reveal), self.content), state
