"""Trade: give two goods (raw resources or $1) to the bank for one other good, up to twice.

The same step serves the Tipper, which trades one for one, once. Trades are
resolved one by one, so the second may use what the first brought.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement
from typing import NamedTuple

from .. import events as ev
from ..cards import METALS
from ..decision import Cand
from ..flow import finish_action
from ..state import MONEY
from .base import activity, goods_label, player

GOODS = METALS + (MONEY,)
# each good to get, as (the choice allowed, the choice refused while the bank has none)
_GETS = {
    g: (
        Cand("get:" + g, f"Get {goods_label([g])}", g),
        Cand("get:" + g, f"Get {goods_label([g])}", g, f"The bank has no {g} left"),
    )
    for g in GOODS
}


class Give(NamedTuple):
    """One way to hand goods to the bank, with its counts and choices worked out once."""

    goods: tuple[str, ...]  # e.g. ("gold", "money")
    counts: tuple[tuple[str, int], ...]  # (good, how many)
    kinds: frozenset[str]
    offer: Cand  # the choice allowed; its payload is `goods`
    bank_empty: Cand  # the same choice refused: the bank has nothing to give for it


def _give(goods: tuple[str, ...]) -> Give:
    counts = tuple((g, goods.count(g)) for g in dict.fromkeys(goods))
    offer = Cand("give:" + "+".join(goods), f"Give {goods_label(goods)}", goods)
    return Give(
        goods, counts, frozenset(goods), offer, offer.refused("The bank has nothing left that you could get for it")
    )


@cache
def _gives(n: int) -> tuple[Give, ...]:
    """Every way to hand `n` goods to the bank (as many as the board's `trade_give`, or a card's)."""
    return tuple(_give(c) for c in combinations_with_replacement(GOODS, n))


def _holdings(p) -> dict[str, int]:
    return {**p.raw, MONEY: p.money}


def _short(have: dict[str, int], give: Give) -> tuple[str, int] | None:
    """The first good (and how many are asked) the player holds too little of, or None."""
    for good, n in give.counts:
        if have[good] < n:
            return good, n
    return None


def _bank_gives(s) -> set[str]:
    """The goods the bank could hand out now: $1 always, a metal while it has a cube."""
    supply = s.supply
    return {MONEY, *[m for m in METALS if supply[m]]}


def _give_cands(s, step):
    have, bank = _holdings(player(s, step)), _bank_gives(s)
    for give in _gives(step.data["give"]):
        short = _short(have, give)
        if short is not None:
            yield give.offer.refused(
                lambda short=short: f"You do not have {short[1]} {'$' if short[0] == MONEY else short[0]}"
            )
        elif bank <= give.kinds:  # getting back what you gave is never offered
            yield give.bank_empty
        else:
            yield give.offer
    if step.data.get("trades", 0):
        yield Cand("done", "Done trading")


def _can_trade(s, seat, data) -> bool:
    """Whether some way of giving `give` goods is offered (see `_give_cands`), by counting:
    a good can be got for them if it is $1 and they are all raw cubes, or if it is a metal
    the bank still has and they are money and raw cubes of other metals."""
    if data.get("trades", 0):
        return True  # "done" is offered
    p, k = s.players[seat], data["give"]
    raw = p.raw
    cubes = sum(raw.values())
    if cubes >= k:
        return True
    supply = s.supply
    for metal in METALS:
        if supply[metal] and cubes - raw[metal] + p.money >= k:
            return True
    return False


def _gets(s, given):
    for good in GOODS:
        if good in given:
            continue  # getting back what you gave could only lose
        allowed, refused = _GETS[good]
        yield allowed if good == MONEY or s.supply[good] else refused


def _trade_cands(s, step):
    return _gets(s, step.picks[0]) if step.picks else _give_cands(s, step)


def _trade_apply(s, step, cand, emit):
    seat = step.seat
    if cand.id == "done":
        finish_action(s, seat, emit)
    elif cand.id.startswith("give:"):
        emit(ev.Picked(seat, list(cand.payload)))  # the goods given, as a pick: a list
    else:
        emit(ev.Traded(seat, tuple(step.picks[0]), cand.payload))
        if step.data["trades"] >= step.data["max"]:
            finish_action(s, seat, emit)


def _trade_prompt(s, step):
    n = step.data.get("trades", 0) + 1
    if step.picks:
        return f"Trade {n}: what do you get for {goods_label(step.picks[0])}?"
    return f"Trade {n} of {step.data['max']}: what do you give?"


activity(kind="trade", prompt=_trade_prompt, candidates=_trade_cands, apply=_trade_apply, feasible=_can_trade)
