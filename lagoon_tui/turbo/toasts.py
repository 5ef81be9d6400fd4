"""Textual's rack of notifications, hidden before it mounts the way Textual hides it later.

Textual gives every screen a rack for its notifications (toasts), hidden by
its default CSS. Each time a screen is shown, Textual sets the rack's display
to what the notifications need, as a style of the rack's own; the first time
that counts as a change, and the whole screen was arranged anew for it: on
the board, 20-30 ms when the first curtain was passed. Hidden so before it
mounts, the rack changes nothing when its screen is first shown.

It reaches Textual's private `ToastRack` and `Screen._extend_compose`.
"""
from __future__ import annotations

from textual.widget import Widget

from . import on

ON = on("toasts")

if ON:
    from textual.widgets._toast import ToastRack

    class QuietToasts:
        """Mixin for screens: the toast rack hidden before it mounts."""

        def _extend_compose(self, widgets: list[Widget]) -> None:
            super()._extend_compose(widgets)
            for widget in widgets:
                if isinstance(widget, ToastRack):
                    widget.display = False
else:
    class QuietToasts:
        """(The layer is off: the rack as Textual makes it.)"""
