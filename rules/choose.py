"""The pending decision and the resolution of a choice.

`candidates(state)` lists every choice of the moment, each legal or with the
reason it is not; `pending(state)` keeps the legal ones. `resolve(state, id,
emit)` checks the choice against that same list, so an option offered is never
refused and a refusal always says why.
"""
from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from . import events as ev
from .actions import ACTION_NAMES, ACTIVITIES, equipment_activity, island_activity
from .decision import BACK, Cand, Decision, Emit, Option, Rejection, plural, text
from .registry import MINER_ACTIONS
from .state import GameState
from .turns import after_island_chosen, after_setup_choice, finish_action, pass_for_round, selection_seat, setup_seat


class Ask:
    """Who decides what now, with every candidate choice."""

    __slots__ = ("seat", "kind", "prompt", "cands")

    def __init__(self, seat, kind, prompt, cands):
        self.seat, self.kind, self.prompt, self.cands = seat, kind, prompt, cands


def candidates(s: GameState) -> Ask:
    if s.phase == "setup":
        return _setup(s)
    if s.phase == "island_selection":
        return _island_selection(s)
    if s.phase == "actions":
        return _step(s) if s.step is not None else _actions(s)
    return Ask(None, "game_over", "The game is over", [])


def pending(s: GameState) -> Decision:
    ask = candidates(s)
    return decision_of(ask)


def decision_of(ask: Ask) -> Decision:
    return Decision(ask.seat, ask.kind, ask.prompt,
                    tuple(Option(c.id, text(c.label)) for c in ask.cands if c.reason is None))


def resolve(s: GameState, choice: str, emit: Emit, ask: Ask | None = None) -> Rejection | None:
    ask = ask or candidates(s)
    cand = next((c for c in ask.cands if c.id == choice), None)
    if cand is None:
        return Rejection(choice, _unknown(s, ask, choice))
    if cand.reason is not None:
        return Rejection(choice, text(cand.reason))
    RESOLVERS[ask.kind](s, ask.seat, cand, emit)
    return None


# --- setup ------------------------------------------------------------------------

def _setup(s: GameState) -> Ask:
    seat = setup_seat(s)
    p, content = s.players[seat], s.content
    if not p.objectives:
        keep = s.board.objectives_kept
        cands = []
        for kept in combinations(p.objective_offer, keep):
            returned = [o for o in p.objective_offer if o not in kept]
            names = " and ".join(content.objectives[o].name for o in kept)
            back = ", ".join(content.objectives[o].name for o in returned)
            cands.append(Cand("keep:" + "+".join(kept), f"Keep {names} (return {back})", (kept, tuple(returned))))
        return Ask(seat, "keep_objectives", f"{p.name}: keep {keep} of your {len(p.objective_offer)} objectives", cands)
    cands = [Cand(f"corporation:{c}", content.corporations[c].name, c) for c in p.corporation_offer]
    return Ask(seat, "choose_corporation", f"{p.name}: choose your corporation", cands)


def _keep_objectives(s, seat, cand, emit):
    kept, returned = cand.payload
    emit(ev.ObjectivesKept(seat, kept, returned))


def _choose_corporation(s, seat, cand, emit):
    emit(ev.CorporationChosen(seat, cand.payload))
    for _ in range(s.content.corporations[cand.payload].deals):
        if s.deal_deck:
            emit(ev.DealDrawn(seat, s.deal_deck[0]))
    after_setup_choice(s, emit)


# --- island selection ---------------------------------------------------------------

def _island_selection(s: GameState) -> Ask:
    seat = selection_seat(s)
    cands = []
    for isl in s.board.islands:
        taken = s.islands_chosen.get(isl.number)
        reason = None if taken is None else f"Island {isl.number} was chosen by {s.players[taken].name} this round"
        cands.append(Cand(f"island:{isl.number}", f"Island {isl.number}: {isl.name}", isl.number, reason))
    return Ask(seat, "choose_island", f"{s.players[seat].name}: choose your island for round {s.round}", cands)


def _choose_island(s, seat, cand, emit):
    emit(ev.IslandChosen(seat, cand.payload))
    after_island_chosen(s, emit)


# --- the action phase ------------------------------------------------------------------

def merchant_cost(s: GameState, seat: int, space: str) -> int:
    """One merchant, plus one for each other player who took this action here this round."""
    users = s.space_users.get(space)
    return 1 + len({other for other in users if other != seat}) if users else 1


class Space(NamedTuple):
    """One action space of an island, with what never changes about it worked out once."""

    island: int
    action: str
    key: str  # "<island>:<action>", as in Player.used
    kind: str
    data: dict
    by_miners: bool
    option_id: str  # "do:<island>:<action>"
    source: str  # "island:<island>:<action>", as in Step.source
    name: str


_SPACES: dict[int, tuple] = {}


def spaces(board, island: int) -> tuple[Space, ...]:
    cached = _SPACES.get(id(board))
    if cached is None or cached[0] is not board:
        table = {
            isl.number: tuple(
                Space(isl.number, a, f"{isl.number}:{a}", *island_activity(a, board, isl.number),
                      a in MINER_ACTIONS, f"do:{isl.number}:{a}", f"island:{isl.number}:{a}", ACTION_NAMES[a])
                for a in isl.actions)
            for isl in board.islands
        }
        cached = _SPACES[id(board)] = (board, table)
    return cached[1][island]


def _island_cand(s: GameState, p, sp: Space) -> Cand:
    merchants = 0 if sp.by_miners else merchant_cost(s, p.seat, sp.key)
    label = (lambda: f"{sp.name} ({plural(merchants, 'merchant')})") if merchants else f"{sp.name} (miners)"
    if sp.key in p.used:
        reason = lambda: f"You have already taken {sp.name} on island {sp.island} this round"
    elif merchants > p.merchants - p.merchants_used:
        reason = lambda: _short_of_merchants(merchants, p.free_merchants)
    else:
        reason = ACTIVITIES[sp.kind].why_not(s, p.seat, sp.source, sp.data)
    return Cand(sp.option_id, label, (sp.kind, sp.data, merchants, 0, sp.source), reason)


def _short_of_merchants(merchants: int, free: int) -> str:
    others = merchants - 1
    why = f" because {plural(others, 'other player')} took it before you" if others else ""
    return f"This action needs {plural(merchants, 'merchant')}{why}; you have {free} free"


_USES: dict[int, tuple] = {}


def _equipment_use(card) -> tuple[str, dict]:
    """The activity kind and data of a card's effect, worked out once per card."""
    cached = _USES.get(id(card))
    if cached is None or cached[0] is not card:
        cached = _USES[id(card)] = (card, *equipment_activity(card.effect, card.params))
    return cached[1], cached[2]


def _equipment_cand(s: GameState, p, card_id: str) -> Cand:
    card = s.content.equipment[card_id]
    source = "equipment:" + card_id
    if card.effect is None:
        return Cand("use:" + card_id, f"Use {card.name}", None, f"{card.name} has no ability to use; it only gave VP")
    kind, data = _equipment_use(card)
    if card_id in p.equipment_used:
        reason = f"You have already used {card.name} this round"
    elif p.free_miners < 1:
        reason = "Using equipment takes a free miner; you have none"
    else:
        reason = ACTIVITIES[kind].why_not(s, p.seat, source, data)
    return Cand("use:" + card_id, lambda: f"Use {card.name}: {card.text}", (kind, data, 0, 1, source), reason)


def _actions(s: GameState) -> Ask:
    p = s.players[s.current]
    cands = [_island_cand(s, p, sp) for sp in spaces(s.board, p.island)]
    cands += [_equipment_cand(s, p, c) for c in p.equipment]
    cands.append(Cand("pass", "Pass: take no more actions this round"))
    n = s.turn_actions + 1
    return Ask(p.seat, "choose_action", f"{p.name}, island {p.island}: action {n} of this turn", cands)


def _choose_action(s, seat, cand, emit):
    if cand.id == "pass":
        pass_for_round(s, seat, emit)
        return
    kind, data, merchants, miners, source = cand.payload
    emit(ev.ActionStarted(seat, source, kind, merchants, miners, data))
    act = ACTIVITIES[kind]
    if act.immediate is not None:
        act.immediate(s, seat, data, emit)
        finish_action(s, seat, emit)
    elif act.on_start is not None:
        act.on_start(s, s.step, emit)


def _step(s: GameState) -> Ask:
    step = s.step
    act = ACTIVITIES[step.kind]
    cands = list(act.candidates(s, step))
    if step.picks or not step.committed:
        cands.append(BACK)
    return Ask(step.seat, step.kind, act.prompt_for(s, step), cands)


def _resolve_step(s, seat, cand, emit):
    step = s.step
    if cand.id == "back":
        emit(ev.Unpicked(seat) if step.picks else ev.ActionWithdrawn(seat))
    else:
        ACTIVITIES[step.kind].apply(s, step, cand, emit)


def _unknown(s: GameState, ask: Ask, choice: str) -> str:
    if ask.kind == "game_over":
        return "The game is over"
    if ask.kind == "choose_action" and choice.startswith("do:"):
        island = choice.split(":")[1]
        here = s.players[ask.seat].island
        if island != str(here):
            return f"Your ship is at island {here}; sail to island {island} with Depart Island first"
        return f"Island {here} has no such action"
    if ask.kind == "choose_action" and choice.startswith("use:"):
        return "You do not own that equipment"
    return f"'{choice}' is not a choice now ({ask.prompt})"


RESOLVERS = {
    "keep_objectives": _keep_objectives,
    "choose_corporation": _choose_corporation,
    "choose_island": _choose_island,
    "choose_action": _choose_action,
}
for _kind in ACTIVITIES:
    RESOLVERS[_kind] = _resolve_step
