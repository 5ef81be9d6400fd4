"""The app of one SSH session of `lagoon serve`: the lobby, then the games it enters.

The server greets the session with the player's name (or asks for one),
then sends the lobby whenever it changes; the player makes, joins and starts
rooms there and enters a game, which is then drawn as `SeatApp` draws one
(for the player's seat, or as everyone sees it for a spectator). Leaving a
game, or its end, comes back to the lobby. `join`: a room's code given on
the command line (`ssh -t host join CODE`), joined, and entered once started;
`watch` (`ssh -t host watch CODE`): watched, even with a seat free.
"""

from __future__ import annotations

from typing import Any, cast

from textual.binding import Binding

from rules.host import Content

from .link import Link
from .remote import RemoteHost
from .scene import Scene
from .screens.finished import FinishedScreen
from .screens.game import GameScreen
from .screens.lobby import LobbyScreen, NameForm, RenameForm
from .screens.served_end import ServedEndScreen
from .screens.turns import (
    GO_KEY,
    connected_notice,
    elsewhere_words,
    lobby_title,
    since_offer,
    turn_notice,
    turn_title,
    waiting_games,
)
from .screens.waiting import WaitingScreen
from .seat_app import SeatApp
from .seat_host import SeatHost
from .served_games import finished_screen
from .session_rooms import RoomRequests
from .turbo.title import set_title
from .wire import body


def lobby_frame(text: str) -> dict[str, Any]:
    """The JSON object of a frame of the lobby's (`hello`, `notice`, `lobby`: the server sends each as one)."""
    return cast("dict[str, Any]", body(text))


class SessionApp(RoomRequests, SeatApp):
    BINDINGS = [Binding(GO_KEY, "go_turn", "Go to your turn", show=False)]

    def __init__(
        self, link: Link, join: str | None = None, content: Content | None = None, watch: str | None = None
    ) -> None:
        super().__init__(link, content)
        given = watch or join  # (a code from the ssh command line: `join CODE` or `watch CODE`)
        self.join = given.strip().upper() if given else None
        self.join_kind = "watch" if watch else "join"
        self.player: str | None = None
        self.lobby: dict[str, Any] = {"mine": [], "open": []}
        self.waiting_for: str | None = None  # a room joined before it started: entered as soon as it does
        self.room_code: str | None = None  # the room whose game was entered last
        self.in_room: str | None = None  # the room whose game this session shows (None: the lobby)
        self.offered: str | None = None  # the room whose turn notice GO_KEY goes to
        self.elsewhere: list[str] = []  # the rooms whose games wait for the player, as last told
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
                self.greeted = True  # (greeted by their seat: the lobby, later, is no arrival)
                self.enter_room(hello["resume"])  # (back at the seat whose game waits for them)
        elif kind == "turn":
            self.turn_came(lobby_frame(text))
        elif kind == "baseline":
            view = lobby_frame(text).get("view")
            self.baseline = view if isinstance(view, dict) else None
        elif kind == "notice":
            notice = lobby_frame(text)
            self.notify(str(notice["text"]), markup=False)
            if notice.get("cancelled"):  # (a room cancelled by its maker: no waiting in it)
                self.room_gone(str(notice["cancelled"]))
        elif kind == "rematch":
            self.rematch_told(lobby_frame(text))
        elif kind == "idle":
            self.idle(lobby_frame(text).get("closes_in"))
        elif kind == "lobby":
            self.lobby = lobby_frame(text)
            for screen in self.screen_stack:
                if isinstance(screen, LobbyScreen):
                    screen.show(self.lobby)
            self.rooms_listed()
            self.enter_started()
            self.lobby_told()
        else:
            super().receive(kind, text)

    # --- the player's turn in their other games (`serve.turns`) ---------------------------------

    def turn_came(self, told: dict[str, Any]) -> None:
        """One of the player's games turned to them while this session shows something else: rung, in the
        window's title, and offered (GO_KEY goes there); or (`gone`) its turn was made without them."""
        if not self.screen_stack:  # (a frame that came while one screen took another's place: told once it has)
            self.call_later(self.turn_came, told)
            return
        code = str(told.get("code"))
        self.elsewhere = [room for room in self.elsewhere if room != code]
        if told.get("gone"):  # (played at another terminal of theirs, or by a computer as their time ran out)
            if self.offered == code:  # its notice ("y to go there") goes, and y with it
                self.offered = None
                self.refresh_bindings()
                self.clear_notifications()
            self._title_elsewhere()
            return
        if not told.get("stood_in"):  # (a computer plays for them there: that game waits for nobody)
            self.elsewhere.append(code)
        self.offered = code
        self.refresh_bindings()  # (GO_KEY is listed now: see check_action)
        self.bell()
        set_title(self, turn_title(told))
        text, heading = turn_notice(told)
        self.clear_notifications()  # (one turn notice at a time: a session elsewhere gathered one a turn)
        self.notify(text, title=heading, timeout=60, markup=False)

    def window_title(self, says: str) -> str:
        """A game's title, and the player's other games that wait for them (until they go there: a turn
        notice goes after a minute, and the game's next turn set its title anew)."""
        return f"Lagoon · {says}{elsewhere_words([code for code in self.elsewhere if code != self.in_room])}"

    def _title_elsewhere(self) -> None:
        """In a game: its title says again which other games wait for the player."""
        if self.in_room is None:
            return
        game = next((screen for screen in self.screen_stack if isinstance(screen, GameScreen)), None)
        if game is not None and game.says:
            set_title(self, self.window_title(game.says))

    def lobby_told(self) -> None:
        """A lobby came: on the lobby's screen the title says how many games wait for the player, and on
        connecting, so does a notice (Enter opens the first row, the one waiting longest)."""
        if not self.screen_stack:  # (a frame that came while one screen took another's place: told once it has)
            self.call_later(self.lobby_told)
            return
        if self.in_room is not None:
            return
        self.elsewhere = [
            room["code"] for room in self.lobby.get("mine", []) if room.get("your_turn") and not room.get("stood_in")
        ]
        if not isinstance(self.screen, LobbyScreen):
            return
        set_title(self, lobby_title(self.lobby))
        waiting = waiting_games(self.lobby)
        if not self.greeted and waiting:
            self.notify(connected_notice(waiting), title="Welcome back", timeout=20, markup=False)
        self.greeted = True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """GO_KEY is offered (listed by ? and ctrl+p) only while a turn notice offers it: a spectator, or a player
        whose games wait for nobody, has no turn to go to."""
        if action == "go_turn" and self.offered is None:
            return False
        return super().check_action(action, parameters)

    def action_go_turn(self) -> None:
        """GO_KEY: to the game whose turn notice came last; from a game, that game's seat is kept."""
        code, self.offered = self.offered, None
        self.refresh_bindings()
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
            self.come_in(self.join_kind, code)

    def create_room(self, request: dict) -> None:
        answer = self._ask("create", request)
        if answer is not None:
            code = answer["code"]  # (how the player reached the server, the session does not know: their own command)
            self.notify(
                f"Room {code} is ready. Others join it with the ssh command you used and join {code} at its end."
            )
            if isinstance(self.screen, LobbyScreen):  # (its s, l and x act on the room just made)
                self.screen.point_at(str(code))

    def join_room(self, code: str) -> None:
        """Take a seat in the room, or (a game under way, of others) watch it. A room not started yet is
        waited for, as the server's answer says (the lobby this app holds may not list the room yet: a code
        from the command line is joined as soon as the server greets the session)."""
        self.come_in("join", code)

    def start_room(self, code: str) -> None:
        if self._ask("start", {"code": code}) is not None:
            self.room_gone(code)  # (its waiting screen, if on: the game takes its place)
            self.enter_room(code)

    def open_room(self, code: str) -> None:
        """Enter the room's game if it has started; else say what it waits for."""
        room = self._room(code)
        if room is not None and room["status"] == "waiting":
            self.wait_in_room(code)
        else:
            self.enter_room(code)

    def _room(self, code: str | None) -> dict | None:
        return next((r for key in ("mine", "open") for r in self.lobby[key] if r["code"] == code), None)

    def enter_room(self, code: str) -> None:
        """The room's game, drawn for the player's seat (or as everyone sees it, for one who has none)."""
        if self._ask("enter", {"code": code}) is None:
            return
        self.clear_notifications()  # (what was said where the player was, such as "y to go there", is done)
        self.room_code = code
        self.in_room, self.baseline = code, None
        self.remote = RemoteHost(self.link)
        self.push_screen(WaitingScreen(f"Joining the game of room {code}…"))

    def vacation(self, days: int) -> None:
        """Away for `days` days (0: back now), as the server takes it."""
        answer = self._ask("vacation", {"days": days})
        if answer is not None:
            until = answer.get("vacation")
            self.notify(
                f"You are on vacation until {until}: the clocks of your games are stopped."
                if until
                else "Welcome back: the clocks of your games run again.",
                markup=False,
            )

    def give_notices(self, url: str) -> str | None:
        """The URL for notices while this player is not connected ("": none); why the server refused it, if it
        did (the form keeps what was typed and says why)."""
        answer = self.link.ask("notices", {"url": url})
        if answer is None:
            self.exit(1, message=self.link.lost)
            return None
        if "refused" in answer:
            return str(answer["refused"])
        self.notify("Notices go to that URL." if answer.get("notices") else "No notices.", markup=False)
        return None

    LEAVING = ("Lobby", "Back to the lobby (the game goes on; Enter there opens it again)")

    def leave(self, elsewhere: bool = False) -> None:
        """Back to the lobby: the game goes on without this screen (`elsewhere`: for another game of the
        player's, so their seat here is kept, as `serve.turns` says)."""
        if not self.screen.is_mounted:  # (a game's screen that has just come: taken away only once it is up,
            self.call_after_refresh(self.leave, elsewhere)  # its panels found; popped while it mounted, it had none)
            return
        if self.link.ask("leave", {"elsewhere": True} if elsewhere else {}) is None:
            self.exit(1, message=self.link.lost)
            return
        self.in_room = None
        self.clear_notifications()  # (the game's notices, such as "w lists all 4", mean nothing in the lobby)
        while not isinstance(self.screen, LobbyScreen) and len(self.screen_stack) > 1:
            self.pop_screen()
        if isinstance(self.screen, LobbyScreen):  # (Enter opens the game waiting longest, as in a new session)
            self.screen.point_at()

    # --- the end of a game, and finished games (serve/rematch.py, serve/records.py) ----------

    def game_over(self, host: SeatHost, seat: int | None = None) -> None:
        scene, levels = Scene(host.scene(seat), host.content), host.levels
        end = ServedEndScreen(scene, seat=seat, levels=levels)
        self.call_later(lambda: self.push_screen(end, lambda _: self.leave()))

    def answer_rematch(self, accept: bool | None) -> dict | None:
        """The player's answer to a rematch (None: only where it stands), as the server answers it."""
        return self._ask("rematch", {"accept": accept})

    def rematch_told(self, state: dict) -> None:
        """Where the rematch stands; once it has started, whoever is at the finished game (a player, or a spectator
        at its end screen or still on its board) is taken to it (a spectator to watch it: the server keeps them as
        its spectator), and told so."""
        for screen in self.screen_stack:
            if isinstance(screen, ServedEndScreen):
                screen.told(state)
        started = state.get("started")
        if isinstance(started, str) and self.in_room is not None and self.in_room != started:
            self.leave()
            self.enter_room(started)
            if self.in_room == started:
                self.notify(f"Everyone accepted: this is the rematch, in room {started}.", markup=False)

    def show_finished(self, code: str | None, *, sheet: bool = False) -> None:
        """A finished game's replay (or its score sheet): the game entered (`code` None) or room `code`'s."""
        answer = self._ask("log", {} if code is None else {"code": code})
        if answer is not None:
            screen = finished_screen(answer, code or self.room_code or "", sheet=sheet)
            if isinstance(screen, str):
                self.notify(screen, title="Not shown", severity="warning", markup=False)
            else:
                self.push_screen(screen)

    def finished_games(self) -> None:
        """The player's finished games, the newest first."""
        answer = self._ask("finished", {})
        if answer is not None:
            self.push_screen(FinishedScreen(list(answer.get("games", []))))
