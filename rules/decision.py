"""Decisions, options and rejections: how the engine asks and how it says no."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, overload

from .record import FrozenRecord, frozen_record

if TYPE_CHECKING:
    from .events import Event

Emit = Callable[["Event"], None]
"""Where the rules send each event they bring about (which applies it to the state at once)."""
Reason = str | Callable[[], str] | None
"""Why a choice is not allowed (None when it is), as text or as a function giving the text."""


class Cand:
    """A candidate choice: legal when `reason` is None, else why it is not.

    `label` and `reason` may be given as a function of no arguments, so that
    text nobody reads (random play, feasibility checks) is never formatted.
    Such a function reads the state when called, so read it before the state
    changes (as `decision_of` and `resolve` do).

    A slotted class rather than a named tuple: the engine makes tens of these
    per decision, and this is about twice as quick to make and to read.
    """

    __slots__ = ("id", "label", "payload", "reason")

    # `payload` is whatever the code that made the candidate needs to carry it out (an island's
    # number, the plan of an action, a pick), read back only by that same code: Any, as each kind
    # of decision has its own.
    def __init__(self, id: str, label: str | Callable[[], str], payload: Any = None, reason: Reason = None):
        self.id = id
        self.label = label
        self.payload = payload
        self.reason = reason

    def refused(self, reason: Reason) -> Cand:
        """The same choice, not allowed for `reason`.

        Choices that never change (an action space, an island, a placement) are
        made once, allowed, and shared; a Cand is never changed after it is made.
        """
        return Cand(self.id, self.label, self.payload, reason)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cand) and (self.id, self.label, self.payload, self.reason) == (
            other.id,
            other.label,
            other.payload,
            other.reason,
        )

    __hash__ = None  # type: ignore[assignment]  # payloads may be lists

    def __repr__(self) -> str:
        return f"Cand({self.id!r}, {self.label!r}, {self.payload!r}, {self.reason!r})"


@overload
def text(value: str | Callable[[], str]) -> str: ...
@overload
def text(value: str | Callable[[], str] | None) -> str | None: ...
def text(value: str | Callable[[], str] | None) -> str | None:
    """The text of a label or reason given directly or lazily."""
    return value() if callable(value) else value


class Ask:
    """Who decides what now, with every candidate choice.

    The prompt may be given lazily, like a candidate's label; `prompt` reads as text.
    The ids of a decision's candidates are all different.
    """

    __slots__ = ("seat", "kind", "_prompt", "cands", "legal")

    def __init__(self, seat: int | None, kind: str, prompt: str | Callable[[], str], cands: list[Cand]):
        self.seat, self.kind, self._prompt, self.cands = seat, kind, prompt, cands
        # the legal candidates by id, in order: what is offered, and what `resolve` looks a choice up in
        self.legal: dict[str, Cand] = {c.id: c for c in cands if c.reason is None}

    @property
    def prompt(self) -> str:
        return text(self._prompt)


@frozen_record
class Option(FrozenRecord):
    id: str
    label: str


OPEN_KINDS = frozenset({"choose_island"})
"""Kinds of decision whose options never depend on what the deciding seat alone knows (its objectives,
its deals, the galleries it drew or placed face down): anyone at the table may watch them being made.
(Not the choice of an action: whether Draw or Close a Deal is open can depend on the deals in hand.)
Pinned by tests/test_open_decisions.py, which deals the deciding seat other secrets and finds the
same options."""


@frozen_record
class Decision(FrozenRecord):
    """The one pending decision: whose it is, what kind, and every legal option."""

    seat: int | None
    kind: str
    prompt: str
    options: tuple[Option, ...]

    def ids(self) -> tuple[str, ...]:
        return tuple(o.id for o in self.options)


@frozen_record
class Rejection(FrozenRecord):
    """A choice the rules do not allow now; nothing changed."""

    choice: str
    reason: str

    def __bool__(self) -> bool:  # a rejection is never a list of events
        return False


BACK = Cand("back", "Back")
DONE_LABEL = "Done"


def legal(cands: Iterable[Cand]) -> list[Cand]:
    return [c for c in cands if c.reason is None]


def first_legal(cands: Iterable[Cand]) -> Cand | None:
    for c in cands:
        if c.reason is None:
            return c
    return None


def plural(n: int, word: str, many: str | None = None) -> str:
    """ "1 cube", "2 cubes"; `many` for a word whose plural is not an added s ("2 deals closed")."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"
