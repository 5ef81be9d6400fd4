"""Small pieces shared by the board panels: the panel base class and text helpers.

Everything here reads only a `Scene` (its plain `view` and the content); no
panel ever asks the engine anything. Styles used inside Rich text stick to
plain attributes (bold, dim, italic, reverse) and the player colours of
`lagoon_tui.scene`, so the panels read the same in a 16-colour terminal and
in light or dark themes; colour is never the only thing that tells two
things apart.
"""
from __future__ import annotations

from typing import Hashable, Iterable, Mapping

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.visual import visualize
from textual.widget import Widget
from textual.widgets import Static

from ..scene import Scene
from ..turbo.framing import frame_once
from ..turbo.sizes import SteadyVirtualSize

CUBE = "●"
SPENT = "○"
EMPTY_SLOT = "·"

PHASE_NAMES = {
    "created": "Getting ready",
    "setup": "Setting up",
    "island_selection": "Choosing islands",
    "actions": "Actions",
    "over": "Game over",
}


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


def join(parts: Iterable[Text | str], sep: str = ", ") -> Text:
    """Texts joined with a separator (an empty Text when there are none)."""
    out = Text()
    for i, part in enumerate(parts):
        if i:
            out.append(sep)
        out.append(part if isinstance(part, Text) else Text(part))
    return out


def tags(scene: Scene, seats: Iterable[int], sep: str = ", ") -> Text:
    return join((scene.tag(s) for s in seats), sep)


def markers(scene: Scene, seats: Iterable[int], sep: str = " ") -> Text:
    """Players as their coloured letters ("R Y"): colour and letter, for tight places."""
    return join((scene.marker(s) for s in seats), sep)


def label(text: str) -> Text:
    """A field name in a panel ("Money", "Ships here"...)."""
    return Text(text, style="bold")


def muted(text: str) -> Text:
    return Text(text, style="dim")


def needs(resources: Mapping[str, int], artifacts: Mapping[str, int] | None = None) -> str:
    """What a shipment asks for, in words: "2 gold + 1 iron + 1 silver artifact"."""
    parts = [f"{n} {m}" for m, n in resources.items()]
    parts += [f"{n} {m} artifact" if n == 1 else f"{n} {m} artifacts" for m, n in (artifacts or {}).items()]
    return " + ".join(parts) or "nothing"


def deal_needs(requires: Mapping[str, int]) -> str:
    """What a deal asks for: "copper 1'+ and iron 3'+" (a higher level also does)."""
    return " and ".join(f"{metal} {level}'+" for metal, level in requires.items())


def render_key(renderable) -> Hashable | None:
    """A value equal for two renderables that draw the same lines at any width; None when unknown.

    A `Note` keeps the lines of each part of its content under this key, so
    a part that did not change is not laid out by Rich again (a choice
    changes a line or two of a panel). Texts have one; our own renderables
    give theirs with a `key()` method; anything else is drawn every time.
    """
    if isinstance(renderable, str):
        return renderable
    if isinstance(renderable, Text):
        return (renderable.plain, tuple(renderable.spans), renderable.style, renderable.justify,
                renderable.overflow, renderable.no_wrap, renderable.end)
    if isinstance(renderable, Group):
        return render_keys(("Group", renderable.fit), *renderable.renderables)
    key = getattr(renderable, "key", None)
    return key() if key is not None else None


def render_keys(tag: Hashable, *parts) -> tuple | None:
    """The key of a renderable of a kind and settings (`tag`) made of `parts` (None if a part has none)."""
    keys = tuple(render_key(part) for part in parts)
    return None if None in keys else (tag, *keys)


class Flow:
    """Short texts laid out left to right, wrapping between items rather than inside them.

    "Merchants 3 free of 4   Miners 2 free of 2" stays one line when there is
    room and becomes two whole lines when there is not.
    """

    def __init__(self, items: Iterable[Text | str], sep: str = "   "):
        self.items = [i if isinstance(i, Text) else Text(i) for i in items]
        self.sep = sep

    def key(self) -> tuple | None:
        return render_keys(("Flow", self.sep), *self.items)

    @property
    def width(self) -> int:
        """The width of the whole flow on one line."""
        return sum(i.cell_len for i in self.items) + len(self.sep) * max(0, len(self.items) - 1)

    def line(self) -> Text:
        """The whole flow on one line."""
        line = Text()
        for item in self.items:
            if line.cell_len:
                line.append(self.sep)
            line.append_text(item)
        return line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widths = [i.cell_len for i in self.items] or [0]
        total = sum(widths) + len(self.sep) * (len(widths) - 1)
        return Measurement(min(max(widths), options.max_width), min(total, options.max_width))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        line = Text()
        for item in self.items:
            if line.cell_len and line.cell_len + len(self.sep) + item.cell_len > width:
                yield line
                line = Text()
            if line.cell_len:
                line.append(self.sep)
            line.append_text(item)
        if line.cell_len:
            yield line


def draw(console: Console, options: ConsoleOptions, renderable) -> Iterable[Segment]:
    """What `console.render` yields, with a shortcut for the usual case of a text on one line that fits.

    Rich wraps every text before it draws it (splitting, dividing and
    joining copies of it); a panel is mostly short texts that fit their
    line, drawn as they are. Everything else goes through Rich as before.
    """
    if isinstance(renderable, Text):
        plain = renderable.plain
        if (renderable.justify in (None, "default") and options.justify in (None, "default")
                and "\n" not in plain and "\t" not in plain and renderable.cell_len <= options.max_width):
            if renderable.spans or not renderable.style:
                yield from renderable.render(console, end=renderable.end)
            else:  # (Text.render leaves out the style of a text without spans)
                yield Segment(plain, console.get_style(renderable.style))
                if renderable.end:
                    yield Segment(renderable.end)
            return
    if options.max_width < 1 or not hasattr(renderable, "__rich_console__"):
        yield from console.render(renderable, options)
        return
    rest = options.reset_height()
    for part in renderable.__rich_console__(console, options):
        if isinstance(part, Segment):
            yield part
        else:
            yield from draw(console, rest, part)


class Bullets:
    """Items after bullets ("  • "), each wrapped with a hanging indent under its first word.

    (What a two-column Rich table would draw, at a fraction of its cost: a
    table measures every cell before it draws one.)
    """

    INDENT = 4

    def __init__(self, items: Iterable[Text | str]):
        self.items = [i if not isinstance(i, str) else Text(i) for i in items]

    def key(self) -> tuple | None:
        return render_keys("Bullets", *self.items)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        inner = options.update_width(max(1, options.max_width - self.INDENT))
        sizes = [Measurement.get(console, inner, item) for item in self.items] or [Measurement(0, 0)]
        return Measurement(min(options.max_width, self.INDENT + max(m.minimum for m in sizes)),
                           min(options.max_width, self.INDENT + max(m.maximum for m in sizes)))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(1, options.max_width - self.INDENT)
        bullet, hang, new_line = Segment("  • "), Segment(" " * self.INDENT), Segment.line()
        for item in self.items:
            for n, line in enumerate(console.render_lines(item, options.update_width(width), pad=True)):
                yield bullet if n == 0 else hang
                yield from line
                yield new_line


def one_line_width(renderable) -> int:
    """How wide `renderable` is on one line (a Text, a Flow, a Spread or a Fit)."""
    if isinstance(renderable, Text):
        return max((line.cell_len for line in renderable.split("\n")), default=0)
    return renderable.width


class Fit:
    """The first of `choices` (longest first) that fits the width on one line; else the last one, wrapped.

    `Fit(Text("Merchants 3 free of 4"), Text("Merch. 3/4"))` says it in full
    when there is room and briefly when there is not; nothing is cut off.
    """

    def __init__(self, *choices):
        self.choices = [c if not isinstance(c, str) else Text(c) for c in choices]

    def key(self) -> tuple | None:
        return render_keys("Fit", *self.choices)

    @property
    def width(self) -> int:
        return one_line_width(self.choices[0])

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widths = [one_line_width(c) for c in self.choices]
        return Measurement(min(min(widths), options.max_width), min(max(widths), options.max_width))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for choice in self.choices:
            if one_line_width(choice) <= options.max_width:
                yield choice
                return
        yield self.choices[-1]


class WideOnly:
    """`renderable` when the panel is at least `min_width` wide; nothing (not even a line) when narrower."""

    def __init__(self, renderable, min_width: int):
        self.renderable, self.min_width = renderable, min_width

    def key(self) -> tuple | None:
        return render_keys(("WideOnly", self.min_width), self.renderable)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        if options.max_width < self.min_width:
            return Measurement(0, 0)
        return Measurement.get(console, options, self.renderable)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if options.max_width >= self.min_width:
            yield self.renderable


class ByWidth:
    """`wide` from `min_width` columns on, else `narrow`: two ways of saying a thing, by the room there is."""

    def __init__(self, min_width: int, wide, narrow):
        self.min_width, self.wide, self.narrow = min_width, wide, narrow

    def key(self) -> tuple | None:
        return render_keys(("ByWidth", self.min_width), self.wide, self.narrow)

    def _pick(self, width: int):
        return self.wide if width >= self.min_width else self.narrow

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self._pick(options.max_width))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self._pick(options.max_width)


class Spread:
    """`left` and `right` on one line, `right` pushed to the right edge.

    When both do not fit, `left` takes its own (wrapped) lines and `right`
    follows, right-aligned, on the next: nothing is cut off at any width.
    """

    def __init__(self, left: Text | str, right: Text | str):
        self.left = left if isinstance(left, Text) else Text(left)
        self.right = right if isinstance(right, Text) else Text(right)

    def key(self) -> tuple | None:
        return render_keys("Spread", self.left, self.right)

    @property
    def width(self) -> int:
        return self.left.cell_len + 1 + self.right.cell_len

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        total = self.left.cell_len + 1 + self.right.cell_len
        return Measurement(min(self.right.cell_len, options.max_width), min(total, options.max_width))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        left, right = self.left.cell_len, self.right.cell_len
        if left + 1 + right <= width:
            yield Text.assemble(self.left, " " * (width - left - right), self.right)
        else:
            yield self.left
            yield Text.assemble(" " * max(0, width - right), self.right)


def acting_seat(scene: Scene) -> int | None:
    """Whose move it is now (island choice, action, or a step of an action)."""
    if scene.view.get("phase") == "over":
        return None
    return scene.decision.seat


def ship_seats(scene: Scene, island: int) -> list[int]:
    """Seats whose ship is at `island` now; while islands are being chosen, who chose it."""
    view = scene.view
    if view.get("phase") == "island_selection":
        chosen = view.get("islands_chosen") or {}
        seat = chosen.get(str(island))
        return [] if seat is None else [seat]
    return [p["seat"] for p in view["players"] if p.get("island") == island]


SVG_SPACES = False
"""Set by `lagoon_tui.stills`: draw for SVG pictures (see `detach_spaces`); a terminal never needs it."""


def svg_safe(strips: list[Strip]) -> list[Strip]:
    """`strips` as they are, or, while pictures are taken, with their spaces detached."""
    return [detach_spaces(strip) for strip in strips] if SVG_SPACES else strips


def detach_spaces(strip: Strip) -> Strip:
    """The strip with the leading spaces of each run of text split off into a run of their own.

    What a terminal shows is unchanged (the spaces only flip their bold bit).
    SVG screenshots draw each run as one <text> at its own column, and some
    SVG renderers (librsvg) drop a run's leading spaces, drawing "Cleo [G] took"
    as "Cleo [G]took" and pulling right-aligned columns to the left; a run that
    starts with a letter is drawn where it belongs.
    """
    out: list[Segment] = []
    changed = False
    for segment in strip:
        text, style, control = segment
        if control or not text.startswith(" ") or not text.strip(" "):
            out.append(segment)
            continue
        n = len(text) - len(text.lstrip(" "))
        base = style or Style()
        out.append(Segment(text[:n], base + Style(bold=not base.bold)))
        out.append(Segment(text[n:], style))
        changed = True
    return Strip(out, strip.cell_length) if changed else strip


class SteadyBorders:
    """Mixin for widgets: a border title and subtitle that repaint the widget only when they change, and
    lines of content framed once, not at every paint (see `lagoon_tui.turbo.framing`).

    Textual repaints every line of a widget each time its border title is set,
    even to the same words; the panels set theirs at every redraw, through
    `set_border_title` and `set_border_subtitle`.
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._border_words: dict[str, object] = {}  # what each of the two titles was last set to
        frame_once(self)

    def set_border_title(self, title: str | Text | None) -> None:
        if self._changed("title", title):
            self.border_title = title

    def set_border_subtitle(self, subtitle: str | Text | None) -> None:
        if self._changed("subtitle", subtitle):
            self.border_subtitle = subtitle

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


class Note(SteadyLayout, Static):
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

    def __init__(self, content: object = "", *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(content, name=name, id=id, classes=classes)
        self._source: object = content  # what the note shows, before it is laid out
        self._visual = None
        self._lines: list[Strip] | None = None  # the content laid out at `_width` in `_style`
        self._width = 0
        self._style: Style | None = None
        self._parts: dict[tuple, list[Strip]] = {}  # the lines of each keyed part of the last layout

    @property
    def visual(self):
        """The content as Textual sees it (for measuring text in tests and selecting it with the mouse)."""
        if self._visual is None:
            self._visual = visualize(self, self._source, markup=False)
        return self._visual

    def update(self, content: object = "", *, layout: bool = True) -> None:
        """Show `content`: only its changed lines are painted; the screen is re-arranged only if its height changed."""
        self._source, self._visual = content, None
        width = self.content_size.width
        if not self.is_mounted or not width or self._lines is None:
            self._lines = None
            self.refresh(layout=True)
            return
        old = self._lines
        new = self._lay_out(width)
        if self._height(len(new)) != self._height(len(old)):
            self.refresh(layout=layout)
            return
        changed = [Region(0, y, width, 1) for y in range(max(len(new), len(old)))
                   if y >= len(new) or y >= len(old) or new[y] != old[y]]
        if changed:
            self.refresh(*changed)

    @property
    def _content(self):
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
        self._lines = lines
        self._width, self._style = width, style
        return lines

    def _draw_part(self, renderable, width: int, style: Style) -> list[Strip]:
        app = self.app
        options = app.console_options.update(width=width, highlight=False, height=None)
        segments = Segment.apply_style(draw(app.console, options, renderable), style)
        return [Strip(line, width) for line in
                Segment.split_and_crop_lines(segments, width, style, pad=True, include_new_lines=False)]

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
        return lines[y] if y < len(lines) else Strip.blank(self._width, self._style)

    def render_lines(self, crop) -> list[Strip]:
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

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", name=name, id=id, classes=classes)
        self.scene: Scene | None = None
        self._drawn_from: object = None
        self._titles: tuple[str, ...] = ()

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
        fits = [t for t in self._titles if one_line_width(Text(t) if isinstance(t, str) else t) <= room] \
            if room > 0 else []
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
