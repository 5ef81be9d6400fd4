"""A room before its game starts, as one who waits in it sees it: `WaitingRoomScreen`.

It shows the room as the lobby last listed it: who sits where, who is
watching, and what it waits for, drawn again with each lobby the server
sends. Its maker starts it (s) or cancels it (x); anyone else leaves it (l:
their seat opens again, or they stop watching). Esc goes back to the lobby
without leaving: the game is still entered as soon as it starts. What each
key does is the server's: the screen asks through the app (`Requests`).
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Label, Static

from ..widgets.keys_footer import KeysFooter
from .help import show_help
from .lobby import requests, seats_text

NOT_STARTED = "This room's game has not started yet: it starts when every seat is taken and its maker presses s"


def room_words(room: dict) -> Text:
    """Who is in the room and what it waits for, a line each."""
    free = sum(1 for seat in room["seats"] if seat["name"] is None)
    waits = f"Waiting for {free} more." if free else f"Waiting for {room['creator']} to start."
    watchers = room.get("watchers") or []
    kind = "Private: only its code lets anyone in." if room.get("private") else "Public: listed in every lobby."
    pace = room.get("pace", "live")
    paced = f"A game over days: {pace}." if pace != "live" else "Played live: the game waits for whoever is to play."
    return Text("\n").join(
        [
            Text(f"Seats: {seats_text(room)}"),
            Text(f"Watching: {', '.join(watchers)}" if watchers else "Nobody is watching."),
            Text(waits, style="bold"),
            Text(paced, style="dim"),
            Text(kind, style="dim"),
        ]
    )


class WaitingRoomScreen(Screen[None]):
    """The room `code` until its game starts (the app then takes the player into it)."""

    HELP_TITLE = "Room"
    DEFAULT_CSS = """
    WaitingRoomScreen { align: center middle; }
    WaitingRoomScreen .dialog { max-width: 90; }
    """
    BINDINGS = [
        Binding("s", "start", "Start"),
        Binding("l", "leave", "Leave room"),
        Binding("x", "cancel_room", "Cancel room"),
        Binding("escape", "lobby", "Lobby"),
        Binding("question_mark", "help", "Keys", key_display="?"),
    ]

    def __init__(self, room: dict, *, listed: bool = True) -> None:
        """`listed`: `room` is as a lobby listed it (else a stand-in until one does)."""
        super().__init__()
        self.room = room
        self.listed = listed
        self.gone = False  # the room is no more (left, cancelled) while a window was open over this screen

    def on_screen_resume(self) -> None:
        if self.gone:  # (the window over it closed: the room's screen goes too, the lobby shows)
            self.dismiss(None)

    @property
    def code(self) -> str:
        return str(self.room["code"])

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self._title(), classes="dialog-title", id="room-title", markup=False)
            yield Static(room_words(self.room), id="room-words")
            yield Static(f"{NOT_STARTED}, and you are taken to it then.", classes="hint", markup=False)
        yield KeysFooter()

    def _title(self) -> str:
        who = "you watch" if self.room.get("watching") else "you made it" if self.room.get("maker") else "you sit here"
        return f"Room {self.code} ({who})"

    def show(self, room: dict) -> None:
        """The room as the server last listed it."""
        self.room, self.listed = room, True
        if self.is_mounted:
            self.query_one("#room-title", Label).update(self._title())
            self.query_one("#room-words", Static).update(room_words(room))
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        maker = bool(self.room.get("maker"))
        if action in ("start", "cancel_room"):
            return maker
        if action == "leave":
            return not maker
        return True

    def action_start(self) -> None:
        requests(self).start_room(self.code)

    def action_leave(self) -> None:
        requests(self).leave_room(self.code)

    def action_cancel_room(self) -> None:
        requests(self).cancel_room(self.code)

    def action_lobby(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        show_help(self)
