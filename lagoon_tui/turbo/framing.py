"""Each line of a widget's content framed (padding, border, colours) once, not at every paint.

Textual frames a line of content each time it paints it: the padding, the
border's sides, the colours worked out from the widget's styles, a new
`Strip` made (with its eight little caches), the app's colour filters run on
it, and the compositor cuts it at the screen's edges afresh. When the log gets
a line, every line of it moves up one row and is framed again although the
lines themselves are the ones already on screen; a new option list frames
every option again although most of them were just there.

`FramedLines` remembers the framed strip of each line of content it framed
(by the content line itself, which our widgets keep from one paint to the
next), as long as nothing that frames it has changed: the widget's width,
padding, border, colours and opacity (not its height: a board whose row
grew a line keeps its framed lines). A line seen again comes back as the
very same strip, so the colour filters and the compositor's cuts of it come
from the strip's own caches too. A plain frame (borders and padding, as all
ours are) is put together from its two sides worked out once, not through
Textual's general framing of every line; any other frame is Textual's, line
by line, and nothing of it is kept. What is painted is exactly what
Textual's framing paints (tests/tui/test_redraw.py compares the two; the
snapshots and tests/tui/test_tmux.py compare screens).

It replaces a private part of Textual (`StylesCache`), given to a widget in
its private `_styles_cache`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from textual._ansi_theme import DEFAULT_TERMINAL_THEME
from textual._border import get_box
from textual._segment_tools import make_blank
from textual._styles_cache import StylesCache
from textual.strip import Strip
from textual.style import Style
from textual.widget import Widget

from . import on

if TYPE_CHECKING:
    from rich.segment import Segment
    from rich.style import Style as RichStyle
    from rich.terminal_theme import TerminalTheme
    from textual.color import Color
    from textual.content import Content
    from textual.css.styles import StylesBase
    from textual.filter import LineFilter
    from textual.geometry import Region, Size, Spacing

    Label = tuple[Content, Color, Color, Style] | None  # a border title or subtitle, as Textual passes it
    Sides = tuple[list[Segment], list[Segment], int, RichStyle]  # a plain frame's left, right, content width, fill

ON = on("framing")


class FramedLines(StylesCache):
    """A widget's styles cache that frames each line of content once while the frame stays the same."""

    def __init__(self) -> None:
        super().__init__()
        self._framed: dict[int, tuple[Strip, Strip]] = {}  # id(content line) -> (content line, framed line)
        self._frame: tuple[object, ...] | None = None  # what the framed lines were framed with
        self._sides: Sides | None = None  # a plain frame's (left, right, content width, fill), else None

    def render(
        self,
        styles: StylesBase,
        size: Size,
        base_background: Color,
        background: Color,
        render_content_line: Callable[[int], Strip],
        filters: Sequence[LineFilter],
        border_title: Label,
        border_subtitle: Label,
        content_size: Size | None = None,
        padding: Spacing | None = None,
        crop: Region | None = None,
        opacity: float = 1.0,
        ansi_theme: TerminalTheme = DEFAULT_TERMINAL_THEME,
        native_ansi: bool = False,
    ) -> list[Strip]:
        inner = size if content_size is None else content_size
        frame = (
            size.width,
            inner.width,
            padding,
            base_background,
            background,
            opacity,
            (ansi_theme, native_ansi),
            styles.border,
            styles.outline,
            styles.text_opacity,
            styles.tint,
            styles.hatch,
        )
        if frame != self._frame:
            self._framed.clear()
            self._frame = frame
            self._sides = self._plain_sides(
                styles,
                inner,
                styles.padding if padding is None else padding,
                base_background,
                background,
                opacity,
            )
        return super().render(
            styles,
            size,
            base_background,
            background,
            render_content_line,
            filters,
            border_title,
            border_subtitle,
            content_size,
            padding,
            crop,
            opacity,
            ansi_theme=ansi_theme,
            native_ansi=native_ansi,
        )

    def render_line(
        self,
        styles: StylesBase,
        y: int,
        size: Size,
        content_size: Size,
        padding: Spacing,
        base_background: Color,
        background: Color,
        render_content_line: Callable[[int], Strip],
        border_title: Label,
        border_subtitle: Label,
        opacity: float,
        ansi_theme: TerminalTheme,
        native_ansi: bool,
    ) -> Strip:
        gutter = styles.gutter
        content_y = y - gutter.top
        sides = self._sides
        if sides is None or not (0 <= content_y < content_size.height and y < size.height - gutter.bottom):
            # a frame other than plain (an outline may draw over a line by its row), or a border or padding
            # row, or below the content: framed by Textual (it keeps its own blank rows)
            rest = (border_title, border_subtitle, opacity, ansi_theme, native_ansi)
            return super().render_line(
                styles, y, size, content_size, padding, base_background, background, render_content_line, *rest
            )
        content = render_content_line(content_y)
        known = self._framed.get(id(content))
        if known is not None and known[0] is content:
            return known[1]
        left, right, content_width, fill = sides
        framed = Strip([*left, *content.adjust_cell_length(content_width, fill), *right], size.width)
        if len(self._framed) > 4 * size.height:  # lines long gone (a log scrolled far, old option lists)
            self._framed.clear()
        self._framed[id(content)] = (content, framed)
        return framed

    def _plain_sides(
        self,
        styles: StylesBase,
        content_size: Size,
        padding: Spacing,
        base_background: Color,
        background: Color,
        opacity: float,
    ) -> Sides | None:
        """What goes left and right of each line of content in a plain frame, worked out as Textual does.

        A plain frame is borders and padding and nothing else: no outline,
        tint, hatching or transparency. Our widgets' frames are all plain;
        any other is framed by Textual line by line.
        """
        hatched = styles.has_rule("hatch") and styles.hatch != "none"
        if (
            any(edge for edge, _ in styles.outline)
            or styles.tint.a
            or hatched
            or opacity != 1.0
            or styles.text_opacity != 1.0
        ):
            return None
        inner, outer = self.get_inner_outer(base_background, background)
        fill = inner.rich_style
        _top, (right_edge, right_colour), _bottom, (left_edge, left_colour) = styles.border
        _pad_top, pad_right, _pad_bottom, pad_left = padding
        left: list[Segment] = []
        right: list[Segment] = []
        if left_edge:
            edge = Style(foreground=base_background + left_colour.multiply_alpha(opacity))
            left.append(get_box(left_edge, inner, outer, edge)[1][0])
        if pad_left:
            left.append(make_blank(pad_left, fill))
        if pad_right:
            right.append(make_blank(pad_right, fill))
        if right_edge:
            edge = Style(foreground=base_background + right_colour.multiply_alpha(opacity))
            right.append(get_box(right_edge, inner, outer, edge)[1][2])
        return left, right, content_size.width, fill


def frame_once(widget: Widget) -> None:
    """The widget's lines of content framed once while the frame stays the same (while the layer is on)."""
    if ON:
        widget._styles_cache = FramedLines()
