"""The log of a replay: every sentence of the game, with the one at the replay's position highlighted."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from rules.seat import Line

from ..scene import tagged_line


class ReplayLog(OptionList):
    """Lines are written once; moving through the replay only moves the highlight (and the scroll)."""

    DEFAULT_CSS = """
    ReplayLog { height: 1fr; border: round $panel-lighten-2; border-title-color: $accent; }
    ReplayLog:focus { border: round $accent; }
    """

    def write_lines(self, lines: list[Line], players: list[dict]) -> None:
        self.clear_options()
        self.add_options(Option(self._text(line, players)) for line in lines)
        self.border_title = "Log"

    @staticmethod
    def _text(line: Line, players: list[dict]) -> Text:
        if line.seat is None or not 0 <= line.seat < len(players):
            return Text(line.text, style="bold" if line.text.startswith("Round ") else "")
        return tagged_line(players[line.seat], line.text)  # (the game's log's form: "Ben [Y] mined ...")

    def mark(self, index: int | None) -> None:
        """Highlight line `index` (None: before the first line)."""
        self.highlighted = index
        if index is not None:
            self.scroll_to_highlight(top=False)
