"""Trade: give two goods (raw resources or $1) to the bank for one other good, up to twice.

The same step serves the Tipper, which trades one for one, once. Trades are
resolved one by one, so the second may use what the first brought.
"""
from __future__ import annotations

from itertools import combinations_with_replacement

from .. import events as ev
from ..cards import METALS
from ..decision import Cand
from ..state import MONEY
from ..turns import finish_action
from .base import activity, goods_label, player

GOODS = METALS + (MONEY,)
_COMBOS = {n: tuple(combinations_with_replacement(GOODS, n)) for n in (1, 2, 3)}
_GET_LABELS = {g: f"Get {goods_label([g])}" for g in GOODS}
_GIVE_IDS = {c: ("give:" + "+".join(c), f"Give {goods_label(c)}") for combos in _COMBOS.values() for c in combos}


def _have(p, good: str) -> int:
    return p.money if good == MONEY else p.raw[good]


def _give_cands(s, step):
    p, give = player(s, step), step.data["give"]
    for combo in _COMBOS[give]:
        cid, label = _GIVE_IDS[combo]
        short = next((g for g in combo if _have(p, g) < combo.count(g)), None)
        if short is not None:
            yield Cand(cid, label, list(combo),
                       lambda combo=combo, short=short: f"You do not have {combo.count(short)} {'$' if short == MONEY else short}")
        elif not any(c.reason is None for c in _gets(s, combo)):
            yield Cand(cid, label, list(combo), "The bank has nothing left that you could get for it")
        else:
            yield Cand(cid, label, list(combo))
    if step.data.get("trades", 0):
        yield Cand("done", "Done trading")


def _gets(s, given):
    for good in GOODS:
        if good in given:
            continue  # getting back what you gave could only lose
        reason = None if good == MONEY or s.supply[good] else f"The bank has no {good} left"
        yield Cand("get:" + good, _GET_LABELS[good], good, reason)


def _trade_cands(s, step):
    return _gets(s, step.picks[0]) if step.picks else _give_cands(s, step)


def _trade_apply(s, step, cand, emit):
    seat = step.seat
    if cand.id == "done":
        finish_action(s, seat, emit)
    elif cand.id.startswith("give:"):
        emit(ev.Picked(seat, cand.payload))
    else:
        emit(ev.Traded(seat, tuple(step.picks[0]), cand.payload))
        if step.data["trades"] >= step.data["max"]:
            finish_action(s, seat, emit)


def _trade_prompt(s, step):
    n = step.data.get("trades", 0) + 1
    if step.picks:
        return f"Trade {n}: what do you get for {goods_label(step.picks[0])}?"
    return f"Trade {n} of {step.data['max']}: what do you give?"


activity(kind="trade", prompt=_trade_prompt, candidates=_trade_cands, apply=_trade_apply)
