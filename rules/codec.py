"""Plain-JSON encoding of the engine's dataclasses (state and events).

Driven by type hints, so every state and event class round-trips without
hand-written converters: dataclasses become objects, tuples and lists become
arrays, dicts keep string keys (int keys are written as strings and read back).
A field marked `metadata={"plain": True}` holds JSON-ready data already and is
written as it is (a seat message's view and log: thousands of values). A class
with `SPARSE = True` leaves out the fields that hold their default, and reads
them back as the default (a seat message's options: a few of ten parts each).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from functools import cache
from types import MappingProxyType
from typing import Any, Union

# A type hint here is a class or a typing form (`list[int]`, `str | None`), which have no one type in
# common: `tp` is Any. The values are JSON data or the engine's records, as untyped as JSON.
Decoder = Callable[[Any], Any]

_is_dataclass: Callable[[Any], bool] = dataclasses.is_dataclass
"""`dataclasses.is_dataclass` as a plain test: its narrowing would make `tp` an instance or a class."""


@cache
def _hints(cls: type) -> tuple[tuple[str, Any], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls) if not f.metadata.get("transient"))


@cache
def _encoded(cls: type) -> tuple[tuple[str, bool], ...] | None:
    """Each field to write, and whether its value is written as it is; None for a SPARSE class."""
    if getattr(cls, "SPARSE", False):
        return None
    return tuple(
        (f.name, bool(f.metadata.get("plain"))) for f in dataclasses.fields(cls) if not f.metadata.get("transient")
    )


@cache
def _defaults(cls: type) -> tuple[tuple[str, Any], ...]:
    """A SPARSE class's fields, each with its default (a sentinel where it has none)."""
    return tuple(
        (f.name, f.default if f.default is not dataclasses.MISSING else _NONE) for f in dataclasses.fields(cls)
    )


_NONE = object()


_SCALARS = frozenset({str, int, float, bool, type(None)})


def to_plain(value: Any) -> Any:
    """Turn a dataclass tree into JSON-ready dicts, lists and scalars."""
    t: type = type(value)
    if t in _SCALARS:
        return value
    if t is list or t is tuple:
        return [v if type(v) in _SCALARS else to_plain(v) for v in value]
    if t is dict or t is MappingProxyType:
        return {str(k): v if type(v) in _SCALARS else to_plain(v) for k, v in value.items()}
    if hasattr(t, "__dataclass_fields__"):
        fields = _encoded(t)
        if fields is None:
            return {name: to_plain(v) for name, default in _defaults(t) if (v := getattr(value, name)) != default}
        return {name: getattr(value, name) if kept else to_plain(getattr(value, name)) for name, kept in fields}
    if isinstance(value, tuple):  # a named tuple
        return [v if type(v) in _SCALARS else to_plain(v) for v in value]
    raise TypeError(f"cannot encode {t.__name__}")


def from_plain(tp: Any, value: Any) -> Any:
    """Rebuild a value of type `tp` from what `to_plain` produced."""
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        if value is None:
            return None
        args: Sequence[Any] = [a for a in typing.get_args(tp) if a is not type(None)]
        return from_plain(args[0], value)
    if _is_dataclass(tp):
        return tp(**{name: from_plain(hint, value[name]) for name, hint in _hints(tp) if name in value})
    if _named_tuple(tp):
        return tp(*(from_plain(hint, v) for hint, v in zip(typing.get_type_hints(tp).values(), value)))
    if origin is list:
        (arg,) = typing.get_args(tp)
        return [from_plain(arg, v) for v in value]
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_plain(args[0], v) for v in value)
        return tuple(from_plain(a, v) for a, v in zip(args, value))
    if origin is dict or origin is Mapping:
        kt, vt = typing.get_args(tp)
        plain = {(int(k) if kt is int else k): from_plain(vt, v) for k, v in value.items()}
        return plain if origin is dict else MappingProxyType(plain)
    if tp is Any or tp is object:
        return value
    return value


def _named_tuple(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, tuple) and hasattr(tp, "_fields")


def _identity(value: Any) -> Any:
    return value


@cache
def decoder(tp: Any) -> Decoder:
    """A function rebuilding values of type `tp`, like `from_plain(tp, ·)`, worked out once per type.

    Loading a saved game decodes thousands of events of a few dozen types;
    deciding how to convert each field once per type instead of once per
    value makes that several times faster.
    """
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        args: Sequence[Any] = [a for a in typing.get_args(tp) if a is not type(None)]
        inner = decoder(args[0])
        return _identity if inner is _identity else (lambda v: None if v is None else inner(v))
    if _named_tuple(tp):
        convs = tuple(decoder(hint) for hint in typing.get_type_hints(tp).values())
        return lambda v: tp(*(conv(x) for conv, x in zip(convs, v)))
    if _is_dataclass(tp):
        fields = tuple((name, decoder(hint)) for name, hint in _hints(tp))
        if getattr(tp, "SPARSE", False):  # (a field left out holds its default)
            return lambda v: tp(**{name: conv(v[name]) for name, conv in fields if name in v})
        return lambda v: tp(**{name: conv(v[name]) for name, conv in fields})
    if origin is list:
        (arg,) = typing.get_args(tp)
        inner = decoder(arg)
        return list if inner is _identity else (lambda v: [inner(x) for x in v])
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            inner = decoder(args[0])
            return tuple if inner is _identity else (lambda v: tuple(inner(x) for x in v))
        convs = tuple(decoder(a) for a in args)
        return lambda v: tuple(conv(x) for conv, x in zip(convs, v))
    if origin is dict or origin is Mapping:  # (a Mapping is read back as the engine keeps one: read only)
        kt, vt = typing.get_args(tp)
        inner = decoder(vt)
        made = dict if origin is dict else lambda pairs: MappingProxyType(dict(pairs))
        return lambda v: made((int(k) if kt is int else k, inner(x)) for k, x in v.items())
    return _identity


MAX_DEPTH = 32
"""The deepest nesting of lists and objects read from a file: an event is three deep, a whole game file
six; JSON nested deeper than this is refused before anything recurses into it."""


def deeper_than(value: Any, most: int = MAX_DEPTH) -> bool:
    """Whether lists and dicts in `value` nest more than `most` deep (counted without recursion, so any
    depth is an answer, never a RecursionError)."""
    level: list[tuple[Any, int]] = [(value, 0)]
    while level:
        item, depth = level.pop()
        children: Iterable[Any]
        if isinstance(item, (list, tuple)):
            children = item
        elif isinstance(item, dict):
            children = item.values()
        else:
            continue
        if depth + 1 > most:
            return True
        level.extend((child, depth + 1) for child in children if isinstance(child, (list, tuple, dict)))
    return False


TIME_CHARS = 40
"""The longest time text read (Lagoon writes 25 characters: `2026-11-27T07:00:00+00:00`)."""


def read_time(text: Any) -> datetime | None:
    """A time as Lagoon saves and exports it (ISO 8601 with its offset from UTC), if `text` is one that can
    be shown both in UTC and in local time; None otherwise.

    The one reader of saved and exported times: the store's rows and leases, an import's `exported` and
    the times `lagoon list` and the Load screen show. A time without an offset, or one that leaves the
    calendar when moved to UTC or local time ('0001-01-01T00:00:00+14:00'), is None, never an error.
    """
    if not isinstance(text, str) or len(text) > TIME_CHARS:
        return None
    try:
        when = datetime.fromisoformat(text)
        if when.tzinfo is None:
            return None
        when.astimezone(UTC)
        when.astimezone()
    except (ValueError, OverflowError, OSError):
        return None
    return when
