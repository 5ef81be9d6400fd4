"""One island of the lagoon: its action spaces, who took them, what they cost you, whose ship is here."""
from __future__ import annotations

from rich.console import Group
from rich.text import Text

from rules.actions import ACTION_NAMES
from rules.registry import MINER_ACTIONS

from ..scene import Scene
from ._common import Panel, Spread, label, muted, plural, ship_seats, tags


class IslandPanel(Panel):
    """Island `island`: action spaces with their users this round and their cost to the seat at the keyboard."""

    DEFAULT_CSS = """
    IslandPanel {
        border: round $panel-lighten-2;
    }
    IslandPanel.-here {
        border: double $accent;
    }
    """

    def __init__(self, island: int, **kwargs) -> None:
        super().__init__(**kwargs)
        self.island = island
        self.border_title = f"Island {island}"

    def show(self, scene: Scene) -> None:
        view, seat = scene.view, scene.seat
        key = (seat, view.get("phase"), view.get("islands_chosen"), view.get("space_users"),
               (view.get("artifacts") or {}).get(str(self.island)),
               [(p["name"], p["colour"], p.get("island"), p.get("used")) for p in view["players"]])
        if self.unchanged(scene, key):
            return
        isl = scene.content.board.island(self.island)
        self.set_titles(f"Island {isl.number} · {isl.name}", f"{isl.number} · {isl.name}", f"Island {isl.number}")

        docked = ship_seats(scene, self.island)
        here = seat is not None and seat in docked
        self.set_class(here, "-here")
        self.border_subtitle = "your ship is here" if here else None

        lines: list = []
        selecting = view.get("phase") == "island_selection"
        ships = Text.assemble(label("Chosen by: " if selecting else "Ships here: "),
                              tags(scene, docked) if docked else muted("none"))
        if here:
            ships.append("  ◀ you", style="bold")
        lines.append(ships)

        left = (view.get("artifacts") or {}).get(str(self.island))
        if isl.artifacts:
            price = scene.content.board.artifact_price
            lines.append(Text.assemble(label("Artifacts left"), muted(f" ({price} raw each)"), label(": "),
                                       ", ".join(left) if left else muted("none")))

        users_by_space = view.get("space_users") or {}
        lines.append(Text(""))
        lines.append(Spread(label("Action"), label("Cost to you" if seat is not None else "Cost")))
        mine_used = set(scene.player(seat)["used"]) if seat is not None else set()
        for action in isl.actions:
            space = f"{self.island}:{action}"
            users = users_by_space.get(space) or []
            lines.append(Spread(Text(ACTION_NAMES.get(action, action)),
                                self._cost(action, space, users, seat, mine_used)))
            if users:
                lines.append(Text.assemble(("  taken by ", "dim"), tags(scene, dict.fromkeys(users))))
        self.update(Group(*lines))

    @staticmethod
    def _cost(action: str, space: str, users: list[int], seat: int | None, mine_used: set[str]) -> Text:
        if seat is not None and space in mine_used:
            return muted("you took it")
        if action in MINER_ACTIONS:
            return Text("miners")
        others = {u for u in users if u != seat}
        cost = 1 + len(others)
        return Text(plural(cost, "merchant"), style="bold reverse" if cost > 1 else "")
