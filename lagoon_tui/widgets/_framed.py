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
padding, border, colours and opacity. A line seen again comes back as the
very same strip, so the colour filters and the compositor's cuts of it come
from the strip's own caches too. What is painted is exactly what Textual's
framing paints (the snapshots and tests/tui/test_tmux.py compare screens).

It replaces a private part of Textual (`StylesCache`); Textual is pinned in
pyproject.toml.
"""
from __future__ import annotations

from textual._styles_cache import StylesCache
from textual.strip import Strip


class FramedLines(StylesCache):
    """A widget's styles cache that frames each line of content once while the frame stays the same."""

    def __init__(self) -> None:
        super().__init__()
        self._framed: dict[int, tuple[Strip, Strip]] = {}  # id(content line) -> (content line, framed line)
        self._frame: tuple | None = None  # what the framed lines were framed with

    def render(self, styles, size, base_background, background, render_content_line, filters,
               border_title, border_subtitle, content_size=None, padding=None, crop=None,
               opacity=1.0, **colours) -> list[Strip]:
        frame = (size.width, content_size, padding, base_background, background, opacity,
                 tuple(colours.values()), styles.border, styles.outline, styles.text_opacity,
                 styles.tint, styles.hatch)
        if frame != self._frame:
            self._framed.clear()
            self._frame = frame
        return super().render(styles, size, base_background, background, render_content_line, filters,
                              border_title, border_subtitle, content_size, padding, crop, opacity,
                              **colours)

    def render_line(self, styles, y, size, content_size, padding, base_background, background,
                    render_content_line, *rest) -> Strip:
        gutter = styles.gutter
        content_y = y - gutter.top
        if not (0 <= content_y < content_size.height and y < size.height - gutter.bottom):
            # a border or padding row, or below the content: framed by Textual (it keeps its own blank rows)
            return super().render_line(styles, y, size, content_size, padding, base_background, background,
                                       render_content_line, *rest)
        content = render_content_line(content_y)
        known = self._framed.get(id(content))
        if known is not None and known[0] is content:
            return known[1]
        framed = super().render_line(styles, y, size, content_size, padding, base_background, background,
                                     lambda _y: content, *rest)
        if len(self._framed) > 4 * size.height:  # lines long gone (a log scrolled far, old option lists)
            self._framed.clear()
        self._framed[id(content)] = (content, framed)
        return framed
