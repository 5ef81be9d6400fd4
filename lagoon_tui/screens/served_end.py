"""The end of a game of `lagoon serve`: the sheet, a rematch, the replay (`ServedEndScreen`).

The end screen of a game hosted by the server: the same sheet, and below it
where the rematch stands (who accepted, who is awaited, who declined), told
by the server as it changes. m accepts a rematch (or asks for one), d
declines it, p opens the replay of the game (its score sheet is v there),
b leaves for the lobby. What is done is the server's: the keys send requests
through the app (`EndRequests`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, cast

from rich.text import Text
from textual.binding import Binding
from textual.widgets import Static
from textual.widgets.option_list import Option

from ..scene import Scene
from .end import EndScreen


class EndRequests(Protocol):
    """What the screen asks of its app (the session app of `lagoon serve`)."""

    def answer_rematch(self, accept: bool | None) -> dict | None: ...
    def show_finished(self, code: str | None, *, sheet: bool = False) -> None: ...


ASK = "m: a rematch (the same seats, a new game)"


def rematch_words(state: Mapping[str, Any] | None, seat: int | None = None) -> str:
    """Where a rematch stands in words; with the keys `seat`'s player may press ("" for nothing to say)."""
    if not state:
        return ASK if seat is not None else ""
    if state.get("started"):
        return f"Rematch: everyone accepted; it is played in room {state['started']}."
    seats = state.get("seats", [])
    accepted = [s for s in seats if s.get("accepted")]
    if not accepted or all(s.get("computer") for s in accepted):
        declined = state.get("declined")
        asked = f"{declined} declined the rematch." if declined else ""
        keys = ASK if seat is not None else ""
        return " ".join(part for part in (asked, keys) if part)
    said = ", ".join(s["name"] + (" (computer)" if s.get("computer") else "") for s in accepted)
    awaited = ", ".join(s["name"] for s in seats if not s.get("accepted"))
    words = f"Rematch: {said} accepted · waiting for {awaited}"
    if seat is not None and 0 <= seat < len(seats):
        words += " · d: decline" if seats[seat].get("accepted") else " · m: accept · d: decline"
    return words


class ServedEndScreen(EndScreen):
    """The final ranking of a game of the server; m rematch, d decline, p replay, b back to the lobby."""

    BINDINGS = [
        Binding("b", "title", "Leave"),
        Binding("m", "rematch(True)", "Rematch"),
        Binding("d", "rematch(False)", "Decline", show=False),
    ]
    DEFAULT_CSS = """
    ServedEndScreen #rematch { text-align: center; height: auto; color: $text-accent; }
    """

    def __init__(self, scene: Scene, *, seat: int | None, levels: Mapping[int, str] | None = None) -> None:
        super().__init__(scene, away=True, levels=levels)
        self.seat = seat  # (None: a spectator, who watches the rematch asked for, and answers nothing)
        self.standing: dict | None = None

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#end-box").mount(Static(id="rematch", markup=False), before="#end-menu")
        answer = cast(EndRequests, self.app).answer_rematch(None)
        self.told(answer.get("rematch") if answer else None)

    def _choices(self) -> list[Option]:
        keys = [Option("Leave  (b)", id="title"), Option("Replay  (p)", id="replay")]
        return keys + ([Option("Rematch  (m)", id="rematch")] if self.seat is not None else [])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "replay":
            return True
        if action == "rematch":
            return self.seat is not None
        return super().check_action(action, parameters)

    def chosen(self, choice: str) -> None:
        if choice == "replay":
            self.action_replay()
        elif choice == "rematch":
            self.action_rematch(True)
        else:
            super().chosen(choice)

    def told(self, state: dict | None) -> None:
        """Where the rematch stands, as the server last said."""
        self.standing = state
        for line in self.query("#rematch").results(Static):
            line.update(Text(rematch_words(state, self.seat)))

    def action_rematch(self, accept: bool) -> None:
        answer = cast(EndRequests, self.app).answer_rematch(accept)
        if answer is not None:
            self.told(answer.get("rematch"))

    def action_replay(self) -> None:
        cast(EndRequests, self.app).show_finished(None)
