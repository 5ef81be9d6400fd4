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

It replaces two private parts of Textual's compositor (`render_partial_update`
and `_render_chops`), and is given to a screen in its private `_compositor`.
When the screen is arranged again it leaves Textual's `reflow` as it is: every
widget whose geometry changed is painted again. (For a day it skipped a widget
whose place stayed the same while only what it holds changed; that was taken
out after a served seat's terminal kept its prompt as it was before a move,
"End turn" while another player decided: see docs/architecture.md.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip

from . import on

ON = on("compositor")


class SpotCompositor(Compositor):
    """A compositor that paints only the uncovered lines of the widgets under the changed spots."""

    _spots: list[Region] | None = None  # the changed regions, during a partial update only

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


def paint_spots(screen: Screen[Any]) -> None:
    """The screen's moves paint the changed spots, not the rectangle around them (while the layer is on)."""
    if ON:
        screen._compositor = SpotCompositor()
