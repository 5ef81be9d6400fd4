"""The lobby of `lagoon serve`, as a player at their own terminal sees it.

`LobbyScreen` lists the player's games (the ones whose turn is theirs first, marked, with how long each
has waited)
and the rooms open to join; from it they make a room (`RoomForm`: who sits
at it, picked from a short list, and a seed if wanted), join one
by its code (`CodeForm`), start a room they made once it is full, and enter a
game, theirs to play or another's to watch. `NameForm` asks a new player for
the name the others will see; r in the lobby changes it (`RenameForm`). What each does is the server's: these screens
send a request through the app and show its answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, cast

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from rules.host import computer_words

from ..widgets.field import CODE_FIELD, NAME_FIELD, SEED_FIELD, Field, show_problem
from ..widgets.keys_footer import KeysFooter
from .days import NoticeForm, VacationForm
from .help import show_help
from .records_line import records_line, rematch_row, title_text
from .turns import your_turn_words


class Requests(Protocol):
    """What these screens ask of their app (the session app of `lagoon serve`, the only one that shows them)."""

    def choose_name(self, name: str) -> None: ...
    def rename(self, name: str) -> None: ...
    def create_room(self, request: dict) -> None: ...
    def join_room(self, code: str) -> None: ...
    def start_room(self, code: str) -> None: ...
    def open_room(self, code: str) -> None: ...
    def vacation(self, days: int) -> None: ...
    def give_notices(self, url: str) -> str | None: ...
    def watch_room(self, code: str) -> None: ...
    def leave_room(self, code: str) -> None: ...
    def cancel_room(self, code: str) -> None: ...
    def finished_games(self) -> None: ...


def requests(screen: Screen[Any]) -> Requests:
    """The app of a lobby screen, which sends its requests to the server."""
    return cast(Requests, screen.app)


def seats_text(room: dict) -> str:
    """The room's seats in words: "Ana, Ben, Computer (Hard), (open)"; once begun "Ana, Cleo (computer, Hard)"."""
    return ", ".join(seat_text(seat) for seat in room["seats"])


def seat_text(seat: dict) -> str:
    if seat.get("computer"):
        level = str(seat.get("level", "normal"))
        return (
            f"Computer ({level.capitalize()})"
            if seat["name"] == "Computer"
            else f"{seat['name']} ({computer_words(level)})"
        )
    if seat.get("vacation"):  # (games over days: their clocks are stopped)
        return f"{seat['name']} (on vacation until {seat['vacation']})"
    return seat["name"] or "(open)"


def room_line(room: dict) -> Text:
    """One line of a list: the code, the seats, where the game stands; ▶ when it is the player's turn."""
    status = room["status"]
    if status == "waiting":
        free = sum(1 for seat in room["seats"] if seat["name"] is None)
        where = f"waiting for {free} more" if free else f"waiting for {room['creator']} to start"
    elif status == "over":
        where = rematch_row(room)
    else:
        where = your_turn_words(room) if room.get("your_turn") else room.get("says", "playing")
        if room.get("stood_in"):  # (the player left it: a computer plays for them until they take their seat)
            where = f"{where} · a computer plays for you"
    if room.get("pace", "live") != "live":  # (a game over days: its time a move)
        where = f"{where} · {room['pace']}"
    mark = ("▶ ", "bold reverse") if room.get("your_turn") else "  "
    return Text.assemble(mark, (room["code"], "bold"), f"  {seats_text(room)}  · {where}", gathered_words(room))


def gathered_words(room: dict) -> str:
    """What a row says of who else is there: " · you watch" (the player is a spectator), " · private",
    " · 2 spectators" (those who watch the room, whether at their screens now or not: the game's title names
    those watching now)."""
    watchers = len(room.get("watchers") or [])
    words = [
        "you watch" if room.get("watching") else "",
        "private" if room.get("private") else "",
        f"{watchers} spectator{'s' if watchers != 1 else ''}" if watchers else "",
    ]
    return "".join(f" · {word}" for word in words if word)


class LobbyScreen(Screen[None]):
    """Your games and the open rooms; Enter opens the one highlighted."""

    HELP_TITLE = "Lobby"
    HELP_EXTRA = [("↑ / ↓ / tab", "Move in a list, or to the other list")]
    BINDINGS = [
        Binding("c", "create", "New room"),
        Binding("j", "join", "Join by code"),
        Binding("s", "start", "Start"),
        Binding("w", "watch", "Watch"),
        Binding("l", "leave", "Leave room"),
        Binding("x", "cancel_room", "Cancel room"),
        Binding("r", "rename", "Rename"),
        Binding("v", "vacation", "Vacation"),
        Binding("n", "notices", "Notices"),
        Binding("f", "finished", "Finished games"),
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
        self._wanted: str | None = None  # a room of the player's to highlight once it is listed (`point_at`)

    def compose(self) -> ComposeResult:
        yield Static(title_text(self.player, self.lobby), classes="screen-title", id="lobby-title")
        yield Static(
            "Enter: open · c: new room · j: join by code · f: finished games · ?: every key",
            classes="hint",
        )
        yield Label("Your games", classes="list-title")
        yield OptionList(id="mine")
        yield Label("Open rooms", classes="list-title")
        yield OptionList(id="open")
        yield Static("", id="records", classes="hint")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.show(self.lobby)
        self.query_one("#mine", OptionList).focus()

    def show(self, lobby: dict) -> None:
        """The lists as the server last sent them, the highlight kept on the same room."""
        self.lobby = lobby
        lists = {key: self.query(f"#{key}").first(OptionList) for key in ("mine", "open") if self.query(f"#{key}")}
        if not self.is_mounted or len(lists) < 2:  # (its lists not there yet, or gone: `on_mount` shows it)
            return
        for key, empty in (("mine", "No games yet: c makes a room, j joins one."), ("open", "No open rooms.")):
            rooms = lobby.get(key, [])
            options = lists[key]
            kept = options.highlighted_option.id if options.highlighted_option else None
            options.clear_options()
            if rooms:
                options.add_options([Option(room_line(room), id=room["code"]) for room in rooms])
                codes = [room["code"] for room in rooms]
                if key == "mine" and self._wanted in codes:
                    kept, self._wanted = self._wanted, None
                options.highlighted = codes.index(kept) if kept in codes else 0
            else:
                options.add_option(Option(Text(empty, style="dim"), disabled=True))
        self.query_one("#lobby-title", Static).update(title_text(self.player, lobby))
        self._show_records()

    def point_at(self, code: str | None = None) -> None:
        """Your games focused, its highlight on room `code` (as soon as it is listed: a room just made), or on
        its first row (None: the game that has waited longest, coming back from a game)."""
        mine = self.query_one("#mine", OptionList)
        mine.focus()
        if code is None:
            self._wanted = None
            if mine.option_count:
                mine.highlighted = 0
        else:
            self._wanted = code
            self.show(self.lobby)

    @on(OptionList.OptionHighlighted)
    def _show_records(self) -> None:
        """The records of the players of the room highlighted in the list that has the focus."""
        focused = self.focused if isinstance(self.focused, OptionList) else self.query_one("#mine", OptionList)
        option = focused.highlighted_option
        self.query_one("#records", Static).update(records_line(self._room(option.id if option else None)))

    def _room(self, code: str | None) -> dict | None:
        return next((r for key in ("mine", "open") for r in self.lobby.get(key, []) if r["code"] == code), None)

    @on(OptionList.OptionSelected)
    def _opened(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        code = event.option.id
        if code is None:  # (the line that says a list is empty, which is disabled)
            return
        if event.option_list.id == "open":
            requests(self).join_room(code)
        else:
            requests(self).open_room(code)

    def _highlighted_mine(self) -> str | None:
        option = self.query_one("#mine", OptionList).highlighted_option
        return option.id if option else None

    def _form(self, form: Screen[Any], then: Callable[[Any], None] | None = None) -> None:
        """`form` over the lobby, the notices cleared first (at 80x24 they lay over a form's keys' line)."""
        self.app.clear_notifications()
        self.app.push_screen(form, then)

    def action_create(self) -> None:
        levels = self.lobby.get("levels") or ["normal"]
        self._form(
            RoomForm(levels, self.lobby.get("paces")),
            lambda request: requests(self).create_room(request) if request else None,
        )

    def action_join(self) -> None:
        self._form(CodeForm(), lambda code: requests(self).join_room(code) if code else None)

    def action_start(self) -> None:
        code = self._highlighted_mine()
        if code is None:
            self.notify("Highlight a room of yours under Your games first.")
            return
        room = next((r for r in self.lobby.get("mine", []) if r.get("code") == code), None)
        if room is not None and room.get("status") != "waiting":  # (s starts a room: it opens no game)
            self.notify(f"Room {code} has begun already: Enter opens it.", markup=False)
            return
        requests(self).start_room(code)

    def action_watch(self) -> None:
        """Watch the room highlighted under Open rooms, when that list is the one in use; else any room, by its
        code (a private room's, even with a seat free: a spectator's place, not a seat)."""
        rooms = self.query_one("#open", OptionList)
        option = rooms.highlighted_option if rooms.has_focus else None
        if option is not None and option.id is not None:
            requests(self).watch_room(option.id)
            return
        self._form(CodeForm(watch=True), lambda code: requests(self).watch_room(code) if code else None)

    def action_leave(self) -> None:
        self._on_mine(requests(self).leave_room, "Highlight a room you sit in or watch under Your games first.")

    def action_cancel_room(self) -> None:
        self._on_mine(requests(self).cancel_room, "Highlight a room you made under Your games first.")

    def _on_mine(self, ask: Callable[[str], None], missing: str) -> None:
        """`ask` for the room highlighted under Your games, or say `missing` if none is."""
        code = self._highlighted_mine()
        if code is None:
            self.notify(missing)
            return
        ask(code)

    def action_rename(self) -> None:
        self._form(RenameForm(self.player))

    def renamed(self, name: str) -> None:
        """The server took the player's new name: the title says it."""
        self.player = name
        self.query_one("#lobby-title", Static).update(title_text(name, self.lobby))

    def action_vacation(self) -> None:
        vacation = self.lobby.get("vacation") or {}
        self._form(
            VacationForm(vacation.get("until"), int(vacation.get("days_left", 0))),
            lambda days: requests(self).vacation(days) if days is not None else None,
        )

    def action_notices(self) -> None:
        self._form(NoticeForm(str(self.lobby.get("notices", "")), requests(self).give_notices))

    def action_finished(self) -> None:
        requests(self).finished_games()

    def action_help(self) -> None:
        show_help(self)


class NameForm(Screen[str]):
    """The name the other players will see, asked once for each key."""

    DEFAULT_CSS = """
    NameForm { align: center middle; }
    NameForm .dialog { max-width: 60; }
    """

    def __init__(self, problem: str = "") -> None:
        super().__init__()
        self.problem = problem

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Welcome to Lagoon. What name should the others see?", classes="dialog-title")
            yield Field(placeholder="your name", id="name", max_length=NAME_FIELD)
            yield Static("", classes="field-error", id="name-problem", markup=False)
            yield Static("Enter: go on · ctrl+q: quit", classes="hint")

    def on_mount(self) -> None:
        self.refused(self.problem)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        requests(self).choose_name(event.value)

    def refused(self, problem: str) -> None:
        show_problem(self.query_one("#name-problem", Static), problem)


class RenameForm(ModalScreen[None]):
    """A new name for the player, asked of the server: it stays open with the server's refusal under the field,
    and closes once the name is taken."""

    BINDINGS = [Binding("escape", "cancel", "Back")]
    DEFAULT_CSS = """
    RenameForm { align: center middle; }
    RenameForm .dialog { max-width: 60; }
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.former = name

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Your new name (games already begun keep the one they began with)", classes="dialog-title")
            yield Field(self.former, placeholder="your name", id="name", max_length=NAME_FIELD)
            yield Static("", classes="field-error", id="name-problem", markup=False)
            yield Static("Enter: rename · Esc: back", classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        requests(self).rename(event.value)

    def refused(self, problem: str) -> None:
        show_problem(self.query_one("#name-problem", Static), problem)

    def action_cancel(self) -> None:
        self.dismiss(None)


class CodeForm(ModalScreen[str | None]):
    """The code of a room to join (or, `watch`, to watch)."""

    BINDINGS = [Binding("escape", "cancel", "Back")]
    DEFAULT_CSS = """
    CodeForm { align: center middle; }
    CodeForm .dialog { max-width: 50; }
    """

    def __init__(self, watch: bool = False) -> None:
        super().__init__()
        self.verb = "watch" if watch else "join"

    def compose(self) -> ComposeResult:
        verb = self.verb
        with Vertical(classes="dialog"):
            yield Label(f"{verb.capitalize()} a room", classes="dialog-title")
            yield Field(placeholder="its code, as its maker gave it", id="code", max_length=CODE_FIELD)
            yield Static(f"Enter: {verb} · Esc: back", classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip().upper() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


def layouts(most: int = 4) -> list[tuple[str, list[str]]]:
    """Every way to fill a room of two to `most` seats, in words: you first, then friends, then computers."""

    def some(n: int, what: str) -> str:
        return "" if n == 0 else f"a {what}" if n == 1 else f"{n} {what}s"

    found = []
    for seats in range(2, most + 1):
        for computers in range(seats):
            friends = seats - 1 - computers
            others = [words for words in (some(friends, "friend"), some(computers, "computer")) if words]
            who = f"you and {others[0]}" if len(others) == 1 else f"you, {others[0]} and {others[1]}"
            found.append((f"{seats} seats: {who}", ["person"] * (1 + friends) + ["computer"] * computers))
    return found


def form_choice(label: str, choices: list[tuple[str, Any]], value: Any, id: str) -> Horizontal:
    """A row of a form: its label and a compact list of `choices` (words, value), `value` chosen."""
    return Horizontal(
        Label(label, classes="form-label"),
        Select(choices, value=value, allow_blank=False, compact=True, id=id),
        classes="form-row",
    )


class RoomForm(ModalScreen[dict | None]):
    """A new room: who sits at it (you first, then friends who join with its code, then computer players),
    the level its computers play at (`levels`, as the server offers them) and a seed if wanted. A digit or
    Enter on a line makes the room."""

    BINDINGS = [
        Binding("escape", "cancel", "Back"),
        Binding("p", "private", "Private or not"),
        *(Binding(str(n), f"make({n - 1})", show=False) for n in range(1, 10)),
    ]
    DEFAULT_CSS = """
    RoomForm { align: center middle; }
    RoomForm OptionList { height: auto; margin: 0 0 1 0; }
    RoomForm #seed { width: 20; }
    RoomForm #level { width: 20; }
    RoomForm #pace { width: 20; }
    RoomForm #private { width: 26; }
    """

    def __init__(self, levels: list[str], paces: list[list[str]] | None = None) -> None:
        super().__init__()
        self.layouts = layouts()
        self.levels = levels
        self.paces = paces or [["live", "live"]]  # (name, words), as the server offers them

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="room-dialog"):
            yield Label("New room", classes="dialog-title")
            yield OptionList(
                *(Option(f"{n + 1}. {words}") for n, (words, _seats) in enumerate(self.layouts)), id="layouts"
            )
            yield form_choice(
                "Computers",
                [(level.capitalize(), level) for level in self.levels],
                "normal" if "normal" in self.levels else self.levels[0],
                "level",
            )
            yield form_choice("Pace", [(words, name) for name, words in self.paces], self.paces[0][0], "pace")
            yield form_choice("Open to", [("Anyone: listed", False), ("Private: by its code", True)], False, "private")
            with Horizontal(classes="form-row"):
                yield Label("Seed", classes="form-label")
                yield Field("", placeholder="blank = random", compact=True, id="seed", max_length=SEED_FIELD)
            yield Static("", classes="field-error", id="room-problem")
            yield Static(
                "1-9 or Enter: make the room · p: private or not · Tab: the computers' level, the pace, the seed · "
                "Esc: back",
                classes="hint",
            )

    def on_mount(self) -> None:
        self.query_one("#layouts", OptionList).highlighted = 0

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_make(event.option_index)

    def on_input_submitted(self) -> None:
        self.action_make(self.query_one("#layouts", OptionList).highlighted or 0)

    def action_make(self, index: int) -> None:
        if not 0 <= index < len(self.layouts):
            return
        text = self.query_one("#seed", Input).value.strip()
        if text and not text.isdigit():
            show_problem(
                self.query_one("#room-problem", Static), "The seed is a whole number, or blank for a random game."
            )
            return
        level = str(self.query_one("#level", Select).value)
        seats = [level if kind == "computer" else kind for kind in self.layouts[index][1]]
        pace = str(self.query_one("#pace", Select).value)
        private = self.query_one("#private", Select).value is True
        self.dismiss(
            {"seats": seats, "seed": int(text) if text else None, "private": private}
            | ({"pace": pace} if pace != "live" else {})
        )

    def action_private(self) -> None:
        """p: the room private (only its code lets anyone in), or listed to everyone."""
        select = self.query_one("#private", Select)
        select.value = select.value is not True

    def action_cancel(self) -> None:
        self.dismiss(None)
