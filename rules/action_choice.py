"""The "choose an action" decision: the island's action spaces, the equipment cards, pass.

This decision comes up twice a turn, and for each action space and each card
it asks whether a complete way to do it exists, so it is the engine's hottest
path. Everything about a space or a card that never changes during a game
(its ids, activity, labels and payloads) is worked out once and kept; what is
left per decision is a few comparisons and each activity's `feasible` check.
Reasons for refused options stay in the rulebook's words but are only
formatted when someone reads them.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from .actions import ACTION_NAMES, ACTIVITIES, Activity, equipment_activity, island_activity
from .cards import Board, Content, Equipment
from .decision import Ask, Cand, Reason, plural
from .memo import once_per_object
from .registry import MINER_ACTIONS
from .state import GameState, Player

PASS = Cand("pass", "Pass: take no more actions this round")


def merchant_cost(s: GameState, seat: int | None, space: str) -> int:
    """One merchant, plus one for each other player who took this action here this round (for no
    seat, a spectator: one for each player who took it)."""
    users = s.space_users.get(space)
    return 1 + len({other for other in users if other != seat}) if users else 1


class Space:
    """One action space of an island, with what never changes about it worked out once."""

    __slots__ = (
        "island",
        "action",
        "key",
        "kind",
        "data",
        "by_miners",
        "option_id",
        "source",
        "name",
        "activity",
        "feasible",
        "offers",
        "taken",
        "taken_offers",
    )

    # `data` is the activity's fixed parameters (`rules.actions`), read only by that activity: Any, as
    # each activity has its own.
    def __init__(self, board: Board, island: int, action: str) -> None:
        self.island, self.action = island, action
        self.key = f"{island}:{action}"  # as in Player.used and GameState.space_users
        self.kind, self.data = island_activity(action, board, island)
        self.by_miners = action in MINER_ACTIONS
        self.option_id = f"do:{island}:{action}"
        self.source = f"island:{island}:{action}"  # as in Step.source
        self.name = ACTION_NAMES[action]
        self.activity: Activity = ACTIVITIES[self.kind]
        self.feasible = self.activity.feasible
        self.taken = f"You have already taken {self.name} on island {island} this round"
        # offers[merchants]: the option when allowed; merchants never exceed the number of players
        self.offers = tuple(self._offer(m) for m in range(board.players_max + 1))
        self.taken_offers = tuple(offer.refused(self.taken) for offer in self.offers)  # refused: taken already

    def _offer(self, merchants: int) -> Cand:
        label = f"{self.name} ({plural(merchants, 'merchant')})" if merchants else f"{self.name} (miners)"
        return Cand(self.option_id, label, (self.kind, self.data, merchants, 0, self.source))


@once_per_object
def _spaces_of(board: Board) -> dict[int, tuple[Space, ...]]:
    return {isl.number: tuple(Space(board, isl.number, a) for a in isl.actions) for isl in board.islands}


def spaces(board: Board, island: int) -> tuple[Space, ...]:
    """The action spaces of `island`, built once per board."""
    return _spaces_of(board)[island]


class Use:
    """Using one equipment card, with what never changes about it worked out once."""

    __slots__ = ("card", "option_id", "source", "kind", "data", "activity", "offer", "used")

    def __init__(self, card: Equipment) -> None:
        self.card = card
        self.kind: str | None
        self.data: dict[str, Any] | None  # as a Space's; None with the activity for a card with no ability
        self.activity: Activity | None
        self.option_id = "use:" + card.id
        self.source = "equipment:" + card.id  # as in Step.source
        self.used = f"You have already used {card.name} this round"
        if card.effect is None:
            self.kind, self.data, self.activity = None, None, None
            self.offer = Cand(self.option_id, f"Use {card.name}")  # the option when allowed
        else:
            self.kind, self.data = equipment_activity(card.effect, card.params)
            self.activity = ACTIVITIES[self.kind]
            self.offer = Cand(
                self.option_id, f"Use {card.name}: {card.text}", (self.kind, self.data, 0, 1, self.source)
            )


@once_per_object
def uses(content: Content) -> dict[str, Use]:
    """The use of every equipment card, by card id, built once per content."""
    return {card_id: Use(card) for card_id, card in content.equipment.items()}


def _short_of_merchants(merchants: int, free: int) -> str:
    others = merchants - 1
    why = f" because {plural(others, 'other player')} took it before you" if others else ""
    return f"This action needs {plural(merchants, 'merchant')}{why}; you have {free} free"


def _use_cand(s: GameState, p: Player, use: Use) -> Cand:
    reason: Reason
    if use.activity is None:
        reason = f"{use.card.name} has no ability to use; it only gave VP"
    elif use.card.id in p.equipment_used:
        reason = use.used
    elif p.miners - p.miners_used < 1:
        reason = "Using equipment takes a free miner; you have none"
    else:
        reason = use.activity.why_not(s, p.seat, use.source, use.data)  # type: ignore[arg-type]  # (data is None only with activity)
    return use.offer if reason is None else use.offer.refused(reason)


def choose_action(s: GameState) -> Ask:
    """Every island action of the current player's island, every card they own, and pass."""
    p = s.players[s.current]
    seat, free, used = p.seat, p.merchants - p.merchants_used, p.used
    cands: list[Cand] = []
    taken_by = s.space_users
    for sp in _spaces_of(s.content.board)[p.island]:  # type: ignore[index]  # (in the action phase every ship is docked)
        if sp.by_miners:
            merchants = 0
        elif sp.key in taken_by:
            merchants = merchant_cost(s, seat, sp.key)
        else:
            merchants = 1  # as merchant_cost says when nobody took it this round, without the call
        if sp.key in used:
            cands.append(sp.taken_offers[merchants])
            continue
        reason: Reason
        if merchants > free:
            reason = partial(_short_of_merchants, merchants, free)
        elif sp.feasible is not None:  # `why_not` without the call, for most spaces
            reason = (
                None if sp.feasible(s, seat, sp.data) else partial(sp.activity.explain, s, seat, sp.source, sp.data)
            )
        else:
            reason = sp.activity.why_not(s, seat, sp.source, sp.data)
        offer = sp.offers[merchants]
        cands.append(offer if reason is None else offer.refused(reason))
    if p.equipment:
        table = uses(s.content)
        cands += [_use_cand(s, p, table[c]) for c in p.equipment]
    cands.append(PASS)
    return Ask(p.seat, "choose_action", partial(_prompt, s, p), cands)


def _prompt(s: GameState, p: Player) -> str:
    return f"{p.name}, island {p.island}: action {s.turn_actions + 1} of this turn"
