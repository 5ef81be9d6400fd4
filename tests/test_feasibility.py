"""The quick feasibility checks agree exactly with listing each first step's choices.

At the "choose an action" decision the engine asks every action space and
every card whether a complete way to do it exists, through each activity's
`feasible` (direct arithmetic, for speed). The sure answer is to list the first
step's candidates and look for a legal one (`Activity.probe`). Here both are
asked for every action space of every island and every equipment card of the
game, for every seat, in states reached by random play, and must agree.
"""

from __future__ import annotations

import random

import pytest

from rules import Engine, load_content
from rules import events as ev
from rules.action_choice import choose_action, spaces, uses
from rules.actions import ACTIVITIES
from rules.actions.mining import more_to_assign
from rules.cards import METALS
from rules.decision import text
from rules.engine import clone
from rules.evolve import evolve

CONTENT = load_content()
NAMES = ("Ana", "Ben", "Cleo", "Dev")


def _uses():
    """(activity, source, data) for every island action space and every usable card."""
    for isl in CONTENT.board.islands:
        for sp in spaces(CONTENT.board, isl.number):
            yield sp.activity, sp.source, sp.data
    for use in uses(CONTENT).values():
        if use.activity is not None:
            yield use.activity, use.source, use.data


USES = [u for u in _uses() if u[0].feasible is not None]


def test_every_activity_with_steps_has_a_quick_check():
    for kind, act in ACTIVITIES.items():
        assert act.blocked is not None or act.feasible is not None, f"{kind} would be probed at every decision"


def _action_states(players: int, seed: int, every: int = 3):
    """Some "choose an action" states of one random game (the live state, so use it at once)."""
    rng = random.Random(seed)
    engine = Engine.new(CONTENT, list(NAMES[:players]), seed=seed)
    n = 0
    while engine.state.phase != "over":
        s = engine.state
        if s.phase == "actions" and s.step is None:
            n += 1
            if n % every == 0:
                yield s
        ids = engine.legal_ids()
        engine.choose(ids[rng.randrange(len(ids))])


def _agree(s, checked: dict) -> None:
    for seat in range(s.seats):
        for act, source, data in USES:
            quick = act.feasible(s, seat, data)
            sure = act.probe(s, seat, source, data)
            assert quick == (sure is None), (act.kind, source, seat, sure)
            checked[quick] += 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_feasible_agrees_with_probing_the_first_step(players):
    checked = {False: 0, True: 0}
    for seed in range(6):
        for s in _action_states(players, 100 * players + seed):
            _agree(s, checked)
    assert checked[True] and checked[False]  # both answers were seen


def _shake(s, rng: random.Random):
    """A copy of `s` with holdings, bank, centre and galleries set at random, edge cases
    (nothing left, full lines, no money) much more often than play reaches them."""
    s = clone(s)
    for p in s.players:
        p.money = rng.choice((0, 0, 1, 2, 3, 6))
        p.miners_used = rng.randint(0, p.miners)
        p.deals = rng.sample(sorted(CONTENT.deals), rng.choice((0, 0, 1, 3)))
        for m in METALS:
            p.raw[m] = rng.choice((0, 0, 1, 2, 4, 5))
            p.artifacts[m] = rng.choice((0, 0, 1))
            p.enriched[m] = sorted(rng.sample((1, 2, 3, 4), rng.choice((0, 0, 1, 2))))
    for m in METALS:
        s.supply[m] = rng.choice((0, 0, 2, 40))
        s.centre[m] = [[rng.randrange(s.seats) for _ in range(rng.choice((0, 0, 1, 2)))] for _ in range(5)]
        s.centre[m][0] = [rng.randrange(s.seats) for _ in range(rng.choice((0, 3, 4)))]
    for island, metals in s.artifacts.items():
        s.artifacts[island] = [m for m in metals if rng.random() < 0.5]
    for site in s.sites.values():
        for pair in site.columns:
            for i, g in enumerate(pair):
                if g is not None and rng.random() < 0.3:
                    pair[i] = None
                elif g is not None and g.face_up:
                    g.cubes = rng.choice((0, 0, 1, 3))
    if rng.random() < 0.3:
        s.deal_deck = []
    if rng.random() < 0.2:  # an empty Enrichment Center
        s.centre = {m: [[] for _ in range(5)] for m in METALS}
    if rng.random() < 0.2:  # bare mining sites
        for site in s.sites.values():
            site.columns = [[None, None] for _ in site.columns]
    if rng.random() < 0.2:  # players with nothing but money, and a bank short of metals
        for p in s.players:
            p.raw = dict.fromkeys(METALS, 0)
            p.money = rng.choice((0, 1))
        s.supply = {m: rng.choice((0, 0, 1)) for m in METALS}
    return s


def test_feasible_agrees_with_probing_in_shaken_states():
    rng = random.Random(2026)
    checked = {False: 0, True: 0}
    for players in (2, 3, 4):
        for s in _action_states(players, players, every=5):
            for _ in range(3):
                _agree(_shake(s, rng), checked)
    assert checked[True] and checked[False]


def test_refused_actions_still_say_why_in_words():
    """A refusal found by the quick check is explained by the first step's own reason."""
    seen = 0
    for s in _action_states(3, 7, every=1):
        for cand in choose_action(s).cands:
            if cand.reason is not None:
                reason = text(cand.reason)
                assert isinstance(reason, str) and reason and not reason.startswith("<"), cand.id
                seen += 1
    assert seen


def test_a_mining_plan_goes_on_exactly_while_a_gallery_can_take_miners():
    """After each assignment the plan waits for more only if another assignment is offered."""
    mining = ACTIVITIES["operate_mining_site"]
    seen = {False: 0, True: 0}
    for players in (2, 3, 4):
        for seed in range(4):
            rng = random.Random(seed)
            engine = Engine.new(CONTENT, list(NAMES[:players]), seed=seed)
            while engine.state.phase != "over":
                s = engine.state
                if s.step is not None and s.step.kind == "operate_mining_site":
                    for cand in mining.candidates(s, s.step):
                        if cand.reason is None and cand.id.startswith("mine:"):
                            after = clone(s)
                            evolve(after, ev.Picked(after.step.seat, cand.payload))
                            offered = any(
                                c.reason is None and c.id.startswith("mine:")
                                for c in mining.candidates(after, after.step)
                            )
                            assert more_to_assign(after, after.step) == offered
                            seen[offered] += 1
                ids = engine.legal_ids()
                engine.choose(ids[rng.randrange(len(ids))])
    assert seen[True] and seen[False]
