"""A player's turn, wherever they are at the server: `Turns`.

When one of a player's games turns to them, every session of theirs that is
not in that game (in the lobby, or in another game) is sent a `turn` frame:
the room's code, its maker's name and the other players' names, nothing
more (the session rings, says so in the window's title and offers to go
there). A turn is told when it comes to a player, not again for each step of
it; and when it is theirs no more (played at another terminal of theirs, or
by a computer as their time ran out), a `turn` frame says it is gone.

How long a game has waited for its player is how long ago it last changed
(the save file's `games.updated`, read once when the server opens the room,
then kept here): while the game is theirs to decide nothing else changes it.
The lobby lists the player's games that wait for them first, the one that has
waited longest first, each with its wait.

Going from one game of theirs to another is not leaving the first: its seat
stays theirs and present (no "left" notice, no stand-in), since the player is
at the server and is told when that game turns to them again (`Room.elsewhere`).
The first game is left once the player goes back to the lobby or their
session ends.

A session that ended while in a game (a dropped connection, or the server
stopping) is remembered for its key, in the save file (`Store.save_resume`):
if that game waits for the player when they connect again, even after a
restart of the server, they are taken straight to their seat (`resume` in
`hello`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from rules.host import Store, StoreError

from ..wire import frame
from . import faults
from .room import Room


def wall() -> datetime:
    return datetime.now(UTC)


def read_stamp(text: str) -> datetime | None:
    """A time as the save file writes it (ISO 8601, UTC); None if it does not read."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def turn_told(room: dict[str, Any], seat: int, own: bool) -> dict[str, Any]:
    """What a `turn` frame tells of a game (`room`: as the lobby lists it): its code, whose room it is (`own`:
    the player's), the other players' names. All of it public: the lobby shows it to anyone."""
    return {
        "code": room["code"],
        "maker": None if own else room["creator"],
        "others": [s["name"] for n, s in enumerate(room["seats"]) if n != seat],
    }


@dataclass
class Session:
    key: str
    room: str | None = None  # the code of the room whose game it shows (None: in the lobby)
    parked: list[tuple[Room, int]] = field(default_factory=list)  # games it left for another of its games


@dataclass
class Turns:
    clock: Callable[[], datetime] = wall
    since: dict[str, datetime] = field(default_factory=dict)  # a room's code -> when its game last changed
    seen: dict[str, tuple[int, int | None]] = field(default_factory=dict)  # a room's code -> its game's last
    # change seen here and who decided there
    sessions: dict[asyncio.StreamWriter, Session] = field(default_factory=dict)
    dropped: dict[str, str] = field(default_factory=dict)  # a key -> the room its last session ended in
    store: Store | None = None  # where `dropped` is kept (None: in memory only)

    def __post_init__(self) -> None:
        if self.store is not None:
            self.dropped.update(self.store.resumes())

    # --- the games ------------------------------------------------------------------------

    def opened(self, code: str, updated: str) -> None:
        """A game the server had before: it has waited since the save file last changed it."""
        when = read_stamp(updated)
        if when is not None:
            self.since[code] = when

    def changed(self, code: str, decider: int | None, at: int) -> bool:
        """Room `code`'s game, at its change `at` (`Host.changes`), where `decider` decides: whether the turn
        came to them now (never at the first look at a game: one just started or opened again rings nobody)."""
        seen = self.seen.get(code)
        self.seen[code] = (at, decider)
        if seen is None:
            self.since.setdefault(code, self.clock())
            return False
        if seen[0] != at:
            self.since[code] = self.clock()
        return decider is not None and decider != seen[1]

    def decider(self, code: str) -> int | None:
        """The seat that decided room `code`'s game at its last change seen here (None: nobody, or not seen)."""
        seen = self.seen.get(code)
        return seen[1] if seen is not None else None

    def waited(self, code: str) -> int:
        """Seconds since the game of room `code` last changed."""
        when = self.since.get(code)
        return 0 if when is None else max(0, int((self.clock() - when).total_seconds()))

    def tell(self, key: str, code: str, told: dict[str, Any]) -> None:
        """Every session of `key` told that it is their turn in room `code`'s game, unless one of them shows that
        game (the player is at their seat there: no other terminal of theirs rings); or, `gone` told, that the
        turn is theirs no more (played at another terminal, or by a computer as their time ran out): every
        session of theirs but those that show that game."""
        theirs = [(writer, session) for writer, session in self.sessions.items() if session.key == key]
        gone = bool(told.get("gone"))
        if not gone and any(session.room == code for _, session in theirs):
            return
        data = frame("turn", told)
        for writer, session in theirs:
            if not writer.is_closing() and session.room != code:
                writer.write(data)

    def at_server(self, key: str | None, but: asyncio.StreamWriter) -> bool:
        """Whether the player with `key` has a session at the server other than `but`'s (closing `but` is then
        not leaving their games: they are told when one turns to them)."""
        return key is not None and any(
            session.key == key and writer is not but and not writer.is_closing()
            for writer, session in self.sessions.items()
        )

    # --- the sessions ----------------------------------------------------------------------

    def came(self, writer: asyncio.StreamWriter, key: str) -> str | None:
        """A session begins: the room its key's last session ended in, if it ended in a game (the lobby
        sends the player straight there if that game waits for them)."""
        self.sessions[writer] = Session(key)
        code = self.dropped.pop(key, None)
        if code is not None:
            self._keep(key, None)
        return code

    def entered(self, writer: asyncio.StreamWriter, code: str) -> None:
        self.sessions[writer].room = code

    def returned(self, writer: asyncio.StreamWriter, room: Room, seat: int | None) -> None:
        """The session's link to `room` ended: gone to another game of theirs (the seat is kept present until
        they go back to the lobby), back to the lobby (every game it had kept is left now), or dropped."""
        session = self.sessions[writer]
        code, session.room = session.room, None
        if writer.is_closing():
            if code is not None:
                self.dropped[session.key] = code
                self._keep(session.key, code)
            if seat is not None and seat in room.elsewhere:  # (another session of theirs is at the server)
                self._park(session.key, writer, room, seat)
            return
        if seat is not None and seat in room.elsewhere:
            session.parked.append((room, seat))
        else:
            self._leave_parked(session)

    def _park(self, key: str, closed: asyncio.StreamWriter, room: Room, seat: int) -> None:
        """`seat` of `room`, whose session `closed` ended, kept present with another session of its player's: left
        when that one goes back to the lobby or ends (as if it had gone from there to another game)."""
        for writer, session in self.sessions.items():
            if session.key == key and writer is not closed and not writer.is_closing():
                session.parked.append((room, seat))
                return
        room.gone(seat)

    def _keep(self, key: str, code: str | None) -> None:
        """The room `key`'s player comes back to, saved (if the file refuses, it is kept in memory, and the
        console says so)."""
        if self.store is None:
            return
        try:
            self.store.save_resume(key, code)
        except StoreError as error:
            faults.noted(f"player {key}, the seat they come back to", f"not saved: {error}")

    def ended(self, writer: asyncio.StreamWriter) -> None:
        session = self.sessions.pop(writer, None)
        if session is not None:
            self._leave_parked(session)

    @staticmethod
    def _leave_parked(session: Session) -> None:
        parked, session.parked = session.parked, []
        for room, seat in parked:
            room.gone(seat)
