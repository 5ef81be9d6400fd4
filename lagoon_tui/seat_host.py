"""What a game screen may ask of the host of its game: `SeatHost`.

Two hosts answer it: `rules.host.Host`, the engine in this process (a game at
one keyboard, or the server's side of a room), and `lagoon_tui.remote.RemoteHost`,
a seat whose game is hosted in another process. The screen holds a `SeatHost`
and asks nothing else of either, so whatever a screen may ask is listed here,
and the type checker holds both hosts to it (`_both_are_seat_hosts`).

The computers of a game are played by whoever holds its `Host`: at one
keyboard, the screen (`computers`, `computer`, `stop_computers`; see
`lagoon_tui.computer_turns`); in a room, the server, which tells each seat
which seats they play (`levels`) and when the deciding one is thinking
(`thinking`). A host whose computers the screen plays has no thinking to tell.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from rules.host import NoUndo, UndoPoint
    from rules.seat import Content, SeatScene, Turn


class ComputerPlayer(Protocol):
    """A computer player of one seat: it answers that seat's message with the id of one of its options."""

    def choose(self, message: SeatScene) -> str: ...


class SeatHost(Protocol):
    """The host of a game, as a game screen sees it."""

    @property
    def content(self) -> Content:
        """The cards and the board (the same for every seat)."""

    @property
    def changes(self) -> int:
        """How many times the game has changed (a choice, a pass made for a player, an undo) so far."""

    @property
    def lost(self) -> str | None:
        """Why the game can no longer be played from here (another window took it, the link went), if so."""

    @property
    def over(self) -> bool: ...

    @property
    def people(self) -> tuple[int, ...]:
        """The seats people play."""

    @property
    def away(self) -> frozenset[int]:
        """Players whose seat no screen shows."""

    @property
    def stood_in(self) -> frozenset[int]:
        """Players away for whom a computer plays until they come back."""

    @property
    def elsewhere(self) -> frozenset[int]:
        """Players elsewhere at the server, in another game or session (not away: told when this one turns to them)."""

    @property
    def watchers(self) -> tuple[str, ...]:
        """The names of the spectators watching the game now (a game hosted for remote seats)."""

    @property
    def computers(self) -> Mapping[int, str]:
        """The seats whose computer players the screen plays, by level (none where a server plays them)."""

    @property
    def levels(self) -> dict[int, str]:
        """Every seat a computer plays, by level, wherever it is played (its name on the board says so)."""

    @property
    def pace(self) -> tuple[int, str] | None:
        """A game with a pace, hosted elsewhere: the deciding seat and its clock's words ("has 21 h left")."""

    @property
    def thinking(self) -> bool:
        """Whether a computer played elsewhere is deciding now, as its server tells."""

    def on_change(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call `listener()` after every change of the game; returns what stops it."""

    def scene(self, seat: int | None, *, at_table: bool = False, log_from: int = 0) -> SeatScene:
        """Everything `seat` may know now: its message."""

    def turn(self) -> Turn:
        """Who decides now, and what kind of decision, as anyone may be told."""

    def pass_where_forced(self, mover: int | None = None) -> None:
        """Pass for whoever decides next while Pass is all they may do."""

    def choose(self, option_id: str) -> object:
        """Make a choice: a `Rejection` or a `NotMade` if it was not made."""

    def holds_turns(self, seats: Collection[int]) -> bool | None:
        """Whether the turns of `seats` wait for End turn after a move that can still be taken back (None: not
        known here, as for a spectator)."""

    def hold_turns(self, seats: Collection[int], on: bool) -> str | None:
        """The turns of `seats` wait for End turn from now on, or no more; why not, if that was refused."""

    def undo(self) -> UndoPoint | NoUndo:
        """Take back the deciding seat's last move of this turn, if it may be."""

    def stand_in(self, seat: int) -> str:
        """Ask that a computer play for `seat`, whose player is away; what came of it, in a sentence."""

    def computer(self, seat: int, **options: Any) -> ComputerPlayer:
        """The computer player of `seat`, one of `computers`, briefed on the game so far."""

    def stop_computers(self) -> None:
        """Every search under way gives up at once (the game is being left)."""
