"""Draw & Place 2 Galleries: new tiles go on level 1 of a mining site, pushing older ones down."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import events as ev
from ..decision import Cand
from ..flow import cubes_for, draw_galleries, finish_action, galleries_available
from ..memo import once_per_object
from .base import activity

if TYPE_CHECKING:
    from ..cards import Content
    from ..decision import Emit
    from ..state import GameState, Step
    from .base import Data, StepView

    Place = tuple[int, int, Cand, Cand]  # island, column, the choice allowed, the same choice refused
    Columns = frozenset[tuple[int, int]]  # (island, column) of each column a tile went to


def tile_name(content: Content, tile: str) -> str:
    """A gallery tile (kind or instance id) as players call it: "gold 3", "empty"."""
    t = content.gallery(tile)
    return f"{t.metal} {t.cubes}" if t.metal else "empty"


def _blocked(s: GameState, seat: int, data: Data) -> str | None:
    return None if galleries_available(s) else "There are no gallery tiles left to draw"


def _start(s: GameState, step: Step, emit: Emit) -> None:
    draw_galleries(s, step.seat, s.board.gallery_draw, emit)


SAME_COLUMN = "You cannot place both galleries in the same column"


@once_per_object
def _placements(content: Content) -> dict[str, tuple[Place, ...]]:
    """Every place a gallery tile of each kind can go, in the order offered, by kind: (island,
    column, the choice allowed, the same choice refused because the other tile went to that column).
    The payload names the kind; the tile placed is the first drawn tile of that kind."""
    board = content.board
    table: dict[str, tuple[Place, ...]] = {}
    for kind in content.galleries:
        places: list[Place] = []
        for island in board.mining_islands:
            for column in range(board.site_columns):
                for side in ("up", "down"):
                    allowed = Cand(
                        f"place:{kind}:{island}:{column}:{side}",
                        f"Place {tile_name(content, kind)} face {side} on island {island}, column {column + 1}",
                        (kind, island, column, side == "up"),
                    )
                    places.append((island, column, allowed, allowed.refused(SAME_COLUMN)))
        table[kind] = tuple(places)
    return table


@once_per_object
def _choices(content: Content) -> dict[tuple[str, Columns], tuple[Cand, ...]]:
    """The choices of placing a tile of each kind with some columns used, kept as first needed."""
    return {}


def _place_choices(content: Content, kind: str, used: Columns) -> tuple[Cand, ...]:
    """Every placement of a tile of `kind`, refused in the columns in `used` (where the other tile went)."""
    table = _choices(content)
    found = table.get((kind, used))
    if found is None:
        found = table[kind, used] = tuple(
            refused if (island, column) in used else allowed
            for island, column, allowed, refused in _placements(content)[kind]
        )
    return found


def _place_cands(s: GameState, step: StepView) -> list[Cand]:
    used: Columns = frozenset((island, column) for island, column, _ in step.data.get("placed", ()))
    seen: set[str]
    cands: list[Cand]
    content, seen, cands = s.content, set(), []
    for tile in s.drawn_galleries:
        kind = content.gallery(tile).id
        if kind not in seen:  # two copies of one tile give the same choices
            seen.add(kind)
            cands += _place_choices(content, kind, used)
    return cands


def _place_apply(s: GameState, step: Step, cand: Cand, emit: Emit) -> None:
    kind, island, column, face_up = cand.payload
    tile = next(t for t in s.drawn_galleries if s.content.gallery(t).id == kind)
    low, high = s.sites[island].columns[column]
    if low is not None and high is not None:
        emit(ev.GalleryRemoved(island, column, 2, high.tile, high.cubes, "pushed_off", high.face_up))
    emit(ev.GalleryPlaced(step.seat, tile, island, column, face_up, cubes_for(s, tile) if face_up else 0))
    if not s.drawn_galleries:
        face_up_count = sum(1 for _, _, up in step.data["placed"] if up)
        reward = s.board.gallery_reward[face_up_count]
        if reward:
            emit(ev.GalleryRewardPaid(step.seat, reward))
        finish_action(s, step.seat, emit)


def _prompt(s: GameState, step: StepView) -> str:
    tiles = ", ".join(tile_name(s.content, t) for t in s.drawn_galleries)
    return f"Place your drawn galleries ({tiles}) on level 1 of a mining site"


activity(
    kind="draw_place_galleries",
    prompt=_prompt,
    candidates=_place_cands,
    apply=_place_apply,
    blocked=_blocked,
    on_start=_start,
)
