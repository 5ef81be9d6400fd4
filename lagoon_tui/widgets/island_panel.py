"""One island of the lagoon: its action spaces, who took them, what they cost you, whose ship is here."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.text import Text

from rules.seat import Space

from ..board_items import space_key
from ..scene import Scene, colour_marker, player_tag
from .note import Panel
from .renderables import Fit, Flow, render_keys
from .spotlight import tagged_text
from .words import changed_after, join, label, muted

SHORT_ACTION_NAMES = {
    "buy_artifact": "Artifact",
    "operate_mining_site": "Mine",
    "draw_or_close_deal": "Deal",
    "trade": "Trade",
    "buy_equipment": "Equipment",
    "recruit_merchant": "+Merchant",
    "recruit_miner": "+Miner",
    "make_shipment": "Shipment",
    "draw_place_galleries": "Galleries",
    "enrichment_transaction": "Enrich",
    "depart_island": "Depart",
}
"""Action names for narrow panels; the prompt, the rules and `i` (inspect) give the full ones."""

LAST_MOVE = "» "
"""Before the action space of the latest action another player took since the seat at the keyboard moved."""


@dataclass(frozen=True)
class Row:
    """One action space: its names, who took it this round, and its cost to the seat at the keyboard."""

    name: str
    short: str
    users: Text  # tags: "Ben [Y], Dev [B]"
    letters: Text  # markers: "Y B"
    costs: tuple[Text, ...]  # longest first: "2 merchants", "2 merch.", "2m"
    look: str = ""  # the space's key for look mode (`board_items.space_key`)


class ActionRows:
    """One line per action space: name on the left, users and cost on the right, costs in a column.

    The longest layout that fits the width is used: full names and player
    tags, then full names and player letters, then short names with shorter
    costs. When not even the shortest fits, each row wraps on its own.
    """

    def __init__(self, rows: list[Row]):
        self.rows = rows

    def key(self) -> tuple | None:
        parts = (part for r in self.rows for part in (r.name, r.short, r.users, r.letters, *r.costs, r.look))
        return render_keys("ActionRows", *parts)

    def _layouts(self) -> Iterator[tuple[str, str, int]]:
        """The layouts, widest first: the name's attribute, the users' attribute, and which cost."""
        long_cost, mid_cost, short_cost = 0, 1, 2
        yield "name", "users", long_cost
        yield "name", "letters", long_cost
        yield "short", "letters", long_cost
        yield "short", "letters", mid_cost
        yield "short", "letters", short_cost

    def _width(self, layout: tuple[str, str, int]) -> tuple[int, int, int]:
        name, users, cost = layout
        name_w = max(len(getattr(r, name)) for r in self.rows)
        users_w = max(getattr(r, users).cell_len for r in self.rows)
        cost_w = max(r.costs[cost].cell_len for r in self.rows)
        return name_w, users_w, cost_w

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        *_, last = self._layouts()
        narrow = sum(self._width(last)) + 2
        wide = sum(self._width(next(self._layouts()))) + 2
        return Measurement(min(narrow, options.max_width), min(wide, options.max_width))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        chosen = None
        for layout in self._layouts():
            name_w, users_w, cost_w = self._width(layout)
            if name_w + 1 + users_w + 1 + cost_w <= width:
                chosen = layout
                break
        if chosen is None:  # too narrow even for short names: each row wraps by itself
            for r in self.rows:
                yield Flow([tagged_text(Text(r.short), r.look), r.letters, r.costs[-1]], " ")
            return
        name, users, cost = chosen
        for r in self.rows:
            cost_text = r.costs[cost]
            who = getattr(r, users)
            line = tagged_text(Text(getattr(r, name)), r.look)
            right = Text.assemble(who, " " if who.cell_len else "", cost_text)
            line.append(" " * max(1, width - line.cell_len - right.cell_len))
            line.append_text(right)
            yield line


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

    def __init__(self, island: int, **kwargs: str | None) -> None:
        super().__init__(**kwargs)
        self.island = island
        self.set_border_title(f"Island {island}")
        self._title_widths: list[int] = []

    def _fit_title(self) -> None:
        if not self._titles or not self._title_widths:
            return super()._fit_title()
        room = self.outer_size.width - 6
        fits = [t for t, w in zip(self._titles, self._title_widths) if w <= room]
        self.set_border_title(fits[0] if fits else self._titles[-1])

    def show(self, scene: Scene) -> None:
        view, seat = scene.view, scene.seat
        # only what this island shows: a move on another island leaves it as it is
        spaces = [space for space in scene.spaces if space.island == self.island]
        last = any(space.latest for space in spaces)
        # since the reader's last move: the spaces others took, the artifacts bought here
        # (spaces emptied by a new round are not marked: the round track marks the round)
        taken = (
            [space.key for space in spaces if space.users and scene.changed("space_users", space.key)]
            if scene.changed("space_users")
            else []
        )
        bought = scene.changed("artifacts", self.island)
        # while islands are chosen: an island another player chose since (every choice of a round begun since)
        chosen = (
            view.get("phase") == "island_selection"
            and bool(scene.ship_seats(self.island))
            and (scene.changed("round") or scene.changed("islands_chosen", self.island))
        )
        sailed = scene.ships_came_or_went(self.island)
        key = (
            taken,
            bought,
            chosen,
            sailed,
            seat,
            view.get("phase"),
            scene.ship_seats(self.island),
            spaces,
            (view.get("artifacts") or {}).get(str(self.island)),
            [(p["name"], p["colour"]) for p in view["players"]],
        )
        if self.unchanged(scene, key):
            return
        isl = scene.content.board.island(self.island)
        if not self._title_widths:  # every island is titled alike: the long form only when the longest name fits it
            self._title_widths = [
                max(len(f"Island {i.number} · {i.name}") for i in scene.content.board.islands),
                max(len(f"{i.number} · {i.name}") for i in scene.content.board.islands),
                0,
            ]
            self.set_titles(f"Island {isl.number} · {isl.name}", f"{isl.number} · {isl.name}", f"Island {isl.number}")

        docked = tuple(scene.ship_seats(self.island))
        here = seat is not None and seat in docked
        if self.has_class("-here") != here:
            self.set_class(here, "-here")
        notes = ["your ship"] * here + [f"{LAST_MOVE}last move"] * bool(last)
        self.set_border_subtitle(" · ".join(notes) or None)

        people = tuple((p["name"], p["colour"]) for p in view["players"])
        selecting = view.get("phase") == "island_selection"
        lines: list = [self.made(ships_line, people, docked, selecting, chosen if selecting else sailed, here)]
        if isl.artifacts:
            left = (view.get("artifacts") or {}).get(str(self.island))
            price = scene.content.board.artifact_price
            lines.append(self.made(artifacts_line, price, tuple(left or ()), bought))
        rows = tuple(
            (
                space.name,
                SHORT_ACTION_NAMES.get(space.action, space.name),
                space.latest,  # the others' latest action since you last moved
                tuple(space.users),
                space.key in taken,  # (and every space taken since: after who took it)
                self._cost(space),
                space.key,
            )
            for space in spaces
        )
        lines.append(self.made(action_rows, people, rows))
        self.update(Group(*lines))

    @staticmethod
    def _cost(space: Space) -> int | str:
        """What the space costs the seat at the keyboard: merchants, or "taken" (by them) or "miners"."""
        return "taken" if space.taken else "miners" if space.by_miners else space.merchants


def _tags(people: tuple[tuple[str, str], ...], seats: tuple[int, ...]) -> Text:
    """Players' tags ("Ana [R], Ben [Y]") from their names and colours."""
    return join((player_tag({"name": people[s][0], "colour": people[s][1]}) for s in seats), ", ")


def _markers(people: tuple[tuple[str, str], ...], seats: tuple[int, ...]) -> Text:
    """Players as their coloured letters ("R Y"), for narrow panels."""
    return join((colour_marker(people[s][1]) for s in seats), " ")


def ships_line(
    people: tuple[tuple[str, str], ...], docked: tuple[int, ...], selecting: bool, marked: bool, here: bool
) -> Fit:
    """Whose ships are at the island (while islands are chosen: who chose it), longest form that fits."""
    you = Text("  ◀ you", style="bold") if here else Text("")
    mark = changed_after(marked)
    if not docked:
        who = (muted("none"),) * 2
    else:
        who = (_tags(people, docked), _markers(people, docked))
    if selecting:
        return Fit(
            Text.assemble(label("Chosen by: "), who[0], mark, you),
            Text.assemble(label("Chosen by: "), who[1], mark, you),
        )
    return Fit(
        Text.assemble(label("Ships here: "), who[0], mark, you),
        Text.assemble(label("Ships: "), who[0], mark, you),
        Text.assemble(label("Ships: "), who[1], mark, you),
    )


def artifacts_line(price: int, left: tuple[str, ...], bought: bool) -> Fit:
    """The artifacts still for sale at the island and their price in raw cubes."""
    return Fit(
        Text.assemble(
            label("Artifacts left "),
            muted(f"({price} raw each)"),
            label(": "),
            ", ".join(left) if left else muted("none"),
            changed_after(bought),
        ),
        Text.assemble(
            label("Artifacts left "),
            muted(f"({price} raw)"),
            label(": "),
            " ".join(left) if left else muted("none"),
            changed_after(bought),
        ),
        Flow(
            [
                Text.assemble(label("Artifacts left "), muted(f"({price} raw)"), label(":")),
                *(left or [muted("none")]),
                *[changed_after(bought)] * bought,
            ],
            " ",
        ),
    )


def action_rows(
    people: tuple[tuple[str, str], ...],
    spaces: tuple[tuple[str, str, bool, tuple[int, ...], bool, int | str, str], ...],
) -> ActionRows:
    """The island's action spaces (name, short name, whether it was the latest move, who took it, whether that
    is new, its cost, its key) as rows."""
    rows = []
    for name, short, latest, users, new, cost, key in spaces:
        mark = LAST_MOVE if latest else ""
        after = changed_after(new)
        rows.append(
            Row(
                mark + name,
                mark + short,
                Text.assemble(_tags(people, users), after),
                Text.assemble(_markers(people, users), after),
                costs(cost),
                space_key(key),
            )
        )
    return ActionRows(rows)


def costs(cost: int | str) -> tuple[Text, ...]:
    """A space's cost to the seat at the keyboard (`IslandPanel._cost`), from the longest wording to the shortest."""
    if cost == "taken":
        return muted("you took it"), muted("taken"), muted("taken")
    if cost == "miners":
        return Text("miners"), Text("miners"), Text("miners")
    cost = int(cost)
    style = "bold reverse" if cost > 1 else ""
    return (
        Text("1 merchant" if cost == 1 else f"{cost} merchants", style=style),
        Text(f"{cost} merch.", style=style),
        Text(f"{cost}m", style=style),
    )
