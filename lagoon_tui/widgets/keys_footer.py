"""The Footer of every screen: its keys and what they do, on one line."""

from __future__ import annotations

from typing import NamedTuple

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Footer

from .svg import svg_safe

FIRST = ("quit", "help", "rules")
"""The actions whose keys lead the footer, in this order: how to quit, the keys, the rules (a
narrow terminal cuts the line at its right end, and these are what a newcomer looks for)."""


KEPT = 8
"""Lines of keys a footer keeps drawn (see `KeysLine.render_line`)."""


def _first(action: str) -> int:
    """Where a key of `action` stands among the keys that lead the footer (after them: len(FIRST))."""
    name = action.rpartition(".")[2]  # ("app.quit": the app's own)
    return FIRST.index(name) if name in FIRST else len(FIRST)


class Key(NamedTuple):
    """One key as the footer shows it."""

    key: str  # what `simulate_key` presses when it is clicked
    display: str
    description: str
    enabled: bool


class KeysLine(Widget):
    """The keys, drawn as one line of text in the footer's colours; a click presses the key under it."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"keys-line--key", "keys-line--description"}
    DEFAULT_CSS = """
    KeysLine { width: 1fr; height: 1; text-wrap: nowrap; text-overflow: clip;
               background: $footer-item-background; }
    KeysLine > .keys-line--key { color: $footer-key-foreground; background: $footer-key-background;
                                 text-style: bold; }
    KeysLine > .keys-line--description { color: $footer-description-foreground;
                                         background: $footer-description-background; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.keys: tuple[Key, ...] = ()
        self.palette: Key | None = None
        self.compact = False
        self._spans: list[tuple[int, int, str]] = []  # x from, x to, key
        self._drawn: dict[tuple, tuple[Strip, list[tuple[int, int, str]]]] = {}  # lines drawn lately, and spans

    def show(self, keys: tuple[Key, ...], palette: Key | None, compact: bool) -> None:
        """Redraw, only when the keys changed (a redraw of an equal line would still cost a paint)."""
        if (keys, palette, compact) != (self.keys, self.palette, self.compact):
            self.keys, self.palette, self.compact = keys, palette, compact
            self.refresh()

    def render(self) -> Text:
        """The keys spaced out; closer together (Textual's compact footer) when they would not fit so."""
        line, spans = self._line(self.compact)
        if not self.compact and line.cell_len > self.size.width:
            line, spans = self._line(True)
        self._spans = spans
        return line

    def render_line(self, y: int) -> Strip:
        """The line, laid out through Rich once for each set of keys, width and colours, the last few kept (a
        player's own moves go between two sets, esc coming and going). Through Textual's own path, a Text made
        into its content and lines, one line of keys cost 1.3 ms to paint: a sixth of the paint of a player's
        own moves, at a third of which the keys change."""
        width, style = self.size.width, self.visual_style.rich_style
        colours = [self.get_component_rich_style(f"keys-line--{part}") for part in ("key", "description")]
        drawn_from = (self.keys, self.palette, self.compact, width, style, *colours)
        drawn = self._drawn.get(drawn_from)
        if drawn is None:
            console = self.app.console
            segments = Segment.apply_style(console.render(self.render(), console.options.update(width=width)), style)
            lines = Segment.split_and_crop_lines(segments, width, style, include_new_lines=False)
            if len(self._drawn) >= KEPT:
                self._drawn.clear()
            drawn = self._drawn[drawn_from] = (
                Strip(next(iter(lines), []), width).adjust_cell_length(width, style),
                self._spans,
            )
        self._spans = drawn[1]
        return drawn[0] if y == 0 else Strip.blank(width, style)

    def _line(self, compact: bool) -> tuple[Text, list[tuple[int, int, str]]]:
        key_style = self.get_component_rich_style("keys-line--key")
        description_style = self.get_component_rich_style("keys-line--description")
        line = Text(no_wrap=True, overflow="crop")
        spans = []

        def add(key: Key) -> None:
            start = line.cell_len
            dim = Style(dim=not key.enabled)
            if compact:  # "key what "
                line.append(key.display, key_style + dim)
                line.append(f" {key.description} " if key.description else " ", description_style + dim)
            else:  # " key what "
                line.append(f" {key.display} ", key_style + dim)
                if key.description:
                    line.append(f"{key.description} ", description_style + dim)
            spans.append((start, line.cell_len, key.key))

        for key in self.keys:
            add(key)
        if self.palette is not None:  # at the right end, when there is room for it
            tail = f" {self.palette.display} {self.palette.description} "
            room = self.size.width - line.cell_len - len(tail) - 1
            if room >= 1:
                line.append(" " * room)
                line.append("▏", "dim")
                add(self.palette)
        return line, spans

    def render_lines(self, crop: Region) -> list[Strip]:
        return svg_safe(super().render_lines(crop))

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._spans:
            if start <= event.x < end:
                self.app.simulate_key(key)
                return


class KeysFooter(Footer):
    """Textual's Footer, with one line of text in place of one widget per key.

    Textual's Footer builds and styles a widget for every key each time the
    keys might have changed (a screen coming back, a change of focus): in this
    game that was the largest cost of starting up and of each hand-over. This
    one keeps the Footer's place and colours and the same keys, grouped the same
    way, and redraws only when what it shows changed.
    """

    def compose(self) -> ComposeResult:
        yield KeysLine()

    def bindings_changed(self, screen: Screen) -> None:
        if self.is_attached and screen is self.screen and not self._keys_due:
            # once for a burst of changes (a screen coming back sends several), before the next paint
            self._keys_due = True
            self.call_next(self.show_keys)

    def on_mount(self) -> None:
        super().on_mount()
        self.show_keys()

    def watch_compact(self) -> None:
        self.show_keys()

    _keys_due = False

    def show_keys(self) -> None:
        """The keys of the screen as they are now (a screen whose keys just changed may call it at once)."""
        self._keys_due = False
        if not self.is_attached:
            return
        app, active = self.app, self.screen.active_bindings
        keys: dict[str, Key] = {}  # one per action, as the Footer does
        for _node, binding, enabled, _tooltip in active.values():
            if binding.show and binding.action not in keys:
                keys[binding.action] = Key(binding.key, app.get_key_display(binding), binding.description, enabled)
        palette = None
        if self.show_command_palette and app.ENABLE_COMMAND_PALETTE and app.COMMAND_PALETTE_BINDING in active:
            _node, binding, enabled, _tooltip = active[app.COMMAND_PALETTE_BINDING]
            palette = Key(binding.key, app.get_key_display(binding), binding.description, enabled)
            keys.pop(binding.action, None)
        ordered = sorted(keys.items(), key=lambda item: _first(item[0]))  # (a stable sort: the rest as they were)
        self.query_one(KeysLine).show(tuple(key for _action, key in ordered), palette, self.compact)
