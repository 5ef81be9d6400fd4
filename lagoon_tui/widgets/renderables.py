"""Rich renderables the panels are made of, each with a key that says when it draws the same lines.

A `Note` keeps the lines of each part of its content under the part's
`render_key`, so a part that did not change is not laid out again.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.text import Text


def render_key(renderable: object) -> Hashable | None:
    """A value equal for two renderables that draw the same lines at any width; None when unknown.

    A `Note` keeps the lines of each part of its content under this key, so
    a part that did not change is not laid out by Rich again (a choice
    changes a line or two of a panel). Texts have one; our own renderables
    give theirs with a `key()` method; anything else is drawn every time.
    """
    if isinstance(renderable, str):
        return renderable
    if isinstance(renderable, Text):
        return (
            renderable.plain,
            tuple(renderable.spans),
            renderable.style,
            renderable.justify,
            renderable.overflow,
            renderable.no_wrap,
            renderable.end,
        )
    if isinstance(renderable, Group):
        return render_keys(("Group", renderable.fit), *renderable.renderables)
    key = getattr(renderable, "key", None)
    return key() if key is not None else None


def render_keys(tag: Hashable, *parts: object) -> tuple[Hashable, ...] | None:
    """The key of a renderable of a kind and settings (`tag`) made of `parts` (None if a part has none)."""
    keys = tuple(render_key(part) for part in parts)
    return None if None in keys else (tag, *keys)


class Made:
    """A part of a panel as `build(*args)` made it (see `Note.made`): its key is the builder and its arguments,
    so neither it nor its lines are made again while they stay the same."""

    def __init__(self, key: tuple[Hashable, ...], renderable: RenderableType) -> None:
        self._key, self.renderable = key, renderable

    def key(self) -> tuple[Hashable, ...]:
        return self._key

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.renderable)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.renderable


class Flow:
    """Short texts laid out left to right, wrapping between items rather than inside them.

    "Merchants 3 free of 4   Miners 2 free of 2" stays one line when there is
    room and becomes two whole lines when there is not.
    """

    def __init__(self, items: Iterable[Text | str], sep: str = "   ") -> None:
        self.items = [i if isinstance(i, Text) else Text(i) for i in items]
        self.sep = sep

    def key(self) -> tuple[Hashable, ...] | None:
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


def draw(console: Console, options: ConsoleOptions, renderable: RenderableType) -> Iterable[Segment]:
    """What `console.render` yields, with a shortcut for the usual case of a text on one line that fits.

    Rich wraps every text before it draws it (splitting, dividing and
    joining copies of it); a panel is mostly short texts that fit their
    line, drawn as they are. Everything else goes through Rich as before.
    """
    if isinstance(renderable, Text):
        plain = renderable.plain
        if (
            renderable.justify in (None, "default")
            and options.justify in (None, "default")
            and "\n" not in plain
            and "\t" not in plain
            and renderable.cell_len <= options.max_width
        ):
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

    def __init__(self, items: Iterable[RenderableType]) -> None:
        self.items = [i if not isinstance(i, str) else Text(i) for i in items]

    def key(self) -> tuple[Hashable, ...] | None:
        return render_keys("Bullets", *self.items)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        inner = options.update_width(max(1, options.max_width - self.INDENT))
        sizes = [Measurement.get(console, inner, item) for item in self.items] or [Measurement(0, 0)]
        return Measurement(
            min(options.max_width, self.INDENT + max(m.minimum for m in sizes)),
            min(options.max_width, self.INDENT + max(m.maximum for m in sizes)),
        )

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(1, options.max_width - self.INDENT)
        bullet, hang, new_line = Segment("  • "), Segment(" " * self.INDENT), Segment.line()
        for item in self.items:
            for n, line in enumerate(console.render_lines(item, options.update_width(width), pad=True)):
                yield bullet if n == 0 else hang
                yield from line
                yield new_line


def one_line_width(renderable: OneLine) -> int:
    """How wide `renderable` is on one line (a Text, a Flow, a Spread or a Fit)."""
    if isinstance(renderable, Text):
        return max((line.cell_len for line in renderable.split("\n")), default=0)
    return renderable.width


class Fit:
    """The first of `choices` (longest first) that fits the width on one line; else the last one, wrapped.

    `Fit(Text("Merchants 3 free of 4"), Text("Merch. 3/4"))` says it in full
    when there is room and briefly when there is not; nothing is cut off.
    """

    def __init__(self, *choices: OneLine | str) -> None:
        self.choices = [c if not isinstance(c, str) else Text(c) for c in choices]

    def key(self) -> tuple[Hashable, ...] | None:
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

    def __init__(self, renderable: RenderableType, min_width: int) -> None:
        self.renderable, self.min_width = renderable, min_width

    def key(self) -> tuple[Hashable, ...] | None:
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

    def __init__(self, min_width: int, wide: RenderableType, narrow: RenderableType) -> None:
        self.min_width, self.wide, self.narrow = min_width, wide, narrow

    def key(self) -> tuple[Hashable, ...] | None:
        return render_keys(("ByWidth", self.min_width), self.wide, self.narrow)

    def _pick(self, width: int) -> RenderableType:
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

    def __init__(self, left: Text | str, right: Text | str) -> None:
        self.left = left if isinstance(left, Text) else Text(left)
        self.right = right if isinstance(right, Text) else Text(right)

    def key(self) -> tuple[Hashable, ...] | None:
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


OneLine = Text | Flow | Spread | Fit
"""What `one_line_width` measures, and a `Fit` chooses among."""
