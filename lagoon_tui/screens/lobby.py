"""The lobby of `lagoon serve`, as a player at their own terminal sees it.

`LobbyScreen` lists the player's games (the ones whose turn is theirs marked)
and the rooms open to join; from it they make a room (`RoomForm`), join one
by its code (`CodeForm`), start a room they made once it is full, and enter a
game, theirs to play or another's to watch. `NameForm` asks a new player for
the name the others will see. What each does is the server's: these screens
send a request through the app and show its answer.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from ..widgets.keys_footer import KeysFooter
from .help import show_help

SEAT_KINDS = [("a person", "person"), ("a computer", "computer"), ("nobody", "none")]


def seats_text(room: dict) -> str:
    """The room's seats in words: "Ana, Ben, Computer, (open)"."""
    return ", ".join(seat["name"] or "(open)" for seat in room["seats"])


def room_line(room: dict) -> Text:
    """One line of a list: the code, the seats, where the game stands; ▶ when it is the player's turn."""
    status = room["status"]
    if status == "waiting":
        free = sum(1 for seat in room["seats"] if seat["name"] is None)
        where = f"waiting for {free} more" if free else f"waiting for {room['creator']} to start"
    elif status == "over":
        where = "finished"
    else:
        where = "your turn" if room.get("your_turn") else room.get("says", "playing")
    mark = ("▶ ", "bold reverse") if room.get("your_turn") else "  "
    return Text.assemble(mark, (room["code"], "bold"), f"  {seats_text(room)}  · {where}")


class LobbyScreen(Screen[None]):
    """Your games and the open rooms; Enter opens the one highlighted."""

    HELP_TITLE = "Lobby"
    HELP_EXTRA = [("↑ / ↓ / tab", "Move in a list, or to the other list")]
    BINDINGS = [
        Binding("c", "create", "New room"),
        Binding("j", "join", "Join by code"),
        Binding("s", "start", "Start"),
        Binding("question_mark", "help", "Keys", key_display="?"),
    ]
    DEFAULT_CSS = """
    LobbyScreen OptionList { height: auto; max-height: 50%; margin: 0 1 1 1; }
    LobbyScreen .list-title { margin: 0 1; text-style: bold; }
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = name
        self.lobby: dict = {"mine": [], "open": []}

    def compose(self) -> ComposeResult:
        yield Static(Text(f"Lagoon · {self.player}"), classes="screen-title", id="lobby-title")
        yield Static(
            "Enter: open · c: new room · j: join by code · s: start a room you made · ctrl+q: quit", classes="hint"
        )
        yield Label("Your games", classes="list-title")
        yield OptionList(id="mine")
        yield Label("Open rooms", classes="list-title")
        yield OptionList(id="open")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.show(self.lobby)
        self.query_one("#mine", OptionList).focus()

    def show(self, lobby: dict) -> None:
        """The lists as the server last sent them, the highlight kept on the same room."""
        self.lobby = lobby
        if not self.is_mounted:
            return
        for key, empty in (("mine", "No games yet: c makes a room, j joins one."), ("open", "No open rooms.")):
            rooms = lobby.get(key, [])
            options = self.query_one(f"#{key}", OptionList)
            kept = options.highlighted_option.id if options.highlighted_option else None
            options.clear_options()
            if rooms:
                options.add_options([Option(room_line(room), id=room["code"]) for room in rooms])
                codes = [room["code"] for room in rooms]
                options.highlighted = codes.index(kept) if kept in codes else 0
            else:
                options.add_option(Option(Text(empty, style="dim"), disabled=True))

    def _room(self, code: str | None) -> dict | None:
        return next((r for key in ("mine", "open") for r in self.lobby.get(key, []) if r["code"] == code), None)

    @on(OptionList.OptionSelected)
    def _opened(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        code = event.option.id
        if event.option_list.id == "open":
            self.app.join_room(code)
        else:
            self.app.open_room(code)

    def _highlighted_mine(self) -> str | None:
        option = self.query_one("#mine", OptionList).highlighted_option
        return option.id if option else None

    def action_create(self) -> None:
        self.app.push_screen(RoomForm(), lambda request: self.app.create_room(request) if request else None)

    def action_join(self) -> None:
        self.app.push_screen(CodeForm(), lambda code: self.app.join_room(code) if code else None)

    def action_start(self) -> None:
        code = self._highlighted_mine()
        if code is None:
            self.notify("Highlight a room of yours under Your games first.")
            return
        self.app.start_room(code)

    def action_help(self) -> None:
        show_help(self)


class NameForm(Screen[str]):
    """The name the other players will see, asked once for each key."""

    def __init__(self, problem: str = "") -> None:
        super().__init__()
        self.problem = problem

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Welcome to Lagoon. What name should the others see?", classes="dialog-title")
            yield Input(placeholder="your name", id="name")
            yield Static(self.problem, classes="field-error", id="name-problem", markup=False)
            yield Static("Enter: go on · ctrl+q: quit", classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.app.choose_name(event.value)

    def refused(self, problem: str) -> None:
        self.query_one("#name-problem", Static).update(problem)


class CodeForm(ModalScreen[str | None]):
    """The code of a room to join."""

    BINDINGS = [Binding("escape", "cancel", "Back")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Join a room", classes="dialog-title")
            yield Input(placeholder="its code, as its maker gave it", id="code")
            yield Static("Enter: join · Esc: back", classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip().upper() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class RoomForm(ModalScreen[dict | None]):
    """A new room: you in the first seat, each other seat a person, a computer or nobody; a seed if wanted."""

    BINDINGS = [Binding("escape", "cancel", "Back"), Binding("ctrl+s", "make", "Make the room")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="room-dialog"):
            yield Label("New room", classes="dialog-title")
            yield Static("Seat 1: you")
            for seat in range(1, 4):
                with Horizontal(classes="form-row"):
                    yield Label(f"Seat {seat + 1}", classes="form-label")
                    yield Select(
                        SEAT_KINDS,
                        value="person" if seat == 1 else "none",
                        allow_blank=False,
                        compact=True,
                        id=f"seat-{seat}",
                    )
            with Horizontal(classes="form-row"):
                yield Label("Seed", classes="form-label")
                yield Input("", placeholder="blank = random", compact=True, id="seed")
            yield Static("", classes="field-error", id="room-problem")
            yield Static("ctrl+s or Enter in the seed: make the room · Esc: back", classes="hint")

    def request(self) -> dict | None:
        kinds = ["person"] + [self.query_one(f"#seat-{seat}", Select).value for seat in range(1, 4)]
        seats = [kind for kind in kinds if kind != "none"]
        text = self.query_one("#seed", Input).value.strip()
        if text and not text.isdigit():
            self.query_one("#room-problem", Static).update("The seed is a whole number, or blank for a random game.")
            return None
        return {"seats": seats, "seed": int(text) if text else None}

    def on_input_submitted(self) -> None:
        self.action_make()

    def action_make(self) -> None:
        request = self.request()
        if request is not None:
            self.dismiss(request)

    def action_cancel(self) -> None:
        self.dismiss(None)
