"""Screens shown again keep their styles unless the app's styles changed meanwhile."""
from __future__ import annotations

from textual.events import ScreenResume


class StylesKept:
    """Mixin for screens: restyled when shown only if the app's styles changed since it was last styled.

    Textual restyles every widget of a screen each time it is pushed: about
    3 ms whenever the curtain came up, 10 ms of the start for the game screen
    shown first, for widgets styled as they mounted a moment before. What
    changes a screen's styles while it is not shown is a change of the app's
    styles (a new theme), which Textual counts; shown again after one, the
    screen is restyled as before.
    """

    _styled_at: int | None = None  # the app's count of style changes when the screen was last styled

    def _on_screen_resume(self, event: ScreenResume) -> None:
        # (Textual's own handler runs after this one, with the event as this one leaves it.)
        count = self.app._css_update_count
        if self._styled_at in (None, count):  # first shown (styled as it mounted), or nothing changed
            event.refresh_styles = False
        self._styled_at = count
