"""The pending decision and the resolution of a choice.

`candidates(state)` lists every choice of the moment, each legal or with the
reason it is not; `pending(state)` keeps the legal ones. `resolve(state, id,
emit)` checks the choice against that same list, so an option offered is never
refused and a refusal always says why.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from itertools import combinations

from . import events as ev
from .action_choice import choose_action, merchant_cost, spaces  # noqa: F401  (merchant_cost, spaces: public)
from .actions import ACTIVITIES
from .cards import Board
from .decision import BACK, Ask, Cand, Decision, Emit, Option, Rejection, text
from .flow import after_island_chosen, after_setup_choice, finish_action, pass_for_round, selection_seat, setup_seat
from .memo import once_per_object
from .names import printable
from .state import GameState, Step

Resolver = Callable[[GameState, int, Cand, Emit], None]
"""Carries out a legal candidate of one kind of decision for the seat deciding."""


class NoLegalChoice(RuntimeError):
    """The game is not over, yet nobody may do anything: the content cannot be played on.

    Raised rather than offering an empty decision, which no player could answer and a
    computer player would wait on for ever. The loader's ranges are meant to make this
    impossible; this is the guard for whatever they miss.
    """


def candidates(s: GameState) -> Ask:
    phase = s.phase
    if phase == "actions":
        step = s.step
        ask = _step(s, step) if step is not None else choose_action(s)
    elif phase == "island_selection":
        ask = _island_selection(s)
    elif phase == "setup":
        ask = _setup(s)
    else:
        return Ask(None, "game_over", "The game is over", [])
    return ask


def playable(s: GameState, ask: Ask) -> Ask:
    """`ask`, the decision the game waits on; NoLegalChoice if nobody may do anything there (a soft-lock).

    Asked by the engine where a game waits for a choice, not of every state: a
    replay's states between the events of one choice (before the objectives are
    dealt, say) wait on nobody."""
    if ask.kind != "game_over" and not ask.legal:
        raise NoLegalChoice(_stuck(s, ask))
    return ask


def _stuck(s: GameState, ask: Ask) -> str:
    who = "nobody" if ask.seat is None else s.players[ask.seat].name
    reasons = "; ".join(f"{c.id}: {text(c.reason)}" for c in ask.cands[:5]) or "no options at all"
    return (
        f'The game cannot go on: {who} must decide "{ask.prompt}" ({ask.kind}) in round {s.round}, '
        f"but has no legal choice ({reasons}). The content allows a position the rules cannot play."
    )


def pending(s: GameState) -> Decision:
    ask = candidates(s)
    return decision_of(ask)


def decision_of(ask: Ask) -> Decision:
    return Decision(ask.seat, ask.kind, ask.prompt, tuple(Option(c.id, text(c.label)) for c in ask.legal.values()))


def resolve(s: GameState, choice: str, emit: Emit, ask: Ask | None = None) -> Rejection | None:
    ask = ask or candidates(s)
    cand = ask.legal.get(choice)
    if cand is None:
        return _refusal(s, ask, choice)
    RESOLVERS[ask.kind](s, ask.seat, cand, emit)  # type: ignore[arg-type]  # (a legal choice has a seat: only "game_over" has none)
    return None


def _refusal(s: GameState, ask: Ask, choice: str) -> Rejection:
    for cand in ask.cands:
        if cand.id == choice:
            return Rejection(choice, text(cand.reason) or "")  # (never "": a candidate not legal has a reason)
    return Rejection(choice, _unknown(s, ask, choice))


# --- setup ------------------------------------------------------------------------


def _setup(s: GameState) -> Ask:
    seat = setup_seat(s)
    assert seat is not None, "the setup phase lasts while a seat has something to choose"
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


def _keep_objectives(s: GameState, seat: int, cand: Cand, emit: Emit) -> None:
    kept, returned = cand.payload
    emit(ev.ObjectivesKept(seat, kept, returned))


def _choose_corporation(s: GameState, seat: int, cand: Cand, emit: Emit) -> None:
    emit(ev.CorporationChosen(seat, cand.payload))
    for _ in range(s.content.corporations[cand.payload].deals):
        if s.deal_deck:
            emit(ev.DealDrawn(seat, s.deal_deck[0]))
    after_setup_choice(s, emit)


# --- island selection ---------------------------------------------------------------


@once_per_object
def _island_options(board: Board) -> tuple[Cand, ...]:
    """The choice of every island (its number is the payload), built once per board."""
    return tuple(Cand(f"island:{i.number}", f"Island {i.number}: {i.name}", i.number) for i in board.islands)


def _island_selection(s: GameState) -> Ask:
    seat, chosen = selection_seat(s), s.islands_chosen
    assert seat is not None, "island selection lasts while a seat has no island"
    cands = []
    for island in _island_options(s.content.board):
        taken = chosen.get(island.payload)
        cands.append(island if taken is None else island.refused(partial(_island_taken, s, island.payload, taken)))
    return Ask(seat, "choose_island", partial(_island_prompt, s, seat), cands)


def _island_taken(s: GameState, number: int, seat: int) -> str:
    return f"Island {number} was chosen by {s.players[seat].name} this round"


def _island_prompt(s: GameState, seat: int) -> str:
    return f"{s.players[seat].name}: choose your island for round {s.round}"


def _choose_island(s: GameState, seat: int, cand: Cand, emit: Emit) -> None:
    emit(ev.IslandChosen(seat, cand.payload))
    after_island_chosen(s, emit)


# --- the action phase ------------------------------------------------------------------


def _choose_action(s: GameState, seat: int, cand: Cand, emit: Emit) -> None:
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
        act.on_start(s, s.step, emit)  # type: ignore[arg-type]  # (ActionStarted began the step)


def _step(s: GameState, step: Step) -> Ask:
    act = ACTIVITIES[step.kind]
    cands = list(act.candidates(s, step))  # type: ignore[misc]  # (an activity with steps has candidates)
    if step.picks or not step.committed:
        cands.append(BACK)
    return Ask(step.seat, step.kind, partial(_step_prompt, s), cands)


def _step_prompt(s: GameState) -> str:
    # the step under way when the prompt is read, not one kept from before: after "back" and
    # the same choice again, the engine uses this decision again with a new, equal Step
    step = s.step
    assert step is not None, "a step's prompt is read while the step is under way"
    return ACTIVITIES[step.kind].prompt_for(s, step)


def _resolve_step(s: GameState, seat: int, cand: Cand, emit: Emit) -> None:
    step: Step = s.step  # type: ignore[assignment]  # (asked only while a step is under way)
    if cand.id == "back":
        emit(ev.Unpicked(seat) if step.picks else ev.ActionWithdrawn(seat))
    else:
        ACTIVITIES[step.kind].apply(s, step, cand, emit)  # type: ignore[misc]  # (an activity with steps applies them)


ECHOED = 40
"""At most this many characters of a choice are quoted back in a refusal (a choice may come from a file or,
later, from another machine: a million characters of it made a message of two million)."""


def _echo(text: str) -> str:
    return printable(text, ECHOED)


def _unknown(s: GameState, ask: Ask, choice: str) -> str:
    if ask.kind == "game_over":
        return "The game is over"
    if ask.kind == "choose_action" and ask.seat is not None and choice.startswith("do:"):
        island = choice.split(":")[1]
        here = s.players[ask.seat].island
        if island != str(here) and any(str(i.number) == island for i in s.content.board.islands):
            return f"Your ship is at island {here}; sail to island {island} with Depart Island first"
        if island == str(here):
            return f"Island {here} has no such action"
    if ask.kind == "choose_action" and choice.startswith("use:"):
        return "You do not own that equipment"
    return f"'{_echo(choice)}' is not a choice now ({ask.prompt})"


RESOLVERS: dict[str, Resolver] = {
    "keep_objectives": _keep_objectives,
    "choose_corporation": _choose_corporation,
    "choose_island": _choose_island,
    "choose_action": _choose_action,
}
for _kind in ACTIVITIES:
    RESOLVERS[_kind] = _resolve_step
