"""The prompt's options: numbered lines, one highlighted, picked by arrows and Enter or a click.

An option the player cannot take now is listed too, dimmed, with the
engine's reason after its words (`Option.refused`); picking it is the
prompt's to answer. An option's words wrap under its words, not under its
key (a hanging indent). The digits are the game screen's own keys; this list answers the arrows,
Home/End, PageUp/PageDown and Enter (the game screen takes PageUp/PageDown
first, for its log), and says which option was picked with
`Options.Picked`. It draws its own lines (Textual's line API): a new list of
options lays out only labels it has not laid out before at its width, and
repaints only the lines that changed; moving the highlight repaints the two
options it leaves and reaches. The highlighted option is always in sight: the
list scrolls to it whatever moved it. It has no scrollbar: the prompt's border
says how many options are out of sight above and below (`PromptPanel.more`).
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.css.scalar import Unit
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from .note import SteadyLayout, changed_rows
from .svg import svg_safe


def out_of_sight(above: int, below: int) -> str:
    """ "▲ 3 more · ▼ 12 more": what is out of sight above and below a window (empty when nothing is)."""
    return " · ".join(f"{mark} {n} more" for mark, n in (("▲", above), ("▼", below)) if n > 0)


class Option(NamedTuple):
    """One option as listed: the engine's id, its key ("3. ", or blanks as wide), its words, and, for
    an option the player cannot take now, why (the engine's words)."""

    id: str
    key: str
    label: str
    refused: str | None = None

    @property
    def prompt(self) -> str:
        """Every word shown for the option, its key first."""
        return f"{self.key}{self.label}{REFUSED_MARK}{self.refused}" if self.refused else f"{self.key}{self.label}"


REFUSED_MARK = " — not now: "
"""Between a refused option's words and its reason."""


class Options(SteadyLayout, ScrollView, can_focus=True):
    """A list of options to pick one from, each on as many lines as its words need."""

    DEFAULT_CSS = """
    Options {
        height: auto;
        max-height: 100%;
        overflow-x: hidden;
        overflow-y: hidden;
        background: $surface;
        color: $foreground;
        & > .options--refused {
            color: $text-muted;
            text-style: italic;
        }
        & > .options--highlighted {
            color: $foreground;
            background: $block-cursor-blurred-background;
        }
        &:focus > .options--highlighted {
            color: $block-cursor-foreground;
            background: $block-cursor-background;
            text-style: $block-cursor-text-style;
        }
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"options--highlighted", "options--refused"}
    # Priority: Textual runs a priority binding as soon as the key comes in. Any other key
    # travels up from the focused widget to the app, one message per container, before its
    # binding is looked for (about 1 ms a key). Here only while the options have the keyboard.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1)", "Previous option", show=False, priority=True),
        Binding("down", "move(1)", "Next option", show=False, priority=True),
        Binding("home", "move_to(0)", "First option", show=False, priority=True),
        Binding("end", "move_to(-1)", "Last option", show=False, priority=True),
        Binding("pageup", "page(-1)", "Options a page up", show=False, priority=True),
        Binding("pagedown", "page(1)", "Options a page down", show=False, priority=True),
        Binding("enter", "pick", "Pick the highlighted option", show=False, priority=True),
    ]

    class Picked(Message):
        """An option was picked (Enter on the highlighted one, or a click)."""

        def __init__(self, option: Option, index: int) -> None:
            self.option = option
            self.index = index
            super().__init__()

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._options: list[Option] = []
        self._highlighted: int | None = None
        self._lines: list[int] = []  # for each line, the option it belongs to
        self._first: list[int] = []  # for each option, its first line
        self._laid_out: dict[tuple[Option, int, Style], list[Strip]] = {}  # an option's lines, by option, width, style
        self._width = 0

    # --- what tests and the prompt read ---------------------------------------------

    @property
    def option_count(self) -> int:
        return len(self._options)

    def get_option_at_index(self, index: int) -> Option:
        return self._options[index]

    @property
    def line_count(self) -> int:
        """How many lines the options take at the list's width."""
        return len(self._lines)

    @property
    def highlighted(self) -> int | None:
        return self._highlighted

    @highlighted.setter
    def highlighted(self, index: int | None) -> None:
        if index is not None:
            index = max(0, min(index, len(self._options) - 1)) if self._options else None
        old, self._highlighted = self._highlighted, index
        if old != index:
            self._repaint_option(old)
            self._repaint_option(index)
        self._show_highlighted()

    # --- the options ---------------------------------------------------------------

    def set_options(self, options: list[Option]) -> None:
        """List `options`; only lines that read differently are painted again.

        A new list has no option highlighted, so an Enter meant for what was on
        screen before (a curtain passed, the last question) picks nothing: the
        first Enter highlights the first option, the next picks it. The same
        list shown again keeps its highlight.
        """
        if list(options) == self._options:
            return
        before = self._drawn() if self._width and not self.scroll_offset.y else None
        self._options = list(options)
        self._highlighted = None
        self._arrange()
        self.scroll_to(y=0, animate=False, immediate=True)
        if before is None or len(before) != len(self._lines):
            self.refresh()
            return
        after = self._drawn()
        changed = changed_rows(before, after, self._width)
        if changed:
            self.refresh(*changed)

    def _arrange(self) -> None:
        """Which lines each option takes at the list's width (and its size to scroll in)."""
        self._width = width = self.scrollable_content_region.width
        self._lines, self._first = [], []
        if width:
            for index, _ in enumerate(self._options):
                self._first.append(len(self._lines))
                self._lines.extend([index] * len(self._strips(index, False)))
        self.virtual_size = Size(width, len(self._lines))

    def _strips(self, index: int, highlighted: bool) -> list[Strip]:
        """The lines of option `index`, in the list's colours or the highlight's (a refused one dimmed)."""
        option = self._options[index]
        # (both styles are kept by Textual until the widget's styles change; `rich_style` is worked out anew)
        if highlighted:
            style = self.get_component_rich_style("options--highlighted")
            if option.refused:
                style += Style(italic=True)
        elif option.refused:
            style = self.get_component_rich_style("options--refused")
        else:
            style = self.visual_style.rich_style
        key = (option, self._width, style)
        strips = self._laid_out.get(key)
        if strips is None:
            if len(self._laid_out) > 500:
                self._laid_out.clear()
            if highlighted:  # the same lines in other colours: a label is plain words, all in one style
                strips = [
                    Strip([Segment(text, style) for text, _, _ in strip], strip.cell_length)
                    for strip in self._strips(index, False)
                ]
            else:
                strips = self._lay_out(option, style)
            self._laid_out[key] = strips
        return strips

    def _lay_out(self, option: Option, style: Style) -> list[Strip]:
        """An option's lines at the list's width: its key, then its words, wrapped under the words."""
        hang = cell_len(option.key) if cell_len(option.key) < self._width // 2 else 0
        words = option.prompt[len(option.key) :] if hang else option.prompt
        room, cells = self._width - hang, cell_len(words)
        if words.isprintable() and 0 < cells <= room:  # one line: as Rich lays it out, without its wrapping
            lines = [[Segment(words, style), *[Segment(" " * (room - cells), style)] * (cells < room)]]
        else:
            console = self.app.console
            lines = console.render_lines(
                Text(words, no_wrap=False),
                console.options.update(width=room, highlight=False),
                style=style,
                pad=True,
                new_lines=False,
            )
        strips = []
        for n, line in enumerate(lines):
            lead = (option.key if n == 0 else " " * hang) if hang else ""
            strips.append(Strip([Segment(lead, style), *line] if lead else line, self._width))
        return strips

    def _drawn(self) -> list[Strip]:
        """Every line as it is drawn now (highlight included)."""
        out: list[Strip] = []
        for index in range(len(self._options)):
            out.extend(self._strips(index, index == self._highlighted))
        return out

    # --- drawing -------------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        self.fit_to_size()

    def fit_to_size(self) -> None:
        if self.scrollable_content_region.width != self._width:
            self._arrange()
            self.refresh()
        self._show_highlighted()

    def render_line(self, y: int) -> Strip:
        line = y + self.scroll_offset.y
        if line >= len(self._lines):
            return Strip.blank(self.size.width, self.visual_style.rich_style)
        index = self._lines[line]
        return self._strips(index, index == self._highlighted)[line - self._first[index]]

    def render_lines(self, crop: Region) -> list[Strip]:
        return svg_safe(super().render_lines(crop))

    def _option_region(self, index: int) -> Region:
        """Where option `index` is, in lines of the whole list."""
        first = self._first[index]
        last = self._first[index + 1] if index + 1 < len(self._first) else len(self._lines)
        return Region(0, first, self._width, last - first)

    def _repaint_option(self, index: int | None) -> None:
        if index is None or index >= len(self._first):
            return
        self.refresh(self._option_region(index).translate((0, -self.scroll_offset.y)))

    def out_of_sight(self) -> tuple[int, int]:
        """How many options are not wholly in the window, above it and below it."""
        top = self.scroll_offset.y
        bottom = top + self._window_rows()
        above = sum(1 for first in self._first if first < top)
        ends = [*self._first[1:], len(self._lines)]
        below = sum(1 for end in ends if end > bottom)
        return above, below

    def _window_rows(self) -> int:
        """How many lines the list shows.

        Its height; or, when its height follows its lines up to a greatest
        height (the compact prompt), the height it gets for these lines, which
        its size says only once the screen is arranged, after the prompt has
        been told what is out of sight (told then, it was painted twice).
        """
        most = self.styles.max_height
        if (
            self.styles.height is not None
            and self.styles.height.is_auto
            and most is not None
            and most.unit == Unit.CELLS
        ):
            return min(len(self._lines), int(most.value))
        return self.scrollable_content_region.height

    def _show_highlighted(self) -> None:
        if self._highlighted is not None and self._highlighted < len(self._first):
            self.scroll_to_region(self._option_region(self._highlighted), animate=False, immediate=True)

    # --- keys and mouse ------------------------------------------------------------

    def action_move(self, step: int) -> None:
        if self._highlighted is not None:
            self.highlighted = self._highlighted + step
        elif self._options:  # nothing highlighted yet: ↓ comes to the first option, ↑ to the last
            self.highlighted = 0 if step > 0 else len(self._options) - 1

    def action_move_to(self, index: int) -> None:
        if self._options:
            self.highlighted = index % len(self._options)

    def action_page(self, direction: int) -> None:
        """A page of lines up or down: the option at that line is highlighted."""
        if self._highlighted is None:
            self.action_move(direction)
            return
        line = self._first[self._highlighted] + direction * max(1, self.scrollable_content_region.height)
        self.highlighted = self._lines[max(0, min(line, len(self._lines) - 1))]

    def action_pick(self) -> None:
        if self._highlighted is not None:
            self.post_message(self.Picked(self._options[self._highlighted], self._highlighted))
        elif self._options:  # an Enter on a list just shown: it picks nothing, it shows what the next would
            self.app.bell()
            self.highlighted = 0

    def on_click(self, event: events.Click) -> None:
        line = event.y + self.scroll_offset.y
        if 0 <= line < len(self._lines):
            self.highlighted = self._lines[line]
            self.action_pick()
