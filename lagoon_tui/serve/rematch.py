"""Rematches of the lobby's finished games: `Rematches`.

From a finished game's end screen each player may ask for a rematch with one
key (`rematch {"accept": true}` in the room); the computers accept at once.
Every screen of the room is sent who has accepted and who is awaited
(`rematch` frames), and the lobby lists it on the room's row. Once every
player has accepted, the rematch starts: a new room with the same seats (the
same players in the same places, the same computers at their levels, under
the names they had) and a new random seed, and every screen still at the
finished game (its end screen or its last board) is told its code and taken
there. The new room keeps the finished one's pace and privacy (a private
room's rematch is private, with a private room's long code), and the
spectators still at the finished game watch it (kept as its spectators: they
find it in their lobby after reconnecting).

A player who declines (`{"accept": false}`) ends that round of asking: what was
accepted is forgotten, everyone is told, and any of them may ask again. One
who leaves the finished game is told to the others; the rematch waits for
their answer, which they may give when they come back (the lobby lists the
finished game with the rematch waiting for them). It never starts without
everyone.

Who accepted, and the rematch's room once started, are kept in the save file
(`Store.save_rematch`) before anyone is told: a restart of the server loses
neither, and a rematch every player had accepted whose room was not saved
yet is started as the server opens its rooms again.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from rules.host import Content, Host, SavedRematch, SavedRoom, Store, StoreError, names_problems

from ..settings import COLOURS
from ..wire import frame
from . import console, faults
from .gathering import PRIVATE_CODE_LENGTH, WATCHING_MOST
from .room import Room


class RoomEntry(Protocol):
    """A room of the lobby (`lobby.RoomEntry`), as a rematch reads it."""

    code: str
    creator: str
    seats: list[Any]  # (`lobby.Seat`: key, computer, level)
    game: int | None
    room: Room | None
    private: bool
    watchers: list[str]


class Days(Protocol):
    """The lobby's games over days (`days.Days`), as a rematch reads and tells them a room's pace."""

    def pace_of(self, code: str) -> float: ...
    def made(self, code: str, pace: float, *, kept: bool = False) -> None: ...


class Lobby(Protocol):
    """What a rematch asks of the lobby (`lobby.Lobby`): its save file, its players, its rooms."""

    store: Store
    content: Content
    names: dict[str, str]
    rooms: dict[str, Any]
    days: Days

    def _new_code(self, length: int = ...) -> str: ...
    def _saved(self, entry: Any) -> SavedRoom: ...
    def _forget(self, host: Host) -> None: ...
    def _host(self, entry: Any, host: Host) -> None: ...
    def _push(self) -> None: ...


class NoRematch(Exception):
    """A rematch that cannot start yet; the message says why, to the player."""


@dataclass
class Rematch:
    accepted: set[int]  # the seats of the players who accepted (never the computers': they always do)
    next: str | None = None  # the rematch's room, once started
    declined: str | None = None  # who declined last (said until someone asks again)


class Rematches:
    def __init__(self, lobby: Lobby, new_entry: Callable[[str, str, list[Any]], RoomEntry]) -> None:
        """`new_entry(code, creator, seats)`: a new room of the lobby (`lobby.RoomEntry`)."""
        self.lobby = lobby
        self.new_entry = new_entry
        self.kept = {saved.room: Rematch(set(saved.accepted), saved.next) for saved in lobby.store.rematches()}

    def standing(self, entry: RoomEntry) -> dict:
        """Where the rematch of a finished room stands: each seat's name, whether a computer plays it and
        whether it has accepted; who declined last; the rematch's room once started."""
        rematch = self.kept.get(entry.code, Rematch(set()))
        names = entry.room.names if entry.room is not None else []
        seats = [
            {"name": name, "computer": seat.computer, "accepted": seat.computer or n in rematch.accepted}
            for n, (name, seat) in enumerate(zip(names, entry.seats, strict=False))
        ]
        return {"seats": seats, "declined": rematch.declined, "started": rematch.next}

    def started(self, code: str) -> str | None:
        """The room of room `code`'s rematch, once it has started."""
        rematch = self.kept.get(code)
        return None if rematch is None else rematch.next

    def answer(self, entry: RoomEntry, seat: int | None, accept: object) -> dict:
        """A player's answer from the finished game (`accept` true or false), or (None) where it stands."""
        room = entry.room
        if room is None or not room.host.over:
            return {"refused": "A rematch is asked for once the game is over."}
        rematch = self.kept.setdefault(entry.code, Rematch(set()))
        if accept is None or rematch.next is not None:
            return {"rematch": self.standing(entry)}
        if seat is None or entry.seats[seat].computer:
            return {"refused": "Only the players may decide that."}
        name = room.names[seat]
        if accept is True:
            self._keep(entry, rematch.accepted | {seat})
            rematch.declined = None
            if not self._awaited(entry):
                refused = self._started(entry, seat)
                if refused is not None:
                    self.tell(entry)
                    return refused
            else:
                room.notice(f"{name} accepts a rematch.", but=seat)
        elif accept is False:
            self._keep(entry, set())
            rematch.declined = name
            room.notice(f"{name} declined the rematch.", but=seat)
        else:
            return {"refused": "Answer yes or no."}
        self.tell(entry)
        return {"rematch": self.standing(entry)}

    def _started(self, entry: RoomEntry, seat: int) -> dict | None:
        """`start`, or the refusal its player is told (what was accepted stays: pressing again tries again)."""
        try:
            self.start(entry)
        except NoRematch as why:
            return {"refused": str(why)}
        except StoreError as error:
            return {"refused": faults.unsaved(f"room {entry.code}, seat {seat}, its rematch", error)}
        return None

    def _awaited(self, entry: RoomEntry) -> list[int]:
        accepted = self.kept[entry.code].accepted
        return [n for n, seat in enumerate(entry.seats) if not seat.computer and n not in accepted]

    def _keep(self, entry: RoomEntry, accepted: set[int]) -> None:
        """Who accepted, saved first (StoreError: nothing changes)."""
        self.lobby.store.save_rematch(SavedRematch(entry.code, frozenset(accepted)))
        self.kept[entry.code].accepted = accepted

    def tell(self, entry: RoomEntry) -> None:
        """Every screen of the finished game, and the lobby, told where the rematch stands."""
        if entry.room is not None:
            data = frame("rematch", self.standing(entry))
            for link in entry.room.links:
                link.send(data)
        self.lobby._push()

    def left(self, entry: RoomEntry, seat: int) -> None:
        """A player left the finished game: the others are told whether the rematch waits for them."""
        rematch = self.kept.get(entry.code)
        if entry.room is None or rematch is None or rematch.next is not None or not rematch.accepted:
            return
        if seat in self._awaited(entry):
            name = entry.room.names[seat]
            entry.room.notice(f"The rematch waits for {name}, who may still answer from the lobby.")

    def start(self, entry: RoomEntry) -> None:
        """The rematch's room, started with its game and saved with the rematch in one go (StoreError: no
        rematch yet, what was accepted is kept)."""
        lobby, rematch = self.lobby, self.kept[entry.code]
        assert entry.room is not None
        if any(s.key is not None and s.key not in lobby.names for s in entry.seats):
            raise NoRematch("A player of this game has no name: they must connect again and pick one first.")
        seats = [dataclasses.replace(seat) for seat in entry.seats]
        code = lobby._new_code(PRIVATE_CODE_LENGTH) if entry.private else lobby._new_code()
        new = self.new_entry(code, entry.creator, seats)
        new.private = entry.private
        new.watchers = self._spectators(entry, seats)
        pace = lobby.days.pace_of(entry.code)
        # the players under their names now, the computers under those they had (no person may take them)
        names = [name if seat.computer else lobby.names[str(seat.key)] for name, seat in zip(entry.room.names, seats)]
        if names_problems(names):
            raise NoRematch("Two seats would have the same name: one of you must pick another name first.")
        host = Host.new(
            lobby.content,
            names,
            COLOURS[: len(names)],
            seed=random.randrange(1, 2**31),
            store=lobby.store,
            computers={n: s.level for n, s in enumerate(seats) if s.computer},
        )
        new.game = host.game
        try:
            lobby.store.save_rematch(
                SavedRematch(entry.code, frozenset(rematch.accepted), new.code),
                lobby._saved(new),
                private=new.private,
                pace=pace,
                watchers=new.watchers,
            )
        except StoreError:
            lobby._forget(host)
            raise
        rematch.next = new.code
        console.rematch_made(new.code, entry.code)
        lobby.days.made(new.code, pace, kept=True)
        lobby.rooms[new.code] = new
        lobby._host(new, host)
        entry.room.notice(f"Everyone accepted: the rematch begins in room {new.code}.")

    def _spectators(self, entry: RoomEntry, seats: list[Any]) -> list[str]:
        """The keys of the spectators still at the finished game, on its end screen or its board (not those with a
        seat, nor one who watches as many games as anyone may already): they watch the rematch."""
        assert entry.room is not None
        seated = {seat.key for seat in seats}
        keys = [link.key for link in entry.room.links if link.seat is None and not link.closed.is_set()]
        return [
            key
            for key in dict.fromkeys(keys)
            if key is not None
            and key not in seated
            and sum(1 for other in self.lobby.rooms.values() if key in other.watchers) < WATCHING_MOST
        ]

    def resume(self) -> list[str]:
        """(As the server opens its rooms again.) Every rematch all had accepted but that had not started,
        started; what could not be."""
        problems = []
        for code, rematch in self.kept.items():
            entry = self.lobby.rooms.get(code)
            if entry is None or entry.room is None or rematch.next is not None or not entry.room.host.over:
                continue
            if rematch.accepted and not self._awaited(entry):
                try:
                    self.start(entry)
                except Exception as error:  # (the players find it all accepted, and may press again)
                    problems.append(f"room {code}: its rematch could not start ({type(error).__name__}: {error})")
        return problems

    def row(self, entry: RoomEntry) -> dict | None:
        """The rematch as the lobby's row of a finished room shows it: who is awaited, or its room."""
        rematch = self.kept.get(entry.code)
        if rematch is None or entry.room is None or not (rematch.accepted or rematch.next or rematch.declined):
            return None
        return self.standing(entry)
