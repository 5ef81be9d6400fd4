"""The mining sites: operating one with miners, loaders, the demolition kit, and what
happens to exhausted galleries afterwards.

Miners are assigned gallery by gallery (a plan the player can take back), then
the whole action resolves at once: face-down galleries are turned up, cubes are
collected, and only then are exhausted galleries removed and level 2 slides down.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import events as ev
from ..decision import Cand
from ..flow import cubes_for, finish_action
from .base import activity, player

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Iterator, Sequence

    from ..decision import Emit
    from ..state import Gallery, GameState, Step
    from .base import Data, StepView


def gallery_name(s: GameState, g: Gallery) -> str:
    if not g.face_up:
        return "face-down gallery"
    tile = s.content.gallery(g.tile)
    return f"{tile.metal} gallery ({g.cubes} left)" if tile.metal else "empty gallery"


def where(island: int, column: int, level: int) -> str:
    return f"island {island}, column {column + 1}, level {level}"


def settle_site(s: GameState, island: int, emit: Emit, touched: Iterable[tuple[int, int]]) -> None:
    """Remove galleries emptied by mining or loading (`touched`: their (column, level)), then let level 2
    slide down."""
    site = s.sites[island]
    for column, level in touched:
        g = site.gallery(column, level)
        if g is not None and g.face_up and g.cubes == 0 and s.content.gallery(g.tile).metal:
            emit(ev.GalleryRemoved(island, column, level, g.tile, 0, "exhausted"))
    slide_down(s, island, emit)


def slide_down(s: GameState, island: int, emit: Emit) -> None:
    for column, (low, high) in enumerate(s.sites[island].columns):
        if low is None and high is not None:
            emit(ev.GallerySlid(island, column))


# --- Operate Mining Site (islands 1 and 2) -----------------------------------------


def _free(s: GameState, step: StepView) -> int:
    free = player(s, step).free_miners
    for _, _, n in step.picks:
        free -= n
    return free


def _mine_cands(s: GameState, step: StepView) -> Iterator[Cand]:
    island, free = step.data["island"], _free(s, step)
    taken = {(c, lv) for c, lv, _ in step.picks}
    cap = s.content.board.gallery_max_cubes
    for column, pair in enumerate(s.sites[island].columns):
        for level, g in ((1, pair[0]), (2, pair[1])):
            if g is None or (column, level) in taken:
                continue
            per = 1 if level == 1 else 2  # miners per cube
            most = (g.cubes if g.face_up else cap) * per
            if g.face_up and g.cubes == 0:
                yield Cand(
                    f"mine:{column}:{level}",
                    lambda column=column, level=level: where(island, column, level),  # type: ignore[misc]  # mypy#15459: the default keeps the loop's value
                    None,
                    "That gallery has nothing left to mine",
                )
                continue
            for n in range(per, min(most, free) + 1, per):
                label = lambda n=n, g=g, column=column, level=level: (
                    f"Send {n} miner{'s' if n > 1 else ''} to the {gallery_name(s, g)} "
                    f"at {where(island, column, level)}"
                )
                yield Cand(f"mine:{column}:{level}:{n}", label, [column, level, n])
            if free < per:
                yield Cand(
                    f"mine:{column}:{level}",
                    lambda column=column, level=level: where(island, column, level),  # type: ignore[misc]  # mypy#15459: the default keeps the loop's value
                    None,
                    f"Level 2 galleries need miners in pairs; you have {free} free"
                    if level == 2
                    else "You have no free miner",
                )
    if step.picks:
        yield Cand("done", "Mine now")


def _workable(s: GameState, island: int, free: int, taken: Collection[tuple[int, int]] = ()) -> bool:
    """Whether `free` miners can be sent to one more gallery of the site (as `_mine_cands`
    would offer): one not yet given miners, not emptied, and at level 2 only with a pair."""
    if free < 1:
        return False
    cap = s.content.board.gallery_max_cubes
    for column, (low, high) in enumerate(s.sites[island].columns):
        if low is not None and (low.cubes if low.face_up else cap) > 0 and (column, 1) not in taken:
            return True
        if free >= 2 and high is not None and (high.cubes if high.face_up else cap) > 0 and (column, 2) not in taken:
            return True
    return False


def _can_mine(s: GameState, seat: int, data: Data) -> bool:
    """A gallery of the site that the player's free miners can work."""
    return _workable(s, data["island"], s.players[seat].free_miners)


def more_to_assign(s: GameState, step: StepView) -> bool:
    """Whether the plan under way can take miners at one more gallery (else it is carried out)."""
    return _workable(s, step.data["island"], _free(s, step), {(c, lv) for c, lv, _ in step.picks})


def _mine_apply(s: GameState, step: Step, cand: Cand, emit: Emit) -> None:
    if cand.id != "done":
        emit(ev.Picked(step.seat, cand.payload))
        if more_to_assign(s, step):
            return
    _resolve_mining(s, step.seat, step.data["island"], list(step.picks), emit)


def _resolve_mining(s: GameState, seat: int, island: int, picks: Sequence[Sequence[int]], emit: Emit) -> None:
    """Carry out the plan: `picks` are its [column, level, miners] at each gallery."""
    site = s.sites[island]
    emit(ev.MinersWorked(seat, island, sum(n for _, _, n in picks)))
    for column, level, n in picks:
        g: Gallery = site.gallery(column, level)  # type: ignore[assignment]  # miners go to galleries that lie there
        if not g.face_up:
            emit(ev.GalleryFlipped(island, column, level, g.tile, cubes_for(s, g.tile)))
        metal = s.content.gallery(g.tile).metal
        got = min(n if level == 1 else n // 2, g.cubes)
        if metal and got:
            emit(ev.ResourcesMined(seat, island, column, level, metal, got))
    settle_site(s, island, emit, [(c, lv) for c, lv, _ in picks])
    finish_action(s, seat, emit)


def _mine_prompt(s: GameState, step: StepView) -> str:
    free = _free(s, step)
    return f"Assign miners on island {step.data['island']} ({free} free)" + (", or mine now" if step.picks else "")


activity(kind="operate_mining_site", prompt=_mine_prompt, candidates=_mine_cands, apply=_mine_apply, feasible=_can_mine)


# --- Underground / Heavy Duty Loader: one cube from any gallery of a level ----------


def _collect_cands(s: GameState, step: StepView) -> Iterator[Cand]:
    level, found = step.data["level"], False
    for island, site in s.sites.items():
        for column in range(len(site.columns)):
            g = site.gallery(column, level)
            if g is not None and g.face_up and g.cubes:
                found = True
                metal = s.content.gallery(g.tile).metal
                yield Cand(
                    f"collect:{island}:{column}",
                    f"Take 1 {metal} from {where(island, column, level)}",
                    [island, column, metal],
                )
    if not found:
        yield Cand("collect", "Collect", None, f"No face-up level {level} gallery holds a cube")


def _can_collect(s: GameState, seat: int, data: Data) -> bool:
    """A face-up gallery of the loader's level that still holds a cube."""
    index = data["level"] - 1
    return any(
        g is not None and g.face_up and g.cubes
        for site in s.sites.values()
        for g in (pair[index] for pair in site.columns)
    )


def _collect_apply(s: GameState, step: Step, cand: Cand, emit: Emit) -> None:
    island, column, metal = cand.payload
    level = step.data["level"]
    emit(ev.ResourceCollected(step.seat, island, column, level, metal))
    settle_site(s, island, emit, [(column, level)])
    finish_action(s, step.seat, emit)


activity(
    kind="collect_from_gallery",
    prompt="Which gallery do you take a cube from?",
    candidates=_collect_cands,
    apply=_collect_apply,
    feasible=_can_collect,
)


# --- Demolition Kit: remove any gallery ----------------------------------------------


def _demolish_cands(s: GameState, step: StepView) -> Iterator[Cand]:
    found = False
    for island, site in s.sites.items():
        for column, pair in enumerate(site.columns):
            for level, g in ((1, pair[0]), (2, pair[1])):
                if g is not None:
                    found = True
                    yield Cand(
                        f"demolish:{island}:{column}:{level}",
                        f"Remove the {gallery_name(s, g)} at {where(island, column, level)}",
                        [island, column, level],
                    )
    if not found:
        yield Cand("demolish", "Demolish", None, "There is no gallery on the mining sites")


def _can_demolish(s: GameState, seat: int, data: Data) -> bool:
    """Any gallery on any mining site."""
    return any(g is not None for site in s.sites.values() for pair in site.columns for g in pair)


def _demolish_apply(s: GameState, step: Step, cand: Cand, emit: Emit) -> None:
    island, column, level = cand.payload
    g: Gallery = s.sites[island].gallery(column, level)  # type: ignore[assignment]  # only a gallery is offered
    emit(ev.GalleryRemoved(island, column, level, g.tile, g.cubes, "demolished", g.face_up))
    slide_down(s, island, emit)
    finish_action(s, step.seat, emit)


activity(
    kind="demolish_gallery",
    prompt="Which gallery do you remove?",
    candidates=_demolish_cands,
    apply=_demolish_apply,
    feasible=_can_demolish,
)
