"""The server's side of every session: players, rooms, and the lobby they meet in (`Lobby`).

A player is the SSH key they connect with (its SHA256 fingerprint); the
first time, they pick a display name, kept for that key. A room is a game
being set up: two to four seats, each open, taken by a player, or a computer
player; a short code (`ssh -t -p 2222 host join CODE`) lets others find it.
It starts when every seat is filled and its creator starts it; from then on
it is a `Room` holding the game's `Host`, saved move by move in the store.
Players, rooms and their seats are kept in the save file beside the games
(the store's tables: `Store.players`, `Store.rooms`), so a restarted server
opens every room where it was.

A session (one SSH connection, one app process at the other end of a
`Link`) speaks frames (`lagoon_tui.wire`):

- the server sends `hello` (the player's name, or null: they must pick one;
  `resume`, a room to go straight back to: `serve.turns`), then `lobby` (their
  games and the open rooms) whenever either changes, and `turn` when one of
  their games turns to them while the session shows something else;
- the session asks: `name`, `create` (seats, seed), `join`, `start`,
  `enter` (a room's game: from then on the link is the room's, seat or
  spectator, until the session asks to `leave`); each is answered (`answer`),
  a refusal in words a player can act on. A seat taken in a room not started
  yet is answered `waiting`: the session waits for the lobby to list the
  room's game under way, and enters it then.

What the lobby keeps (a name, a room, a seat taken, a game started) it keeps
only once the save file has it: if the file refuses (a full disk, a file
made read-only), the request is refused with a sentence and nothing changes.
A bug met by a request, or by a computer's move, is reported on the server's
console with where it happened (`faults`); the session goes on, and a room
whose computer failed is closed with a sentence to its players (entered
again, the computer tries again).

Nothing in a lobby frame is secret: names, codes, whose turn it is.

A player who leaves a game under way is waited for. Once they have been
away `stand_in_after` seconds (`lagoon serve --stand-in-after`; STAND_IN_AFTER
unless told), the others may agree (each asks, in the game: `stand_in`) to
let a computer play their seat until they come back; coming
back takes the seat back at once. Every seat is told while it does (the
room's `standing_in`), and every log says when it began and when they came
back (`Host.aside`).

A finished game's end (issue 35, point 5) is `rematch.py`'s (a rematch, asked for in the game:
`rematch`) and `records.py`'s (each player's record, listed with their name; `finished`: their
finished games; `log`: a finished game's whole log, for its replay and score sheet).
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from rules.host import (
    END_TURN,
    LEVELS,
    Content,
    Host,
    NotMade,
    Rejection,
    SavedRoom,
    SavedSeat,
    Store,
    StoreError,
    computer_player,
    name_key,
    names_problems,
    normal_name,
)
from rules.seat import SeatScene

from ..settings import COLOURS, computer_names
from ..wire import WireError, body, frame, parse
from . import console, faults
from .budget import Budget
from .days import REQUESTS as DAYS_REQUESTS
from .days import Days
from .gathering import PRIVATE_CODE_LENGTH, TOLD_MOST, Gathering, Refused
from .names import InUse, refusal
from .player_settings import PlayerSettings
from .records import Records, log_answer
from .rematch import Rematches
from .room import Room
from .turns import Turns, turn_told
from .vacation import date_words

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # (no 0/O or 1/I to misread)
CODE_LENGTH = 6
COMPUTER_PACE = 0.5
"""Seconds between a computer player's decisions, so that people can follow them."""
COMPUTER_RETRY = 10.0
"""Seconds before a computer's move that the save file refused is tried again."""
COMPUTER_FAILED = (
    "The server stopped this game: a computer player failed on a bug there. Every move is saved: "
    "connect again and enter the game to go on."
)
ROOMS_WAITING_MOST = 8
"""Rooms one player may have made and not started (so nobody can fill the save file with rooms)."""
STAND_IN_AFTER = 60.0
"""Seconds a player must have been away before the others may let a computer play for them (by default)."""
WRONG_CODES = (5, 60.0)
"""Wrong room codes one key may give (5), then one more each 12 s: a minute's worth (see `Lobby._guess`)."""
TOO_MANY_WRONG = "Too many wrong codes: try again in a minute."
ORDER = {"playing": 0, "waiting": 1, "over": 2}
"""How a player's own games are listed, after those where it is their turn: under way, to start, finished."""


def room_code(request: dict[str, Any]) -> str:
    """The room a request names, as codes are written (capitals): "abc234" is room ABC234."""
    return str(request.get("code", "")).strip().upper()


class Computer(Protocol):
    """A computer player, as `Host.computer` and `computer_player` make it."""

    def choose(self, message: SeatScene) -> str: ...


@dataclass
class Seat:
    """One seat of a room: a player's key, a computer player (at a level), or open (neither)."""

    key: str | None = None
    computer: bool = False
    level: str = "normal"  # a computer's (`rules.host.LEVELS`)

    @property
    def open(self) -> bool:
        return self.key is None and not self.computer


@dataclass(eq=False)
class RoomEntry:
    code: str
    creator: str
    seats: list[Seat]
    seed: int | None = None
    game: int | None = None  # the saved game, once started
    room: Room | None = None
    computers: dict[int, Computer] = field(default_factory=dict)  # seat -> its computer player, stand-ins among them
    thinking: int | None = None  # the change of the game at which a computer is deciding
    stalled: bool = False  # the save file refused the computer's last move (its players were told)
    away_since: dict[int, float] = field(default_factory=dict)  # a person's seat -> when its player left
    agreed: dict[int, set[int]] = field(default_factory=dict)  # an absent seat -> who agreed to a stand-in
    private: bool = False  # listed only to those in it; others come in by its code (`gathering`)
    watchers: list[str] = field(default_factory=list)  # the keys of its spectators, in the order they came

    def seat_of(self, key: str) -> int | None:
        return next((n for n, seat in enumerate(self.seats) if seat.key == key), None)


class Lobby(Gathering):
    def __init__(
        self,
        store: Store,
        content: Content,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,  # (the clocks of games over days, vacations, notices: `days`)
        stand_in_after: float = STAND_IN_AFTER,
    ) -> None:
        self.store = store
        self.stand_in_after = stand_in_after  # (seconds away before a stand-in may be asked for: 0, at once)
        self.content = content
        self.clock = clock  # (for how long a player has been away; tests pass their own)
        self.names: dict[str, str] = store.players()
        self.rooms: dict[str, RoomEntry] = {}
        self.damaged: list[SavedRoom] = []  # rooms whose rows cannot be read: never opened, never written
        self.sessions: dict[asyncio.StreamWriter, str] = {}  # a session in the lobby (its writer) -> its key
        self._push_due = False
        self.closed = False  # the server is stopping: no computer moves any more
        self.wrong_codes = Budget(*WRONG_CODES, clock=clock)  # by key
        self.records = Records()  # each player's finished games (filled as the rooms open)
        self.rematches = Rematches(self, RoomEntry)
        self.turns = Turns(store=store)  # whose turn it is in each game, and where each session is (`serve.turns`)
        self.settings = PlayerSettings(store)  # each player's own (End turn or not: `serve.player_settings`)
        for saved in store.rooms():
            if saved.damage:
                self.damaged.append(saved)
                continue
            seats = [Seat(s.key, s.computer, s.level if s.level in LEVELS else "normal") for s in saved.seats]
            self.rooms[saved.code] = RoomEntry(saved.code, saved.creator, seats, saved.seed, saved.game)
        self.days = Days(self, wall)
        self.gather_kept(Budget(*TOLD_MOST, clock=clock))

    async def open_rooms(self) -> list[str]:
        """Every started game opened again where it was (on the running loop); what could not be."""
        problems = [
            f"room {r.code} in {self.store.path} is damaged: {r.damage}. It was left as it is." for r in self.damaged
        ]
        for entry in self.rooms.values():
            if entry.game is None:
                continue
            try:
                host = Host.resume(self.store, entry.game, self.content, take_over=True)
                self.turns.opened(entry.code, self.store.info(entry.game).updated)
            except StoreError as error:
                problems.append(f"room {entry.code}: {error}")
                continue
            self._host(entry, host, reopened=True)
        self.days.check()
        return problems + self.rematches.resume()

    # --- a session ----------------------------------------------------------------------

    async def serve(self, key: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One session of the player with `key`, from hello to its end."""
        resume = self._waits_for(key, self.turns.came(writer, key))
        writer.write(frame("hello", {"name": self.names.get(key)} | ({"resume": resume} if resume else {})))
        self.sessions[writer] = key
        self._send_lobby(writer, key)
        try:
            while True:
                line = await reader.readline()
                if not line:
                    break
                kind, text = parse(line)
                request = body(text)
                if not isinstance(request, dict):
                    raise WireError(f"a request that is not an object: {kind[:20]}")
                answer = self._answered(key, kind, request)
                writer.write(frame("answer", answer))
                if kind == "enter" and "seat" in answer:
                    del self.sessions[writer]
                    entry = self.rooms[room_code(request)]
                    assert entry.room is not None  # (a room not started yet cannot be entered)
                    self._changed(entry, entry.room.host)  # (a computer that failed here tries again)
                    self.turns.entered(writer, entry.code)
                    await entry.room.attach(answer["seat"], reader, writer, name=self.names.get(key), key=key)
                    self.turns.returned(writer, entry.room, answer["seat"])
                    if writer.is_closing():
                        return
                    self.sessions[writer] = key
                    self._send_lobby(writer, key)
                self._push()
        except (WireError, ConnectionError, ValueError):  # (ValueError: a line past the reader's limit)
            pass  # (a broken or hostile client: its session ends, nothing else)
        except Exception as error:  # a bug outside a request (in a room's link, say): this session ends on it
            faults.bug(f"the session of {key}", error)
        finally:
            self.sessions.pop(writer, None)
            self.turns.ended(writer)
            writer.close()

    def _answered(self, key: str, kind: str, request: dict[str, Any]) -> dict[str, Any]:
        """The answer to a request: `_answer`'s, or a refusal in words (see `faults`); a request the lobby
        does not take (WireError) ends the session."""
        try:
            return self._answer(key, kind, request)
        except Refused as why:
            return {"refused": str(why)}
        except WireError:
            raise
        except StoreError as error:
            return {"refused": faults.unsaved(self._where(key, kind, request), error)}
        except Exception as error:
            return {"refused": faults.bug(self._where(key, kind, request), error)}

    def _where(self, key: str, kind: str, request: dict[str, Any]) -> str:
        """A request, for a line of the console: whose, which, and the room it names if there is one."""
        code = room_code(request)
        return f"player {key}, request {kind[:20]}" + (f", room {code}" if code in self.rooms else "")

    def _answer(self, key: str, kind: str, request: dict[str, Any]) -> dict[str, Any]:
        if kind == "name":
            return self._name(key, request.get("name"))
        if key not in self.names:
            raise Refused("Pick a name first.")
        if kind == "rename":
            return self._rename(key, request.get("name"))
        if kind == "create":
            return self._create(
                key, request.get("seats"), request.get("seed"), request.get("pace"), request.get("private") is True
            )
        if kind in DAYS_REQUESTS:
            return self.days.answer(key, kind, request)
        if kind == "finished":
            return {"games": self.records.games_of(key)}
        code = room_code(request)
        entry = self._guess(key, self.rooms.get(code))
        if entry is None:
            if len(code) > PRIVATE_CODE_LENGTH:  # (not quoted: what a field or a client sent may be long)
                raise Refused(
                    f"No room has a code that long: a code has {CODE_LENGTH} letters, a private room's "
                    f"{PRIVATE_CODE_LENGTH}. Check the code."
                )
            raise Refused(f"There is no room {code!r}: check the code.")
        if kind == "join":
            return self._join(key, entry)
        if kind == "start":
            return self._start(key, entry)
        if kind == "enter":
            if entry.room is None:
                raise Refused("This room's game has not started yet.")
            seat = entry.seat_of(key)
            if seat is None:
                self.keep_watching(key, entry)  # (found again in their lobby after reconnecting)
            return {"seat": seat}  # (None: a spectator)
        if kind == "watch":
            return self.watch(key, entry)
        if kind == "leave_room":
            return self.leave_room(key, entry)
        if kind == "may_cancel":
            return self.may_cancel(key, entry)
        if kind == "cancel":
            return self.cancel(key, entry)
        if kind == "log" and entry.room is not None:
            return log_answer(entry.room.host)
        raise WireError(f"a request the lobby does not take: {kind}")

    def _guess(self, key: str, entry: RoomEntry | None) -> RoomEntry | None:
        """The room a code names, unless the player has given too many wrong codes: then every code is refused
        but those of their own rooms, so that guessing tells nothing. A wrong one spends a try."""
        if self.known_to(entry, key):
            return entry
        if self.wrong_codes.spent(key):
            raise Refused(TOO_MANY_WRONG)
        if entry is None:
            self.wrong_codes.allow(key)
            if self.wrong_codes.spent(key):
                console.codes_limited(self.names.get(key), key)
        return entry

    def _name(self, key: str, name: object) -> dict[str, Any]:
        """The player's name, unless it looks like one in use at this server (`serve.names`)."""
        name = normal_name(str(name or ""))
        problem = refusal(name, self._in_use(key))
        if problem is not None:
            raise Refused(problem)
        self.store.name_player(key, name)  # (kept only once saved: StoreError, and the name is not taken)
        console.named(name, key, self.names.get(key))
        self.names[key] = name
        return {"name": name}

    def _rename(self, key: str, name: object) -> dict[str, Any]:
        """A new name for a player, held to the same rule; the lobby shows it at once, rooms not started and
        games started from now on too. Games already begun keep the name they began with (their log, their
        record and every seat's screen have it)."""
        if normal_name(str(name or "")) == self.names[key]:
            raise Refused("That is your name already.")
        return self._name(key, name)

    def _in_use(self, key: str | None) -> Iterator[InUse]:
        """Every name at this server that is not the player with `key`'s: the other players' names, and those
        the seats of the games begun here carry (the computers' among them)."""
        yield from (InUse(name) for other, name in self.names.items() if other != key)
        for entry in self.rooms.values():
            if entry.room is not None:
                for seat, name in zip(entry.seats, entry.room.names, strict=False):
                    if seat.computer or seat.key != key:
                        yield InUse(name, seat.computer)

    def _create(
        self, key: str, seats: object, seed: object, pace_name: object = None, private: bool = False
    ) -> dict[str, Any]:
        if not isinstance(seats, list) or not all(s in ("person", "computer", *LEVELS) for s in seats):
            raise Refused(f"Each seat is a person or a computer ({', '.join(LEVELS)}).")
        board = self.content.board
        if not board.players_min <= len(seats) <= board.players_max:
            raise Refused(f"A game has {board.players_min} to {board.players_max} seats.")
        if seed is not None and not (isinstance(seed, int) and 0 <= seed < 2**63):
            raise Refused("The seed must be a whole number, or left out for a random game.")
        waiting = sum(1 for e in self.rooms.values() if e.creator == key and e.room is None)
        if waiting >= ROOMS_WAITING_MOST:
            raise Refused(f"You have {waiting} rooms waiting to start already: start one, or let it be.")
        try:
            pace = self.days.pace(pace_name)
        except ValueError as why:
            raise Refused(str(why)) from None
        code = self._new_code(PRIVATE_CODE_LENGTH if private else CODE_LENGTH)
        self.days.made(code, pace)
        entry = RoomEntry(
            code,
            key,
            [
                Seat() if kind == "person" else Seat(computer=True, level=kind if kind in LEVELS else "normal")
                for kind in seats
            ],
            seed,
            private=private,
        )
        entry.seats[0] = Seat(key=key)  # (the creator sits first)
        self.save_new_room(entry)
        self.rooms[code] = entry
        console.room_made(code, self.names.get(key), key, seats)
        return {"code": code}

    def _join(self, key: str, entry: RoomEntry) -> dict:
        seat = entry.seat_of(key)
        if seat is not None:
            return {"seat": seat, "waiting": entry.room is None}
        if entry.room is not None:
            return {"seat": None}  # (a game under way: anyone else may watch it)
        free = next((n for n, s in enumerate(entry.seats) if s.open), None)
        if free is None:
            return self.watch(key, entry)  # (a full room: its game is watched once it starts)
        if any(
            s.key is not None and name_key(self.names.get(s.key, "")) == name_key(self.names[key]) for s in entry.seats
        ):
            raise Refused(f"Someone in this room is already called {self.names[key]}; pick another name.")
        seats = [*entry.seats]
        seats[free] = Seat(key=key)
        self._save(entry, seats)
        entry.seats = seats
        self.joined(key, entry, free)
        return {"seat": free, "waiting": True}

    def _start(self, key: str, entry: RoomEntry) -> dict:
        if entry.room is not None:
            return {"started": True}
        if key != entry.creator:
            raise Refused("Only the player who made this room can start it.")
        if any(s.open for s in entry.seats):
            raise Refused("Every seat must be taken (or given to a computer) first.")
        if any(s.key is not None and s.key not in self.names for s in entry.seats):  # (their saved name was damaged)
            raise Refused("A player in this room has no name: they must connect again and pick one first.")
        names = self._seat_names(entry)
        if names_problems(names):  # (two players who chose the same name)
            raise Refused("Two seats would have the same name: one of you must pick another name first.")
        host = Host.new(
            self.content,
            names,
            COLOURS[: len(names)],
            seed=entry.seed,
            store=self.store,
            computers={n: s.level for n, s in enumerate(entry.seats) if s.computer},
        )
        try:
            self._save(entry, game=host.game)
        except StoreError:
            self._forget(host)
            raise
        entry.game = host.game
        self._host(entry, host)
        return {"started": True}

    # --- rooms ----------------------------------------------------------------------------

    def _seat_names(self, entry: RoomEntry) -> list[str]:
        """The players' names, and the computers' names no person at this server has (as in `lagoon play`: the
        prompt then reads "Waiting for Cleo [G], the computer (Hard)"; `serve.names`)."""
        people = [used.name for used in self._in_use(None) if not used.computer]
        free = iter(computer_names(people, sum(1 for seat in entry.seats if seat.key is None)))
        return [next(free) if seat.key is None else self.names[seat.key] for seat in entry.seats]

    def _host(self, entry: RoomEntry, host: Host, reopened: bool = False) -> None:
        people = tuple(n for n, s in enumerate(entry.seats) if not s.computer)
        host.players_elsewhere = True  # (what the save file refuses is told them without its path)
        room = entry.room = Room(host, people, reopened=reopened)
        room.called = f"room {entry.code}"
        console.watch(entry.code, host, room.names, reopened)
        entry.computers = {n: host.computer(n) for n, s in enumerate(entry.seats) if s.computer}
        room.on_presence = lambda seat, back: self._presence(entry, room, seat, back)
        room.stand_in = lambda asker, seat: self._stand_in(entry, room, asker, seat)
        room.thinking = lambda: self._thinking(entry, host)
        room.clock = lambda: self.days.room_clock(entry)
        room.paced = self.days.pace_of(entry.code) > 0
        room.rematch = lambda seat, accept: self.rematches.answer(entry, seat, accept)
        room.rematch_room = lambda: self.rematches.started(entry.code)
        self.settings.opened(room, [s.key for s in entry.seats])
        room.on_hold = lambda seat, on: self._hold_turns(entry.seats[seat].key, on)
        room.barred = lambda seat: self.days.barred(entry.code, seat)
        room.at_server = lambda link: self.turns.at_server(link.key, link.writer)
        for seat in room.away:
            entry.away_since[seat] = self.clock()
        host.on_change(lambda: self._changed(entry, host))
        self._changed(entry, host)

    def _presence(self, entry: RoomEntry, room: Room, seat: int, back: bool) -> None:
        entry.agreed.pop(seat, None)
        if not back:
            entry.away_since[seat] = self.clock()
            self.rematches.left(entry, seat)
            return
        entry.away_since.pop(seat, None)
        if seat in entry.computers and not entry.seats[seat].computer:  # a stand-in: the player takes over
            del entry.computers[seat]
            room.standing_in.discard(seat)  # (the room tells every link who is away next)
            room.notice(f"{room.names[seat]} plays their own seat again.", but=seat)
            room.notice_to(seat, "You play your own seat again: the log says what the computer did for you.")
            room.host.aside(seat, f"{room.names[seat]} is back and plays their own seat again.", stand_in=False)

    def _hold_turns(self, key: str | None, on: bool) -> dict:
        """A player's turns wait for End turn, or no more, in every game of theirs (`serve.player_settings`)."""
        if key is None:
            return {"refused": "Only the players' own turns wait for End turn."}
        seats = [(e.room, n) for e in self.rooms.values() if e.room is not None and (n := e.seat_of(key)) is not None]
        try:
            return self.settings.hold_turns(key, on, seats)
        except StoreError as error:
            return {"refused": faults.unsaved(f"player {key}, request hold_turns", error)}

    def _stand_in(self, entry: RoomEntry, room: Room, asker: int, seat: int) -> dict:
        """A player asks that a computer play for `seat`, whose player left; done once every other player
        who is there has asked."""
        if seat not in room.away or entry.seats[seat].computer:
            return {"refused": "That player is here (or is a computer already)."}
        if seat in entry.computers:
            return {"standing_in": True}
        if (until := self.days.vacations.until(entry.seats[seat].key)) is not None:
            return {
                "refused": f"{room.names[seat]} is on vacation until {date_words(until)}: their clock is stopped "
                "and the game waits for them, so no computer plays for them meanwhile."
            }
        waited = self.clock() - entry.away_since.get(seat, self.clock())
        if waited < self.stand_in_after:
            left = int(self.stand_in_after - waited) + 1
            return {"refused": f"{room.names[seat]} left only a moment ago: you may ask in {left} s."}
        agreed = entry.agreed.setdefault(seat, set())
        agreed.add(asker)
        present = {n for n in room.people if n not in room.away}
        if not present <= agreed:
            waiting = ", ".join(room.names[n] for n in sorted(present - agreed))
            room.notice(f"{room.names[asker]} asks that a computer play for {room.names[seat]}; waiting for {waiting}.")
            return {"agreed": sorted(agreed), "waiting": sorted(present - agreed)}
        entry.computers[seat] = computer_player(self.content, seat, random.randrange(2**31))
        room.standing_in.add(seat)
        room.tell_presence()
        room.notice(f"A computer plays for {room.names[seat]} until they come back.")
        console.stood_in(entry.code, room.names[seat], "until they come back")
        room.host.aside(seat, f"{room.names[seat]} left: a computer plays for them from here.", stand_in=True)
        key = entry.seats[seat].key
        if key is not None:  # (a player still at the server, in the lobby or another game: told, as of a turn)
            told = turn_told(self._describe(entry, seat), seat, entry.creator == key)
            self.turns.tell(key, entry.code, told | {"stood_in": True})
        self._push()  # (their lobby row says so)
        return {"standing_in": True}

    def _changed(self, entry: RoomEntry, host: Host) -> None:
        """After every change of a room's game: a computer's turn is played soon; the lobby is told."""
        self.days.changed(entry, host)  # (a seat that ran out of time: the computer that plays its turn)
        if host.turn().seat in entry.computers and entry.thinking != host.changes:
            entry.thinking = host.changes
            asyncio.get_running_loop().create_task(self._computer_moves(entry, host, host.changes))
        if host.over and entry.code not in self.records.finished:
            self._ended(entry, host)
        self.game_changed(entry)
        seat = host.turn().seat
        key = entry.seats[seat].key if seat is not None else None
        before = self.turns.decider(entry.code)
        came = self.turns.changed(entry.code, seat, host.changes)
        if came and seat is not None and key is not None and seat not in entry.computers:  # (not a stand-in's turn)
            self.turns.tell(key, entry.code, turn_told(self._describe(entry, seat), seat, entry.creator == key))
        if (
            before is not None
            and before != seat
            and entry.room is not None
            and before not in entry.room.standing_in  # (told already that a computer plays for them)
            and (gone := entry.seats[before].key)
        ):
            # (their turn is over: their other terminals no longer say it waits for them)
            self.turns.tell(gone, entry.code, {"code": entry.code, "gone": True})
        self._push()

    def _ended(self, entry: RoomEntry, host: Host) -> None:
        """A room's game is over: its places go into its players' records."""
        try:
            ended = self.store.info(host.game).updated if host.game is not None else ""
        except StoreError:
            ended = ""
        self.records.ended(entry.code, tuple(s.key for s in entry.seats), host, ended)

    def _waits_for(self, key: str, code: str | None) -> str | None:
        """`code` if that room's game waits for the player with `key` now."""
        entry = self.rooms.get(code or "")
        if entry is None or entry.room is None or entry.seat_of(key) is None:
            return None
        return code if entry.room.host.turn().seat == entry.seat_of(key) else None

    def _thinking(self, entry: RoomEntry, host: Host) -> bool:
        """Whether a computer is deciding the room's current decision (searching, or waiting for its pace)."""
        return not self.closed and entry.thinking == host.changes and host.turn().seat in entry.computers

    async def _computer_moves(self, entry: RoomEntry, host: Host, at: int) -> None:
        """The computer whose turn it is decides in a thread (a search must not hold up the server's
        other rooms and sessions); its move is made once it has been COMPUTER_PACE seconds on its way,
        unless something else happened meanwhile (its player came back, say).

        Asked for at change `at` of the game, it plays only if the game is still there when it runs: the
        change may have been followed at once by another (a pass made for a seat that could do nothing
        else) that gave the turn to a person, and asks again itself if it gave it to a computer."""
        seat: int | None = None
        try:
            seat = host.turn().seat
            if seat is None or seat not in entry.computers or host.changes != at or self.closed:
                return
            player = entry.computers[seat]
            if entry.seats[seat].computer:
                host.computer(seat)  # (the host's player, briefed on what was done since it last decided)
            loop = asyncio.get_running_loop()
            started = loop.time()
            if host.held is not None:  # (its player's turn left waiting for End turn: the computer ends it)
                choice = END_TURN
            else:
                choice = await loop.run_in_executor(None, player.choose, host.scene(seat))
            await asyncio.sleep(max(0.0, COMPUTER_PACE - (loop.time() - started)))
            if host.changes != at or entry.computers.get(seat) is not player or self.closed:
                return  # (something else happened first: the change it brought will ask again)
            made = host.choose(choice, hold=False)  # (a computer standing in for a person is never held)
            if isinstance(made, Rejection):  # (the rules refused what it chose: as much a bug as an exception)
                raise ValueError(f"the computer chose {choice!r}, which was refused: {made.reason}")
        except Exception as error:
            faults.bug(f"room {entry.code}, seat {seat}, a computer's move", error)
            entry.thinking = None  # (asked again when a player enters the game again)
            if entry.room is not None:
                entry.room.close(COMPUTER_FAILED)
            return
        if isinstance(made, NotMade):  # the save file refused it: tried again in a while
            self._computer_stalled(entry, host, seat, made)
        elif entry.stalled:
            entry.stalled = False
            if entry.room is not None:
                entry.room.notice(f"{entry.room.names[seat]}'s move is saved: the game goes on.")

    def _computer_stalled(self, entry: RoomEntry, host: Host, seat: int, made: NotMade) -> None:
        """A computer's move that was not made (the save file refused it): the players told once, and the
        console; tried again COMPUTER_RETRY seconds later."""
        if not entry.stalled and entry.room is not None:
            entry.stalled = True
            faults.noted(f"room {entry.code}, seat {seat}, a computer's move", made.reason)
            entry.room.notice(
                f"{entry.room.names[seat]}'s move could not be made: the server could not save it. "
                f"The computer tries again every {COMPUTER_RETRY:g} s."
            )
        entry.thinking = None
        asyncio.get_running_loop().call_later(COMPUTER_RETRY, self._changed, entry, host)

    def _new_code(self, length: int = CODE_LENGTH) -> str:
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(length))
            if code not in self.rooms and all(r.code != code for r in self.damaged):
                return code

    def _save(self, entry: RoomEntry, seats: list[Seat] | None = None, game: int | None = None) -> None:
        """Keep the room in the save file, as it is or with `seats` or `game` (StoreError if the file refuses:
        its caller then changes nothing)."""
        self.store.save_room(self._saved(entry, seats, game))

    @staticmethod
    def _saved(entry: RoomEntry, seats: list[Seat] | None = None, game: int | None = None) -> SavedRoom:
        """The room as the save file keeps it (as it is, or with `seats` or `game`)."""
        kept = tuple(SavedSeat(s.key, s.computer, s.level) for s in (entry.seats if seats is None else seats))
        return SavedRoom(entry.code, entry.creator, kept, entry.seed, entry.game if game is None else game)

    def _forget(self, host: Host) -> None:
        """A game started for a room the save file then would not keep: taken out of the file, if it lets us
        (a full disk may not: then it is left there, in no room, and nobody plays it)."""
        if host.game is not None:
            try:
                self.store.delete(host.game)
            except StoreError:
                pass

    # --- the lobby as each player sees it ---------------------------------------------------

    def lobby_for(self, key: str) -> dict:
        mine, open_ = [], []
        for entry in self.rooms.values():
            seat = entry.seat_of(key)
            if self.listed_to(entry, key):
                mine.append(self._describe(entry, seat) | self.gathered(entry, key))
                if mine[-1].get("your_turn"):
                    mine[-1]["waited"] = self.turns.waited(entry.code)
            elif self.open_to(entry, key):
                open_.append(self._describe(entry, None) | self.gathered(entry, key))
        # (the games that wait for the player first, the longest waiting first; stable: oldest first)
        mine.sort(key=lambda room: (not room.get("your_turn"), -room.get("waited", 0), ORDER[room["status"]]))
        open_.sort(key=lambda room: room["status"] != "waiting")  # (rooms that want players first, then games)
        return {
            "mine": mine,
            "open": open_,
            "levels": list(LEVELS),
            "record": self.records.words(key),
            **self.days.lobby_for(key),
        }

    def _describe(self, entry: RoomEntry, seat: int | None) -> dict:
        # (a game begun: its seats' names as its board has them, the computers' among them)
        begun = entry.room.names if entry.room is not None else None
        seats = [
            {
                "name": begun[n] if begun else "Computer" if s.computer else self.names.get(s.key) if s.key else None,
                "computer": s.computer,
            }
            | ({"level": s.level} if s.computer else {})
            | ({"record": self.records.words(s.key)} if s.key is not None else {})
            for n, s in enumerate(entry.seats)
        ]
        described: dict[str, object] = {
            "code": entry.code,
            "seats": seats,
            "creator": self.names.get(entry.creator, "?"),
        }
        self.days.describe(entry, described)
        if entry.room is None:
            described["status"] = "waiting"
        else:
            host = entry.room.host
            turn = host.turn()
            described["status"] = "over" if turn.seat is None else "playing"
            described["says"] = turn.says
            described["your_turn"] = seat is not None and turn.seat == seat
            if seat is not None and seat in entry.computers and not entry.seats[seat].computer:
                described["stood_in"] = True  # (a computer plays for the player, who left the game)
            if turn.seat is None and (rematch := self.rematches.row(entry)) is not None:
                described["rematch"] = rematch
        return described

    def _send_lobby(self, writer: asyncio.StreamWriter, key: str) -> None:
        writer.write(frame("lobby", self.lobby_for(key)))

    def _push(self) -> None:
        if not self._push_due:
            self._push_due = True
            asyncio.get_running_loop().call_soon(self._push_now)

    def _push_now(self) -> None:
        self._push_due = False
        for writer, key in list(self.sessions.items()):
            if not writer.is_closing():
                try:
                    self._send_lobby(writer, key)
                except Exception as error:  # (a bug in one player's lobby: the others still get theirs)
                    faults.bug(f"player {key}, their lobby", error)

    def close(self, reason: str) -> None:
        self.closed = True
        self.days.close()
        for writer in list(self.sessions):
            writer.write(frame("bye", {"reason": reason}))
            writer.close()
        for entry in self.rooms.values():
            if entry.room is not None:
                entry.room.host.stop_computers()  # (the server's stop waits for no search)
                entry.room.close(reason)
