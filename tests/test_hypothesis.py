"""A Hypothesis state machine over the engine.

Hypothesis picks the game (players, seed, start player) and then, step by step,
either a legal option (by index) or an illegal one. Legal choices must be
accepted; illegal ones must be refused with a reason and change nothing. After
every step the invariants of tests/helpers/invariants.py must hold (cube conservation,
worker limits, replay equality, JSON round trips, privacy...).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from rules import Engine, Rejection, load_content
from rules.decision import text
from rules.engine import state_to_json
from tests.helpers.invariants import Watcher

pytestmark = pytest.mark.slow  # 30 games of up to 150 steps, every invariant checked after each: seconds

CONTENT = load_content()
NAMES = ("Ana", "Ben", "Cleo", "Dev")

# ids that are never an option, in any phase
NONSENSE = st.sampled_from(
    [
        "",
        "nonsense",
        "island:0",
        "island:9",
        "do:9:trade",
        "use:no_such_card",
        "keep:x+y",
        "corporation:nobody",
        "mine:9:9:9",
        "give:gold",
        "get:unobtainium",
        "place:gold_9:1:0:up",
        "pay:gold:7",
        "buy:gold:0:0",
        "artifact:platinum",
        "equipment:nothing",
        "shipment:none",
        "DONE",
    ]
) | st.text(max_size=12)


def _snapshot(engine: Engine) -> str:
    return json.dumps(state_to_json(engine.state), sort_keys=True)


class LagoonMachine(RuleBasedStateMachine):
    """Plays one game per example with choices drawn by Hypothesis."""

    engine: Engine
    watcher: Watcher

    @initialize(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1), start=st.integers(0, 3))
    def new_game(self, players, seed, start):
        self.engine = Engine.new(CONTENT, list(NAMES[:players]), seed=seed, start_player=start % players)
        self.watcher = Watcher(self.engine)

    def _running(self) -> bool:
        return self.engine.state.phase != "over"

    @precondition(lambda self: self._running())
    @rule(index=st.integers(min_value=0))
    def choose_a_legal_option(self, index):
        """Any offered option is accepted and adds at least one event."""
        ids = self.engine.legal_ids()
        assert ids, "a running game always offers something"
        before = len(self.engine.events)
        result = self.engine.choose(ids[index % len(ids)])
        assert isinstance(result, list) and result, f"an offered option was refused: {result}"
        assert self.engine.events[before:] == result

    @precondition(lambda self: self._running())
    @rule(index=st.integers(min_value=0))
    def prefer_finishing(self, index):
        """Like a legal choice, but favours "done"/"pass" so games move on to later rounds."""
        ids = self.engine.legal_ids()
        for wanted in ("done", "pass"):
            if wanted in ids and index % 3:
                self.engine.choose(wanted)
                return
        self.engine.choose(ids[index % len(ids)])

    @rule(choice=NONSENSE)
    def submit_an_unknown_id(self, choice):
        """An id that is no option now is refused with a reason, changing nothing."""
        if choice in self.engine.legal_ids():
            return
        self._expect_rejection(choice)

    @precondition(lambda self: self._running())
    @rule(index=st.integers(min_value=0))
    def submit_an_illegal_option(self, index):
        """A candidate the engine lists as illegal (with its reason) is refused with that reason."""
        illegal = [c for c in self.engine._candidates().cands if c.reason is not None]
        if not illegal:
            return
        cand = illegal[index % len(illegal)]
        rejection = self._expect_rejection(cand.id)
        assert rejection.reason == text(cand.reason)

    def _expect_rejection(self, choice) -> Rejection:
        before, count, pending = _snapshot(self.engine), len(self.engine.events), self.engine.pending
        result = self.engine.choose(choice)
        assert isinstance(result, Rejection), f"{choice!r} was accepted"
        assert result.reason and result.choice == choice
        assert len(self.engine.events) == count
        assert _snapshot(self.engine) == before
        assert self.engine.pending == pending
        return result

    @invariant()
    def invariants_hold(self):
        if hasattr(self, "watcher"):
            self.watcher.check(privacy=len(self.engine.events) % 4 == 0)


LagoonMachine.TestCase.settings = settings(
    max_examples=30,
    stateful_step_count=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_lagoon_state_machine = LagoonMachine.TestCase
