"""Open decisions (rules.decision.OPEN_KINDS) show nothing that only the deciding seat knows.

At every open decision of many random games, the deciding seat's secrets are
swapped for others (its objectives, its deals, the tiles of the face-down
galleries) and the engine must offer exactly the same options in the same words,
and refuse the same others for the same reasons (the prompt lists those too, dimmed,
on a board shown to everyone).
"""

from __future__ import annotations

import random

from rules import Engine, load_content
from rules.choose import candidates, decision_of
from rules.decision import OPEN_KINDS
from rules.engine import clone
from rules.seat import decision_prompt

CONTENT = load_content()


def dealt_otherwise(state, seat: int, rng: random.Random):
    """A copy of `state` in which `seat` holds other secrets, and the face-down tiles are others."""
    other = clone(state)
    p = other.players[seat]
    held = {o for q in other.players for o in q.objectives + q.objective_offer} | {
        d for q in other.players for d in q.deals
    }
    free_objectives = sorted(set(CONTENT.objectives) - held)
    free_deals = sorted(set(CONTENT.deals) - held - {d for q in other.players for d in q.deals_closed})
    p.objectives = rng.sample(free_objectives, len(p.objectives))
    p.deals = rng.sample(free_deals, min(len(p.deals), len(free_deals)))
    tiles = sorted(
        {g.tile for site in other.sites.values() for pair in site.columns for g in pair if g} | set(other.gallery_deck)
    )
    for site in other.sites.values():
        for pair in site.columns:
            for g in pair:
                if g is not None and not g.face_up:
                    g.tile = rng.choice(tiles)
    return other


def test_an_open_decision_is_the_same_whatever_the_deciding_seat_holds():
    seen = refused = 0
    for seed in range(12):
        rng = random.Random(seed)
        engine = Engine.new(CONTENT, ["Ana", "Ben", "Cleo"], seed=seed)
        while engine.state.phase != "over":
            decision = engine.pending
            if decision.kind in OPEN_KINDS:
                seen += 1
                prompt = decision_prompt(engine.state, engine.asking())
                refused += len(prompt.refused)
                for _ in range(3):
                    state = dealt_otherwise(engine.state, decision.seat, rng)
                    ask = candidates(state)
                    assert decision_of(ask) == decision, f"seed {seed}: {decision.kind} differs with other secrets"
                    assert decision_prompt(state, ask) == prompt, f"seed {seed}: a reason differs with other secrets"
            ids = engine.legal_ids()
            engine.choose(ids[rng.randrange(len(ids))])
    assert seen > 100
    assert refused > 100  # (an island chosen before: refused, with who chose it)


def test_the_choice_of_an_action_is_not_open():
    """Why choose_action is not in OPEN_KINDS: with the deal deck empty, Draw or Close a Deal is
    offered or not by whether a deal in hand can be paid for (the number of deals is public, not which)."""
    engine = Engine.new(CONTENT, ["Ana", "Ben"], seed=3, start_player=0)
    rng = random.Random(3)
    while not (engine.pending.kind == "choose_action" and "do:1:draw_or_close_deal" in engine.pending.ids()):
        ids = engine.legal_ids()
        engine.choose(ids[rng.randrange(len(ids))])
    seat = engine.pending.seat
    payable = next(d for d in CONTENT.deals.values() if len(d.requires) == 1)
    metal = next(iter(payable.requires))
    unpayable = next(d for d in CONTENT.deals.values() if metal not in d.requires)
    offered = []
    for deal in (payable, unpayable):
        state = clone(engine.state)
        state.deal_deck = []
        p = state.players[seat]
        p.deals, p.enriched = [deal.id], {m: ([4] if m == metal else []) for m in p.enriched}
        offered.append("do:1:draw_or_close_deal" in decision_of(candidates(state)).ids())
    assert offered == [True, False]
