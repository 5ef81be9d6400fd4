"""What the panels draw: one immutable snapshot of the game for the seat at the keyboard.

The game screen builds a `Scene` from the engine after every accepted choice
and hands it to each panel's `show(scene)`. Panels read only the scene (never
the engine, never each other), so a panel can never show what that seat may
not know: `view` is `rules.view(state, seat)`, already stripped of secrets.
"""

from __future__ import annotations

from rich.text import Text

from rules.cards import Content
from rules.decision import Decision
from rules.record import FrozenRecord, frozen_record
from rules.seat import Line

COLOUR_STYLES = {"red": "bold red", "yellow": "bold yellow", "green": "bold green", "blue": "bold blue"}
COLOUR_LETTERS = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}


@frozen_record
class Scene(FrozenRecord):
    view: dict  # rules.view(state, seat): plain JSON-like data, secrets removed
    content: Content
    seat: int | None  # the seat at the keyboard; None when nobody's secrets may show
    decision: Decision  # the pending decision
    log: tuple[Line, ...] = ()
    undo: str = ""  # what `u` would take back now, or why it cannot ("" when not asked)
    last_space: str | None = None  # the action space ("2:buy_equipment") of another player's last action
    # since this seat last moved: marked on its island

    @property
    def players(self) -> list[dict]:
        return self.view["players"]

    def player(self, seat: int) -> dict:
        return self.view["players"][seat]

    def tag(self, seat: int | None) -> Text:
        """A player's name with their colour *and* letter, so colour is never the only cue."""
        if seat is None:
            return Text("—")
        p = self.player(seat)
        return Text(
            f"{p['name']} [{COLOUR_LETTERS.get(p['colour'], '?')}]", style=COLOUR_STYLES.get(p["colour"], "bold")
        )

    def marker(self, seat: int) -> Text:
        """One letter in the player's colour (for tight places such as the Enrichment Center)."""
        colour = self.player(seat)["colour"]
        return Text(COLOUR_LETTERS.get(colour, "?"), style=COLOUR_STYLES.get(colour, "bold"))

    def acting_seat(self) -> int | None:
        """Whose move it is now (island choice, action, or a step of an action)."""
        if self.view.get("phase") == "over":
            return None
        return self.decision.seat

    def ship_seats(self, island: int) -> list[int]:
        """Seats whose ship is at `island` now; while islands are being chosen, who chose it."""
        view = self.view
        if view.get("phase") == "island_selection":
            chosen = view.get("islands_chosen") or {}
            seat = chosen.get(str(island))
            return [] if seat is None else [seat]
        return [p["seat"] for p in view["players"] if p.get("island") == island]
