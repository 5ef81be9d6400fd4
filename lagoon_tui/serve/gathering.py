"""Who is in a room of `lagoon serve` before and while its game is played: `Gathering`, part of the lobby.

A room is public (listed to every player under Open rooms) or private:
listed only to its players and spectators, and reached by anyone else only
with its code, which is longer than a public room's so that guessing is
hopeless at the lobby's limit on wrong codes (docs/serve.md, "Rooms").

Before its game begins, a player may leave a room (`leave_room`: their seat
is open again) and its maker may cancel it (`cancel`: everyone seated or
watching there is told, and the room is gone). Anyone who may reach a room
may watch it (`watch`): they wait in it until it starts, then watch its
game; entering a game under way without a seat watches it too. Spectators
are kept by key in the save file (`Store.watch`) until the game ends or they
stop watching (`leave_room` again), so they find it in their lobby after
reconnecting. The maker is told, in the lobby or in another game, who took a seat, who left it
and who came to watch. Every change is kept in the save file before it is
made: if the file refuses, the request is refused and nothing changes.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any, Protocol

from rules.host import Host, SavedRoom, SavedSeat, Store

from ..wire import frame
from . import console
from .budget import Budget

PRIVATE_CODE_LENGTH = 10
"""A private room's code: 10 of 32 letters, 32**10 (about 10**15) codes (see docs/serve.md, "Rooms")."""
WATCHING_MOST = 16
"""Rooms one player may watch at once (so nobody can fill the save file with spectators)."""
TOLD_MOST = (4, 60.0)
"""What a maker is told of one player's coming and going in one room: 4 notices, then one a quarter of a
minute (so that nobody can flood a maker's screen by joining and leaving)."""


class Game(Protocol):
    """(A room's game under way, as `serve.room.Room` holds it.)"""

    host: Host


class RoomEntry(Protocol):
    """(A room of the lobby, as `serve.lobby.RoomEntry` holds it: its seats are `serve.lobby.Seat`s.)"""

    code: str
    creator: str
    seats: list[Any]
    seed: int | None
    game: int | None
    private: bool
    watchers: list[str]

    @property
    def room(self) -> Game | None: ...

    def seat_of(self, key: str) -> int | None: ...


class Refused(Exception):
    """A request the lobby turns down; the message says why, to the player."""


class Gathering:
    """The lobby's rooms as people come and go (mixed into `Lobby`, which holds what is declared here)."""

    store: Store
    names: dict[str, str]
    rooms: Any  # (the lobby's rooms by code: a dict of its `RoomEntry`s)
    sessions: dict[asyncio.StreamWriter, str]
    told: Budget  # notices to a maker, by room and by whom they tell of

    def _push(self) -> None:
        raise NotImplementedError  # (the lobby's: every session sent its lobby soon)

    # --- what is kept ---------------------------------------------------------------------

    def gather_kept(self, budget: Budget) -> None:
        """Privacy and spectators as the save file keeps them, for the rooms it keeps; `budget`: how often a
        maker is told of one player (`TOLD_MOST`)."""
        self.told = budget
        for code in self.store.private_rooms():
            if code in self.rooms:
                self.rooms[code].private = True
        for code, key in self.store.watchers():
            entry = self.rooms.get(code)
            if entry is not None and entry.seat_of(key) is None and key not in entry.watchers:
                entry.watchers.append(key)

    def save_new_room(self, entry: RoomEntry) -> None:
        """A new room kept, private or not, in one go (StoreError: nothing kept)."""
        self.store.save_room(self._kept(entry, entry.seats), private=entry.private)

    @staticmethod
    def _kept(entry: RoomEntry, seats: list[Any]) -> SavedRoom:
        """The room as the save file keeps it, with `seats`."""
        kept = tuple(SavedSeat(s.key, s.computer, s.level) for s in seats)
        return SavedRoom(entry.code, entry.creator, kept, entry.seed, entry.game)

    # --- who may see a room ----------------------------------------------------------------

    def listed_to(self, entry: RoomEntry, key: str) -> bool:
        """Whether the room shows in the player's lobby: their own rooms and those they watch are under Your
        games; a public room not started or under way, under Open rooms (`open_to`)."""
        return entry.seat_of(key) is not None or key in entry.watchers or key == entry.creator

    def open_to(self, entry: RoomEntry, key: str) -> bool:
        """Whether the room is listed under Open rooms for the player: public, not theirs, and waiting for
        players or its game under way (Enter then watches it), not over."""
        return not entry.private and not self._over(entry) and not self.listed_to(entry, key)

    def known_to(self, entry: RoomEntry | None, key: str) -> bool:
        """Whether the player has this room already (a seat, a spectator's place): its code is no guess."""
        return entry is not None and self.listed_to(entry, key)

    def gathered(self, entry: RoomEntry, key: str) -> dict[str, Any]:
        """What a lobby row says of who is in the room besides its seats, for the player with `key`."""
        return {
            "private": entry.private,
            "watchers": [self.names.get(k, "?") for k in entry.watchers],
            "watching": key in entry.watchers,
            "maker": key == entry.creator,
        }

    # --- requests ------------------------------------------------------------------------

    def watch(self, key: str, entry: RoomEntry) -> dict[str, Any]:
        """The player watches the room: waits in it until it starts (`waiting`), or watches its game."""
        if entry.seat_of(key) is not None:
            raise Refused("You have a seat in this room: it is yours to play.")
        self.keep_watching(key, entry)
        return {"seat": None, "waiting": entry.room is None}

    def keep_watching(self, key: str, entry: RoomEntry) -> None:
        """The player kept as a spectator of the room (its maker told, if it has not started)."""
        if key in entry.watchers or self._over(entry):
            return
        if sum(1 for e in self.rooms.values() if key in e.watchers) >= WATCHING_MOST:
            raise Refused(f"You watch {WATCHING_MOST} games already: stop watching one first (l in the lobby).")
        self.store.watch(entry.code, key)
        entry.watchers.append(key)
        if entry.room is None:
            self.tell_maker(entry, key, f"{self.names.get(key, '?')} watches your room {entry.code}.")
        self._push()

    def stop_watching(self, key: str, entry: RoomEntry) -> None:
        """The player is no more a spectator of the room (kept; nothing if they were not one)."""
        if key not in entry.watchers:
            return
        self.store.watch(entry.code, key, on=False)
        entry.watchers.remove(key)
        self._push()

    def leave_room(self, key: str, entry: RoomEntry) -> dict[str, Any]:
        """A player gives up their seat in a room not started (its maker cancels it instead), or a spectator
        stops watching."""
        if key in entry.watchers:
            self.stop_watching(key, entry)
            return {"left": True}
        seat = entry.seat_of(key)
        if seat is None:
            raise Refused("You are not in this room.")
        if entry.room is not None:
            raise Refused("This game has begun: your seat stays yours until it ends.")
        if key == entry.creator:
            raise Refused("You made this room: x cancels it.")
        seats = [*entry.seats]
        seats[seat] = replace(seats[seat], key=None)
        self.store.save_room(self._kept(entry, seats))
        entry.seats = seats
        self.tell_maker(entry, key, f"{self.names.get(key, '?')} left your room {entry.code}.")
        self._push()
        return {"left": True}

    def may_cancel(self, key: str, entry: RoomEntry) -> dict[str, Any]:
        """Whether the player may cancel the room (asked before the question "Cancel room …?"): refused if not."""
        if key != entry.creator:
            raise Refused("Only the player who made this room can cancel it.")
        if entry.room is not None:
            raise Refused("This game has begun: it cannot be cancelled.")
        return {"may": True}

    def cancel(self, key: str, entry: RoomEntry) -> dict[str, Any]:
        """The maker cancels a room not started: everyone in it is told, and it is gone (kept so)."""
        self.may_cancel(key, entry)
        self.store.delete_room(entry.code)
        del self.rooms[entry.code]
        console.room_cancelled(entry.code, self.names.get(key), key)
        said = f"{self.names.get(key, '?')} cancelled room {entry.code}: it is gone."
        for other in {s.key for s in entry.seats if s.key is not None} | set(entry.watchers):
            self.tell(other, said, but=key, cancelled=entry.code)
        self._push()
        return {"cancelled": True}

    def joined(self, key: str, entry: RoomEntry, seat: int) -> None:
        """A player took a seat: no more a spectator there; its maker told."""
        if key in entry.watchers:
            self.stop_watching(key, entry)
        taken = sum(1 for s in entry.seats if not s.open)
        self.tell_maker(
            entry,
            key,
            f"{self.names.get(key, '?')} joined your room {entry.code} ({taken} of {len(entry.seats)} seats taken).",
        )

    def game_changed(self, entry: RoomEntry) -> None:
        """After a change of a room's game: once it is over, nobody watches it any more (kept so)."""
        if entry.watchers and self._over(entry):
            for key in [*entry.watchers]:
                self.stop_watching(key, entry)

    # --- telling -------------------------------------------------------------------------

    def tell_maker(self, entry: RoomEntry, key: str, text: str) -> None:
        """The room's maker told `text` of the player with `key` (not of themselves; not too often)."""
        if key != entry.creator and self.told.allow(f"{entry.code} {key}"):
            self.tell(entry.creator, text)

    def tell(self, key: str, text: str, *, but: str | None = None, cancelled: str | None = None) -> None:
        """`text` told to the player with `key` in each of their sessions, in the lobby or in a game (not if they
        are `but`); `cancelled`: the code of the room that is gone (a session waiting in it no longer waits)."""
        if key == but:
            return
        told = frame("notice", {"text": text} | ({"cancelled": cancelled} if cancelled else {}))
        for writer, other in list(self.sessions.items()):
            if other == key and not writer.is_closing():
                writer.write(told)
        for entry in self.rooms.values():
            for link in entry.room.links if entry.room is not None else ():
                if link.key == key:
                    link.send(told)

    @staticmethod
    def _over(entry: RoomEntry) -> bool:
        return entry.room is not None and entry.room.host.turn().seat is None
