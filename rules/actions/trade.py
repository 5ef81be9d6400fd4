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


def _have(p, good: str) -> int:
    return p.money if good == MONEY else p.raw[good]


def _give_cands(s, step):
    p, give = player(s, step), step.data["give"]
    out = []
    for combo in combinations_with_replacement(GOODS, give):
        short = next((g for g in combo if _have(p, g) < combo.count(g)), None)
        reason = None if short is None else f"You do not have {combo.count(short)} {'$' if short == MONEY else short}"
        if reason is None and not any(c.reason is None for c in _gets(s, combo)):
            reason = "The bank has nothing left that you could get for it"
        out.append(Cand("give:" + "+".join(combo), f"Give {goods_label(combo)}", list(combo), reason))
    if step.data.get("trades", 0):
        out.append(Cand("done", "Done trading"))
    return out


def _get_cands(s, step):
    return _gets(s, step.picks[0])


def _gets(s, given):
    out = []
    for good in GOODS:
        if good in given:
            continue  # getting back what you gave could only lose
        reason = None if good == MONEY or s.supply[good] else f"The bank has no {good} left"
        out.append(Cand(f"get:{good}", f"Get {goods_label([good])}", good, reason))
    return out


def _trade_cands(s, step):
    return _get_cands(s, step) if step.picks else _give_cands(s, step)


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
