"""A recorded game to step through: `Replay`, the host of a replay.

A replay owns the game's events, as a `Host` owns a game being played, and
hands out what an onlooker sees at any point of it: the seat message of that
position (`scene_at`, a `rules.seat.SeatScene`), the game's log, told once,
and a finished game's final results (`results`, its score sheet). A
finished game is replayed with nothing hidden; an unfinished one as any
onlooker may see it (seat None).

A position is a number of events applied (1 = just the game's creation,
len(events) = the end). Stepping moves between events that have a sentence
in the log (the silent plan steps change nothing a viewer would notice), a
turn step jumps to the next or previous start of a turn or round.

Most positions lie between the events of one choice (a round ended and the
next not begun, an action started and not carried out), where the game waits
on nobody and no decision can be worked out from the state. Who is shown
deciding there is whoever made that choice: the replay knows where each
choice began from the game's marks (`rules.undo.Mark`, saved with the log).
Before the first choice the board is being set up and nobody decides.

A finished game's log is public: `log_json` writes it (events and marks) for
another process, `replay_from_json` makes the replay of it there, each event
checked as an imported one is (`rules.audit.event_from_json`).
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Sequence
from typing import NamedTuple

from . import events as ev
from .audit import LogError, event_from_json
from .cards import Content
from .engine import replay
from .evolve import evolve
from .narrate import tell
from .results import GameResults, final_results
from .seat import SETTING_UP, Line, SeatScene, Turn, replay_scene, waiting_turn
from .state import GameState
from .undo import Mark

TURN_STARTS = (ev.TurnBegan, ev.RoundBegan)


class Told(NamedTuple):
    at: int  # the event told (its index, 0-based); the position after it is at + 1
    line: Line


class Replay:
    def __init__(
        self,
        content: Content,
        events: Sequence[ev.Event],
        marks: Sequence[Mark],
        asides: Sequence[tuple[int, Line]] = (),
    ) -> None:
        """The game of `events`; `marks`, where each of its choices began (`Engine.marks`); `asides`, the lines
        of its log that are no event of the rules, each after so many events (`Chronicle.asides`)."""
        self.content = content
        self._events = list(events)
        # where the game waited for a choice: where each choice began, and the end
        self._waits = sorted({m.pos for m in marks if 0 < m.pos < len(self._events)} | {len(self._events)})
        self.reveal = bool(self._events) and isinstance(self._events[-1], ev.GameEnded)
        final = replay(content, self._events)
        self.seats = final.seats  # the players the log's first event (GameCreated) names
        told = [Told(i, Line(who, text)) for i, who, text in tell(self._events, final, None, self.reveal)]
        self.lines = _with_asides(told, asides, len(self._events))
        self.stops = [ln.at + 1 for ln in self.lines]  # positions a step lands on
        self.turns = [i + 1 for i, e in enumerate(self._events) if isinstance(e, TURN_STARTS)]
        self.rounds = {e.round: i + 1 for i, e in enumerate(self._events) if isinstance(e, ev.RoundBegan)}
        # a finished game's score sheet, as its end screen showed it (None: the game is not over)
        self.results: GameResults | None = final_results(final, self._events) if self.reveal else None

    @property
    def first(self) -> int:
        return 1 if self._events else 0

    @property
    def last(self) -> int:
        return len(self._events)

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

    def scene_at(self, pos: int) -> SeatScene:
        """What the board shows after `pos` events (everything, for a finished game)."""
        state, turn = self._state_at(self.clamp(pos))
        return replay_scene(state, self.reveal, turn)

    def _state_at(self, pos: int) -> tuple[GameState, Turn]:
        """The state after `pos` events, and who decides there: at a position between the events
        of one choice, who made that choice (told from the state where the game waited for it)."""
        i = bisect.bisect_right(self._waits, pos) - 1
        if i < 0 or not self._events:
            return replay(self.content, self._events[:pos]), SETTING_UP
        waited = self._waits[i]
        state = replay(self.content, self._events[:waited])
        turn = waiting_turn(state)
        for event in self._events[waited:pos]:
            evolve(state, event)
        return state, turn


def _with_asides(told: list[Told], asides: Sequence[tuple[int, Line]], length: int) -> list[Told]:
    """The lines `told` of the events with each aside after the lines of the events before it (a replay steps to
    an aside at the board after those events; one placed past the log's end, at its end)."""
    lines: list[Told] = []
    rest = sorted(((min(at, length), line) for at, line in asides), key=lambda aside: aside[0])
    for line in told:
        while rest and rest[0][0] <= line.at:
            at, aside = rest.pop(0)
            lines.append(Told(max(at - 1, 0), aside))
        lines.append(line)
    lines.extend(Told(max(at - 1, 0), aside) for at, aside in rest)
    return lines


def log_json(events: Sequence[ev.Event], marks: Sequence[Mark], asides: Sequence[tuple[int, Line]] = ()) -> str:
    """A game's log as JSON text: every event, where each choice began and its asides (`Replay`'s arguments)."""
    return json.dumps(
        {
            "events": [ev.to_json(e) for e in events],
            "marks": [[m.pos, m.seat, m.choice] for m in marks],
            "asides": [[at, line.seat, line.text] for at, line in asides],
        },
        separators=(",", ":"),
    )


def replay_from_json(content: Content, text: str) -> Replay:
    """The replay of a log `log_json` wrote; LogError if it is not one (each event is checked)."""
    try:
        plain = json.loads(text)
    except (ValueError, RecursionError):
        raise LogError("the log is not JSON") from None
    if not (isinstance(plain, dict) and isinstance(plain.get("events"), list) and isinstance(plain.get("marks"), list)):
        raise LogError("the log has no events and marks")
    events = [event_from_json(e, i) for i, e in enumerate(plain["events"])]
    marks = []
    for m in plain["marks"]:
        if not (
            isinstance(m, list)
            and len(m) == 3
            and type(m[0]) is int
            and (m[1] is None or type(m[1]) is int)
            and isinstance(m[2], str)
        ):
            raise LogError("a mark of the log is not one")
        marks.append(Mark(m[0], m[1], m[2]))
    said = plain.get("asides", [])  # (a log written before asides were sent has none)
    if not isinstance(said, list):
        raise LogError("the asides of the log are not a list")
    asides = []
    for a in said:
        if not (
            isinstance(a, list)
            and len(a) == 3
            and type(a[0]) is int
            and a[0] >= 0
            and (a[1] is None or type(a[1]) is int)
            and isinstance(a[2], str)
        ):
            raise LogError("an aside of the log is not one")
        asides.append((a[0], Line(a[1], a[2])))
    return Replay(content, events, marks, asides)
