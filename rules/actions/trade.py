"""Trade: give two goods (raw resources or $1) to the bank for one other good, up to twice.

The same step serves the Tipper, which trades one for one, once, and a deck's
own numbers (`trade_give` on the board, a card's `give`). Goods are handed in
at most `HANDFUL` at a time: a trade of two is one pick among the 15 ways of
giving two of the five goods, as the rulebook's trade reads; a trade of more
takes a pick for each handful, so no decision lists more than those 15 ways,
whatever a deck asks (every way of giving 100 goods at once is 4.6 million
options). Trades are resolved one by one, so the second may use what the first
brought.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, NamedTuple

from .. import events as ev
from ..cards import METALS
from ..decision import Cand
from ..flow import finish_action
from ..state import MONEY
from .base import activity, goods_label, player

if TYPE_CHECKING:
    from collections.abc import Collection, Iterator, Mapping

    from ..decision import Emit
    from ..state import GameState, Player, Step
    from .base import Data, StepView

GOODS = METALS + (MONEY,)
HANDFUL = 2
"""The most goods handed in by one pick."""

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
    """Every way to hand `n` goods to the bank at once (`n` at most `HANDFUL`: 15 ways at most)."""
    return tuple(_give(c) for c in combinations_with_replacement(GOODS, n))


def _given(step: StepView) -> list[str]:
    """The goods handed in so far for the trade under way, handful after handful."""
    return [good for pick in step.picks for good in pick]


def _holdings(p: Player, given: Iterable[str] = ()) -> dict[str, int]:
    """What the player holds of each good, less the goods in `given` (handed in already)."""
    return _less({**p.raw, MONEY: p.money}, given)


def _short(have: Mapping[str, int], give: Give) -> tuple[str, int] | None:
    """The first good (and how many are asked) the player holds too little of, or None."""
    for good, n in give.counts:
        if have[good] < n:
            return good, n
    return None


def _bank_gives(s: GameState) -> set[str]:
    """The goods the bank could hand out now: $1 always, a metal while it has a cube."""
    supply = s.supply
    return {MONEY, *[m for m in METALS if supply[m]]}


def _can_finish(have: Mapping[str, int], given: frozenset[str], more: int, bank: set[str]) -> bool:
    """Whether `more` goods can still be handed in from `have`, and a good got for them all: one the
    bank has and that is not among them (getting back what you gave is never offered)."""
    total = sum(have.values())
    return any(total - have[good] >= more for good in bank if good not in given)


def _less(have: Mapping[str, int], goods: Iterable[str]) -> dict[str, int]:
    left = dict(have)
    for good in goods:
        left[good] -= 1
    return left


def _give_cands(s: GameState, step: StepView) -> Iterator[Cand]:
    given = _given(step)
    have, bank = _holdings(player(s, step), given), _bank_gives(s)
    left = step.data["give"] - len(given)
    for give in _gives(min(HANDFUL, left)):
        short = _short(have, give)
        if short is not None:
            good, n = short[0], short[1] + given.count(short[0])
            yield give.offer.refused(
                lambda good=good, n=n: f"You do not have {n} {'$' if good == MONEY else good}"  # type: ignore[misc]  # mypy#15459: the default keeps the loop's value
            )
            continue
        kinds = give.kinds.union(given) if given else give.kinds
        more = left - len(give.goods)
        if bank <= kinds:
            yield give.bank_empty
        elif more and not _can_finish(_less(have, give.goods), kinds, more, bank):
            yield give.offer.refused(f"You would have too few goods left to give {more} more")
        else:
            yield give.offer
    if step.data.get("trades", 0):
        yield Cand("done", "Done trading")


def _can_trade(s: GameState, seat: int, data: Data) -> bool:
    """Whether some way of giving `give` goods is offered (see `_give_cands`)."""
    if data.get("trades", 0):
        return True  # "done" is offered
    return _can_finish(_holdings(s.players[seat]), frozenset(), data["give"], _bank_gives(s))


def _gets(s: GameState, given: Collection[str]) -> Iterator[Cand]:
    for good in GOODS:
        if good in given:
            continue  # getting back what you gave could only lose
        allowed, refused = _GETS[good]
        yield allowed if good == MONEY or s.supply[good] else refused


def _trade_cands(s: GameState, step: StepView) -> Iterator[Cand]:
    given = _given(step)
    return _gets(s, given) if len(given) >= step.data["give"] else _give_cands(s, step)


def _trade_apply(s: GameState, step: Step, cand: Cand, emit: Emit) -> None:
    seat = step.seat
    if cand.id == "done":
        finish_action(s, seat, emit)
    elif cand.id.startswith("give:"):
        emit(ev.Picked(seat, list(cand.payload)))  # the goods of this handful, as a pick: a list
    else:
        emit(ev.Traded(seat, tuple(_given(step)), cand.payload))
        if step.data["trades"] >= step.data["max"]:
            finish_action(s, seat, emit)


def _trade_prompt(s: GameState, step: StepView) -> str:
    n = step.data.get("trades", 0) + 1
    given, give = _given(step), step.data["give"]
    if len(given) >= give:
        return f"Trade {n}: what do you get for {goods_label(given)}?"
    if given:
        return f"Trade {n} of {step.data['max']}: you give {goods_label(given)}; what else ({give - len(given)} more)?"
    return f"Trade {n} of {step.data['max']}: what do you give?"


activity(kind="trade", prompt=_trade_prompt, candidates=_trade_cands, apply=_trade_apply, feasible=_can_trade)
