"""Screens that do no work for nothing when shown again or told the size they have."""
from __future__ import annotations

from textual.events import ScreenResume
from textual.geometry import Size
from textual.widget import Widget


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
    - `paint_now` paints what a key changed before the key's handler returns.
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

    def paint_now(self) -> None:
        """Arrange and paint what a key changed before the key's handler returns.

        Textual does it after a round of messages: each widget that asked for
        a repaint or a new arrangement tells the screen in a message of its
        own once its queue is idle, the screen starts its paint timer, and the
        timer's tick comes back as one more message (about 1.5 ms of a move on
        the board). What they would tell the screen is read here instead (as
        Textual's `Widget._check_refresh` and `Screen._on_layout` read it;
        Textual is pinned), and the screen arranges and paints at once, as its
        timer's tick would. New styles or a scroll go Textual's own way, for
        every widget, so a change is never painted in two halves.
        """
        if not self.is_current or self.app._batch_count or self._scroll_required:
            return
        widgets = list(self.walk_children(Widget))
        if any(w._refresh_styles_required or w._scroll_required for w in widgets) or self not in self._compositor:
            return
        for widget in widgets:
            if widget._layout_required:
                widget._layout_required = False
                for ancestor in widget.ancestors:
                    if not isinstance(ancestor, Widget):
                        break
                    ancestor._clear_arrangement_cache()
                    ancestor._layout_updates += 1
                    if not ancestor.styles.auto_dimensions:
                        break
                self._layout_required = True
            if widget._repaint_required:
                widget._repaint_required = False
                if widget.display:
                    self._dirty_widgets.add(widget)
        self._on_timer_update()
