"""What every action has in common: how it is described, started and resolved.

An `Activity` is one island action or equipment effect. Most take one or more
steps: `candidates` lists each step's choices (legal or with the reason why
not) and `apply` resolves one. An activity without steps is `immediate`.

Whether an activity can be started at all is asked for every island action
and every equipment card at every "choose an action" decision, so it must be
cheap: each step activity answers it with `feasible`, direct arithmetic on the
state that agrees exactly with "its first step offers a legal choice" (a test
checks the two against each other in random games). Only when the answer is
no, and someone reads why, are the first step's candidates listed for the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, NamedTuple, ParamSpec, Protocol

from ..decision import Cand, Emit, Reason, text
from ..state import GameState, Player, Step

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence
    from typing import Any

    # An activity's fixed data and counters (`Step.data`), read only here: JSON whose keys depend on the
    # activity and partly come from the cards' TOML parameters (see `rules.events.ActionData`).
    Data = Mapping[str, Any]

P = ParamSpec("P")

ACTIVITIES: dict[str, Activity] = {}
NOTHING_TO_DO = "There is nothing you could do with it now"


class StepView(Protocol):
    """What an activity reads of its step: the step under way, or a `Probe` of one not yet started."""

    @property
    def kind(self) -> str: ...
    @property
    def seat(self) -> int: ...
    @property
    def source(self) -> str: ...
    @property
    def picks(self) -> Sequence[Any]: ...  # JSON, as each option chosen carries it (`rules.events.Picked`)
    @property
    def data(self) -> Data: ...
    @property
    def committed(self) -> bool: ...


class Probe(NamedTuple):
    """A stand-in for a Step not yet started, to ask whether it could be done at all."""

    kind: str
    seat: int
    source: str
    picks: tuple[()]
    data: Data
    committed: bool = False


@dataclass(frozen=True)
class Activity:
    kind: str
    prompt: str | Callable[[GameState, StepView], str]
    candidates: Callable[[GameState, StepView], Iterable[Cand]] | None = None
    apply: Callable[[GameState, Step, Cand, Emit], None] | None = None
    # for activities without steps: why they cannot be done now, and doing them
    blocked: Callable[[GameState, int, Data], str | None] | None = None
    immediate: Callable[[GameState, int, Data, Emit], None] | None = None
    # for step activities that do something as soon as they start (draw tiles...)
    on_start: Callable[[GameState, Step, Emit], None] | None = None
    label: Callable[[GameState, Data], str] | None = field(default=None)
    # for step activities: whether the first step would offer a legal choice (see above)
    feasible: Callable[[GameState, int, Data], bool] | None = None

    def why_not(self, s: GameState, seat: int, source: str, data: Data) -> Reason:
        """None if the activity can be done now, else the reason it cannot (maybe lazily)."""
        if self.feasible is not None:  # most activities: checked first
            return None if self.feasible(s, seat, data) else partial(self.explain, s, seat, source, data)
        if self.blocked is not None:
            return self.blocked(s, seat, data)
        return self.probe(s, seat, source, data)

    def explain(self, s: GameState, seat: int, source: str, data: Data) -> str:
        """Why an activity found not feasible cannot be started: its first step's own reason."""
        return self.probe(s, seat, source, data) or NOTHING_TO_DO

    def probe(self, s: GameState, seat: int, source: str, data: Data) -> str | None:
        """The slow, sure answer: None if the first step offers a legal choice, else the
        reason its first refused choice gives."""
        # (only a step activity comes here: every activity without steps says why in `blocked`)
        assert self.candidates is not None, self.kind
        first_reason: Reason = None
        for c in self.candidates(s, Probe(self.kind, seat, source, (), data)):
            if c.reason is None:
                return None
            first_reason = first_reason or c.reason
        return text(first_reason) or NOTHING_TO_DO

    def prompt_for(self, s: GameState, step: StepView) -> str:
        return self.prompt if isinstance(self.prompt, str) else self.prompt(s, step)


def _registered(make: Callable[P, Activity]) -> Callable[P, Activity]:
    def register(*args: P.args, **kwargs: P.kwargs) -> Activity:
        act = make(*args, **kwargs)
        ACTIVITIES[act.kind] = act
        return act

    return register


activity = _registered(Activity)
"""An Activity made (from the same arguments) and registered under its kind."""


def player(s: GameState, step: StepView) -> Player:
    return s.players[step.seat]


def goods_label(goods: Iterable[str]) -> str:
    return " + ".join("$1" if g == "money" else g for g in goods)
