"""The final ranking of a finished game, with every VP accounted for.

The end screen shows where each player's points came from. Everything here is
read from the engine's event log (`Scored.source`, `ObjectiveScored`,
`GameEnded`) and its final state, never worked out again from the rules, so
the parts of a player's score always add up to the VP the engine gave them.
The records are plain data (`rules.codec` writes and reads them): a finished
game's seat message carries its `GameResults` (`rules.seat.SeatScene.results`),
so the end screen of a seat in another process is drawn from that alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from . import events as ev
from .decision import plural
from .record import FrozenRecord, frozen_record
from .state import GameState

if TYPE_CHECKING:
    from .cards import Content

PLAY_SOURCES: dict[str, str] = {
    "equipment": "Equipment bought",
    "shipments": "Shipments",
    "deals": "Deals",
    "enriched cubes sold": "Enriched cubes sold",
    "equipment effects": "Equipment effects",
    "wages": "Wages",
}
"""`Scored.source` values earned during play, with the words the end screen uses."""

TIEBREAKERS: tuple[str, ...] = ("money", "equipment", "deals closed", "shipments made")
"""Compared in this order between players level on VP (rules.scoring.tiebreak_key)."""

END_REASONS = {
    "vp_goal": "A player reached the VP goal, so the game ended after that round.",
    "last_round": "The last round has been played.",
}


@frozen_record
class ObjectiveResult(FrozenRecord):
    """One kept objective of one player, as it was scored at the end."""

    id: str
    name: str
    measure: int
    measure_text: str  # the measure in words: "4 deals closed", "$12"
    vp: int

    @property
    def met(self) -> bool:
        return self.vp > 0


@frozen_record
class PlayerResult(FrozenRecord):
    """One player's place and VP, broken down by where the points came from (a column of the score sheet)."""

    seat: int
    name: str
    colour: str
    place: int  # 1 = winner; players equal on everything share a place
    total: int  # the VP the engine gave this player
    vp_by_source: Mapping[str, int]  # during play: every PLAY_SOURCES key, then any other
    objectives: tuple[ObjectiveResult, ...]
    artifacts: int  # artifacts kept to the end
    artifacts_vp: int
    money: int
    equipment: int
    deals_closed: int
    shipments: int
    shared_place: bool = False
    effects: tuple[tuple[str, int], ...] = ()  # (card name, VP) of each equipment card whose effect scored

    @property
    def play_vp(self) -> int:
        return sum(self.vp_by_source.values())

    @property
    def objectives_vp(self) -> int:
        return sum(o.vp for o in self.objectives)

    @property
    def parts_total(self) -> int:
        """The sum of every part of the breakdown (equals `total`)."""
        return self.play_vp + self.objectives_vp + self.artifacts_vp

    @property
    def tiebreak_values(self) -> tuple[int, ...]:
        return (self.money, self.equipment, self.deals_closed, self.shipments)


@frozen_record
class Tie(FrozenRecord):
    """Players who finished level on VP, and how the tie-breakers separated them."""

    vp: int
    seats: tuple[int, ...]  # in final order
    compared: tuple[str, ...]  # tie-breakers that had to be looked at, in order
    still_shared: tuple[tuple[int, ...], ...]  # groups left equal on everything


@frozen_record
class GameResults(FrozenRecord):
    """A finished game's final ranking: every player's breakdown, why the game ended, how ties were settled."""

    players: tuple[PlayerResult, ...]  # in seat order
    end_reason: str  # "vp_goal" | "last_round"
    tiebreak_used: bool
    rounds: int
    ties: tuple[Tie, ...] = ()

    @property
    def ranking(self) -> tuple[PlayerResult, ...]:
        """Players from first place to last (seat order within a shared place)."""
        return tuple(sorted(self.players, key=lambda p: (p.place, p.seat)))

    @property
    def end_reason_text(self) -> str:
        return END_REASONS.get(self.end_reason, f"The game ended ({self.end_reason}).")

    def player(self, seat: int) -> PlayerResult:
        return self.players[seat]


def measure_text(measure: str, params: Mapping[str, Any], value: int) -> str:
    """An objective's measure in a few words, for a narrow table cell."""
    metal = params.get("metal")
    metal_ = f"{metal} " if metal else ""
    if measure == "centre_value":
        return f"centre value {value}"
    if measure == "shipments_of_size":
        return plural(value, f"shipment of {params.get('min_size', 1)}+", f"shipments of {params.get('min_size', 1)}+")
    if measure == "enriched_on_board":
        return plural(value, f"enriched {metal_}cube")
    if measure == "artifacts":
        return plural(value, f"{metal_}artifact")
    if measure == "artifact_shipments":
        return plural(value, "artifact shipment")
    if measure == "equipment":
        return plural(value, "equipment card")
    if measure == "deals_closed":
        return plural(value, "deal closed", "deals closed")
    if measure == "shipments":
        return plural(value, "shipment")
    if measure == "money":
        return f"${value}"
    if measure == "workers":
        kind = params.get("kind", "all")
        return plural(value, {"miners": "miner", "merchants": "merchant"}.get(kind, "worker"))
    if measure == "raw_resources":
        return plural(value, f"raw {metal_}cube")
    if measure == "metals_enriched":
        return plural(value, "metal enriched", "metals enriched")
    return str(value)


def find_ties(players: tuple[PlayerResult, ...]) -> tuple[Tie, ...]:
    ties = []
    for vp in sorted({p.total for p in players}, reverse=True):
        group = sorted((p for p in players if p.total == vp), key=lambda p: (p.place, p.seat))
        if len(group) < 2:
            continue
        # look at tie-breakers until every player of the group is told apart (or all are used)
        depth = next(
            (i for i in range(1, len(TIEBREAKERS) + 1) if len({p.tiebreak_values[:i] for p in group}) == len(group)),
            len(TIEBREAKERS),
        )
        shared: dict[tuple[int, ...], list[int]] = {}
        for p in group:
            shared.setdefault(p.tiebreak_values, []).append(p.seat)
        ties.append(
            Tie(
                vp=vp,
                seats=tuple(p.seat for p in group),
                compared=TIEBREAKERS[:depth],
                still_shared=tuple(tuple(s) for s in shared.values() if len(s) > 1),
            )
        )
    return tuple(ties)


def final_results(state: GameState, events: Sequence[ev.Event]) -> GameResults:
    """The breakdown of a finished game: its final `state` and every event of it (an engine's `events`)."""
    ended = next((e for e in reversed(events) if isinstance(e, ev.GameEnded)), None)
    if ended is None or state.phase != "over":
        raise ValueError("the game is not over yet; there are no final results")
    content = state.content

    by_source: list[dict[str, int]] = [dict.fromkeys(PLAY_SOURCES, 0) for _ in state.players]
    artifacts_vp = [0] * len(state.players)
    objectives: list[list[ObjectiveResult]] = [[] for _ in state.players]
    effects: list[dict[str, int]] = [{} for _ in state.players]  # card name -> VP its effect gave
    acting: list[str] = [""] * len(state.players)  # where each player's action under way came from
    for e in events:
        if isinstance(e, ev.ActionStarted):
            acting[e.seat] = e.source
        elif isinstance(e, ev.Scored):
            if e.source == "artifacts":
                artifacts_vp[e.seat] += e.vp
            elif e.source != "objectives":  # objectives are counted from ObjectiveScored
                by_source[e.seat][e.source] = by_source[e.seat].get(e.source, 0) + e.vp
            if e.source == "equipment effects":
                name = _card_name(content, acting[e.seat])
                effects[e.seat][name] = effects[e.seat].get(name, 0) + e.vp
        elif isinstance(e, ev.ObjectiveScored):
            card = content.objectives[e.objective]
            objectives[e.seat].append(
                ObjectiveResult(
                    id=card.id,
                    name=card.name,
                    measure=e.measure,
                    measure_text=measure_text(card.measure, card.params, e.measure),
                    vp=e.vp,
                )
            )

    places = list(ended.places)
    players = tuple(
        PlayerResult(
            seat=p.seat,
            name=p.name,
            colour=p.colour,
            place=places[p.seat],
            total=p.vp,
            vp_by_source=MappingProxyType(by_source[p.seat]),
            objectives=tuple(objectives[p.seat]),
            artifacts=sum(p.artifacts.values()),
            artifacts_vp=artifacts_vp[p.seat],
            money=p.money,
            equipment=len(p.equipment),
            deals_closed=len(p.deals_closed),
            shipments=len(p.shipments),
            shared_place=places.count(places[p.seat]) > 1,
            effects=tuple(effects[p.seat].items()),
        )
        for p in state.players
    )
    return GameResults(
        players=players,
        end_reason=ended.reason,
        tiebreak_used=ended.tiebreak_used,
        rounds=state.round,
        ties=find_ties(players),
    )


def _card_name(content: Content, source: str) -> str:
    """The name of the equipment card an action came from (`ActionStarted.source`, "equipment:<id>")."""
    kind, _, card = source.partition(":")
    found = content.equipment.get(card) if kind == "equipment" else None
    return found.name if found is not None else "another card"


def ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def tiebreak_lines(results: GameResults) -> list[str]:
    """Sentences that say how ties on VP were settled, with the values compared."""
    lines = []
    for tie in results.ties:
        group = [results.player(s) for s in tie.seats]
        names = _join([p.name for p in group])
        if not tie.compared:
            continue
        parts = []
        for i, breaker in enumerate(tie.compared):
            values = ", ".join(f"{p.name} {_value(breaker, p.tiebreak_values[i])}" for p in group)
            parts.append(f"{breaker}: {values}")
        line = f"{names} tied on {tie.vp} VP; tie-breakers compared — " + "; ".join(parts) + "."
        lines.append(line)
        for seats in tie.still_shared:
            shared = [results.player(s) for s in seats]
            lines.append(
                f"{_join([p.name for p in shared])} are equal on everything and share {ordinal(shared[0].place)} place."
            )
    return lines


def _value(breaker: str, n: int) -> str:
    return f"${n}" if breaker == "money" else str(n)


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
