"""Games over days, as the lobby keeps them: `Days`, its paces, clocks, vacations and notices.

The lobby (`lagoon_tui.serve.lobby`) calls it at a few points: a room made
(its pace), every change of a room's game (the clock follows the decision,
a notice may go), a request of the lobby's (`vacation`, `notices`), and what
each player's lobby and each room's seats are told (`clock` frames).

- Clocks (`serve.clocks`): one a room with a pace; when the seat deciding
  runs out of time, the same computer the lobby uses for stand-ins plays that
  turn for them (every seat is told, in a notice and a line of the log); the
  seat stays theirs and its next turn is theirs again.
- Vacations (`serve.vacation`): the clocks of every game of a player away
  stop until they come back (early, or when the vacation ends).
- Notices (`serve.notices`): when a game turns to a player with no session
  connected, a POST to the URL they gave, at most one a game an hour.

One timer for the whole server, set from memory, wakes at the next moment
anything is due (a deadline, a vacation's end, or when a clock's words on a
screen change); the save file is written only when something changes and
read only when the server starts. Tests move the wall clock by hand and
call `check`.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from rules.host import Content, Store, StoreError, computer_player

from . import console, faults
from .clocks import LIVE, RESTART_GRACE, Clock, left_words, pace_words, paces, words_last
from .notices import URL_LONGEST, Notices
from .room import Room
from .vacation import Vacations, date_words

TIMER_LEAST = 1.0
"""Seconds the timer waits at the least (what is due within them is done when it wakes)."""
REQUESTS = ("vacation", "notices")
TIMED_OUT = "Your time for this turn ran out: a computer plays it for you. Your next turn is yours."
"""The refusal of a move of a player whose turn a computer plays out."""


class Seat(Protocol):
    """A seat of a room, as the lobby keeps it (`serve.lobby.Seat`)."""

    @property
    def key(self) -> str | None: ...
    @property
    def computer(self) -> bool: ...


class Entry(Protocol):
    """A room of the lobby (`serve.lobby.RoomEntry`): what this module reads of it, and its computers."""

    computers: dict[int, Any]  # seat -> the computer that plays it now

    @property
    def code(self) -> str: ...
    @property
    def seats(self) -> Sequence[Seat]: ...
    @property
    def game(self) -> int | None: ...
    @property
    def room(self) -> Room | None: ...
    def seat_of(self, key: str) -> int | None: ...


class Hall(Protocol):
    """The lobby (`serve.lobby.Lobby`), as this module reads it."""

    @property
    def store(self) -> Store: ...
    @property
    def content(self) -> Content: ...
    @property
    def rooms(self) -> Mapping[str, Entry]: ...
    @property
    def names(self) -> Mapping[str, str]: ...
    @property
    def sessions(self) -> Mapping[Any, str]: ...
    @property
    def closed(self) -> bool: ...
    def _push(self) -> None: ...  # (every player in the lobby is sent their lobby anew, soon)


class Days:
    def __init__(self, lobby: Hall, wall: Callable[[], float]) -> None:
        self.lobby = lobby
        self.wall = wall
        self.vacations = Vacations(lobby.store, wall)
        self.notices = Notices(lobby.store, wall)
        self.clocks: dict[str, Clock] = {}
        self.playing_out: dict[str, tuple[int, Any]] = {}  # a room -> the seat that ran out, its computer
        self._timer: asyncio.TimerHandle | None = None
        now = wall()
        for code, pace, seat, left, since in lobby.store.clocks():
            if not (isinstance(code, str) and isinstance(pace, (int, float)) and isinstance(left, (int, float))):
                continue
            clock = Clock(float(pace), seat if isinstance(seat, int) else None, float(left))
            clock.since = float(since) if isinstance(since, (int, float)) else None
            deadline = clock.deadline()
            if deadline is not None and deadline < now:  # (it ran out while the server was stopped)
                clock.since = now + RESTART_GRACE - clock.left
                try:  # (kept: a server started again within the hour gives no second one)
                    lobby.store.save_clock(code, clock.pace, clock.seat, clock.left, clock.since)
                except StoreError:
                    pass  # (this run gives the hour all the same)
            self.clocks[code] = clock

    # --- rooms ---------------------------------------------------------------------------

    def pace(self, name: object) -> float:
        """The seconds a move of the pace a request names (none: live); ValueError, in words, if no such pace."""
        offered = paces()
        if name is None:
            name = LIVE
        if not isinstance(name, str) or name not in offered:
            raise ValueError(f"A room's pace is one of: {', '.join(offered)}.")
        return offered[name]

    def made(self, code: str, pace: float, *, kept: bool = False) -> None:
        """A new room's pace, kept (StoreError: not, and the room is not made); `kept`: the save file has it
        already (a rematch's, saved with its room)."""
        if pace > 0 and not kept:
            self.lobby.store.save_clock(code, pace, None, 0.0, None)
        self.clocks[code] = Clock(pace)

    def pace_of(self, code: str) -> float:
        """Room `code`'s pace: seconds a move (0: live)."""
        clock = self.clocks.get(code)
        return clock.pace if clock is not None else 0.0

    def barred(self, code: str, seat: int) -> str | None:
        """Why `seat`'s player may not move in room `code` now: their time ran out, and a computer plays this
        turn for them (a key of theirs that comes late is refused, so the others are told truly who moved)."""
        out = self.playing_out.get(code)
        if out is not None and out[0] == seat:
            return TIMED_OUT
        return None

    def changed(self, entry: Entry, host: Any) -> None:
        """After every change of a room's game: a turn played out for a seat that ran out ends once the decision
        leaves it; a decision that comes to a seat from another starts its clock, and may send its player a
        notice."""
        seat = host.turn().seat
        out = self.playing_out.get(entry.code)
        if out is not None and out[0] != seat:
            del self.playing_out[entry.code]
            if entry.computers.get(out[0]) is out[1]:
                del entry.computers[out[0]]
        clock = self.clocks.setdefault(entry.code, Clock(0.0))
        if seat == clock.seat:
            return
        key = entry.seats[seat].key if seat is not None else None
        clock.seat, clock.left, clock.since = seat, clock.pace, None
        if key is not None and self.vacations.until(key) is None:
            clock.since = self.wall()
        if clock.pace > 0:
            self._keep(entry.code, clock)
        if key is not None and seat not in entry.computers and not self._connected(key) and clock.since is not None:
            try:
                self.notices.your_turn(key, entry.code, entry.game, self.lobby.names.get(key, "?"))
            except StoreError as error:
                faults.noted(f"player {key}, a notice", f"not sent (its time could not be saved): {error}")
        self._arm()

    def room_clock(self, entry: Entry) -> dict | None:
        """What every seat of the room is told of the deciding seat's clock (None: no clock shows)."""
        clock = self.clocks.get(entry.code)
        if clock is None or clock.pace <= 0 or entry.room is None:
            return None
        seat = entry.room.host.turn().seat
        if seat is None or seat != clock.seat or entry.seats[seat].key is None:
            return None
        until = self.vacations.until(entry.seats[seat].key)
        if entry.code in self.playing_out:
            says = "ran out of time: a computer plays this turn for them"
        elif until is not None:
            says = f"is on vacation until {date_words(until)}: their clock is stopped"
        elif seat in entry.computers:  # (a stand-in plays for them: no time counts)
            return None
        else:
            says = f"has {left_words(max(0.0, clock.left_at(self.wall())))} left"
            return {"seat": seat, "says": says, "runs": True}
        return {"seat": seat, "says": says, "runs": False}

    def describe(self, entry: Entry, described: dict) -> None:
        """A lobby row, told the room's pace and which of its players are on vacation (until when)."""
        clock = self.clocks.get(entry.code)
        described["pace"] = pace_words(clock.pace if clock is not None else 0.0)
        running = self.room_clock(entry)
        if running is not None and running.get("runs"):  # (the deciding seat's time: a lobby row of theirs says it)
            described["left"] = left_words(max(0.0, self.clocks[entry.code].left_at(self.wall())))
        for seat, told in zip(entry.seats, described["seats"], strict=False):
            until = self.vacations.until(seat.key)
            if until is not None:
                told["vacation"] = date_words(until)

    def lobby_for(self, key: str) -> dict:
        """What a player's lobby is told of their own: the paces a room may have, their vacation, their URL."""
        until = self.vacations.until(key)
        return {
            "paces": [[name, pace_words(pace)] for name, pace in paces().items()],
            "vacation": {
                "until": date_words(until) if until is not None else None,
                "days_left": self.vacations.days_left(key),
            },
            "notices": self.notices.urls.get(key, ""),
        }

    # --- a player's requests -----------------------------------------------------------------

    def answer(self, key: str, kind: str, request: dict) -> dict:
        """`vacation {"days": n}` (0: back now), `notices {"url": ...}` ("": none)."""
        try:
            if kind == "vacation":
                days = request.get("days")
                if days == 0:
                    self.vacations.back(key)
                    self._stop(key, run=True)
                    return {"vacation": None}
                until = self.vacations.go(key, days)
                self._stop(key)
                return {"vacation": date_words(until)}
            url = str(request.get("url") or "")[: URL_LONGEST + 1]
            self.notices.give(key, url)
            return {"notices": url.strip()}
        except ValueError as why:
            return {"refused": str(why)}
        except StoreError as error:
            return {"refused": faults.unsaved(f"player {key}, request {kind}", error)}

    # --- the timer -------------------------------------------------------------------------

    def check(self) -> None:
        """What is due now: vacations that ended (their clocks run again), seats that ran out of time (a
        computer plays their turn), and each room's seats told their clock's words afresh; then the timer set
        for what comes next."""
        self._timer = None
        if self.lobby.closed:
            return
        for key in self.vacations.ended():
            self._stop(key, run=True)
            self.lobby._push()  # (the others' lobbies say so no more)
        now = self.wall()
        for code, clock in list(self.clocks.items()):
            deadline = clock.deadline()
            if (
                deadline is not None
                and deadline <= now
                and code not in self.playing_out
                and not self._ran_out(code, clock)
            ):
                clock.stop(now)  # (nobody to play for, or a stand-in plays already: it waits no more)
        self._tell()
        if any(clock.deadline() is not None for clock in self.clocks.values()):
            self.lobby._push()  # (a lobby row says the time left: its words change as the seats' do)
        self._arm()

    def _arm(self) -> None:
        now = self.wall()
        due = [end for end in (self.vacations.next_end(),) if end is not None]
        for code, clock in self.clocks.items():
            deadline = clock.deadline()
            if deadline is not None and code not in self.playing_out:
                due += [deadline, now + words_last(max(0.0, deadline - now))]
        if self._timer is not None:  # (only once the next wake is known: a timer cancelled is never lost)
            self._timer.cancel()
            self._timer = None
        if due and not self.lobby.closed:
            self._timer = asyncio.get_running_loop().call_later(max(TIMER_LEAST, min(due) - now), self.check)

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.notices.close()

    # --- what it does ---------------------------------------------------------------------

    def _ran_out(self, code: str, clock: Clock) -> bool:
        """The seat deciding ran out of time: a computer plays this turn for them, and everyone is told.
        Whether it does (not: a stand-in plays for them already, say)."""
        entry = self.lobby.rooms.get(code)
        seat = clock.seat
        if entry is None or entry.room is None or seat is None or entry.room.host.turn().seat != seat:
            return False
        if seat in entry.computers:
            return False
        computer = computer_player(self.lobby.content, seat, random.randrange(2**31))
        self.playing_out[code] = (seat, computer)
        entry.computers[seat] = computer
        name = entry.room.names[seat]
        entry.room.notice(f"{name} ran out of time: a computer makes their move. The seat stays theirs.", but=seat)
        entry.room.notice_to(seat, "Your time ran out: a computer makes this move for you. Your next turn is yours.")
        console.stood_in(code, name, "for this turn: their time ran out")
        entry.room.host.aside(seat, f"{name} ran out of time: a computer played this turn for them.")
        return True

    def _theirs(self, key: str) -> list[tuple[str, Clock]]:
        """The clocks of the games where it is the player's turn."""
        found = []
        for code, clock in self.clocks.items():
            entry = self.lobby.rooms.get(code)
            if entry is not None and clock.seat is not None and entry.seats[clock.seat].key == key:
                found.append((code, clock))
        return found

    def _stop(self, key: str, *, run: bool = False) -> None:
        """The clocks of the player's games stopped (a vacation begins), or (`run`) running again (it ends)."""
        now = self.wall()
        for code, clock in self._theirs(key):
            if run:
                clock.run(now)
            else:
                clock.stop(now)
            self._keep(code, clock)
        self._tell()
        self._arm()

    def _keep(self, code: str, clock: Clock) -> None:
        """The clock saved (if the file refuses, it runs on from memory, and the console says so)."""
        if clock.pace <= 0:
            return
        try:
            self.lobby.store.save_clock(code, clock.pace, clock.seat, clock.left, clock.since)
        except StoreError as error:
            faults.noted(f"room {code}, its clock", f"not saved: {error}")

    def _tell(self) -> None:
        for entry in self.lobby.rooms.values():
            if entry.room is not None:
                entry.room.tell_clock()

    def _connected(self, key: str) -> bool:
        """Whether a session of the player's is connected: in the lobby, or showing a seat of theirs."""
        if key in self.lobby.sessions.values():
            return True
        for entry in self.lobby.rooms.values():
            seat = entry.seat_of(key)
            if entry.room is not None and seat is not None and entry.room.seated(seat):
                return True
        return False
