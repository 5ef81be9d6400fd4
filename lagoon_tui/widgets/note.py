"""The base of every board panel: a Static that lays its content out once and repaints only changed lines.

Everything a panel draws comes from a `Scene` (its plain `view` and the
content); no panel ever asks the engine anything.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, Self

from rich.console import Group, RenderableType
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.css.scalar import Unit
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import Widget
from textual.widgets import Static

from ..scene import Scene
from ..turbo.framing import frame_once
from ..turbo.sizes import SteadyVirtualSize
from .renderables import Made, draw, one_line_width, render_key
from .spotlight import Spotlit, spotlit
from .svg import svg_safe

if TYPE_CHECKING:
    _Widget = Widget  # what the mixins go with, for the checker
else:
    _Widget = object  # at run time no class but the mixin's own joins a widget's MRO


def changed_rows(old: list[Strip], new: list[Strip], width: int) -> list[Region]:
    """The rows where `new` lines differ from `old` (or either has none), each run of rows one region.

    A widget refreshed row by row gave the compositor a spot for every row: one move of a board
    changes a dozen rows of a panel, and the compositor looks at every spot for every widget.
    """
    bands: list[Region] = []
    top = None
    rows = max(len(old), len(new))
    for y in range(rows + 1):
        differs = y < rows and (y >= len(new) or y >= len(old) or new[y] != old[y])
        if differs and top is None:
            top = y
        elif not differs and top is not None:
            bands.append(Region(0, top, width, y - top))
            top = None
    return bands


class SteadyBorders(_Widget):
    """Mixin for widgets: a border title and subtitle that repaint the widget only when they change, and
    lines of content framed once, not at every paint (see `lagoon_tui.turbo.framing`).

    Textual repaints every line of a widget each time its border title is set,
    even to the same words; the panels set theirs at every redraw, through
    `set_border_title` and `set_border_subtitle`, which set them only when
    they change, and then repaint the title's row alone (`refresh`).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._border_words: dict[str, object] = {}  # what each of the two titles was last set to
        frame_once(self)

    def set_border_title(self, title: str | Text | None) -> None:
        if self._changed("title", title):
            self._edge = "top"
            try:
                self.border_title = title
            finally:
                self._edge = None

    def set_border_subtitle(self, subtitle: str | Text | None) -> None:
        if self._changed("subtitle", subtitle):
            self._edge = "bottom"
            try:
                self.border_subtitle = subtitle
            finally:
                self._edge = None

    _edge: str | None = None  # while a title is set: the edge it is on, the one row to repaint

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        """As Widget's; but a new border title or subtitle repaints its own row only, not every line (Textual
        repaints the whole widget for it: a board whose title said whose turn it is, or whose foot said
        "* changed", was painted and sent to the terminal whole at every turn)."""
        if self._edge is not None and not regions and not layout and not recompose and self.is_mounted:
            styles, (width, height) = self.styles, self.outer_size
            top = self._edge == "top"
            if (styles.border_top if top else styles.border_bottom)[0] not in ("", "none"):
                gutter = styles.gutter  # (the regions are the content's: its top left is at the gutter's)
                regions = (Region(-gutter.left, (0 if top else height - 1) - gutter.top, width, 1),)
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def border_words(self, which: str = "title") -> str:
        """The plain words of the border title (or "subtitle") last set, "" if none. (Textual gives a title
        back as its own markup, which drops some styles, such as the reverse of the turn's label, to "[]".)"""
        key = self._border_words.get(which)
        return key[0] if isinstance(key, tuple) else str(key or "")

    def _changed(self, which: str, words: str | Text | None) -> bool:
        key = (words.plain, tuple(words.spans), str(words.style)) if isinstance(words, Text) else words
        if which in self._border_words and self._border_words[which] == key:
            return False
        self._border_words[which] = key
        return True


def clear_min_height(widget: Widget) -> None:
    """Take away a widget's own minimum height, if it has one.

    (Textual arranges the whole screen whenever a style is cleared, whether it
    was set or not: the compact layout cleared the player boards' at every move.)
    """
    if widget.styles.inline.has_rule("min_height"):
        widget.styles.min_height = None


class SteadyLayout(SteadyVirtualSize, SteadyBorders):
    """Mixin for widgets: a new virtual size arranges the screen only when it must (see
    `lagoon_tui.turbo.sizes`), titles that repaint only when they change, and scrolling without a scrollbar."""

    @property
    def allow_vertical_scroll(self) -> bool:
        """A widget with `overflow-y: hidden` (the log, the options) still scrolls, by keys, wheel or code.

        It has no scrollbar: Textual painted one a frame after the widget,
        and moved it (a hidden widget: the screen's whole map made again)
        at every line the log scrolled. The widget says itself what is out
        of sight.
        """
        if self.styles.overflow_y == "hidden":
            return self.is_scrollable and self.max_scroll_y > 0 and not self.disabled
        return super().allow_vertical_scroll


class Note(Spotlit, SteadyLayout, Static):
    """A Static that lays its content out once per change and repaints only the lines that changed.

    Textual repaints the whole of a widget whose content changed: every line
    styled again (padding, border, colours) and written to the terminal. A
    choice in the game changes a line or two of a panel (money, a worker, a
    used action), so a note keeps its content laid out as lines (`Strip`s)
    at its width, compares a new content with them line by line, and asks
    for only the changed lines to be painted. It asks for a new arrangement
    of the screen only when its height changes (minimum heights counted).
    Its lines keep their spaces in SVG pictures too (see `detach_spaces`).
    """

    keeps_tallest = False
    """Whether the note keeps the most lines its content has had at its width, blank lines at its foot: for a
    panel whose content grows and shrinks by a line from move to move, and so moved every panel below it."""

    def __init__(
        self,
        content: RenderableType = "",
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(content, name=name, id=id, classes=classes)
        self._source: RenderableType = content  # what the note shows, before it is laid out
        self._visual: Visual | None = None
        self._lines: list[Strip] | None = None  # the content laid out at `_width` in `_style`
        self._width = 0
        self._style: Style | None = None
        self._parts: dict[tuple, list[Strip]] = {}  # the lines of each keyed part of the last layout
        self._made: dict[tuple, Made] = {}  # the parts `made` for the last content
        self._making: dict[tuple, Made] = {}  # and for the next one
        self._tallest = 0  # the most lines the content has had at `_width` (see `keeps_tallest`)

    @property
    def visual(self) -> Visual:
        """The content as Textual sees it (for measuring text in tests and selecting it with the mouse)."""
        if self._visual is None:
            self._visual = visualize(self, self._source, markup=False)
        return self._visual

    def made(self, build: Callable[..., RenderableType], *args: Hashable) -> Made:
        """A part of the next content: `build(*args)`, made only when the note's last content had no part
        made by `build` from the same `args` (which must be all that `build` reads); else that very part,
        whose lines are not laid out again either. (A move changes a line or two of a panel: making every
        line of it again, through Rich's texts, was most of what a board cost to draw.)"""
        key = (build, args)
        part = self._made.get(key) or Made(key, build(*args))
        self._making[key] = part
        return part

    def update(self, content: RenderableType = "", *, layout: bool = True) -> None:  # type: ignore[override]  # (a note lays out Rich renderables, not Textual's visuals)
        """Show `content`: only its changed lines are painted; the screen is re-arranged only if its height changed."""
        self._source, self._visual = content, None
        self._made, self._making = self._making, {}
        width = self.content_size.width
        if not self.is_mounted or not width or self._lines is None:
            self._lines = None
            self.refresh(layout=True)
            return
        old = self._lines
        new = self._lay_out(width)
        if self._height(len(new)) != self._height(len(old)) and not self._held_up(len(old), len(new)):
            self.refresh(layout=layout)
            return
        changed = changed_rows(old, new, width)
        if changed:
            self.refresh(*changed)

    def _held_up(self, old: int, new: int) -> bool:
        """Whether a new height of the content (`old` lines, now `new`) leaves the note's place as it was.

        It does when the note fills its line of a grid (a row of board panels,
        `height: 100%`) and a panel beside it on that line, already laid out,
        is as tall as the note was and will be: the row keeps its height, so
        only the note's lines are painted, the screen is not arranged again.
        (Over a game at 160x50 this spared most of the arrangements a round
        track, a mining site or an island growing by a line asked for.)
        """
        height, parent = self.styles.height, self.parent
        filling = height is not None and height.unit in (Unit.PERCENT, Unit.HEIGHT) and height.value == 100
        if not filling or not isinstance(parent, Widget):
            return False
        place = self.region
        beside = [
            other
            for other in parent.children
            if other is not self and isinstance(other, Note) and other.display and other.region.y == place.y
        ]
        if not place or not beside or not all(other.rows for other in beside):
            return False
        tallest = max(other._height(other.rows) + other.styles.gutter.height for other in beside)
        return tallest >= max(self._height(old), self._height(new)) + self.styles.gutter.height

    @property
    def _content(self) -> RenderableType:
        """What the note shows as a Rich renderable (a string is plain text, not markup)."""
        return Text(self._source) if isinstance(self._source, str) else self._source

    def _lay_out(self, width: int) -> list[Strip]:
        """The content as lines `width` cells wide, in the note's own colours (kept as the note's lines).

        A content that is a Group is laid out part by part, and a part with a
        `render_key` that the last layout had is not laid out again.
        """
        style = self.visual_style.rich_style
        content = self._content
        parts = content.renderables if isinstance(content, Group) else (content,)
        known, self._parts = self._parts, {}
        lines: list[Strip] = []
        for part in parts:
            key = render_key(part)
            if key is None:
                lines += self._draw_part(part, width, style)
                continue
            key = (key, width, style)
            drawn = self._parts[key] = known.get(key) or self._draw_part(part, width, style)
            lines += drawn
        if self.keeps_tallest:
            self._tallest = max(len(lines), self._tallest if width == self._width else 0)
            lines += [Strip.blank(width, style)] * (self._tallest - len(lines))
        self._lines = lines
        self._width, self._style = width, style
        return lines

    def _draw_part(self, renderable: RenderableType, width: int, style: Style) -> list[Strip]:
        app = self.app
        options = app.console_options.update(width=width, highlight=False, height=None)
        segments = Segment.apply_style(draw(app.console, options, renderable), style)
        return [
            Strip(line, width)
            for line in Segment.split_and_crop_lines(segments, width, style, pad=True, include_new_lines=False)
        ]

    def _current(self, width: int | None = None) -> list[Strip]:
        """The lines at `width` (the note's width) in the note's colours now (laid out again if either changed)."""
        width = self.content_size.width if width is None else width
        if self._lines is None or width != self._width or self.visual_style.rich_style != self._style:
            return self._lay_out(width)
        return self._lines

    def _height(self, lines: int) -> int:
        """The content height `lines` lines take, counting a minimum height (which the board panels get)."""
        floor = self.styles.min_height
        least = floor.cells if floor is not None else None
        return lines if least is None else max(lines, least - self.styles.gutter.height)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._current(width))

    def get_content_width(self, container: Size, viewport: Size) -> int:
        app = self.app
        return Measurement.get(app.console, app.console_options.update_width(container.width), self._content).maximum

    @property
    def rows(self) -> int:
        """How many lines the content takes at the note's width (0 before it is laid out)."""
        return len(self._lines) if self._lines is not None and self._width else 0

    def render_line(self, y: int) -> Strip:
        lines = self._current()
        return spotlit(lines[y], self.looked) if y < len(lines) else Strip.blank(self._width, self._style)

    def spot_lines(self) -> list[Strip]:
        return self._current()

    def render_lines(self, crop: Region) -> list[Strip]:
        return svg_safe(super().render_lines(crop))


class Panel(Note):
    """A bordered board panel that redraws itself from a Scene with `show(scene)`."""

    DEFAULT_CSS = """
    Panel {
        height: auto;
        padding: 0 1;
        background: $surface;
        border: round $primary;
        border-title-color: $accent;
        border-title-style: bold;
        border-subtitle-color: $text-muted;
    }
    """
    keeps_tallest = True
    """(A panel's row grew by a line and shrank back as a note of what changed came and went, or the score
    track's markers met and parted: each time every panel below it moved, the whole board painted anew.)"""

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", name=name, id=id, classes=classes)
        self.scene: Scene | None = None
        self._drawn_from: object = None
        self._titles: tuple[str | Text, ...] = ()

    def set_titles(self, *titles: str | Text) -> None:
        """Border titles from longest to shortest: the longest that fits the panel's width is shown."""
        self._titles = titles
        self._fit_title()

    def on_resize(self) -> None:
        self._fit_title()

    def _fit_title(self) -> None:
        if not self._titles:
            return
        room = self.outer_size.width - 6  # corners, the line before the title, spaces
        fits = (
            [t for t in self._titles if one_line_width(Text(t) if isinstance(t, str) else t) <= room]
            if room > 0
            else []
        )
        self.set_border_title(fits[0] if fits else self._titles[0 if room <= 0 else -1])

    def unchanged(self, scene: Scene, key: object) -> bool:
        """True when `key` (the part of the scene this panel draws) is what it last drew.

        Redrawing costs a Rich layout of the whole panel, and one choice
        changes only a few panels, so each panel skips scenes that would
        draw the same thing.
        """
        self.scene = scene
        if key == self._drawn_from:
            return True
        self._drawn_from = key
        return False

    def show(self, scene: Scene) -> None:  # pragma: no cover - each panel overrides it
        raise NotImplementedError
