"""What the panels draw: a seat's message (`rules.seat.SeatScene`) with the game's printed content.

The game screen asks the host for the message of the seat at the keyboard
after every change of the game and hands it, as a `Scene`, to each panel's
`show(scene)`. Panels read only the scene (never the engine, never each
other), so a panel can never show what that seat may not know, and never
works out a rule: the message holds what the rules say (costs, what the seat
can pay for, undo, the options with what each is about).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from rules.host import computer_words, level_word
from rules.seat import SECRET_HAND, Content, Line, Prompt, SeatScene, Space, Turn

COLOUR_STYLES = {"red": "bold red", "yellow": "bold yellow", "green": "bold green", "blue": "bold blue"}
COLOUR_LETTERS = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}


def player_tag(player: dict) -> Text:
    """ "Ana [R]": a player's name with their colour *and* letter, so colour is never the only cue."""
    colour = player["colour"]
    return Text(f"{player['name']} [{COLOUR_LETTERS.get(colour, '?')}]", style=COLOUR_STYLES.get(colour, "bold"))


def colour_marker(colour: str) -> Text:
    """One letter in a player's colour: "R" in red."""
    return Text(COLOUR_LETTERS.get(colour, "?"), style=COLOUR_STYLES.get(colour, "bold"))


def tagged_line(player: dict, text: str) -> Text:
    """A log sentence about `player`, in the one form of every log: "Ana [R] mined 2 gold", "Ana [R]: ..."."""
    name = player["name"]
    if text.startswith(name):
        return Text.assemble(player_tag(player), text[len(name) :])
    return Text.assemble(player_tag(player), ": ", text)


STANDS_IN = "a computer plays for them"
"""What a player's board says while a computer stands in for them (a player who left a served game)."""


class Scene:
    """One seat's message and the content it goes with; what every panel draws from."""

    __slots__ = ("message", "content", "away", "computers", "thinking", "before", "stood_in", "pace", "elsewhere")

    def __init__(
        self,
        message: SeatScene,
        content: Content,
        away: frozenset[int] = frozenset(),
        computers: dict[int, str] | None = None,
        thinking: bool = False,
        before: dict | None = None,
        stood_in: frozenset[int] = frozenset(),
        pace: tuple[int, str] | None = None,
        elsewhere: frozenset[int] = frozenset(),
    ) -> None:
        self.message = message
        self.content = content
        self.away = away  # players whose seat no terminal shows now (a game hosted for remote seats)
        self.computers = computers or {}  # the seats a computer plays here, by level
        self.thinking = thinking  # the deciding seat's computer is searching for its move
        # the game as the reader saw it just after their last move (a view of a message of theirs or
        # everyone's), to mark what changed since; None: nothing marked
        self.before = before
        self.stood_in = stood_in  # players away for whom a computer plays meanwhile (of `away`)
        self.pace = pace  # a game with a pace (over SSH): the deciding seat and its clock's words ("has 21 h left")
        self.elsewhere = elsewhere  # players elsewhere at the server (another game or session), told at their turn

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Scene) and (
            self.message,
            self.content,
            self.away,
            self.computers,
            self.thinking,
            self.before,
            self.stood_in,
            self.pace,
            self.elsewhere,
        ) == (
            other.message,
            other.content,
            other.away,
            other.computers,
            other.thinking,
            other.before,
            other.stood_in,
            other.pace,
            other.elsewhere,
        )

    __hash__ = None  # type: ignore[assignment]  # (compared by value and mutable: unhashable, as a dataclass)

    @property
    def view(self) -> dict:
        return self.message.view

    @property
    def seat(self) -> int | None:
        """Whose message it is: the seat at the keyboard; None when nobody's secrets may show."""
        return self.message.seat

    @property
    def log(self) -> tuple[Line, ...]:
        return self.message.log

    @property
    def turn(self) -> Turn:
        return self.message.turn

    @property
    def prompt(self) -> Prompt | None:
        """The decision, when the message is the deciding seat's."""
        return self.message.prompt

    @property
    def spaces(self) -> tuple[Space, ...]:
        return self.message.spaces

    @property
    def can_pay(self) -> tuple[str, ...]:
        return self.message.can_pay

    @property
    def undo_note(self) -> str:
        """For the prompt: what `u` would take back now, or why it cannot ("" for a seat not deciding)."""
        undo = self.message.undo
        if undo is None:
            return ""
        return f"u: Take back: {undo.says}" if undo.allowed else f"No undo ({undo.says})"

    @property
    def players(self) -> list[dict]:
        return self.view["players"]

    def player(self, seat: int) -> dict:
        return self.view["players"][seat]

    # --- what changed since the reader's last move (`before`): only what both views show everyone ---

    def changed(self, *path: str | int) -> bool:
        """Whether what `path` reaches in the view ("round"; "players", 1, "money"; "players", 1, "raw",
        "gold") differs from what it was just after the reader's last move. A player's secret hand
        (objectives, deals...) counts by its size only, the one thing of it everyone may know."""
        if self.before is None:
            return False
        then, now = _at(self.before, path), _at(self.view, path)
        return then != now and _known(path, then) != _known(path, now)  # (equal values: equal as known, sooner)

    def changed_keys(self, *path: str | int) -> frozenset[str]:
        """The keys of the dict `path` reaches ("players", 1) whose values `changed` since the reader's last move:
        the same answer as asking `changed` of each key, in one pass."""
        if self.before is None:
            return frozenset()
        then, now = _at(self.before, path), _at(self.view, path)
        if then == now:
            return frozenset()
        then, now = then if isinstance(then, dict) else {}, now if isinstance(now, dict) else {}
        return frozenset(
            key
            for key in then.keys() | now.keys()
            if then.get(key) != now.get(key)
            and _known((*path, key), then.get(key)) != _known((*path, key), now.get(key))
        )

    def gain(self, *path: str | int) -> int:
        """How much a number ("players", 1, "vp"; "players", 1, "money") went up (or down) since the
        reader's last move."""
        if self.before is None:
            return 0
        return int(_at(self.view, path) or 0) - int(_at(self.before, path) or 0)

    def moved(self, *path: str | int) -> frozenset[str | int]:
        """What came into or left a list ("players", 1, "equipment"; "players", 1, "enriched", "gold")
        since the reader's last move; nothing of a secret hand (whose cards the reader may not know)."""
        if self.before is None or _secret(path):
            return frozenset()
        then, now = _at(self.before, path), _at(self.view, path)
        return frozenset(then or ()) ^ frozenset(now or ())

    def vp_since(self, seat: int) -> int:
        """How many VP `seat` gained (or lost) since the reader's last move."""
        return self.gain("players", seat, "vp")

    def gallery_changed(self, island: int, column: int, level: int) -> bool:
        """Whether a slot of a mining site changed since the reader's last move (placed, turned, mined, slid)."""
        if self.before is None:
            return False
        return _slot(self.before, island, column, level) != _slot(self.view, island, column, level)

    def centre_changed(self, metal: str, level: int) -> bool:
        """Whether the cubes at a level of the Enrichment Center changed since the reader's last move."""
        if self.before is None:
            return False
        return _cubes(self.before, metal, level) != _cubes(self.view, metal, level)

    def new_on_display(self, card_id: str) -> bool:
        """Whether a card for sale came onto the display since the reader's last move."""
        if self.before is None:
            return False
        shown = (self.before.get("equipment_display") or []) + (self.before.get("shipment_display") or [])
        return card_id not in shown

    def tag(self, seat: int | None) -> Text:
        """A player's name with their colour *and* letter, so colour is never the only cue."""
        if seat is None:
            return Text("—")
        return player_tag(self.player(seat))

    def computer_note(self, seat: int | None) -> str:
        """ "computer, Hard" when a computer plays `seat` (`computers`), "a computer plays for them" while one
        stands in for its player who left (`stood_in`), else "": how it is told apart."""
        if seat is not None and seat in self.stood_in:
            return STANDS_IN
        level = self.computers.get(seat) if seat is not None else None
        return computer_words(level) if level is not None else ""

    def computers_legend(self) -> tuple[Line, ...]:
        """Who the computers are, as lines for the top of the log: "Cleo [G] is a computer (Hard)." """
        return tuple(
            Line(seat, f"{self.player(seat)['name']} is a computer ({level_word(level)}).")
            for seat, level in sorted(self.computers.items())
            if 0 <= seat < len(self.players)
        )

    def marker(self, seat: int) -> Text:
        """One letter in the player's colour (for tight places such as the Enrichment Center)."""
        return colour_marker(self.player(seat)["colour"])

    def acting_seat(self) -> int | None:
        """Whose move it is now (island choice, action, or a step of an action); None once the game is over."""
        return self.message.turn.seat

    def ships_came_or_went(self, island: int) -> bool:
        """Whether a ship sailed to or from `island` since the reader's last move, in the same round (a new
        round's ships, where their players chose, are told by the islands' choice and the round track)."""
        if self.before is None or self.changed("round") or self.view.get("phase") == "island_selection":
            return False
        here = [{p["seat"] for p in view["players"] if p.get("island") == island} for view in (self.before, self.view)]
        return here[0] != here[1]

    def ship_seats(self, island: int) -> list[int]:
        """Seats whose ship is at `island` now; while islands are being chosen, who chose it."""
        view = self.view
        if view.get("phase") == "island_selection":
            chosen = view.get("islands_chosen") or {}
            seat = chosen.get(str(island))
            return [] if seat is None else [seat]
        return [p["seat"] for p in view["players"] if p.get("island") == island]


def _slot(view: dict, island: int, column: int, level: int) -> tuple | None:
    """A slot of a mining site as everyone sees it: its tile once face up, its cubes, who placed it."""
    site = (view.get("sites") or {}).get(str(island))
    if site is None or column >= len(site["columns"]) or level - 1 >= len(site["columns"][column]):
        return None
    gallery = site["columns"][column][level - 1]
    if gallery is None:
        return None
    face_up = bool(gallery.get("face_up"))
    return (face_up, gallery.get("tile") if face_up else None, gallery.get("cubes"), gallery.get("placed_by"))


def _cubes(view: dict, metal: str, level: int) -> list | None:
    """The owners of the cubes at a level of the Enrichment Center."""
    levels = (view.get("centre") or {}).get(metal) or []
    return levels[level] if level < len(levels) else None


def _at(view: dict, path: tuple[str | int, ...]) -> Any:
    """What `path` reaches in a view: dicts by key, lists by index; None where it leads nowhere."""
    node: Any = view
    for step in path:
        if isinstance(node, dict):
            node = node.get(step if step in node else str(step))  # (islands are keys written as text)
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
        else:
            return None
    return node


def _secret(path: tuple[str | int, ...]) -> bool:
    """Whether `path` leads into a player's secret hand (the rules' `SECRET_HAND`)."""
    return len(path) >= 3 and path[0] == "players" and path[2] in SECRET_HAND


def _known(path: tuple[str | int, ...], value: Any) -> Any:
    """`value` (what `path` reaches) as any seat may compare it: a secret hand by its size only."""
    if path[:1] != ("players",):
        return value
    if len(path) == 1:
        return [_known(("players", i), p) for i, p in enumerate(value or [])]
    if len(path) == 2:
        return None if value is None else {key: _known((*path, key), v) for key, v in value.items()}
    if _secret(path):
        return len(value or ()) if len(path) == 3 else None
    return value
