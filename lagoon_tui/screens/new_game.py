"""The new-game form: seats, names, colours, who plays each seat (a person or a computer at a
level), an optional seed and the start player.

The form returns a `GameSettings` (or None when the player backs out). It only
checks what a person could get wrong while typing; the engine still decides
everything about the game itself. The checks live in `check_settings` (lagoon_tui/settings.py),
a plain function, so they can be tested without a screen.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from lagoon_tui.scene import COLOUR_LETTERS, COLOUR_STYLES
from lagoon_tui.screens.help import show_help
from lagoon_tui.settings import COLOURS, DEFAULT_NAMES, PERSON, SEATS_MAX, SEATS_MIN, GameSettings, check_settings
from lagoon_tui.widgets.field import NAME_FIELD, SEED_FIELD, Field
from lagoon_tui.widgets.keys_footer import KeysFooter
from rules.host import LEVELS, NAME_SHOWN, normal_name, printable
from rules.seat import shown_safely

RANDOM = -1  # the start-player choice "Random" (Select values must not be None)


PLAYERS = [("Person", PERSON)] + [(f"Computer · {level.capitalize()}", level) for level in LEVELS]
"""Who may play a seat: a person, or a computer at one of the levels."""


def colour_label(colour: str) -> Text:
    """A colour as its letter and its name, so the choice never rests on colour alone."""
    return Text.assemble((COLOUR_LETTERS.get(colour, "?"), COLOUR_STYLES.get(colour, "bold")), f" {colour}")


class NewGameScreen(ModalScreen[GameSettings | None]):
    """Set up a game; Enter in a field or Start begins it, Esc backs out with None."""

    HELP_TITLE = "New game"
    HELP_EXTRA = [
        ("↑ ↓ / tab", "Next or previous field"),
        ("enter", "In a name, the seed or on Start: start the game"),
        ("enter / space", "On a list: open it; ↑ ↓ and enter pick an entry"),
    ]
    BINDINGS = [
        Binding("escape", "cancel", "Back"),
        # priority: a closed list would open on ↓ itself; an open one keeps its keys (check_action)
        Binding("down", "next_field", "Next field", show=False, priority=True),
        Binding("up", "previous_field", "Previous field", show=False, priority=True),
        Binding("ctrl+s", "start", "Start game"),
        Binding("f1", "rules", "Rules"),  # a modal screen hides the app's own keys, so repeat it
        Binding("f2", "help", "Keys"),  # "?" would be typed into a name
    ]

    def __init__(self, seats: int = SEATS_MIN) -> None:
        super().__init__()
        self.initial_seats = max(SEATS_MIN, min(SEATS_MAX, seats))

    # -- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical(id="new-game-dialog", classes="dialog"):
            yield Label("New game", classes="dialog-title")
            with VerticalScroll(id="new-game-form"):
                with Horizontal(classes="form-row"):
                    yield Label("Players", classes="form-label")
                    yield Select(
                        [(f"{n} players", n) for n in range(SEATS_MIN, SEATS_MAX + 1)],
                        value=self.initial_seats,
                        allow_blank=False,
                        compact=True,
                        id="seats",
                    )
                for seat in range(SEATS_MAX):
                    with Horizontal(classes="form-row seat-row", id=f"seat-row-{seat}"):
                        yield Label(f"Seat {seat + 1}", classes="form-label")
                        yield Field(
                            DEFAULT_NAMES[seat],
                            max_length=NAME_FIELD,
                            placeholder="name",
                            compact=True,
                            id=f"name-{seat}",
                            classes="seat-name",
                        )
                        yield Select(
                            [(colour_label(c), c) for c in COLOURS],
                            value=COLOURS[seat],
                            allow_blank=False,
                            compact=True,
                            id=f"colour-{seat}",
                            classes="seat-colour",
                        )
                        yield Select(
                            PLAYERS,
                            value=PERSON,
                            allow_blank=False,
                            compact=True,
                            id=f"player-{seat}",
                            classes="seat-player",
                        )
                    # (under its row, the whole width: beside three fields it had no room at 80 columns)
                    yield Static("", classes="field-error seat-error", id=f"error-seat-{seat}")
                with Horizontal(classes="form-row"):
                    yield Label("Seed", classes="form-label")
                    yield Field("", placeholder="blank = random", compact=True, id="seed", max_length=SEED_FIELD)
                    yield Static("", classes="field-error", id="error-seed")
                with Horizontal(classes="form-row"):
                    yield Label("Starts", classes="form-label")
                    yield Select(
                        self._start_options(self.initial_seats),
                        value=RANDOM,
                        allow_blank=False,
                        compact=True,
                        id="start",
                    )
                    yield Static("", classes="field-error", id="error-start")
                with Horizontal(classes="form-row button-row"):
                    yield Button("Start", variant="primary", compact=True, id="start-button")
                    yield Button("Cancel", compact=True, id="cancel-button")
            yield Static(self._hint(), classes="hint", id="new-game-hint")
        yield KeysFooter()

    def _hint(self) -> str:
        """What the keys do where the cursor is: Enter opens a list, and starts the game anywhere else."""
        on_list = isinstance(self.focused, Select)
        enter = "Enter: open the list · ctrl+s: start" if on_list else "Enter: start"
        return f"↑ ↓ or Tab: move between fields · {enter} · Esc: back"

    def on_descendant_focus(self) -> None:
        self.query_one("#new-game-hint", Static).update(self._hint())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("next_field", "previous_field") and any(s.expanded for s in self.query(Select)):
            return False  # ↑ ↓ move in the open list
        return True

    def action_next_field(self) -> None:
        self.focus_next()

    def action_previous_field(self) -> None:
        self.focus_previous()

    def on_mount(self) -> None:
        self._show_seats(self.initial_seats)
        self.query_one("#name-0", Input).focus()

    # -- reading the form ------------------------------------------------------------------

    @property
    def seats(self) -> int:
        value = self.query_one("#seats", Select).value
        return value if isinstance(value, int) else SEATS_MIN

    def _names(self, seats: int) -> list[str]:
        return [self.query_one(f"#name-{s}", Input).value for s in range(seats)]

    def _colours(self, seats: int) -> list[str]:
        return [str(self.query_one(f"#colour-{s}", Select).value) for s in range(seats)]

    def _players(self, seats: int) -> list[str]:
        return [str(self.query_one(f"#player-{s}", Select).value) for s in range(seats)]

    def _start_options(self, seats: int, names: list[str] | None = None) -> list[tuple[str | Text, int]]:
        """Random, or each seat by the name typed so far (plain text: a name such as "[/]" is not markup)."""
        names = names or list(DEFAULT_NAMES[:seats])
        return [("Random", RANDOM)] + [
            (Text(f"Seat {s + 1}: " + (printable(shown_safely(normal_name(name)), NAME_SHOWN) or "(no name)")), s)
            for s, name in enumerate(names)
        ]

    # -- keeping the form consistent ---------------------------------------------------------

    def _show_seats(self, seats: int) -> None:
        for seat in range(SEATS_MAX):
            self.query_one(f"#seat-row-{seat}").display = seat < seats
            if seat >= seats:
                self._set_error(f"#error-seat-{seat}", "")
        self._refresh_start_options()

    def _refresh_start_options(self) -> None:
        start = self.query_one("#start", Select)
        keep = start.value
        seats = self.seats
        start.set_options(self._start_options(seats, self._names(seats)))
        start.value = keep if isinstance(keep, int) and keep < seats else RANDOM

    @on(Select.Changed, "#seats")
    def _seats_changed(self, event: Select.Changed) -> None:
        self._show_seats(self.seats)

    @on(Input.Changed, ".seat-name")
    def _name_changed(self, event: Input.Changed) -> None:
        self._refresh_start_options()

    # -- starting ---------------------------------------------------------------------------

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_start()

    @on(Button.Pressed, "#start-button")
    def _start_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_start()

    @on(Button.Pressed, "#cancel-button")
    def _cancel_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_cancel()

    def action_start(self) -> None:
        """Check the form; start with its settings, or say what is wrong and change nothing."""
        if not self.is_active:
            return  # (a second Enter, sent before the first had closed the form)
        seats = self.seats
        start = self.query_one("#start", Select).value
        settings, problems = check_settings(
            self._names(seats),
            self._colours(seats),
            self.query_one("#seed", Input).value,
            None if start == RANDOM or not isinstance(start, int) else start,
            self._players(seats),
        )
        self._show_problems(problems, seats)
        if settings is not None:
            self.dismiss(settings)

    def _show_problems(self, problems: dict[str, str], seats: int) -> None:
        for seat in range(SEATS_MAX):
            words = [problems[k] for k in (f"name-{seat}", f"colour-{seat}", f"player-{seat}") if k in problems]
            self._set_error(f"#error-seat-{seat}", " ".join(words))
        self._set_error("#error-seed", problems.get("seed", ""))
        self._set_error("#error-start", problems.get("start", ""))
        first = next(
            (
                k
                for k in [f"name-{s}" for s in range(seats)] + [f"colour-{s}" for s in range(seats)] + ["seed", "start"]
                if k in problems
            ),
            None,
        )
        if first is not None:
            self.query_one(f"#{first}").focus()

    def _set_error(self, selector: str, message: str) -> None:
        error = self.query_one(selector, Static)
        error.update(Text(printable(message)))  # (it may quote a name as typed: plain text)
        error.set_class(bool(message), "-shown")

    def action_cancel(self) -> None:
        self.dismiss(None)

    async def action_rules(self) -> None:
        """The rules open over the form; closing them comes back to it as it was."""
        await self.app.run_action("rules")

    def action_help(self) -> None:
        show_help(self)
