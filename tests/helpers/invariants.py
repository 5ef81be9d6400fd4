"""Checks that must hold after every decision of any game (used by the random-play tests)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from rules import events as ev
from rules.cards import METALS
from rules.engine import replay, state_from_json, state_to_json
from rules.evolve import evolve
from rules.state import GameState
from tests.helpers.scenario import cube_totals


class Watcher:
    """Follows an engine's log and checks the invariants after each choice.

    It keeps its own state built only from JSON copies of the events, so every
    check also proves that the log replays to the live state.
    """

    def __init__(self, engine):
        self.engine = engine
        self.shadow = GameState(content=engine.content)
        self.seen = 0
        self.scored = [0] * 4
        self.enriched_made = dict.fromkeys(METALS, 0)
        self.enriched_gone = dict.fromkeys(METALS, 0)
        self.board_closures: Counter[tuple[int, int]] = Counter()  # (round, seat) -> deals closed on islands
        self.catch_up()

    def catch_up(self) -> None:
        for e in self.engine.events[self.seen :]:
            copy = ev.from_json(json.loads(json.dumps(ev.to_json(e))))
            assert copy == e, f"event does not survive JSON: {e}"
            evolve(self.shadow, copy)
            self._count(copy)
        self.seen = len(self.engine.events)

    def _count(self, e) -> None:
        if isinstance(e, ev.Scored):
            self.scored[e.seat] += e.vp
        elif isinstance(e, ev.ResourcesEnriched):
            for m in e.metals:
                self.enriched_made[m] += 1
        elif isinstance(e, ev.CentreEnriched):
            for m, _ in e.removed:
                self.enriched_gone[m] += 1
        elif isinstance(e, ev.CentreCubeUpgraded) and e.level == 4:
            self.enriched_gone[e.metal] += 1
        elif isinstance(e, ev.DealClosed):
            for m, _ in e.paid:
                self.enriched_gone[m] += 1
            if self.shadow.step.source.startswith("island:"):  # not with equipment
                self.board_closures[self.shadow.round, e.seat] += 1
        elif isinstance(e, ev.EnrichedCubeCrushed):
            self.enriched_gone[e.metal] += 1

    def check(self, round_trip: bool = True, privacy: bool = True) -> None:
        self.catch_up()
        s = self.engine.state
        assert self.shadow == s, "replaying the log does not give the live state"
        board = s.board
        totals = cube_totals(self.engine)
        for m in METALS:
            assert totals[m] == board.supply_per_metal, f"{m} cubes not conserved: {totals[m]}"
            assert s.supply[m] >= 0
            tokens = sum(len(level) for level in s.centre[m]) + sum(len(p.enriched[m]) for p in s.players)
            assert tokens == self.enriched_made[m] - self.enriched_gone[m], f"enriched {m} not conserved"
            assert len(s.centre[m][0]) <= board.zero_line_capacity
        assert max(self.board_closures.values(), default=0) <= 1, (
            f"a seat closed two deals in a round without equipment: {self.board_closures}"
        )
        for p in s.players:
            assert 0 <= p.merchants <= board.merchants_max and 0 <= p.miners <= board.miners_max
            assert 0 <= p.merchants_used <= p.merchants and 0 <= p.miners_used <= p.miners
            assert p.money >= 0, f"{p.name} has ${p.money}"
            assert len(set(p.used)) == len(p.used), f"{p.name} used an action twice: {p.used}"
            assert len(set(p.equipment_used)) == len(p.equipment_used)
            assert set(p.equipment_used) <= set(p.equipment)
            assert p.vp == self.scored[p.seat], "score is not the sum of its scoring events"
            assert all(v >= 0 for v in p.raw.values()) and all(v >= 0 for v in p.artifacts.values())
            for levels in p.enriched.values():
                assert len(set(levels)) == len(levels) and all(1 <= lv <= 4 for lv in levels)
        if s.phase != "over":
            assert self.engine.pending.options, "a decision with no legal option"
        if round_trip:
            again = state_from_json(s.content, json.loads(json.dumps(state_to_json(s))))
            assert again == s, "state does not survive a JSON round trip"
        if privacy:
            self.check_privacy()

    def check_privacy(self) -> None:
        s = self.engine.state
        if s.phase == "over":
            return
        for seat in range(s.seats):
            text = json.dumps(self.engine.view(seat))
            for other in s.players:
                if other.seat == seat:
                    continue
                for secret in other.objectives + other.objective_offer + other.deals:
                    assert f'"{secret}"' not in text or _public(s, secret), (
                        f"seat {seat} can see {other.name}'s {secret}"
                    )


def _public(s, card_id: str) -> bool:
    """A deal id also shown openly elsewhere (closed by someone) is not a leak."""
    return any(card_id in p.deals_closed for p in s.players)


def final_replay_matches(engine) -> None:
    assert replay(engine.content, engine.events) == engine.state


def check_ended_by_the_rules(engine) -> None:
    """Round 15 played, or the VP goal reached during play in the round the game ended."""
    state, board = engine.state, engine.content.board
    assert state.phase == "over"
    ended = [e for e in engine.events if isinstance(e, ev.GameEnded)]
    assert len(ended) == 1 and ended[0].reason == state.end_reason
    # every round before the last one ended and was followed by another (the last ends with the game)
    assert [e.round for e in engine.events if isinstance(e, ev.RoundEnded)] == list(range(1, state.round))
    if state.end_reason == "last_round":
        assert state.round == board.rounds
        assert not any(isinstance(e, ev.EndOfGameTriggered) for e in engine.events)
        return
    assert state.end_reason == "vp_goal"
    assert state.round <= board.rounds
    vp = [0] * state.seats
    round_now = 0
    for e in engine.events:
        if isinstance(e, ev.RoundEnded):
            round_now = e.round
        elif isinstance(e, ev.Scored):
            vp[e.seat] += e.vp
        elif isinstance(e, ev.EndOfGameTriggered):
            assert vp[e.seat] >= board.vp_goal, "the end was triggered below the VP goal"
            assert round_now == state.round - 1, "the game did not end in the round the goal was reached"
            return
    pytest.fail("the game ended for the VP goal, but nobody reached it")
