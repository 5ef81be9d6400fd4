"""Plans: what an action is worth, and the options that carry it out, described, not spelled.

When the bot prices an action it also works out how it would carry it out:
which galleries get miners, which cubes are enriched, what is given in a
trade. Those later choices are kept as `Want`s, each describing an option
by what it is about (the parts of the option's `Refers` that it names: a
metal and a level, an island and a column, the goods given...), so the bot
never writes or reads an option's id. An option that is about nothing (to
finish, to draw a deal, to pick the enrichment or the buying half of a
transaction) is named by its word, which is its whole id.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from rules.seat import Choice


class Want(NamedTuple):
    """One option a plan means to take: the parts of its `Refers` that must be as given
    (tuples, such as goods, in any order), or, for an option about nothing, its word."""

    parts: tuple[tuple[str, object], ...] = ()
    word: str | None = None

    def fits(self, choice: Choice) -> bool:
        if self.word is not None:
            return choice.id == self.word
        refers = choice.refers
        for name, value in self.parts:
            got = getattr(refers, name)
            if got != value and not (isinstance(value, tuple) and tuple(sorted(got)) == value):
                return False
        return True

    def part(self, name: str) -> Any:
        """The value this want gives a part, or None (Any: of the type of the `Refers` field `name`)."""
        return dict(self.parts).get(name)


def about(**parts: object) -> Want:
    """The option about these things, e.g. `about(metal="gold", level=2)`."""
    return Want(tuple((name, tuple(sorted(v)) if isinstance(v, tuple) else v) for name, v in parts.items()))


def word(answer: str) -> Want:
    return Want(word=answer)


# The options about nothing, by their words.
DONE = "done"  # finish a step of several picks (mining, enriching, buying, trading)
BACK = "back"  # take back the last pick, or withdraw the action
PASS = "pass"  # take no more actions this round
DRAW = "draw"  # draw a deal rather than close one
ENRICH, BUY = "enrich", "buy"  # the two halves of an enrichment transaction

Plan = tuple[float, tuple[Want, ...]]
"""What an action is worth in VP, and the options of the steps that carry it out."""

NOTHING: Plan = (0.0, ())


def best(plans: Iterable[Plan]) -> Plan:
    """The most valuable plan (the first of equals), or NOTHING."""
    return max(plans, key=lambda plan: plan[0], default=NOTHING)


def first_fit(want: Want, options: Iterable[Choice]) -> Choice | None:
    """The option `want` describes, if it is offered."""
    for choice in options:
        if want.fits(choice):
            return choice
    return None


def part_fit(want: Want, options: Iterable[Choice]) -> tuple[Choice, Want] | None:
    """For a want of goods to hand in, an option that hands in some of them, and the want of
    the goods still to give: a deck may ask for more goods than one pick hands in."""
    goods = want.part("goods")
    if not goods or len(want.parts) != 1:
        return None
    for choice in options:
        handed = choice.refers.goods
        if handed and len(handed) < len(goods):
            left = _without(goods, handed)
            if left is not None:
                return choice, about(goods=left)
    return None


def _without(goods: tuple[str, ...], handed: tuple[str, ...]) -> tuple[str, ...] | None:
    """`goods` less those `handed`, or None if some handed good is not among them."""
    left = list(goods)
    for good in handed:
        if good not in left:
            return None
        left.remove(good)
    return tuple(left)
