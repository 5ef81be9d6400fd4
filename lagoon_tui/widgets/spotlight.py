"""The board item under the look cursor, shown in reverse where its panel draws it (screens/look.py).

A panel tags the words it draws for an item with the item's key (`tagged`;
the keys are `board_items`'), a mark that changes nothing on screen. Told the
key under the cursor (`Spotlit.spotlight`), the panel paints those words in
reverse (words in reverse already: underlined, the other way round) and
says on which of its lines they are (`spot_row`), so the look screen can
scroll them into sight.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip
from textual.widget import Widget

from .renderables import Flow

if TYPE_CHECKING:
    _Widget = Widget  # what the mixin goes with, for the checker
else:
    _Widget = object

META = "look"
REVERSE = Style(reverse=True)
UNREVERSE = Style(reverse=False, underline=True)  # (for words drawn in reverse already: a face-down "?")


def tagged(part: Text | Flow, key: str) -> Text | Flow:
    """`part` with every word of it tagged as the item `key`."""
    tag = Style(meta={META: key})
    if isinstance(part, Flow):
        return Flow([tagged_text(item, key) for item in part.items], part.sep)
    return tagged_text(part, key, tag)


def tagged_text(text: Text, key: str, tag: Style | None = None) -> Text:
    text = text.copy()
    text.stylize(tag or Style(meta={META: key}))
    return text


def _is(style: Style | None, key: str) -> bool:
    return style is not None and style.meta.get(META) == key


def spotlit(line: Strip, key: str | None) -> Strip:
    """`line` with the words tagged `key` in reverse (the very same strip when it has none)."""
    if key is None or not any(_is(segment.style, key) for segment in line):
        return line
    return Strip(
        [Segment(text, _lit(style) if style and _is(style, key) else style, c) for text, style, c in line],
        line.cell_length,
    )


def _lit(style: Style) -> Style:
    return style + (UNREVERSE if style.reverse else REVERSE)


class Spotlit(_Widget):
    """Mixin for a panel that draws its own lines (`spot_lines`): the item `looked` at shown in reverse."""

    looked: str | None = None

    def spotlight(self, key: str | None) -> None:
        if key != self.looked:
            self.looked = key
            self.refresh()

    def spot_lines(self) -> list[Strip]:  # pragma: no cover - each panel gives its own
        raise NotImplementedError

    def spot_row(self) -> int | None:
        """The first of the panel's lines that shows the item looked at (None: it draws none)."""
        key = self.looked
        if key is None:
            return None
        return next((y for y, line in enumerate(self.spot_lines()) if any(_is(s.style, key) for s in line)), None)
