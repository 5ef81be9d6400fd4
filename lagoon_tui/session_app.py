"""The app of one SSH session of `lagoon serve`: the lobby, then the games it enters.

The server greets the session with the player's name (or asks for one),
then sends the lobby whenever it changes; the player makes, joins and starts
rooms there and enters a game, which is then drawn as `SeatApp` draws one
(for the player's seat, or as everyone sees it for a spectator). Leaving a
game, or its end, comes back to the lobby. `join`: a room's code given on
the command line (`ssh -t host join CODE`), joined, and entered once started.
"""

from __future__ import annotations

from typing import Any, cast

from textual.binding import Binding

from .link import Link
from .remote import RemoteHost
from .screens.game import GameScreen
from .screens.lobby import LobbyScreen, NameForm, RenameForm
from .screens.turns import (
    GO_KEY,
    connected_notice,
    lobby_title,
    since_offer,
    turn_notice,
    turn_title,
    waiting_games,
)
from .screens.waiting import WaitingScreen
from .seat_app import SeatApp
from .turbo.title import set_title
from .wire import body


def lobby_frame(text: str) -> dict[str, Any]:
    """The JSON object of a frame of the lobby's (`hello`, `notice`, `lobby`: the server sends each as one)."""
    return cast("dict[str, Any]", body(text))


class SessionApp(SeatApp):
    BINDINGS = [Binding(GO_KEY, "go_turn", "Go to your turn", show=False)]

    def __init__(self, link: Link, join: str | None = None) -> None:
        super().__init__(link)
        self.join = join.strip().upper() if join else None
        self.player: str | None = None
        self.lobby: dict[str, Any] = {"mine": [], "open": []}
        self.waiting_for: str | None = None  # a room joined before it started: entered as soon as it does
        self.in_room: str | None = None  # the room whose game this session shows (None: the lobby)
        self.offered: str | None = None  # the room whose turn notice GO_KEY goes to
        self.baseline: dict | None = None  # the seat's board just after its last move, as the server sent it
        self.greeted = False  # told, on connecting, how many games wait for the player

    WAITING = "Connecting to the game's server…"

    def receive(self, kind: str, text: str) -> None:
        if kind == "hello":
            hello = lobby_frame(text)
            self.player = hello.get("name")
            self.switch_screen(NameForm() if self.player is None else LobbyScreen(self.player))
            if self.player is not None:
                self._join_given()
            if self.player is not None and self.in_room is None and isinstance(hello.get("resume"), str):
                self.enter_room(hello["resume"])  # (back at the seat whose game waits for them)
        elif kind == "turn":
            self.turn_came(lobby_frame(text))
        elif kind == "baseline":
            view = lobby_frame(text).get("view")
            self.baseline = view if isinstance(view, dict) else None
        elif kind == "notice":
            self.notify(str(lobby_frame(text)["text"]), markup=False)
        elif kind == "idle":
            self.idle(lobby_frame(text).get("closes_in"))
        elif kind == "lobby":
            self.lobby = lobby_frame(text)
            for screen in self.screen_stack:
                if isinstance(screen, LobbyScreen):
                    screen.show(self.lobby)
            room = self._room(self.waiting_for)
            if room is not None and room["status"] != "waiting" and isinstance(self.screen, LobbyScreen):
                self.waiting_for = None
                self.enter_room(room["code"])
            self.lobby_told()
        else:
            super().receive(kind, text)

    # --- the player's turn in their other games (`serve.turns`) ---------------------------------

    def turn_came(self, told: dict[str, Any]) -> None:
        """One of the player's games turned to them while this session shows something else: rung, in the
        window's title, and offered (GO_KEY goes there)."""
        self.offered = str(told.get("code"))
        self.bell()
        set_title(self, turn_title(told))
        text, heading = turn_notice(told)
        self.notify(text, title=heading, timeout=60, markup=False)

    def lobby_told(self) -> None:
        """A lobby came: on the lobby's screen the title says how many games wait for the player, and on
        connecting, so does a notice (Enter opens the first row, the one waiting longest)."""
        if self.in_room is not None or not isinstance(self.screen, LobbyScreen):
            return
        set_title(self, lobby_title(self.lobby))
        waiting = waiting_games(self.lobby)
        if not self.greeted and waiting:
            self.notify(connected_notice(waiting), title="Welcome back", timeout=20, markup=False)
        self.greeted = True

    def action_go_turn(self) -> None:
        """GO_KEY: to the game whose turn notice came last; from a game, that game's seat is kept."""
        code, self.offered = self.offered, None
        if code is None or code == self.in_room:
            return
        if self.in_room is not None:
            self.leave(elsewhere=True)
            if self.in_room is not None:  # (the link is lost: the app ends)
                return
        self.enter_room(code)

    def game_ready(self) -> None:
        """The game's screen, with what changed since the seat's last move marked; when the game waits for the
        seat and something happened since, a notice gives the latest of it and offers w's list."""
        seat = self.remote.seat
        screen = GameScreen(self.remote, seat, watching=seat is None)
        if seat is not None and self.baseline is not None:
            screen.marks_since(self.baseline)
        self.switch_screen(screen)
        since = [line.text for line in self.remote.latest.since] if seat is not None else []
        if since and self.remote.turn().seat == seat:  # (offered, not opened: the player's first key is theirs)
            text, heading = since_offer(since)
            self.notify(text, title=heading, timeout=30, markup=False)

    def idle(self, closes_in: object) -> None:
        """The server closes this session in `closes_in` seconds unless a key is pressed (None: one was)."""
        if not isinstance(closes_in, int):
            self.clear_notifications()
            return
        when = "in a minute" if closes_in >= 55 else f"in {closes_in} seconds"
        self.notify(
            f"Nothing was pressed for a long while: this session closes {when} unless you press a key.",
            title="Still there?",
            severity="warning",
            timeout=closes_in,
            markup=False,
        )

    # --- what the lobby's screens ask -------------------------------------------------------

    def _ask(self, kind: str, request: dict) -> dict | None:
        """The server's answer; a refusal is said (and None returned)."""
        answer = self.link.ask(kind, request)
        if answer is None:
            self.exit(1, message=self.link.lost)
            return None
        if "refused" in answer:
            self.notify(str(answer["refused"]), title="Not done", severity="warning", markup=False)
            return None
        return answer

    def _named(self, kind: str, name: str, form: type[NameForm | RenameForm]) -> str | None:
        """The server's answer to a name asked for (`kind`: "name" or "rename"): the name, now the player's;
        None if it was refused (the form on screen says why) or the link is lost (the app ends)."""
        answer = self.link.ask(kind, {"name": name})
        if answer is None:
            self.exit(1, message=self.link.lost)
            return None
        if "refused" in answer:
            if isinstance(self.screen, form):
                self.screen.refused(str(answer["refused"]))
            return None
        self.player = str(answer["name"])
        return self.player

    def choose_name(self, name: str) -> None:
        named = self._named("name", name, NameForm)
        if named is not None:
            lobby = LobbyScreen(named)
            self.switch_screen(lobby)
            lobby.show(self.lobby)
            self._join_given()

    def rename(self, name: str) -> None:
        """The rename form's name: taken (the form closes, the lobby's title says it), or refused (the form
        says why)."""
        named = self._named("rename", name, RenameForm)
        if named is None:
            return
        if isinstance(self.screen, RenameForm):
            self.screen.dismiss(None)
        for screen in self.screen_stack:
            if isinstance(screen, LobbyScreen):
                screen.renamed(named)
        self.notify(f"You are {named} now.", markup=False)

    def _join_given(self) -> None:
        code, self.join = self.join, None
        if code:
            self.join_room(code)

    def create_room(self, request: dict) -> None:
        answer = self._ask("create", request)
        if answer is not None:
            self.notify(f"Room {answer['code']} is ready. Give its code to the others: ssh … join {answer['code']}")

    def join_room(self, code: str) -> None:
        """Take a seat in the room, or (a game under way, of others) watch it. A room not started yet is
        waited for, as the server's answer says (the lobby this app holds may not list the room yet: a code
        from the command line is joined as soon as the server greets the session)."""
        answer = self._ask("join", {"code": code})
        if answer is None:
            return
        if answer.get("waiting"):
            self._wait_for(code)
        else:
            self.enter_room(code)

    def start_room(self, code: str) -> None:
        if self._ask("start", {"code": code}) is not None:
            self.enter_room(code)

    def open_room(self, code: str) -> None:
        """Enter the room's game if it has started; else say what it waits for."""
        room = self._room(code)
        if room is not None and room["status"] == "waiting":
            self._wait_for(code)
        else:
            self.enter_room(code)

    def _wait_for(self, code: str) -> None:
        """The room's game, entered once the lobby lists it under way (see `receive`)."""
        self.waiting_for = code
        self.notify(
            "This room's game has not started yet: it starts when every seat is taken and its maker "
            "presses s, and you are taken to it then.",
            title=f"Room {code}",
            markup=False,
        )

    def _room(self, code: str | None) -> dict | None:
        return next((r for key in ("mine", "open") for r in self.lobby[key] if r["code"] == code), None)

    def enter_room(self, code: str) -> None:
        """The room's game, drawn for the player's seat (or as everyone sees it, for one who has none)."""
        if self._ask("enter", {"code": code}) is None:
            return
        self.in_room, self.baseline = code, None
        self.remote = RemoteHost(self.link)
        self.push_screen(WaitingScreen(f"Joining the game of room {code}…"))

    def leave(self, elsewhere: bool = False) -> None:
        """Back to the lobby: the game goes on without this screen (`elsewhere`: for another game of the
        player's, so their seat here is kept, as `serve.turns` says)."""
        if self.link.ask("leave", {"elsewhere": True} if elsewhere else {}) is None:
            self.exit(1, message=self.link.lost)
            return
        self.in_room = None
        while not isinstance(self.screen, LobbyScreen) and len(self.screen_stack) > 1:
            self.pop_screen()
