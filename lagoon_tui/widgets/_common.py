"""Small pieces shared by the board panels: the panel base class and text helpers.

Everything here reads only a `Scene` (its plain `view` and the content); no
panel ever asks the engine anything. Styles used inside Rich text stick to
plain attributes (bold, dim, italic, reverse) and the player colours of
`lagoon_tui.scene`, so the panels read the same in a 16-colour terminal and
in light or dark themes; colour is never the only thing that tells two
things apart.
"""
from __future__ import annotations

from typing import Iterable, Mapping

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text
from textual.widgets import Static

from ..scene import Scene

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


class Flow:
    """Short texts laid out left to right, wrapping between items rather than inside them.

    "Merchants 3 free of 4   Miners 2 free of 2" stays one line when there is
    room and becomes two whole lines when there is not.
    """

    def __init__(self, items: Iterable[Text | str], sep: str = "   "):
        self.items = [i if isinstance(i, Text) else Text(i) for i in items]
        self.sep = sep

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


class Spread:
    """`left` and `right` on one line, `right` pushed to the right edge.

    When both do not fit, `left` takes its own (wrapped) lines and `right`
    follows, right-aligned, on the next: nothing is cut off at any width.
    """

    def __init__(self, left: Text | str, right: Text | str):
        self.left = left if isinstance(left, Text) else Text(left)
        self.right = right if isinstance(right, Text) else Text(right)

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


class Panel(Static):
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

    def set_titles(self, *titles: str) -> None:
        """Border titles from longest to shortest: the longest that fits the panel's width is shown."""
        self._titles = titles
        self._fit_title()

    def on_resize(self) -> None:
        self._fit_title()

    def _fit_title(self) -> None:
        if not self._titles:
            return
        room = self.outer_size.width - 6  # corners, the line before the title, spaces
        fits = [t for t in self._titles if len(t) <= room] if room > 0 else []
        self.border_title = fits[0] if fits else self._titles[0 if room <= 0 else -1]

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
