"""Export and import of one game as a JSON document.

The document holds the format version, the content fingerprint, the seed, the
seats (each a name, a colour and, for a seat a computer plays, its level as
`"computer"`), the events of the log and the moves (the option picked at each
choice). Import checks everything before it writes anything: JSON syntax, the
format and its version, every event known and well formed, the fingerprint
against the decks in use, and that the rules, replaying the moves from the
seed, give exactly the logged events (`rules.audit`).

Version 1 files came before computer players: they still import, every seat
a person's.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from .. import codec
from ..audit import LogError, audit, clip, event_from_json
from ..cards import Content
from ..engine import Engine
from ..events import GameCreated
from ..files import FileRefused, read_regular
from ..flow import COLOURS
from ..names import names_problems
from ..undo import Mark
from .recorder import _audited, summary_of
from .store import Store, StoreError, now, seed_problem

FORMAT = "lagoon-game"
VERSION = 2
"""The version written; versions 1 (no computer seats) and 2 are read."""
MAX_IMPORT_BYTES = 10_000_000
"""The largest game file read (a whole four-player game exports to about 100 kB)."""
MAX_EVENTS = 50_000
"""The most events a game file may hold (a whole game has a thousand or two)."""
KEYS = frozenset({"format", "version", "exported", "content_fingerprint", "seed", "seats", "status", "events", "moves"})
"""Every key of a game file, in versions 1 and 2 alike: any other is refused."""


class ArchiveError(Exception):
    """The file cannot be imported (or written); the message names what is wrong."""


# A game file is JSON: what it holds is checked here, key by key, so its values are Any until then.
def export_game(store: Store, game: int, path: Path, content: Content | None = None) -> dict[str, Any]:
    """Write game `game` to `path` as JSON, after checking its log as an import will (`rules.audit`,
    under `content`, by default the decks Lagoon comes with); the document written. StoreError, and no
    file, for a game that is damaged or was played with other decks."""
    from ..loader import load_content

    saved = store.load(game)
    _audited(store, saved, content if content is not None else load_content())
    info = saved.info
    computers = dict(info.computers)
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported": now(),
        "content_fingerprint": info.fingerprint,
        "seed": info.seed,
        "seats": [
            {"name": n, "colour": c, **({"computer": computers[seat]} if seat in computers else {})}
            for seat, (n, c) in enumerate(zip(info.names, info.colours))
        ],
        "status": info.status,
        "events": [{"type": type(e).__name__, **codec.to_plain(e)} for e in saved.events],
        "moves": [{"seat": m.seat, "choice": m.choice} for m in saved.marks],
    }
    try:
        Path(path).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    except OSError as error:
        raise ArchiveError(f"Could not write {path}: {error.strerror}.") from None
    return doc


def _need(doc: dict[str, Any], key: str, kind: type, what: str) -> Any:
    if key not in doc:
        raise ArchiveError(f"it has no {key!r} ({what})")
    value = doc[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise ArchiveError(f"{key!r} must be {what}, got {clip(value)}")
    return value


def _computers(seats: list[Any], version: int) -> dict[int, str]:
    """The level of each seat a computer plays (`"computer"` in the seat; none before version 2)."""
    from ..bots.levels import LEVELS

    keys = {"name", "colour"} | ({"computer"} if version >= 2 else set())
    computers: dict[int, str] = {}
    for i, seat in enumerate(seats):
        if not (
            isinstance(seat, dict)
            and {"name", "colour"} <= set(seat) <= keys
            and isinstance(seat["name"], str)
            and isinstance(seat["colour"], str)
        ):
            computer = ', maybe a "computer"' if version >= 2 else ""
            raise ArchiveError(f'seat {i + 1} must be an object with a "name" and a "colour"{computer}')
        colour = seat["colour"]
        if colour not in COLOURS:
            colours = ", ".join(f'"{c}"' for c in COLOURS)
            raise ArchiveError(f"the colour of seat {i + 1} must be one of {colours}, got {clip(colour)}")
        taken = [s["colour"] for s in seats[:i]]
        if colour in taken:
            raise ArchiveError(
                f"seats {taken.index(colour) + 1} and {i + 1} are both {colour}: each has a colour of its own"
            )
        if "computer" in seat:
            level = seat["computer"]
            if level not in LEVELS:
                levels = ", ".join(f'"{name}"' for name in LEVELS)
                raise ArchiveError(f'the "computer" of seat {i + 1} must be a level ({levels}), got {level!r:.60}')
            computers[i] = level
    return computers


_STATUS = {"playing": 'not over ("playing")', "over": 'over ("over")'}


def _exported(stamp: str) -> datetime:
    """When the file was written, as export writes it: an ISO 8601 time with its offset from UTC
    (`codec.read_time`, as the save file's times are read)."""
    when = codec.read_time(stamp)
    if when is None:
        raise ArchiveError(f"'exported' must be a time such as \"2026-11-27T07:00:00+00:00\", got {clip(stamp)}")
    return when


def read_archive(path: Path, content: Content) -> tuple[Engine, dict[int, str]]:
    """The checked game of an export file, and the level of each seat a computer plays:
    (engine, computers); ArchiveError says what is wrong."""
    try:
        text = read_regular(Path(path), MAX_IMPORT_BYTES, "a game file").decode("utf-8")
    except FileRefused as refused:
        raise ArchiveError(f"it {refused}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ArchiveError(f"cannot read it: {getattr(error, 'strerror', None) or error}") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as error:
        raise ArchiveError(f"it is not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})") from None
    except (RecursionError, ValueError):  # nested too deep; a number of more than 4,300 digits
        raise ArchiveError("it is not a game file Lagoon can read (nested too deep, or a number too long)") from None
    if codec.deeper_than(doc):  # (checked before anything else walks into it)
        raise ArchiveError(f"it is not a game file Lagoon can read (nested more than {codec.MAX_DEPTH} levels deep)")
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ArchiveError(f'it is not a Lagoon game export (no "format": "{FORMAT}")')
    version = _need(doc, "version", int, "a whole number")
    if version not in (1, VERSION):
        raise ArchiveError(f"it is in export format version {version}; this Lagoon reads versions 1 to {VERSION}")
    unknown = sorted(set(doc) - KEYS)
    if unknown:
        raise ArchiveError(f"it has a key a game file does not have: {clip(unknown[0])}")
    _exported(_need(doc, "exported", str, "a time"))
    status = _need(doc, "status", str, 'a string, "playing" or "over"')
    fingerprint = _need(doc, "content_fingerprint", str, "a string")
    seed = _need(doc, "seed", int, "a whole number")
    seats = _need(doc, "seats", list, "a list of players")
    computers = _computers(seats, version)
    bad_names = names_problems([seat["name"] for seat in seats])
    if bad_names:
        seat, problem = min(bad_names.items())
        raise ArchiveError(f"the name of seat {seat + 1} is refused: {problem}")
    if (seed_refused := seed_problem(seed)) is not None:
        raise ArchiveError(f"its seed is refused: {seed_refused}")
    raw_events = _need(doc, "events", list, "a list of events")
    moves = _need(doc, "moves", list, "a list of moves")
    if len(raw_events) > MAX_EVENTS or len(moves) > MAX_EVENTS:
        raise ArchiveError(f"it holds more than the {MAX_EVENTS:,} events or moves a game file may have")
    for i, m in enumerate(moves):
        if not (
            isinstance(m, dict)
            and set(m) == {"seat", "choice"}
            and isinstance(m["choice"], str)
            and (m["seat"] is None or isinstance(m["seat"], int) and not isinstance(m["seat"], bool))
        ):
            raise ArchiveError(f'move {i + 1} must be an object with a "seat" and a "choice"')
    try:
        events = [event_from_json(d, i) for i, d in enumerate(raw_events)]
    except LogError as error:  # (it names the event, its type and fields, never a field's value)
        raise ArchiveError(str(error)) from None
    if fingerprint != content.fingerprint:
        raise ArchiveError(
            f"it was played with other decks (content fingerprint {fingerprint[:12]}…, "
            f"these decks are {content.fingerprint[:12]}…); use --content DIR with those decks"
        )
    try:
        engine = audit(content, events, [m["choice"] for m in moves])
    except LogError as error:
        raise ArchiveError(f"its log does not replay under the rules{_from(error)}") from None
    played = summary_of(engine).status
    if status != played:
        raise ArchiveError(f'its "status" is {clip(status)}, but its log is of a game that is {_STATUS[played]}')
    first = events[0]  # (GameCreated: `audit` makes sure)
    if (
        not isinstance(first, GameCreated)
        or seed != first.seed
        or [s["name"] for s in seats] != list(first.names)
        or [s["colour"] for s in seats] != list(first.colours)
    ):
        raise ArchiveError("its seed or seats differ from those in its first event")
    for n, (mark, m) in enumerate(zip(engine.marks, moves), start=1):
        if mark.seat != m["seat"]:
            raise ArchiveError(f"move {n} is said to be seat {m['seat']}'s, but it was seat {mark.seat}'s decision")
    return engine, computers


def _from(error: LogError) -> str:
    """Where an import's log parts from the rules, by position only: the rule or the fields would be
    shown to whoever is at the screen, and may name a seat's hidden cards (a move keeps objectives)."""
    if error.event is None:
        return ""
    move = "" if error.move is None else f" (move {error.move})"
    return f" from event {error.event + 1}{move}"


class CheckedImport(NamedTuple):
    """A game file `check_import` passed, ready for `save_import`: the game replayed, and its computers."""

    engine: Engine
    computers: dict[int, str]


def import_game(store: Store, path: Path, content: Content) -> int:
    """Check the export file completely, then save it as a new game; its id. Nothing is written on failure."""
    return save_import(store, path, check_import(store, path, content))


def check_import(store: Store, path: Path, content: Content) -> CheckedImport:
    """`read_archive`, and that the save file may take the game: it holds no damaged game, and not this
    one already. Only reads (so `store` may be read-only); ArchiveError if not."""
    try:
        engine, computers = read_archive(path, content)
    except ArchiveError as error:
        raise ArchiveError(f"Cannot import {path}: {error}. Nothing was imported.") from None
    s = engine.state
    names = tuple(p.name for p in s.players)
    try:
        store.refuse_if_damaged()
        for info in store.games():  # the same game imported twice would be two games
            if (info.seed, info.names, info.fingerprint, info.length) == (
                s.seed,
                names,
                content.fingerprint,
                len(engine.events),
            ) and store.load(info.id).events == engine.events:
                raise ArchiveError(
                    f"Cannot import {path}: it is game {info.id} already, move for move. Nothing was imported."
                )
    except StoreError as error:
        raise ArchiveError(f"Cannot import {path}: {error} Nothing was imported.") from None
    return CheckedImport(engine, computers)


def save_import(store: Store, path: Path, checked: CheckedImport) -> int:
    """Save a game `check_import` passed as a new game; its id."""
    engine, computers = checked
    s = engine.state
    try:
        return store.create(
            seed=s.seed,
            names=[p.name for p in s.players],
            colours=[p.colour for p in s.players],
            fingerprint=engine.content.fingerprint,
            events=engine.events,
            marks=[Mark(m.pos, m.seat, m.choice) for m in engine.marks],
            summary=summary_of(engine),
            computers=computers,
        )
    except StoreError as error:
        raise ArchiveError(f"Cannot import {path}: {error} Nothing was imported.") from None
