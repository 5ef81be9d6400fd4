"""Deals: draw one, close one (paying enriched cubes of the level asked or higher), discard one."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from .. import events as ev
from ..decision import Cand
from ..flow import finish_action, score
from .base import activity, player

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from typing import Any

    from ..cards import Deal
    from ..decision import Emit
    from ..state import GameState, Player, Step
    from .base import Data, StepView


def deal_label(deal: Deal) -> str:
    needs = " + ".join(f"{level}' {metal}" for metal, level in deal.requires.items())
    return f"{needs} for {deal.vp} VP"


def unpaid(p: Player, deal: Deal) -> tuple[str, int] | None:
    """The first requirement of `deal` that no enriched cube of `p` meets, or None."""
    for metal, level in deal.requires.items():
        held = p.enriched[metal]
        if not held or max(held) < level:
            return metal, level
    return None


def missing_for(p: Player, deal: Deal) -> str | None:
    """Why `p` cannot pay for `deal` now, or None."""
    short = unpaid(p, deal)
    return None if short is None else f"This deal needs enriched {short[0]} at level {short[1]}' or higher"


def closing_spent(p: Player, data: Data) -> bool:
    """Whether this deal action may not close a deal because the player's one closure
    without equipment this round is spent.

    The action stands on islands 1 and 2, and the same action on another island is
    usually allowed again; but the rulebook's hint under Close a Deal allows only one
    closure a round without the equipment for it. So once the board has closed a deal
    for a player, the other island's action may still draw one, not close one.
    Closures with equipment (its data names no island) neither count nor are limited.
    """
    return p.deal_closed_on is not None and "island" in data


def one_closure_a_round(p: Player) -> str:
    return (
        f"Without equipment you can close only one deal a round: you closed one on island {p.deal_closed_on} this round"
    )


def payment_plan(
    p: Player, deal: Deal, picks: Sequence[Any]
) -> tuple[list[tuple[str, int]], tuple[str, int, list[int]] | None]:
    """Cubes paid so far, as (metal, level), and the next requirement the player must choose a cube
    for: (metal, level asked, the levels of the player's cubes that fit), or None once all are paid.

    `picks` are the cubes chosen so far, each [metal, level]. Where only one cube on the board
    qualifies it is taken without asking.
    """
    chosen: dict[str, int] = {metal: level for metal, level in picks}
    paid: list[tuple[str, int]] = []
    for metal, level in deal.requires.items():
        if metal in chosen:
            paid.append((metal, chosen[metal]))
            continue
        fits = [held for held in p.enriched[metal] if held >= level]
        if len(fits) == 1:
            paid.append((metal, fits[0]))
        else:
            return paid, (metal, level, fits)
    return paid, None


def _deal_cands(s: GameState, step: StepView) -> Iterator[Cand]:
    p, data = player(s, step), step.data
    if step.picks:
        deal = s.content.deals[step.picks[0][1]]
        _, requirement = payment_plan(p, deal, step.picks[1:])
        assert requirement is not None  # (a deal whose last cube was chosen is closed at once)
        metal, level, fits = requirement
        for held in fits:
            yield Cand(f"pay:{metal}:{held}", f"Pay with {held}' {metal}", [metal, held])
        return
    if data.get("draw"):
        yield Cand("draw", "Draw a deal", None, None if s.deal_deck else "The deal deck is empty")
    if data.get("close"):
        bonus = data.get("bonus", 0)
        extra = f" (+{bonus} VP)" if bonus else ""
        spent = closing_spent(p, data)
        for did in p.deals:
            deal = s.content.deals[did]
            why = partial(one_closure_a_round, p) if spent else missing_for(p, deal)
            yield Cand(f"close:{did}", f"Close deal: {deal_label(deal)}{extra}", did, why)
        if not p.deals:
            yield Cand("close", "Close a deal", None, "You have no deal in hand")


def _can_deal(s: GameState, seat: int, data: Data) -> bool:
    """A deal to draw, or one in hand that the player's enriched cubes can pay for and may close."""
    if data.get("draw") and s.deal_deck:
        return True
    p = s.players[seat]
    if data.get("close") and not closing_spent(p, data):
        deals = s.content.deals
        for d in p.deals:
            if unpaid(p, deals[d]) is None:
                return True
    return False


def _deal_apply(s: GameState, step: Step, cand: Cand, emit: Emit) -> None:
    seat = step.seat
    if cand.id == "draw":
        emit(ev.DealDrawn(seat, s.deal_deck[0]))
        finish_action(s, seat, emit)
        return
    emit(ev.Picked(seat, ["close", cand.payload] if cand.id.startswith("close:") else cand.payload))
    deal = s.content.deals[step.picks[0][1]]
    paid, open_requirement = payment_plan(s.players[seat], deal, step.picks[1:])
    if open_requirement is None:
        emit(ev.DealClosed(seat, deal.id, tuple(paid)))
        score(s, seat, deal.vp + step.data.get("bonus", 0), "deals", emit)
        finish_action(s, seat, emit)


def _deal_prompt(s: GameState, step: StepView) -> str:
    if step.picks:
        deal = s.content.deals[step.picks[0][1]]
        _, requirement = payment_plan(player(s, step), deal, step.picks[1:])
        assert requirement is not None  # (as in `_deal_cands`)
        metal, level, _ = requirement
        return f"Which enriched {metal} pays for the {level}' {metal} of this deal?"
    return "Draw a deal or close one?" if step.data.get("draw") and step.data.get("close") else "Which deal?"


activity(kind="deal", prompt=_deal_prompt, candidates=_deal_cands, apply=_deal_apply, feasible=_can_deal)


# --- Generator: discard a deal for money ----------------------------------------


def _discard_cands(s: GameState, step: StepView) -> Iterator[Cand]:
    p = player(s, step)
    money = step.data["money"]
    for d in p.deals:
        yield Cand(f"discard:{d}", f"Discard deal {deal_label(s.content.deals[d])} for ${money}", d)
    if not p.deals:
        yield Cand("discard", "Discard a deal", None, "You have no deal in hand")


def _discard_apply(s: GameState, step: Step, cand: Cand, emit: Emit) -> None:
    emit(ev.DealDiscarded(step.seat, cand.payload, step.data["money"]))
    finish_action(s, step.seat, emit)


activity(
    kind="discard_deal",
    prompt="Which deal do you discard?",
    candidates=_discard_cands,
    apply=_discard_apply,
    feasible=lambda s, seat, data: bool(s.players[seat].deals),
)


# --- Air Compressor: draw a deal ---------------------------------------------------

activity(
    kind="draw_deal",
    prompt="Draw a deal",
    blocked=lambda s, seat, data: None if s.deal_deck else "The deal deck is empty",
    immediate=lambda s, seat, data, emit: emit(ev.DealDrawn(seat, s.deal_deck[0])),
)
