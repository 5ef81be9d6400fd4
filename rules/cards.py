"""Typed game content: the decks and the board, as loaded from `content/*.toml`.

Everything here is plain, immutable data. Which effect a card has, or how an
objective is measured, is a *name with parameters* that resolves against the
registries in `rules.registry`; no code lives in the data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from types import MappingProxyType
from typing import TypeVar

from .record import FrozenRecord, frozen_record

METALS: tuple[str, ...] = ("gold", "iron", "copper", "silver")
"""The four resource types, in the order the game lists them."""

K = TypeVar("K")
V = TypeVar("V")

ENRICHED_LEVELS: tuple[int, ...] = (1, 2, 3, 4)
"""Levels an enriched resource can have on a player board (0' stays in the centre)."""


def frozen_map(d: Mapping[K, V] | None = None) -> Mapping[K, V]:
    return MappingProxyType(dict(d or {}))


@frozen_record
class Corporation(FrozenRecord):
    id: str
    name: str
    merchants: int
    miners: int
    money: int
    resources: Mapping[str, int]  # metal -> raw cubes at the start
    deals: int  # deal cards drawn at the start


@frozen_record
class Objective(FrozenRecord):
    """An end-game objective.

    `measure` names a function in `rules.registry.MEASURES` that counts something
    for a seat (with `params`). Exactly one way of scoring applies:
      - fixed:  `vp` if the measure reaches `at_least`;
      - each:   `vp_each` per unit of the measure;
      - tiers:  the highest tier `(minimum, vp)` the measure reaches;
      - most:   `vp` if the seat's measure is highest of all seats (ties share).
    """

    id: str
    name: str
    text: str
    measure: str
    params: Mapping[str, object]
    scoring: str  # "fixed" | "each" | "tiers" | "most"
    vp: int = 0
    at_least: int = 1
    vp_each: int = 0
    tiers: tuple[tuple[int, int], ...] = ()


@frozen_record
class Equipment(FrozenRecord):
    id: str
    name: str
    cost: int
    vp: int
    effect: str | None  # a name in rules.registry.EFFECTS, or None (no feature)
    params: Mapping[str, object]
    text: str


@frozen_record
class Deal(FrozenRecord):
    id: str
    requires: Mapping[str, int]  # metal -> minimum enriched level
    vp: int


@frozen_record
class Shipment(FrozenRecord):
    id: str
    resources: Mapping[str, int]  # metal -> raw cubes
    artifacts: Mapping[str, int]  # metal -> artifacts
    vp: int
    money: int

    @property
    def size(self) -> int:
        """Number of containers on the tile (resources and artifacts)."""
        return sum(self.resources.values()) + sum(self.artifacts.values())


@frozen_record
class GalleryTile(FrozenRecord):
    """One kind of gallery tile; `count` copies are in the deck."""

    id: str
    metal: str | None  # None for an empty gallery
    cubes: int
    count: int


@frozen_record
class Island(FrozenRecord):
    number: int
    name: str
    actions: tuple[str, ...]  # names in rules.registry.ISLAND_ACTIONS
    mining_site: bool
    artifacts: tuple[str, ...]  # metals of the artifacts on this island


@frozen_record
class Board(FrozenRecord):
    islands: tuple[Island, ...]
    players_min: int
    players_max: int
    merchants_max: int
    miners_max: int
    rounds: int
    vp_goal: int
    wage_rounds: tuple[int, ...]
    workers_per_dollar: int
    equipment_display: int
    shipment_display: int
    objectives_dealt: int
    objectives_kept: int
    corporations_dealt: int
    merchant_cost: int
    miner_cost: int
    artifact_price: int  # raw cubes of the artifact's metal
    artifact_vp: int  # at the end of the game, per artifact kept
    trades_per_action: int
    trade_give: int  # goods given for one good
    zero_line_capacity: int  # cubes per metal on the 0' line
    enrich_max: int  # cubes per Enrichment Transaction
    enrich_same_metal_max: int
    buy_enriched_max: int
    owner_vp: int  # VP to the owner of a bought enriched cube
    gallery_draw: int
    gallery_reward: tuple[int, ...]  # $ by number of tiles placed face up: (0, 2, 3)
    gallery_setup_face_up: int  # per mining site
    gallery_setup_face_down: int  # per mining site
    site_columns: int
    gallery_max_cubes: int
    supply_per_metal: int

    def island(self, number: int) -> Island:
        for isl in self.islands:
            if isl.number == number:
                return isl
        raise KeyError(number)

    @property
    def mining_islands(self) -> tuple[int, ...]:
        return tuple(i.number for i in self.islands if i.mining_site)


@frozen_record
class Content(FrozenRecord):
    board: Board
    corporations: Mapping[str, Corporation]
    objectives: Mapping[str, Objective]
    equipment: Mapping[str, Equipment]
    deals: Mapping[str, Deal]
    shipments: Mapping[str, Shipment]
    galleries: Mapping[str, GalleryTile]
    fingerprint: str = field(default="")

    def gallery_instances(self) -> list[str]:
        """Ids of every physical gallery tile: `<tile id>#<n>`."""
        return [f"{t.id}#{n}" for t in self.galleries.values() for n in range(1, t.count + 1)]

    def gallery(self, instance: str) -> GalleryTile:
        return self.galleries[instance.split("#", 1)[0]]
