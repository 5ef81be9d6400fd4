"""The lobby's forms for games over days: going on vacation (`VacationForm`) and notices (`NoticeForm`).

v in the lobby: a player not away gives a number of days (their clocks stop
meanwhile, `lagoon_tui.serve.vacation`); one away is asked whether to come
back now. n: the URL the server POSTs "your turn" to while they are not
connected (`lagoon_tui.serve.notices`). What each does is the server's.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from ..widgets.field import Field, show_problem

DAYS_FIELD = 3
URL_FIELD = 400  # (as `serve.notices.URL_LONGEST`: a longer one is refused there)


class VacationForm(ModalScreen[int | None]):
    """Days away (dismissed with their number), or, for one away already, 0: back now."""

    BINDINGS = [Binding("escape", "cancel", "Back"), Binding("enter", "back_now", "Back now", show=False)]
    DEFAULT_CSS = """
    VacationForm { align: center middle; }
    VacationForm .dialog { max-width: 64; }
    """

    def __init__(self, until: str | None, days_left: int) -> None:
        super().__init__()
        self.until = until
        self.days_left = days_left

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            if self.until is not None:
                yield Label(f"You are on vacation until {self.until}.", classes="dialog-title")
                yield Static("Enter: come back now (your clocks run again) · Esc: stay away", classes="hint")
                return
            yield Label("Vacation: the clocks of all your games stop while you are away", classes="dialog-title")
            yield Static(f"How many days? You have {self.days_left} left this year.")
            yield Field(placeholder="days", id="days", max_length=DAYS_FIELD)
            yield Static("", classes="field-error", id="days-problem")
            yield Static("Enter: go away · Esc: back", classes="hint")

    def action_back_now(self) -> None:
        """Enter, for one away already: back now (a binding, so the key ends here and opens nothing beneath)."""
        if self.until is not None:
            self.dismiss(0)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text.isdigit() or not 1 <= int(text) <= self.days_left:
            problem = self.query_one("#days-problem", Static)
            problem.update(f"Give a number of days from 1 to {self.days_left}.")
            problem.set_class(True, "-shown")
            return
        self.dismiss(int(text))

    def action_cancel(self) -> None:
        self.dismiss(None)


class NoticeForm(ModalScreen[str | None]):
    """The URL for notices, given to `give` ("" for none): dismissed with it once taken; a refusal (`give`'s
    answer) is said under the field, what was typed kept."""

    BINDINGS = [Binding("escape", "cancel", "Back")]
    DEFAULT_CSS = """
    NoticeForm { align: center middle; }
    NoticeForm .dialog { max-width: 72; }
    """

    def __init__(self, url: str, give: Callable[[str], str | None]) -> None:
        super().__init__()
        self.url, self.give = url, give

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Notices while you are not connected", classes="dialog-title")
            yield Static(
                'The server POSTs "your turn in game N" to this URL (http or https), '
                "at most once a game an hour. Leave it empty for none."
            )
            yield Field(self.url, placeholder="https://…", id="url", max_length=URL_FIELD)
            yield Static("", classes="field-error", id="url-problem")
            yield Static("Enter: keep · Esc: back", classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        url = event.value.strip()
        problem = self.give(url)
        if problem is None:
            self.dismiss(url)
        else:
            show_problem(self.query_one("#url-problem", Static), problem)

    def action_cancel(self) -> None:
        self.dismiss(None)
