"""The rooms of `lagoon serve` as the save file keeps them (schema 3; the store reads and writes them), and
their rematches (schema 4).

A room's seats are one JSON list in its row, each seat `{"key": ..., "computer": ...}`:
the fingerprint of the key of the player who took it (or null), and whether a
computer plays it; a computer's seat has its `"level"` too (a row written
before levels were kept has none: its computers play at "normal"). A row
that is not that is a damaged room: it is read (its `damage` says what is
wrong), never written over.
"""

from __future__ import annotations

import json

from ..record import FrozenRecord, frozen_record


@frozen_record
class SavedSeat(FrozenRecord):
    """One seat of a room: a player's key, a computer (at a level), or open (neither)."""

    key: str | None = None
    computer: bool = False
    level: str = "normal"  # a computer's (one of `rules.bots.LEVELS`: the lobby checks it)


@frozen_record
class SavedRoom(FrozenRecord):
    """A room of the lobby: its code, who made it, its seats, and its game once started."""

    code: str
    creator: str  # the fingerprint of the key of the player who made it
    seats: tuple[SavedSeat, ...]
    seed: int | None = None  # the seed asked for (None: a random game)
    game: int | None = None  # the saved game, once started
    damage: str = ""  # what of its row could not be read ("" for a sound room): such a room is never opened


@frozen_record
class SavedRematch(FrozenRecord):
    """The rematch of a finished room (schema 4): the seats whose players accepted it, and the code of its
    own room once it started."""

    room: str  # the finished room's code
    accepted: frozenset[int] = frozenset()
    next: str | None = None


def rematch_from_row(room: object, accepted: object, next_: object) -> SavedRematch | None:
    """A row of `serve_rematches`; None if it cannot be read."""
    try:
        seats = json.loads(accepted) if isinstance(accepted, str) else None
    except (ValueError, RecursionError):
        seats = None
    if not (isinstance(room, str) and isinstance(seats, list) and all(type(s) is int and s >= 0 for s in seats)):
        return None
    if next_ is not None and not isinstance(next_, str):
        return None
    return SavedRematch(room, frozenset(seats), next_)


def seats_text(seats: tuple[SavedSeat, ...]) -> str:
    """A room's seats as its row keeps them."""
    return json.dumps(
        [{"key": s.key, "computer": s.computer} | ({"level": s.level} if s.computer else {}) for s in seats]
    )


def room_from_row(code: object, creator: object, seats: object, seed: object, game: object) -> SavedRoom:
    """A row of `serve_rooms` as a room; a damaged room (its `damage` says what) if it cannot be read."""
    if not isinstance(code, str):
        return SavedRoom("?", "", (), damage="its code cannot be read")
    if not isinstance(creator, str):
        return SavedRoom(code, "", (), damage="its creator cannot be read")
    read = _seats(seats)
    if read is None:
        return SavedRoom(code, creator, (), damage="its seats cannot be read")
    for value, what in ((seed, "seed"), (game, "game")):
        if value is not None and type(value) is not int:
            return SavedRoom(code, creator, (), damage=f"its {what} cannot be read")
    return SavedRoom(code, creator, read, seed if type(seed) is int else None, game if type(game) is int else None)


def _seats(text: object) -> tuple[SavedSeat, ...] | None:
    """The seats a row's JSON holds; None if they are not what Lagoon writes."""
    if not isinstance(text, str):
        return None
    try:
        plain = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(plain, list):
        return None
    seats = []
    for seat in plain:
        if not (isinstance(seat, dict) and set(seat) - {"level"} == {"key", "computer"}):
            return None
        key, computer, level = seat["key"], seat["computer"], seat.get("level", "normal")
        if not (key is None or isinstance(key, str)) or not isinstance(computer, bool) or not isinstance(level, str):
            return None
        seats.append(SavedSeat(key, computer, level))
    return tuple(seats)
