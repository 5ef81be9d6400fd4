"""The game log: what happened, newest at the bottom, optionally only the lines about one player."""

from __future__ import annotations

from collections.abc import Iterable

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widgets import RichLog

from rules.seat import Line

from ..scene import Scene, tagged_line
from .note import SteadyLayout
from .svg import svg_safe


def _people(scene: Scene) -> list[tuple[str, str]]:
    return [(p["name"], p["colour"]) for p in scene.players]


class LogPanel(SteadyLayout, RichLog):
    """The scene's log lines; `f` (or `set_filter`) shows only the lines about one player.

    Its first lines say who the computers are ("Cleo [G] is a computer (Hard).",
    `Scene.computers_legend`), once: the log's sentences stay as short as a
    person's, and the boards' titles mark the computers all game long.

    `action_cycle_filter` is the one place the filter moves on: the `f` key
    here and the game screen's `f` both call it.
    """

    BINDINGS = [Binding("f", "cycle_filter", "Filter log")]

    DEFAULT_CSS = """
    LogPanel {
        height: 1fr;
        min-height: 5;
        overflow-y: hidden;
        padding: 0 1;
        background: $surface;
        border: round $panel-lighten-2;
        border-title-color: $accent;
        border-title-style: bold;
        border-subtitle-color: $text-muted;
    }
    LogPanel:focus {
        border: round $accent;
    }
    LogPanel.-filtered {
        border: round $warning;
    }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(
            wrap=True, markup=False, highlight=False, auto_scroll=True, min_width=20, name=name, id=id, classes=classes
        )
        self.scene: Scene | None = None
        self.filter_seat: int | None = None
        self._written: tuple[Line, ...] = ()  # the scene log the lines on screen were drawn from
        self._shown: list[Line] = []  # the lines the log shows (those the filter lets through), in order
        self._laid = 0  # how many of them `lines` holds
        self._laid_out: dict[tuple[Line, int], list[Strip]] = {}
        self._wrapped_at = 0  # the width `lines` are wrapped at (0: none yet)
        self._line_style: Style | None = None  # the log's colours (see `rich_style`)
        self._title()

    def on_mount(self) -> None:
        # Anchored, the log stays on its newest line whatever happens to its
        # height (the prompt above it grows and shrinks with every decision),
        # until the reader scrolls up; scrolling back down re-anchors it.
        self.anchor()

    # --- drawing ---------------------------------------------------------------

    def show(self, scene: Scene) -> None:
        old, new = self._written, scene.log
        # Append only when this is the same reader's log grown longer. A log
        # told to another seat differs in what it hides, so it is redrawn in
        # full: no line written for one seat may stay on screen for another.
        same_reader = (
            self.scene is not None
            and self.scene.seat == scene.seat
            and _people(self.scene) == _people(scene)
            and self.scene.computers == scene.computers  # (the legend at the top names them)
        )
        self.scene = scene
        if same_reader and len(new) >= len(old) and new[: len(old)] == old:
            self._add(new[len(old) :])
        else:
            self._redraw()
        self._written = new
        self._title()

    def _redraw(self) -> None:
        self.clear()
        self._shown, self._laid = [], 0
        if self.scene is not None:
            self._add(self.scene.computers_legend() + self.scene.log)
            self._written = self.scene.log

    def _add(self, lines: Iterable[Line]) -> None:
        self._shown.extend(line for line in lines if self.filter_seat is None or line.seat == self.filter_seat)
        self._lay_out()

    def _lay_out(self) -> None:
        """Bring `lines` up to date with the lines shown, wrapped at the width the log has on screen.

        A log off screen (another page of the compact layout, or not yet
        arranged) has no width: its new lines are wrapped at the width it last
        had, so that `lines` always holds all it shows, and every line is
        wrapped again at the width it has when it is painted (`render_lines`)
        or resized. A line written while the log was hidden is never shown
        wrapped to another width than the log's.
        """
        width = self.scrollable_content_region.width or self._wrapped_at or self.min_width
        if width != self._wrapped_at:
            self.clear()  # every line wrapped again
            self._laid, self._wrapped_at = 0, width
        if self._laid == len(self._shown):
            return
        for line in self._shown[self._laid :]:
            self.lines.extend(self._strips(line, width))
        self._laid = len(self._shown)
        self.virtual_size = Size(width, len(self.lines))
        self.scroll_end(animate=False, immediate=True, x_axis=False)

    def _strips(self, line: Line, width: int) -> list[Strip]:
        """One log line wrapped to `width`, laid out once for the whole game.

        Most lines read the same for every seat, so when the keyboard changes
        hands and the log is written anew for the next reader, almost every
        line comes from here instead of being laid out again.
        """
        key = (line, width)
        strips = self._laid_out.get(key)
        if strips is None:
            console = self.app.console
            segments = console.render(self.line_text(line), console.options.update_width(width))
            strips = [Strip(part).adjust_cell_length(width) for part in Segment.split_lines(segments)]
            self._laid_out[key] = strips
        return strips

    def on_resize(self, event: events.Resize) -> None:
        # (RichLog's own on_resize runs too: Textual calls each class's handler)
        self.fit_to_size()

    def fit_to_size(self) -> None:
        self._lay_out()
        # The log changes height with the prompt above it: it goes back to its
        # newest line, where the news is.
        self.anchor()

    def line_text(self, line: Line) -> Text:
        """A log line as shown: lines about a player begin with that player's tag."""
        scene = self.scene
        if line.seat is None or scene is None or not 0 <= line.seat < len(scene.players):
            style = "bold" if line.text.startswith(("Round ", "The game is over")) else "dim"
            return Text(line.text, style=style)
        return tagged_line(scene.player(line.seat), line.text)

    def render_lines(self, crop: Region) -> list[Strip]:
        self._lay_out()  # shown again (a page of the compact layout) at another width than it was written at
        return svg_safe(super().render_lines(crop))

    @property
    def rich_style(self) -> Style:
        """The log's own colours, worked out once per change of style.

        (Textual works a widget's colours out from every ancestor's styles each
        time they are asked for, and its log asks for them at every line it
        draws, twice for a line it has not drawn before; a new line scrolls
        the whole log, every line.)
        """
        if self._line_style is None:
            self._line_style = super().rich_style
        return self._line_style

    def notify_style_update(self) -> None:
        self._line_style = None
        super().notify_style_update()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._subtitle()

    def _subtitle(self) -> None:
        """Where the reader is: the log has no scrollbar (it would be painted a frame late at every line).

        It says how many lines are below the window when scrolled up.
        """
        below = round(self.max_scroll_y - self.scroll_y)
        self.set_border_subtitle(f"↓ {below} newer · f: filter" if below > 0 else "f: filter")

    def _title(self) -> None:
        title = Text("Log · ")
        if self.filter_seat is None or self.scene is None:
            title.append("all players")
        else:
            title.append_text(self.scene.tag(self.filter_seat))
            title.append(" only")
        self.set_border_title(title)
        self._subtitle()
        self.set_class(self.filter_seat is not None, "-filtered")

    # --- filtering -------------------------------------------------------------

    def set_filter(self, seat: int | None) -> None:
        """Show only the lines about `seat` (None: every line)."""
        self.filter_seat = seat
        self._redraw()
        self._title()

    def action_cycle_filter(self) -> None:
        """All → first player → ... → last player → All."""
        players = len(self.scene.players) if self.scene is not None else 0
        if self.filter_seat is None:
            nxt = 0 if players else None
        else:
            nxt = self.filter_seat + 1 if self.filter_seat + 1 < players else None
        self.set_filter(nxt)
