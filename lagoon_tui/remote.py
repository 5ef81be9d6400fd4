"""A seat whose game is hosted in another process: `RemoteHost`, the host as the game screen sees it.

The game screen asks its host for messages and hands it choices; a
`rules.host.Host` answers from the engine in this process, a `RemoteHost`
from the frames a `lagoon_tui.serve.room.Room` sends over a `Link`. It holds
only what its seat is sent: the game's content, its seat's latest message,
and that seat's log put together from the lines each message brings, and
who is away (`away`: players whose seat no terminal shows; `stood_in`: those
of them a computer plays for meanwhile). The server plays
the computers: it tells which seats they play at which level (`levels`) and
whether the deciding one is thinking (`thinking`), just before the message
that goes with it, and in a game with a pace the deciding seat's clock
(`pace`: the seat and "has 21 h left"); none is played here (`computers` is empty). It is ready
(`ready`) once the content and a first message have come, and answers the
screen (`lagoon_tui.seat_host.SeatHost`) only then.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from rules.host import NotMade, NoUndo, Rejection, UndoPoint
from rules.seat import Content, Line, SeatScene, Turn, catalogue_from_json, from_json

from .link import Link
from .seat_host import ComputerPlayer, SeatHost
from .wire import body


class Made:
    """The server took the choice (what came of it arrives as the next message)."""

    def __bool__(self) -> bool:
        return True


class RemoteHost:
    def __init__(self, link: Link) -> None:
        self.link = link
        self._content: Content | None = None
        self.message: SeatScene | None = None  # the latest, with the whole of its log
        self.changes = 0
        self.away: frozenset[int] = frozenset()
        self.stood_in: frozenset[int] = frozenset()  # players away for whom a computer of the server plays
        self.elsewhere: frozenset[int] = frozenset()  # players elsewhere at the server (another game or session)
        self.levels: dict[int, str] = {}  # the seats the server's computers play, by level
        self.thinking = False  # the deciding seat's computer is deciding now
        self.pace: tuple[int, str] | None = None  # a game with a pace: the deciding seat and its clock's words
        self.clock_runs = False  # and whether that clock runs now (not: its player is on vacation, say)
        self.holding: bool | None = None  # the seat's turns wait for End turn, as the server says (None: not told)
        self.watchers: tuple[str, ...] = ()  # the names of the spectators watching now, as the server says
        self._lines: tuple[Line, ...] = ()
        self._listeners: list[Callable[[], None]] = []

    def receive(self, kind: str, text: str) -> None:
        """(On the app's loop.) A frame of the game: its content, a message, or the link's end."""
        if kind == "content":
            self._content = catalogue_from_json(text)
        elif kind == "scene":
            message = from_json(text)
            lines = self._lines[: message.log_from] + message.log
            self._lines = lines
            self.message = replace(message, log_from=0, log=lines)
            self.changes += 1
            self._tell()
        elif kind == "presence":
            told = _fields(text)
            self.away = frozenset(told["away"])
            self.stood_in = frozenset(told.get("stood_in", ()))
            self.elsewhere = frozenset(told.get("elsewhere", ()))
            if self.message is not None:
                self.changes += 1  # (the screen is drawn again: who is away shows)
                self._tell()
        elif kind == "clock":  # (a game with a pace: "has 21 h left", and again whenever that changes)
            clock = body(text)
            self.pace = (int(clock["seat"]), str(clock["says"])) if isinstance(clock, dict) else None
            self.clock_runs = isinstance(clock, dict) and clock.get("runs") is True
            if self.message is not None:
                self.changes += 1
                self._tell()
        elif kind == "computers":  # (shown with the message that comes next)
            told = _fields(text)
            self.levels = {int(seat): str(level) for seat, level in told["levels"].items()}
            self.thinking = told["thinking"] is True
        elif kind == "watchers":
            self.watchers = tuple(str(name) for name in _fields(text)["names"])
            if self.message is not None:
                self.changes += 1  # (the screen is drawn again: who watches shows)
                self._tell()
        elif kind == "holding":  # (whether this seat's turns wait for End turn: told as the link opens)
            self.holding = _fields(text)["on"] is True
        elif kind == "bye":
            self._tell()  # (the screen finds the link lost when it next asks)

    @property
    def ready(self) -> bool:
        return self._content is not None and self.message is not None

    # --- what the game screen asks, as of a local host (once ready) ----------------------

    @property
    def content(self) -> Content:
        if self._content is None:
            raise LookupError("the game's content has not come yet")
        return self._content

    @property
    def latest(self) -> SeatScene:
        """The seat's latest message."""
        if self.message is None:
            raise LookupError("no message has come yet")
        return self.message

    @property
    def lost(self) -> str | None:
        return self.link.lost

    @property
    def seat(self) -> int | None:
        return self.latest.seat

    @property
    def over(self) -> bool:
        return self.latest.results is not None

    @property
    def people(self) -> tuple[int, ...]:
        """The seats people play: every seat the server's computers do not."""
        return tuple(n for n in range(len(self.latest.view["players"])) if n not in self.levels)

    @property
    def computers(self) -> Mapping[int, str]:
        """None is played here: the server plays them."""
        return {}

    def on_change(self, listener: Callable[[], None]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def scene(self, seat: int | None, *, at_table: bool = False, log_from: int = 0) -> SeatScene:
        """This seat's message (the only one it is sent), with the log from `log_from`."""
        if seat != self.seat or at_table:
            raise ValueError(f"this link shows seat {self.seat}, not {seat}")
        message = self.latest
        return message if log_from == 0 else replace(message, log_from=log_from, log=message.log[log_from:])

    def turn(self) -> Turn:
        return self.latest.turn

    def pass_where_forced(self, mover: int | None = None) -> None:
        """(The server passes for a player who can do nothing else.)"""

    def choose(self, option_id: str) -> Made | Rejection | NotMade:
        answer = self.link.ask("choose", option_id)
        if answer is None:
            return NotMade(option_id, f"{self.lost} Your move was not made.", "Disconnected")
        if answer.get("not_made"):  # (allowed, but the server could not make it: its save file refused it, say)
            return NotMade(option_id, str(answer.get("refused")), str(answer.get("title", "Not made")))
        if "refused" in answer:
            return Rejection(option_id, str(answer["refused"]))
        return Made()

    def undo(self) -> UndoPoint | NoUndo:
        answer = self.link.ask("undo", {})
        if answer is None:
            return NoUndo(f"{self.lost} Nothing was taken back")
        seat = self.seat
        if "undone" in answer and seat is not None:  # (a spectator has no move to take back)
            return UndoPoint(0, seat, str(answer["undone"]))
        return NoUndo(str(answer.get("no_undo", "the server refused")))

    def holds_turns(self, seats: Collection[int]) -> bool | None:
        """(Only this seat's: the server says.)"""
        return self.holding

    def hold_turns(self, seats: Collection[int], on: bool) -> str | None:
        """Ask the server that this seat's turns wait for End turn, or no more (for this game, while it runs)."""
        answer = self.link.ask("hold_turns", {"on": on})
        if answer is None:
            return str(self.lost)
        if "refused" in answer:
            return str(answer["refused"])
        self.holding = answer.get("holding") is True
        return None

    def stand_in(self, seat: int) -> str:
        """Ask that a computer play for `seat`, whose player left; what the server said to it ("": nothing more
        than the room's notice to everyone, which names the player)."""
        answer = self.link.ask("stand_in", {"seat": seat})
        if answer is None:
            return str(self.lost)
        if "refused" in answer:
            return str(answer["refused"])
        if answer.get("standing_in"):
            return ""
        return "Asked: the others must agree too."

    def computer(self, seat: int, **options: Any) -> ComputerPlayer:
        raise LookupError(f"seat {seat}'s computer is played by the server")

    def stop_computers(self) -> None:
        """(The server's computers play on: the game goes on without this screen.)"""

    def _tell(self) -> None:
        for listener in list(self._listeners):
            listener()


def _fields(text: str) -> dict[str, Any]:
    """A frame's body: the server sends each of these as an object."""
    return cast("dict[str, Any]", body(text))


if TYPE_CHECKING:
    from rules.host import Host

    def _both_are_seat_hosts(local: Host, remote: RemoteHost) -> tuple[SeatHost, SeatHost]:
        """(Never run: the type checker checks that both hosts answer all that a screen may ask.)"""
        return local, remote
