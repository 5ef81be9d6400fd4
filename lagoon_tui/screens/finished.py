"""A player's finished games at the server, the newest first (`FinishedScreen`), opened from the lobby.

Each line: when it ended, the room, the place the player took and who played.
Enter opens the game's replay, v its score sheet (both from the game's whole
log, which the server sends once the game is over); Esc goes back.
"""

from __future__ import annotations

from typing import Any, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from rules.host import computer_words
from rules.seat import ordinal

from ..widgets.keys_footer import KeysFooter
from .help import show_help
from .served_end import EndRequests


def finished_line(game: dict[str, Any]) -> Text:
    """ "2026-11-27 16:40  ABC234  1st of 3 · Ana, Ben, Cleo (computer, Normal)"."""
    levels = game.get("levels", {})
    names = ", ".join(
        f"{name} ({computer_words(str(levels[str(n)]))})" if str(n) in levels else str(name)
        for n, name in enumerate(game["names"])
    )
    place = f"{ordinal(int(game['place']))} of {len(game['names'])}"
    return Text.assemble(f"{game['ended']}  ", (str(game["code"]), "bold"), f"  {place} · {names}")


class FinishedScreen(Screen[None]):
    """The games a player finished here, the newest first; Enter replays one, v shows its score sheet."""

    HELP_TITLE = "Finished games"
    BINDINGS = [
        Binding("v", "sheet", "Score sheet"),
        Binding("escape,b", "back", "Back"),
        Binding("question_mark", "help", "Keys", key_display="?"),
    ]
    DEFAULT_CSS = """
    FinishedScreen OptionList { height: auto; max-height: 80%; margin: 0 1; }
    """

    def __init__(self, games: list[dict[str, Any]]) -> None:
        super().__init__()
        self.games = games

    def compose(self) -> ComposeResult:
        yield Static("Your finished games", classes="screen-title")
        yield Static("Enter: replay · v: score sheet · Esc: back to the lobby", classes="hint")
        if self.games:
            yield OptionList(id="finished")
        else:
            yield Label("No finished games yet.", classes="hint")
        yield KeysFooter()

    def on_mount(self) -> None:
        for options in self.query(OptionList):  # (filled once laid out, as the lobby's lists are)
            options.add_options([Option(finished_line(g), id=str(g["code"])) for g in self.games])
            options.highlighted = 0
            options.focus()

    def _code(self) -> str | None:
        options = self.query(OptionList)
        option = options.first().highlighted_option if options else None
        return option.id if option else None

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            cast(EndRequests, self.app).show_finished(event.option.id)

    def action_sheet(self) -> None:
        code = self._code()
        if code is not None:
            cast(EndRequests, self.app).show_finished(code, sheet=True)

    def action_back(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        show_help(self)
