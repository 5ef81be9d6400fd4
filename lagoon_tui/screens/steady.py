"""Screens that do no work for nothing when shown again or told the size they have."""
from __future__ import annotations

from textual.events import ScreenResume
from textual.geometry import Size


class SteadyScreen:
    """Mixin for screens: restyled and arranged only when something changed.

    - Shown, a screen is restyled only if the app's styles changed since it
      was last styled. Textual restyles every widget of a screen each time it
      is pushed: about 3 ms whenever the curtain came up, 10 ms of the start
      for the game screen shown first, for widgets styled as they mounted a
      moment before. What changes a screen's styles while it is not shown is
      a change of the app's styles (a new theme), which Textual counts; shown
      again after one, the screen is restyled as before.
    - A Resize to the size the screen has arranges nothing (unless an
      arrangement is waiting anyway). Textual arranges every screen of the
      stack at each Resize event: a start brought three of them, after the
      first curtain, each arranging the curtain and the board under it again.
    """

    _styled_at: int | None = None  # the app's count of style changes when the screen was last styled

    def _on_screen_resume(self, event: ScreenResume) -> None:
        # (Textual's own handler runs after this one, with the event as this one leaves it.)
        count = self.app._css_update_count
        if self._styled_at in (None, count):  # first shown (styled as it mounted), or nothing changed
            event.refresh_styles = False
        self._styled_at = count

    def _screen_resized(self, size: Size) -> None:
        if size != self._size or self._layout_required:
            super()._screen_resized(size)
