"""Strips that never keep themselves in their own caches, so a strip no longer shown is freed at once.

A Textual `Strip` remembers what it made from itself (cropped, extended,
divided) in small caches of its own. Asked to become what it already is (a
line extended to its own length, cropped to the whole of itself, divided at
its end), it returns itself, and puts itself in its cache first: a cycle.
Every line a panel painted goes that way once, so every line the panel later
replaced was garbage only Python's full collection could find. In a served
seat's process that was some 550 objects a move (82,600 after 150 moves of a
4-player game at 160x50, nearly all strips, their segments and caches), and
the full collections that freed them took 12 % of the process's CPU
(`py-spy` over 130 keys of `bench/serve_load.py`'s room; see
docs/performance.md).

Here those three methods of Textual's class return the strip itself without
caching it; whatever else they do is Textual's own. The methods are public;
what is steered is Textual's behaviour (its caches), hence a piece of the
layer: `LAGOON_STOCK_TEXTUAL=strips` leaves Textual's methods as they are.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.style import Style
from textual.strip import Strip

from . import on

ON = on("strips")

_extend_cell_length = Strip.extend_cell_length
_crop_extend = Strip.crop_extend
_divide = Strip.divide


def extend_cell_length(self: Strip, cell_length: int, style: Style | None = None) -> Strip:
    return self if cell_length == self.cell_length else _extend_cell_length(self, cell_length, style)


def crop_extend(self: Strip, start: int, end: int, style: Style | None) -> Strip:
    return self if start == 0 and end == self.cell_length else _crop_extend(self, start, end, style)


def divide(self: Strip, cuts: Iterable[int]) -> Sequence[Strip]:
    cuts = list(cuts)
    whole = [cut for cut in cuts if cut <= self.cell_length] == [self.cell_length]
    return [self] if whole else _divide(self, cuts)


def steady_strips() -> None:
    """Give Textual's `Strip` the three methods (once; nothing if the piece is off)."""
    if ON and Strip.divide is not divide:
        Strip.extend_cell_length = extend_cell_length  # type: ignore[method-assign]  # (the piece)
        Strip.crop_extend = crop_extend  # type: ignore[method-assign]  # (the piece)
        Strip.divide = divide  # type: ignore[method-assign]  # (the piece)
