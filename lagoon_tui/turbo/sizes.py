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

It redeclares Textual's `virtual_size` reactive without layout or repaint,
and calls the private `Widget._scroll_update` as Textual does when a scroll
needs no new arrangement.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.geometry import Size
from textual.reactive import Reactive

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

    if ON:
        virtual_size = Reactive(Size(0, 0), layout=False, repaint=False)


class SteadyVirtualSize(_Widget):  # (not derived from HeldSize: every class in a widget's MRO costs each message)
    """Mixin for widgets: a new virtual size arranges the screen only for a widget whose height follows it.

    (With the layer off, Textual arranges the screen for every new virtual size.)
    """

    if ON:
        virtual_size = Reactive(Size(0, 0), layout=False, repaint=False)

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
