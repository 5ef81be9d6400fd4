"""Checking a game log from outside (an imported file) before trusting it.

`event_from_json` checks that one event is of a known type with exactly its
fields, each of the right type. `audit(content, events, choices)` then plays
the game again from its seed, choice by choice, and demands that the rules
produce exactly the logged events: a log that was edited (a deck stacked, a
cube added, a choice the rules forbid) is refused with the first place where
it parts from the rules.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Sequence
from functools import cache
from typing import Any, Union

from . import codec
from . import events as ev
from .cards import Content
from .decision import Rejection
from .engine import Engine
from .names import printable


class LogError(ValueError):
    """The log is not a game these rules could have produced; the message says where.

    `event` (its position in the log, from 0) and `move` (from 1) say where the log parts from the rules,
    when that is known: what a player is shown says only these (`rules.saves`), since the message may
    name a rule that speaks of a seat's cards, or echo the move. No message quotes an event's fields or the
    text of an error the rules raised.
    """

    def __init__(self, message: str, *, event: int | None = None, move: int | None = None) -> None:
        super().__init__(message)
        self.event, self.move = event, move


def _conforms(tp: Any, v: Any) -> bool:
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        return any(_conforms(a, v) for a in typing.get_args(tp))
    if tp is type(None):
        return v is None
    if tp is bool:
        return isinstance(v, bool)
    if tp is int:
        return isinstance(v, int) and not isinstance(v, bool)
    if tp is str:
        return isinstance(v, str)
    if tp is list:
        return True  # Picked.pick: a pick is whatever the step's option carries (a list or a name)
    if tp is tuple or origin in (list, tuple):
        if not isinstance(v, list):
            return False
        args = typing.get_args(tp)
        if not args:
            return True
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            return len(v) == len(args) and all(_conforms(a, x) for a, x in zip(args, v))
        return all(_conforms(args[0], x) for x in v)
    if tp is dict or origin is dict:
        return isinstance(v, dict) and all(isinstance(k, str) for k in v)
    return tp is Any


_NAMES = {int: "a whole number", str: "a string", bool: "true or false"}


def clip(value: Any, most: int = 60) -> str:
    """A value from the file as a message quotes it: its repr, made printable and cut (`rules.names.printable`)."""
    return printable(repr(value), most)


@cache
def _fields(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def event_from_json(d: Any, index: int, where: str = "") -> ev.Event:
    """Event number `index` of a log, rebuilt from JSON after checking its type and fields (`where`: how
    a message names it, by default "event {index + 1}")."""
    where = where or f"event {index + 1}"
    if not isinstance(d, dict):
        raise LogError(f"{where} is not a JSON object", event=index)
    if codec.deeper_than(d, codec.MAX_DEPTH - 1):
        raise LogError(f"{where} is nested deeper than the {codec.MAX_DEPTH} levels an event may have", event=index)
    kind = d.get("type")
    cls: type | None = ev.EVENT_TYPES.get(kind) if isinstance(kind, str) else None  # (type[Event]: unhashable to mypy)
    if cls is None:
        raise LogError(f"{where} has an unknown type {clip(kind)}", event=index)
    hints = _fields(cls)
    fields = set(hints)
    given = set(d) - {"type"}
    if fields - given:
        raise LogError(f"{where} ({kind}) lacks {', '.join(sorted(fields - given))}", event=index)
    if given - fields:
        raise LogError(f"{where} ({kind}) has unknown fields: {clip(sorted(given - fields))}", event=index)
    for name, tp in hints.items():
        if not _conforms(tp, d[name]):
            want = _NAMES.get(tp, str(tp).replace("typing.", ""))
            raise LogError(f"{where} ({kind}): {name!r} must be {want}", event=index)
    event: ev.Event = codec.decoder(cls)(d)
    return event


def _difference(made: ev.Event, logged: ev.Event | None) -> str:
    """What the rules made of a move against what the log says it made, in words: the event's type, or
    the names of the fields that differ (never their values: a card drawn face down is a field)."""
    if logged is None:
        return f"gives {type(made).__name__}, where the log ends"
    if type(made) is not type(logged):
        return f"gives {type(made).__name__}, the log has {type(logged).__name__}"
    ours, theirs = codec.to_plain(made), codec.to_plain(logged)
    fields = [name for name in ours if ours[name] != theirs.get(name)]
    return f"gives {type(made).__name__} with another {', '.join(fields)} than the log's"


def _same(a: ev.Event, b: ev.Event) -> bool:
    return type(a) is type(b) and codec.to_plain(a) == codec.to_plain(b)


def _opening(content: Content, first: ev.GameCreated) -> Engine:
    """The engine right after setup, if `first` is what the seed gives; else LogError."""
    n = len(first.names)
    if not content.board.players_min <= n <= content.board.players_max or len(first.colours) != n:
        raise LogError(
            f"event 1 (GameCreated) seats {n} players; the game is for "
            f"{content.board.players_min} to {content.board.players_max}",
            event=0,
        )
    if not 0 <= first.start_player < n:
        raise LogError("event 1 (GameCreated) names a start player who is not at the table", event=0)
    for start in (None, first.start_player):  # a chosen start player draws one number fewer
        try:
            engine = Engine.new(content, list(first.names), first.seed, start, list(first.colours))
        except Exception:  # noqa: BLE001 - names or colours the rules cannot seat
            raise LogError("event 1 (GameCreated) cannot begin a game", event=0) from None
        if _same(engine.events[0], first):
            return engine
    raise LogError("event 1 (GameCreated): the decks are not in the order its seed shuffles them", event=0)


def audit(content: Content, events: Sequence[ev.Event], choices: Sequence[str]) -> Engine:
    """Replay `choices` from the log's seed; the engine, if it yields exactly `events`."""
    if not events or not isinstance(events[0], ev.GameCreated):
        raise LogError("the log must begin with GameCreated", event=0)
    engine = _opening(content, events[0])
    for i, e in enumerate(engine.events):
        if i >= len(events) or not _same(e, events[i]):
            raise LogError(f"event {i + 1}: the setup does not follow from the seed", event=i)
    for n, choice in enumerate(choices, start=1):
        start = len(engine.events)
        try:
            result = engine.choose(choice)
        except Exception:  # noqa: BLE001 - any failure means the log is not a game (its text is not said)
            raise LogError(f"move {n} breaks the rules engine", event=start, move=n) from None
        if isinstance(result, Rejection):
            raise LogError(f"move {n} is not allowed there: {result.reason}", event=start, move=n)
        for i, e in enumerate(result, start=start):
            if i >= len(events) or not _same(e, events[i]):
                logged = events[i] if i < len(events) else None
                raise LogError(f"event {i + 1}: move {n} {_difference(e, logged)}", event=i, move=n)
    if len(engine.events) != len(events):
        raise LogError(
            f"the log has {len(events) - len(engine.events)} event(s) after its last move", event=len(engine.events)
        )
    return engine
