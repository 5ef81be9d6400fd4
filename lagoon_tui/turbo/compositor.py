"""Painting only what changed, and only what shows: a compositor for the board screens.

Textual paints a screen by asking every widget in the area to paint for its
lines, front-most first, and cutting each line at the widgets' edges; the
first piece painted for a place on the screen is the one shown. Two things
made that slow on the board:

- When some lines of a few widgets change, Textual paints the rectangle that
  encloses all of them. A choice changes a line of a player board at the top
  left and the prompt and the log at the right: that rectangle is nearly the
  whole screen, every panel in it painted and cut again to write a few cells.
- The containers behind the panels (the screen, the rows, the columns) were
  painted and cut for every line, although the panels in front hide almost
  all of them.

`SpotCompositor` paints, for each changed spot, only the widgets under it,
and of each widget only the lines under a spot that something in front has
not already covered, counting only the pieces of a line that reach into a
spot (Textual writes the spots alone): a container behind the panels is
painted only where a spot shows it. What reaches the terminal is the same: the
same cells are written, from the same front-most widgets
(tests/tui/test_tmux.py checks the pane after many moves against a whole new
paint; the snapshots check whole paints).

- When the screen is arranged again, Textual repaints every widget whose place
  or *scrollable size* changed. A player board one line taller makes the board
  area (the scrolling container of every panel left of the side column)
  scroll one line further, and the whole area was painted again, every panel
  in it, about 35 KB at 160x50, for each seat of a room. A widget whose place
  on screen, clip and stacking stayed the same while only what it holds (its
  scrollable size, its inner size, its place in its container's scrolled
  space) changed is no longer repainted for that: what moved or changed in it
  is repainted on its own account, and its scrollbar repaints its own thumb.

It replaces two private parts of Textual's compositor (`render_partial_update`
and `_render_chops`), extends a third (`reflow`), and is given to a screen in
its private `_compositor`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from textual._compositor import ChopsUpdate, Compositor, ReflowResult
from textual.geometry import Region, Size
from textual.map_geometry import MapGeometry
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from . import on

ON = on("compositor")


class SpotCompositor(Compositor):
    """A compositor that paints only the uncovered lines of the widgets under the changed spots."""

    _spots: list[Region] | None = None  # the changed regions, during a partial update only

    def reflow(self, parent: Widget, size: Size) -> ReflowResult:
        """As Textual's; but a widget that only holds more or less, where it stays, is not repainted for it."""
        old, dirty = self._full_map, set(self._dirty_regions)
        result = super().reflow(parent, size)
        self._dirty_regions.difference_update(_held_only(old, self._full_map) - dirty)
        return result

    def render_partial_update(self) -> ChopsUpdate | None:
        self._spots = list(self._dirty_regions)
        try:
            return super().render_partial_update()
        finally:
            self._spots = None

    def _area(self, visible: Region, crop: Region) -> Region | None:
        """The part of a widget's visible region to paint: whole lines of it, as the compositor's cuts need."""
        if self._spots is None:
            area = visible.intersection(crop)
            return area if area else None
        under = [spot for spot in self._spots if visible.overlaps(spot)]
        if not under:
            return None
        top = max(visible.y, min(spot.y for spot in under))
        bottom = min(visible.bottom, max(spot.bottom for spot in under))
        return Region(visible.x, top, visible.width, bottom - top)

    def _render_chops(self, crop: Region, is_rendered_line: Callable[[int], bool]) -> Sequence[Mapping[int, Strip]]:
        cuts = self.cuts
        # for each line, the piece of screen that starts at each cut; None until something is painted there
        chops: list[dict[int, Strip | None]] = [dict.fromkeys(line[:-1]) for line in cuts]
        # for each line, the cuts whose pieces a changed spot reaches and nothing has painted yet: only those
        # are written to the terminal (Textual writes the spots' spans), so a widget behind the panels (the
        # screen, a row) is painted only where a spot shows it, not along every line the spots span
        reach = self._reached(cuts)
        for widget, (region, clip) in self.visible_widgets.items():  # front-most first
            area = self._area(region.intersection(clip), crop)
            if area is None:
                continue
            left, right = area.column_span
            wanted: dict[int, list[int]] = {}  # line -> the cuts of the area on it, where a piece is still missing
            for y in area.line_range:
                if not is_rendered_line(y):
                    continue
                open_cuts = reach.get(y) if reach is not None else None
                if reach is not None and not open_cuts:
                    continue
                line = chops[y]
                edges = [cut for cut in cuts[y] if left <= cut <= right]  # `right` is a cut too: the last edge
                if open_cuts is None:
                    if any(line[cut] is None for cut in edges[:-1]):
                        wanted[y] = edges
                elif any(cut in open_cuts for cut in edges[:-1]):
                    wanted[y] = edges
                    open_cuts.difference_update(edges[:-1])
            if not wanted:
                continue
            top, bottom = min(wanted), max(wanted) + 1
            band = Region(left, top, area.width, bottom - top)
            strips = widget.render_lines(band.translate((-region.x, -region.y)))
            for y, strip in zip(range(top, bottom), strips):
                missing = wanted.get(y)
                if missing is None:
                    continue
                line = chops[y]
                for cut, piece in zip(missing, strip.divide([edge - left for edge in missing[1:]])):
                    if line[cut] is None:
                        line[cut] = piece
        return cast("Sequence[Mapping[int, Strip]]", chops)  # (as Textual's own: a spot nothing covers stays None)

    def _reached(self, cuts: list[list[int]]) -> dict[int, set[int]] | None:
        """For each line under a changed spot, the cuts whose pieces reach into a spot (None: a whole paint)."""
        if self._spots is None:
            return None
        reached: dict[int, set[int]] = {}
        for spot in self._spots:
            x1, x2 = spot.column_span
            for y in spot.line_range:
                if y >= len(cuts):
                    break
                line = cuts[y]
                reached.setdefault(y, set()).update(cut for cut, end in zip(line, line[1:]) if cut < x2 and end > x1)
        return reached


def _held_only(old: Mapping[Widget, MapGeometry], new: Mapping[Widget, MapGeometry]) -> set[Region]:
    """The visible regions of the widgets whose geometry changed in what they hold alone (their scrollable
    size, their inner size, their place in their container's scrolled space), none of them the region of a
    widget that came, went, moved, was resized, clipped anew or stacked anew."""
    held: set[Region] = set()
    placed: set[Region] = set()
    for widget, now in new.items():
        was = old.get(widget)
        if was == now:
            continue
        region = now.clip.intersection(now.region)
        if was is not None and _place(was) == _place(now):
            held.add(region)
        else:
            placed.add(region)
            if was is not None:
                placed.add(was.clip.intersection(was.region))
    placed.update(was.clip.intersection(was.region) for widget, was in old.items() if widget not in new)
    return held - placed


def _place(geometry: MapGeometry) -> tuple[Region, object, Region, object]:
    """Where a widget is on screen and how it is painted there: what its paint depends on in its geometry."""
    return geometry.region, geometry.order, geometry.clip, geometry.dock_gutter


def paint_spots(screen: Screen[Any]) -> None:
    """The screen's moves paint the changed spots, not the rectangle around them (while the layer is on)."""
    if ON:
        screen._compositor = SpotCompositor()
