"""The game log: what happened, newest at the bottom, optionally only the lines about one player."""
from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import RichLog

from ..scene import LogLine, Scene


def _people(scene: Scene) -> list[tuple[str, str]]:
    return [(p["name"], p["colour"]) for p in scene.players]


class LogPanel(RichLog):
    """The scene's log lines; `f` (or `set_filter`) shows only the lines about one player."""

    BINDINGS = [Binding("f", "cycle_filter", "Filter log")]

    class FilterChanged(Message):
        """The log now shows only the lines about `seat` (None: all lines)."""

        def __init__(self, seat: int | None) -> None:
            self.seat = seat
            super().__init__()

    DEFAULT_CSS = """
    LogPanel {
        height: 1fr;
        min-height: 5;
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
        super().__init__(wrap=True, markup=False, highlight=False, auto_scroll=True, min_width=20,
                         name=name, id=id, classes=classes)
        self.scene: Scene | None = None
        self.filter_seat: int | None = None
        self._written: tuple[LogLine, ...] = ()  # the scene log the lines on screen were drawn from
        self._title()

    # --- drawing ---------------------------------------------------------------

    def show(self, scene: Scene) -> None:
        old, new = self._written, scene.log
        # Append only when this is the same reader's log grown longer. A log
        # told to another seat differs in what it hides, so it is redrawn in
        # full: no line written for one seat may stay on screen for another.
        same_reader = (self.scene is not None and self.scene.seat == scene.seat
                       and _people(self.scene) == _people(scene))
        self.scene = scene
        if same_reader and len(new) >= len(old) and new[:len(old)] == old:
            self._write_lines(new[len(old):])
        else:
            self._redraw()
        self._written = new
        self._title()

    def _redraw(self) -> None:
        self.clear()
        if self.scene is not None:
            self._write_lines(self.scene.log)
            self._written = self.scene.log

    def _write_lines(self, lines) -> None:
        texts = [self.line_text(line) for line in lines
                 if self.filter_seat is None or line.seat == self.filter_seat]
        if texts:  # one write for the lot: a whole game's log is drawn in one go
            self.write(Text("\n").join(texts))

    def line_text(self, line: LogLine) -> Text:
        """A log line as shown: lines about a player begin with that player's tag."""
        scene = self.scene
        if line.seat is None or scene is None or not 0 <= line.seat < len(scene.players):
            style = "bold" if line.text.startswith(("Round ", "The game is over")) else "dim"
            return Text(line.text, style=style)
        tag = scene.tag(line.seat)
        name = scene.player(line.seat)["name"]
        if line.text.startswith(name):
            return Text.assemble(tag, line.text[len(name):])
        return Text.assemble(tag, ": ", line.text)

    def _title(self) -> None:
        title = Text("Log · ")
        if self.filter_seat is None or self.scene is None:
            title.append("all players")
        else:
            title.append_text(self.scene.tag(self.filter_seat))
            title.append(" only")
        self.border_title = title
        self.border_subtitle = "f: filter"
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
        self.post_message(self.FilterChanged(nxt))
