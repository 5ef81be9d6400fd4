"""The game state: plain data with ids, everything needed to continue the game.

State is mutable on purpose: `rules.evolve` applies one event at a time in
place, which keeps random play fast. Nothing outside `rules.evolve` (and the
setup that builds the empty state) writes to it.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from .cards import METALS, Board, Content
from .record import Record, record

MONEY = "money"
"""The good that stands for $1 in trades."""


@record
class Gallery(Record):
    tile: str  # gallery tile instance, e.g. "gold_3#2"
    face_up: bool
    cubes: int  # cubes on the tile; 0 while face down
    placed_by: int | None = None  # seat that placed it (and so knows it); None at setup


@record
class MiningSite(Record):
    island: int
    # columns[c] = [level 1, level 2]; None where no gallery lies
    columns: list[list[Gallery | None]]

    def gallery(self, column: int, level: int) -> Gallery | None:
        return self.columns[column][level - 1]


@record
class Player(Record):
    seat: int
    name: str
    colour: str
    merchants: int = 0
    miners: int = 0
    merchants_used: int = 0
    miners_used: int = 0
    money: int = 0
    vp: int = 0
    raw: dict[str, int] = field(default_factory=lambda: dict.fromkeys(METALS, 0))
    enriched: dict[str, list[int]] = field(default_factory=lambda: {m: [] for m in METALS})
    artifacts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(METALS, 0))
    equipment: list[str] = field(default_factory=list)
    equipment_used: list[str] = field(default_factory=list)
    deals: list[str] = field(default_factory=list)  # in hand, secret
    deals_closed: list[str] = field(default_factory=list)
    shipments: list[str] = field(default_factory=list)
    objective_offer: list[str] = field(default_factory=list)
    objectives: list[str] = field(default_factory=list)
    corporation_offer: list[str] = field(default_factory=list)
    corporation: str | None = None
    island: int | None = None  # where the ship is docked
    used: list[str] = field(default_factory=list)  # island action spaces used this round
    deal_closed_on: int | None = None  # island where the board closed a deal for them this round
    passed: bool = False
    actions_this_round: int = 0

    @property
    def free_merchants(self) -> int:
        return self.merchants - self.merchants_used

    @property
    def free_miners(self) -> int:
        return self.miners - self.miners_used

    @property
    def workers(self) -> int:
        return self.merchants + self.miners

    @property
    def set_up(self) -> bool:
        return self.corporation is not None


@record
class Step(Record):
    """An action under way: what it is, what was placed for it, what was picked so far.

    `picks` is the plan of an unfinished step (miners assigned, cubes chosen...),
    `data` the action's fixed parameters and progress counters. `committed` is
    set once something irreversible happened, after which the action can no
    longer be withdrawn.
    """

    kind: str
    seat: int
    source: str  # "island:<n>:<action>" or "equipment:<card>"
    merchants: int = 0
    miners: int = 0
    picks: list[Any] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    committed: bool = False


@record
class Standing(Record):
    seat: int
    place: int  # 1 = winner (shared places for full ties)
    vp: int
    tiebreak: list[int]  # money, equipment, deals closed, shipments


@record
class GameState(Record):
    seed: int = 0
    players: list[Player] = field(default_factory=list)
    start_player: int = 0
    token: int = 0  # island selection token holder
    round: int = 0
    phase: str = "created"  # created | setup | island_selection | actions | over
    current: int = 0  # the seat whose turn it is in the action phase
    turn_actions: int = 0  # actions taken in the current turn
    turn_order: list[int] = field(default_factory=list)
    islands_chosen: dict[int, int] = field(default_factory=dict)  # island -> seat
    space_users: dict[str, list[int]] = field(default_factory=dict)  # space -> seats, this round
    objective_deck: list[str] = field(default_factory=list)
    corporation_deck: list[str] = field(default_factory=list)
    equipment_deck: list[str] = field(default_factory=list)
    shipment_deck: list[str] = field(default_factory=list)
    deal_deck: list[str] = field(default_factory=list)
    gallery_deck: list[str] = field(default_factory=list)
    gallery_discard: list[str] = field(default_factory=list)
    gallery_reshuffles: int = 0
    drawn_galleries: list[str] = field(default_factory=list)  # drawn, not yet placed
    equipment_display: list[str] = field(default_factory=list)
    shipment_display: list[str] = field(default_factory=list)
    sites: dict[int, MiningSite] = field(default_factory=dict)
    artifacts: dict[int, list[str]] = field(default_factory=dict)  # island -> metals left
    centre: dict[str, list[list[int]]] = field(default_factory=dict)  # metal -> level 0..4 -> owners
    supply: dict[str, int] = field(default_factory=dict)
    step: Step | None = None
    end_triggered: bool = False
    end_reason: str = ""
    standings: list[Standing] = field(default_factory=list)
    # Every state in play holds its Content: the engine gives it one when it makes the state, and
    # whoever rebuilds a state with `rules.codec` (which never writes a transient field) attaches
    # it at once. The None default only fills that gap.
    content: Content = field(default=None, compare=False, repr=False, metadata={"transient": True})  # type: ignore[assignment]  # None only until attached, as above

    @property
    def board(self) -> Board:
        return self.content.board

    def player(self, seat: int) -> Player:
        return self.players[seat]

    @property
    def seats(self) -> int:
        return len(self.players)
