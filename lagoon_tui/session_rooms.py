"""What a session of `lagoon serve` asks about rooms before they start: `RoomRequests`, part of `SessionApp`.

Watching a room (w in the lobby, or joining a full one), leaving a room or
no longer watching it (l), and cancelling a room one made (x, asked first).
A seat or a spectator's place in a room not started yet shows the room's
waiting screen (`WaitingRoomScreen`), drawn again with each lobby; the game is
entered as soon as the lobby lists it under way (`enter_started`). A player
who has a form or a window open over the lobby or the waiting screen then
(renaming, the help, a vacation) is told at once, with the bell, and taken
to the game as soon as they close it: not before, so that what they were
typing is neither lost nor pressed on the board as moves. A room
cancelled by its maker, or left, takes its waiting screen away, and the
server's notice says why.
"""

from __future__ import annotations

from typing import Any

from textual.app import App

from .screens.confirm import ConfirmScreen
from .screens.lobby import LobbyScreen
from .screens.waiting_room import WaitingRoomScreen


class RoomRequests(App[Any]):
    """(Mixed into `SessionApp`, which holds the lobby and asks the server.)"""

    lobby: dict[str, Any]
    waiting_for: str | None  # a room whose game is entered as soon as it starts
    in_room: str | None  # the room whose game this session shows (None: the lobby)
    started_told: str | None = None  # the room waited for whose start was told over a form (entered once it closes)
    following: bool = False  # whether each change of screen looks for a room waited for that has begun

    def _ask(self, kind: str, request: dict) -> dict | None:
        raise NotImplementedError  # (the session app's: the server's answer, a refusal said)

    def enter_room(self, code: str) -> None:
        raise NotImplementedError  # (the session app's)

    def _room(self, code: str | None) -> dict | None:
        raise NotImplementedError  # (the session app's: the room as the lobby lists it)

    def watch_room(self, code: str) -> None:
        """Watch the room: wait in it until it starts, or watch its game now."""
        self.come_in("watch", code)

    def come_in(self, kind: str, code: str) -> None:
        """Ask to `join` or `watch` the room; then wait in it (not started yet), or enter its game."""
        answer = self._ask(kind, {"code": code})
        if answer is None:
            return
        if answer.get("waiting"):
            self.wait_in_room(code)
        else:
            self.enter_room(code)

    def leave_room(self, code: str) -> None:
        """Give up one's seat in a room not started, or stop watching it."""
        room = self._room(code)
        watching = room is not None and room.get("watching")
        if self._ask("leave_room", {"code": code}) is None:
            return
        self.notify(f"You no longer watch room {code}." if watching else f"You left room {code}.", markup=False)
        self.room_gone(code)

    def cancel_room(self, code: str) -> None:
        """Cancel a room one made, once asked (everyone in it is told by the server); a room the player may not
        cancel (another's, or begun) is refused at once, with no question first."""
        if self._ask("may_cancel", {"code": code}) is None:
            return

        def answered(yes: bool | None) -> None:
            if yes and self._ask("cancel", {"code": code}) is not None:
                self.notify(f"Room {code} is cancelled: everyone in it was told.", markup=False)
                self.room_gone(code)

        self.push_screen(
            ConfirmScreen(f"Cancel room {code}? Everyone in it is told, and it is gone.", "y: cancel it · n / Esc: no"),
            answered,
        )

    def wait_in_room(self, code: str) -> None:
        """The room's waiting screen, until its game starts (then the game, as the session app enters it)."""
        self.waiting_for = code
        room = self._mine(code)
        screen = WaitingRoomScreen(room or {"code": code, "seats": [], "creator": "?"}, listed=room is not None)
        if isinstance(self.screen, WaitingRoomScreen):
            self.pop_screen()
        self.push_screen(screen)

    def enter_started(self) -> None:
        """The room waited for, entered once the lobby lists its game under way: at once from the lobby or its
        waiting screen; from a form or window open over them, once it closes (told now)."""
        room = self._room(self.waiting_for)
        if room is None or room["status"] == "waiting" or self.in_room is not None:
            return
        if not self.screen_stack:  # (a frame that came while one screen took another's place: once it has)
            self.call_later(self.enter_started)
            return
        if isinstance(self.screen, WaitingRoomScreen):
            self.pop_screen()  # (its game takes its place)
        if isinstance(self.screen, LobbyScreen):
            self.waiting_for = self.started_told = None
            self.enter_room(room["code"])
        elif self.started_told != room["code"]:
            if not self.following:
                self.following = True
                self.screen_change_signal.subscribe(self, lambda _: self.enter_started())
            self.started_told = room["code"]
            self.bell()
            self.notify(
                f"Room {room['code']} has begun: close this and you are taken to its game.",
                title="Your game begins",
                timeout=60,
                markup=False,
            )

    def _mine(self, code: str) -> dict | None:
        """The room as the lobby lists it among the player's own (a seat, or watching)."""
        return next((room for room in self.lobby.get("mine", []) if room["code"] == code), None)

    def rooms_listed(self) -> None:
        """A new lobby: the waiting screen shows its room as it is now, or goes if the room, once listed, is
        gone (a lobby sent before the player came in does not list it yet)."""
        for screen in self.screen_stack:
            if isinstance(screen, WaitingRoomScreen):
                room = self._mine(screen.code)
                if room is not None:
                    screen.show(room)
                elif screen.listed:
                    self.room_gone(screen.code)

    def room_gone(self, code: str) -> None:
        """The player is no longer in room `code` (left, or cancelled): no waiting for it, no screen of it."""
        if self.waiting_for == code:
            self.waiting_for = None
        for screen in self.screen_stack:
            if isinstance(screen, WaitingRoomScreen) and screen.code == code:
                if screen is self.screen:
                    self.pop_screen()
                else:  # (a window over it, the keys list or a question: it goes once that closes)
                    screen.gone = True
