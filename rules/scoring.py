"""End-game scoring: objective measures, objective values and the final ranking."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from .cards import Objective
from .state import GameState, Player


def _centre_value(s: GameState, p: Player, **_: object) -> int:
    return sum(level * owners.count(p.seat) for levels in s.centre.values() for level, owners in enumerate(levels))


def _shipments_of_size(s: GameState, p: Player, min_size: int) -> int:
    return sum(1 for t in p.shipments if s.content.shipments[t].size >= min_size)


def _enriched_on_board(s: GameState, p: Player, metal: str | None = None) -> int:
    return sum(len(v) for m, v in p.enriched.items() if metal in (None, m))


def _artifacts(s: GameState, p: Player, metal: str | None = None) -> int:
    return sum(n for m, n in p.artifacts.items() if metal in (None, m))


def _artifact_shipments(s: GameState, p: Player) -> int:
    return sum(1 for t in p.shipments if s.content.shipments[t].artifacts)


def _workers(s: GameState, p: Player, kind: str = "all") -> int:
    return {"miners": p.miners, "merchants": p.merchants, "all": p.workers}[kind]


def _raw_resources(s: GameState, p: Player, metal: str | None = None) -> int:
    return sum(n for m, n in p.raw.items() if metal in (None, m))


MEASURES: dict[str, Callable[..., int]] = {
    "centre_value": _centre_value,
    "shipments_of_size": _shipments_of_size,
    "enriched_on_board": _enriched_on_board,
    "artifacts": _artifacts,
    "artifact_shipments": _artifact_shipments,
    "equipment": lambda s, p: len(p.equipment),
    "deals_closed": lambda s, p: len(p.deals_closed),
    "shipments": lambda s, p: len(p.shipments),
    "money": lambda s, p: p.money,
    "workers": _workers,
    "raw_resources": _raw_resources,
    "metals_enriched": lambda s, p: sum(1 for v in p.enriched.values() if v),
}


def measure(s: GameState, seat: int, objective: Objective) -> int:
    return MEASURES[objective.measure](s, s.players[seat], **objective.params)


Measure = TypeVar("Measure", int, float)
"""A measure is counted (int), or, where a bot guesses at one it hopes to reach, estimated (float)."""


def vp_at(objective: Objective, m: Measure, best: Measure = 0) -> Measure:
    """VP an objective pays at measure `m`; `best` is the highest measure of all
    seats, which only "most" objectives look at. Bots use it on measures they
    only hope to reach."""
    if objective.scoring == "fixed":
        return objective.vp if m >= objective.at_least else 0
    if objective.scoring == "each":
        return objective.vp_each * m
    if objective.scoring == "tiers":
        return max((vp for least, vp in objective.tiers if m >= least), default=0)
    # "most": the highest measure of all seats wins; ties share; 0 never wins
    return objective.vp if m > 0 and m >= best else 0


def objective_worth(objective: Objective) -> str | None:
    """What an objective pays, in words, where its card's text does not say it: "3 VP",
    "3 VP to whoever has the most (each, on a tie)"; None where the text gives its VP (each, tiers)."""
    if objective.scoring == "fixed":
        return f"{objective.vp} VP"
    if objective.scoring == "most":
        return f"{objective.vp} VP to whoever has the most (each, on a tie)"
    return None


def objective_words(objective: Objective) -> str:
    """An objective's text, with what it pays where the text does not say it: "... when the game ends. (3 VP)"."""
    worth = objective_worth(objective)
    return objective.text if worth is None else f"{objective.text} ({worth})"


def objective_vp(s: GameState, seat: int, objective: Objective) -> tuple[int, int]:
    """(measure, VP) of one objective for one seat, at this moment."""
    m = measure(s, seat, objective)
    best = max(measure(s, other.seat, objective) for other in s.players) if objective.scoring == "most" else 0
    return m, vp_at(objective, m, best)


def final_scores(s: GameState) -> list[tuple[int, str, int, int]]:
    """(seat, objective, measure, VP) for every kept objective, in seat order."""
    out = []
    for p in s.players:
        for oid in p.objectives:
            m, vp = objective_vp(s, p.seat, s.content.objectives[oid])
            out.append((p.seat, oid, m, vp))
    return out


def tiebreak_key(p: Player) -> tuple[int, ...]:
    """VP, then money, equipment, deals closed and shipments made."""
    return (p.vp, p.money, len(p.equipment), len(p.deals_closed), len(p.shipments))


def places(s: GameState) -> tuple[list[int], bool]:
    """The place of each seat (1 = winner; equal keys share a place) and whether a
    tie-breaker decided between players level on VP."""
    keys = [tiebreak_key(p) for p in s.players]
    result = [1 + sum(1 for other in keys if other > k) for k in keys]
    vps = [k[0] for k in keys]
    tiebreak_used = any(
        vps[a] == vps[b] and keys[a] != keys[b] for a in range(len(keys)) for b in range(a + 1, len(keys))
    )
    return result, tiebreak_used
