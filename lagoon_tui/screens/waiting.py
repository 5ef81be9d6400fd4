"""A screen that says what the app is waiting for (the game's server, as a seat joins)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Label, Static


class WaitingScreen(Screen[None]):
    def __init__(self, what: str) -> None:
        super().__init__()
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.what, classes="dialog-title", markup=False)
            yield Static("ctrl+q: quit", classes="hint")
