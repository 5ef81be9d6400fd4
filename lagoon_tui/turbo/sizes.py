"""A new virtual size (the size of what a widget holds) that arranges nothing more.

Textual arranges the whole screen again whenever any widget's or container's
virtual size changes: when a log line is added, when a prompt gets other
options, and, after every arrangement, once more for each text whose lines
changed, right after the arrangement that set it had placed everything. On
the game screen that was two or three arrangements of the whole screen per
choice, each followed by a paint; in the compact layout the prompt grows and
shrinks with every decision, and the side column and the board with it.

Only one case needs it: a scrolling widget whose own height follows its
content (the compact layout's prompt). A scrolling widget of fixed height only
moves its scrollbar, in the same frame; a widget that does not scroll, or a
container (which Textual gives its scrollbar as it sets the size), has no use
for it. Nor is the widget repainted for it: the arrangement that sets it
repaints the widget anyway, and the widgets that set it themselves (the log,
the options) repaint what changed.

The same goes for a scrollbar whose height changed (`SteadyScrollbar`): a
scrollbar holds nothing to scroll, yet Textual set its virtual size to its
new size after the arrangement that placed it, and arranged the whole
screen once more for it. At 80x24 the board's scrollbar is there on every
page and changes height with the prompt below it: a second arrangement at
most moves.

And what follows a widget's size is set in the arrangement, before its
paint (`fit_to_size`): the options out of sight named on a border, the log
back at its newest line. Textual tells a widget its new size by a Resize
event, handled after the arrangement has painted the screen, so each of
these painted the widget a second time, a frame later (at 160x50 whenever
the prompt grew, at 80x24 whenever the market's page changed height). What
a scrollbar changes as its container is arranged (its thumb) is painted
with the arrangement too.

It redeclares Textual's `virtual_size` reactive without layout or repaint,
and calls the private `Widget._scroll_update` as Textual does when a scroll
needs no new arrangement. For the scrollbar, it makes the container's
vertical scrollbar itself, as Textual's `vertical_scrollbar` does, and sets
the private `_vertical_scrollbar` and calls the private `App._start_widget`.
To fit before the paint, it overrides the private `Widget._size_updated`
(which Textual calls for each widget as it arranges the screen) and
`_scroll_update`, and hands what the widget asked to repaint meanwhile to
the screen's private `_compositor` (`update_widgets`), clearing the
widget's private `_repaint_required` so that it asks no paint of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.geometry import Size
from textual.reactive import Reactive
from textual.scrollbar import ScrollBar
from textual.widget import Widget

from . import on

if TYPE_CHECKING:
    from textual.widget import Widget as _Widget  # what the mixins go with, for the checker
else:
    _Widget = object  # at run time no class but the mixin's own joins a widget's MRO

ON = on("sizes")


class HeldSize(_Widget):
    """Mixin for containers: a new size of what they hold arranges and repaints nothing more.

    (With the layer off, Textual arranges the screen for every new virtual size.)
    """

    def fit_to_size(self) -> None:
        """Set what follows the widget's size (see `SteadyVirtualSize.fit_to_size`)."""

    if ON:
        virtual_size = Reactive(Size(0, 0), layout=False, repaint=False)

        def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
            changed = super()._size_updated(size, virtual_size, container_size, layout)
            if changed:
                _fit_before_paint(self)
            return changed


class SteadyVirtualSize(_Widget):  # (not derived from HeldSize: every class in a widget's MRO costs each message)
    """Mixin for widgets: a new virtual size arranges the screen only for a widget whose height follows it.

    (With the layer off, Textual arranges the screen for every new virtual size.)
    """

    def fit_to_size(self) -> None:
        """Set what follows the widget's size (a border naming what is out of sight, a log at its end).

        A widget that has such things calls it from its `on_resize`; with the
        layer on it is called too as the screen is arranged, before the paint.
        """

    if ON:
        virtual_size = Reactive(Size(0, 0), layout=False, repaint=False)

        def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
            changed = super()._size_updated(size, virtual_size, container_size, layout)
            if changed:
                _fit_before_paint(self)
            return changed

        def watch_virtual_size(self, size: Size) -> None:
            if not self.is_scrollable:
                return
            if self.styles.auto_dimensions:
                self.refresh(layout=True)
            else:
                self._scroll_update(size)
    else:

        def watch_virtual_size(self, size: Size) -> None:
            """(Nothing more to do: a widget may still watch its virtual size and call this first.)"""


class _ScrollBar(ScrollBar):
    """A scrollbar whose new size arranges nothing more (its place was set by the arrangement that resized it)."""

    virtual_size = Reactive(Size(0, 0), layout=False, repaint=False)


class SteadyScrollbar(_Widget):
    """Mixin for scrolling containers: a vertical scrollbar that asks for no arrangement when its height
    changes, nor for a paint of its own after the arrangement that moved or resized it (which painted it).

    (With the layer off, Textual arranges the screen again after every arrangement that resized it, and
    paints the scrollbar once more a moment later.)
    """

    if ON:

        def _scroll_update(self, virtual_size: Size) -> None:
            super()._scroll_update(virtual_size)
            bar = self._vertical_scrollbar
            if bar is not None and bar.display:
                _paint_with_arrangement(bar)

        @property
        def vertical_scrollbar(self) -> ScrollBar:
            bar = self._vertical_scrollbar
            if bar is None:
                bar = _ScrollBar(vertical=True, name="vertical", thickness=self.scrollbar_size_vertical)
                bar.display = False
                self._vertical_scrollbar = bar
                self.app._start_widget(self, bar)
            return bar


def _fit_before_paint(widget: Widget) -> None:
    """In an arrangement of the screen: the widget's size has changed; what follows it is set and painted now."""
    if widget.is_mounted:
        widget.fit_to_size()  # type: ignore[attr-defined]  # (the mixins above give every widget here one)
        _paint_with_arrangement(widget)


def _paint_with_arrangement(widget: Widget) -> None:
    """What `widget` asked to repaint is painted by the arrangement under way, which paints when it ends,
    rather than a frame later (a screen not shown paints nothing then: the widget keeps its request)."""
    screen = widget.screen
    if widget._repaint_required and screen.is_current:
        screen._compositor.update_widgets({widget})
        widget._repaint_required = False
