"""The Enrichment Center: enrich raw cubes, buy enriched ones, and the equipment that
upgrades, moves or crushes enriched cubes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import events as ev
from ..cards import METALS
from ..decision import Cand
from ..flow import finish_action, score
from .base import activity, player

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
    from typing import Any

    from ..decision import Emit, Reason
    from ..state import GameState, Player, Step
    from .base import Data, StepView

    # a mode's choices of a cube, its doing, and whether a first cube could be had (up to a limit)
    Mode = tuple[
        Callable[[GameState, StepView], Iterator[Cand]],
        Callable[[GameState, StepView, Emit], None],
        Callable[[GameState, Player, int], bool],
    ]


def owner_name(s: GameState, seat: int, owner: int) -> str:
    return "your own" if owner == seat else f"{s.players[owner].name}'s"


def _mode(step: StepView) -> str | None:
    modes: list[str] = step.data["modes"]
    if len(modes) == 1:
        return modes[0]
    return step.picks[0][1] if step.picks else None


def _cubes(step: StepView) -> Sequence[Any]:
    """The cubes picked so far: metals to enrich, or [metal, level, owner] of cubes to buy."""
    return step.picks[1:] if len(step.data["modes"]) > 1 else step.picks


# --- enrich -----------------------------------------------------------------------


def _enrich_cands(s: GameState, step: StepView) -> Iterator[Cand]:
    p, board, picked = player(s, step), s.content.board, _cubes(step)
    if len(picked) < step.data["enrich"]:
        for metal in METALS:
            mine = picked.count(metal) if picked else 0
            reason: Reason = None
            if p.raw[metal] <= mine:
                reason = lambda metal=metal: f"You have no {metal} left to enrich"
            elif mine >= board.enrich_same_metal_max:
                reason = f"At most {board.enrich_same_metal_max} cubes of one metal can be enriched in one action"
            elif len(s.centre[metal][0]) + mine >= board.zero_line_capacity:
                reason = lambda metal=metal: f"The 0' line for {metal} is full ({board.zero_line_capacity} cubes)"
            enrich = _ENRICH[metal]
            yield enrich if reason is None else enrich.refused(reason)


def _can_enrich(s: GameState, p: Player, limit: int) -> bool:
    """A raw cube the player could enrich as the first of up to `limit`."""
    board = s.content.board
    if limit <= 0 or board.enrich_same_metal_max <= 0:
        return False
    raw, centre, room = p.raw, s.centre, board.zero_line_capacity
    for m in METALS:
        if raw[m] > 0 and len(centre[m][0]) < room:
            return True
    return False


def _commit_enrich(s: GameState, step: StepView, emit: Emit) -> None:
    emit(ev.ResourcesEnriched(step.seat, tuple(_cubes(step))))
    finish_action(s, step.seat, emit)


_ENRICH = {m: Cand("enrich:" + m, f"Enrich 1 {m}", m) for m in METALS}  # each metal's choice, allowed


# --- buy ----------------------------------------------------------------------------


def _price(seat: int, owner: int, level: int) -> int:
    return 0 if owner == seat else level


def _buy_cands(s: GameState, step: StepView) -> Iterator[Cand]:
    p, picked = player(s, step), _cubes(step)
    if len(picked) >= step.data["buy"]:
        return
    held = {(m, lv) for m, levels in p.enriched.items() for lv in levels} | {(m, lv) for m, lv, _ in picked}
    spent = sum(_price(step.seat, o, lv) for _, lv, o in picked)
    for metal in METALS:
        for level in range(1, 5):
            for owner in sorted(set(s.centre[metal][level])):
                price = _price(step.seat, owner, level)
                label = lambda owner=owner, level=level, metal=metal, price=price: (
                    f"Buy {owner_name(s, step.seat, owner)} {level}' {metal}"
                    + (f" for ${price}" if price else " (free)")
                )
                reason: Reason = None
                if (metal, level) in held:
                    reason = lambda metal=metal, level=level: (
                        f"You already hold a {level}' {metal}; only one cube per metal and level fits on your board"
                    )
                elif [metal, level, owner] in picked:
                    reason = "You have already picked that cube"
                elif spent + price > p.money:
                    reason = lambda price=price: f"You cannot pay ${price} for it (you have ${p.money - spent} left)"
                yield Cand(f"buy:{metal}:{level}:{owner}", label, [metal, level, owner], reason)


def _can_buy(s: GameState, p: Player, limit: int) -> bool:
    """A cube in the centre the player could buy as the first of up to `limit`: one of a
    level not yet on their board, at a price they can pay."""
    if limit <= 0:
        return False
    for metal in METALS:
        held, levels = p.enriched[metal], s.centre[metal]
        for level in range(1, 5):
            if level not in held:
                for owner in levels[level]:
                    if _price(p.seat, owner, level) <= p.money:
                        return True
    return False


def _commit_buy(s: GameState, step: StepView, emit: Emit) -> None:
    for metal, level, owner in _cubes(step):
        emit(ev.EnrichedCubeBought(step.seat, metal, level, owner, _price(step.seat, owner, level)))
        score(s, owner, s.board.owner_vp, "enriched cubes sold", emit)
    finish_action(s, step.seat, emit)


# --- the transaction: choose a mode, then cubes one by one -----------------------------

_MODES: dict[str, Mode] = {
    "enrich": (_enrich_cands, _commit_enrich, _can_enrich),
    "buy": (_buy_cands, _commit_buy, _can_buy),
}


_NOTHING_TO = {"enrich": "You have nothing you could enrich now", "buy": "There is no enriched cube you could buy now"}


def _can_transact(s: GameState, seat: int, data: Data) -> bool:
    """Either mode the action allows has a first cube to enrich or buy."""
    p = s.players[seat]
    for m in data["modes"]:
        if _MODES[m][2](s, p, data[m]):
            return True
    return False


def _transaction_cands(s: GameState, step: StepView) -> Iterator[Cand]:
    mode = _mode(step)
    if mode is None:
        p = player(s, step)
        for m in step.data["modes"]:
            label = "Enrich raw resources" if m == "enrich" else "Buy enriched resources"
            reason = None if _MODES[m][2](s, p, step.data[m]) else _NOTHING_TO[m]
            yield Cand(m, label, ["mode", m], reason)
        return
    yield from _MODES[mode][0](s, step)
    if _cubes(step):
        yield Cand("done", "Done")


def _transaction_apply(s: GameState, step: Step, cand: Cand, emit: Emit) -> None:
    if cand.id != "done":
        emit(ev.Picked(step.seat, cand.payload))
        if cand.id in step.data["modes"] or any(
            c.reason is None
            for c in _MODES[_mode(step)][0](s, step)  # type: ignore[index]  # a cube is picked: the mode is chosen
        ):
            return
    _MODES[_mode(step)][1](s, step, emit)  # type: ignore[index]  # (as above: cubes are picked)


def _transaction_prompt(s: GameState, step: StepView) -> str:
    mode = _mode(step)
    if mode is None:
        return "Enrich or buy?"
    n, limit = len(_cubes(step)), step.data[mode]
    return f"{'Enrich' if mode == 'enrich' else 'Buy'} cube {n + 1} of up to {limit}" + (", or done" if n else "")


activity(
    kind="enrichment_transaction",
    prompt=_transaction_prompt,
    candidates=_transaction_cands,
    apply=_transaction_apply,
    feasible=_can_transact,
)


# --- Elevator: upgrade one enriched cube on your board ------------------------------


def _elevator_cands(s: GameState, step: StepView) -> Iterator[Cand]:
    p, cost, found = player(s, step), step.data["cost"], False
    for metal, levels in p.enriched.items():
        for level in levels:
            if level >= 4:
                continue
            reason = None
            if level + 1 in levels:
                reason = f"You already hold a {level + 1}' {metal}"
            elif p.money < cost:
                reason = f"Upgrading costs ${cost}; you have ${p.money}"
            found = True
            yield Cand(
                f"upgrade:{metal}:{level}",
                f"Upgrade your {level}' {metal} to {level + 1}' for ${cost}",
                [metal, level],
                reason,
            )
    if not found:
        yield Cand("upgrade", "Upgrade", None, "You have no enriched cube below 4'")


def _can_elevate(s: GameState, seat: int, data: Data) -> bool:
    """Money for the upgrade and an enriched cube whose next level is free on the board."""
    p = s.players[seat]
    return p.money >= data["cost"] and any(
        level < 4 and level + 1 not in levels for levels in p.enriched.values() for level in levels
    )


def _elevator_apply(s: GameState, step: Step, cand: Cand, emit: Emit) -> None:
    metal, level = cand.payload
    emit(ev.EnrichedCubeUpgraded(step.seat, metal, level, step.data["cost"]))
    finish_action(s, step.seat, emit)


activity(
    kind="upgrade_own_enriched",
    prompt="Which enriched cube do you upgrade?",
    candidates=_elevator_cands,
    apply=_elevator_apply,
    feasible=_can_elevate,
)


# --- Control Room: move one cube in the centre a level on --------------------------------


def _control_cands(s: GameState, step: StepView) -> Iterator[Cand]:
    found = False
    for metal in METALS:
        for level, owners in enumerate(s.centre[metal]):
            for owner in sorted(set(owners)):
                whose = owner_name(s, step.seat, owner)
                label = (
                    f"Move {whose} {level}' {metal} out of the game"
                    if level == 4
                    else f"Move {whose} {level}' {metal} up to {level + 1}'"
                )
                found = True
                yield Cand(f"lift:{metal}:{level}:{owner}", label, [metal, level, owner])
    if not found:
        yield Cand("lift", "Upgrade", None, "The Enrichment Center is empty")


def _control_apply(s: GameState, step: Step, cand: Cand, emit: Emit) -> None:
    metal, level, owner = cand.payload
    emit(ev.CentreCubeUpgraded(step.seat, metal, level, owner))
    finish_action(s, step.seat, emit)


activity(
    kind="upgrade_centre",
    prompt="Which cube in the Enrichment Center moves up?",
    candidates=_control_cands,
    apply=_control_apply,
    feasible=lambda s, seat, data: any(any(levels) for levels in s.centre.values()),
)


# --- Crushers: remove an enriched cube of a level or higher for VP -------------------------


def _crush_cands(s: GameState, step: StepView) -> Iterator[Cand]:
    p, least, vp = player(s, step), step.data["min_level"], step.data["vp"]
    found = False
    for metal, levels in p.enriched.items():
        for level in levels:
            if level >= least:
                found = True
                yield Cand(f"crush:{metal}:{level}", f"Crush your {level}' {metal} for {vp} VP", [metal, level])
    if not found:
        yield Cand("crush", "Crush", None, f"You have no enriched cube of level {least}' or higher")


def _can_crush(s: GameState, seat: int, data: Data) -> bool:
    """An enriched cube of the crusher's level or higher."""
    least = data["min_level"]
    return any(level >= least for levels in s.players[seat].enriched.values() for level in levels)


def _crush_apply(s: GameState, step: Step, cand: Cand, emit: Emit) -> None:
    metal, level = cand.payload
    emit(ev.EnrichedCubeCrushed(step.seat, metal, level))
    score(s, step.seat, step.data["vp"], "equipment effects", emit)
    finish_action(s, step.seat, emit)


activity(
    kind="crush",
    prompt="Which enriched cube do you crush?",
    candidates=_crush_cands,
    apply=_crush_apply,
    feasible=_can_crush,
)
