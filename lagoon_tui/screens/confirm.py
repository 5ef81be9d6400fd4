"""A yes/no question in a window over the screen."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question; y or Enter says yes, n or Esc says no."""

    BINDINGS = [
        Binding("y,enter", "answer(True)", "Yes", priority=True),
        Binding("n,escape", "answer(False)", "No", priority=True),
    ]

    def __init__(self, question: str, hint: str = "y: yes · n / Esc: no") -> None:
        """`hint`: the keys' line under the question (what yes and no do, where the question alone is not plain)."""
        super().__init__()
        self.question = question
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="confirm-dialog"):
            yield Label(self.question, classes="dialog-title", markup=False)  # (it may hold player names)
            yield Static(self.hint, classes="hint")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class QuitQuestion(ConfirmScreen):
    """ctrl+q during a turn of a person at this terminal: quit, or go back to the game (ctrl+q again: quit)."""

    def __init__(self, question: str) -> None:
        super().__init__(question, "y / Enter: quit · n / Esc: back to the game")
