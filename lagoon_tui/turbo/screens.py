"""Screens restyled and arranged only when something changed, and the board arranged and rendered under the curtain.

- A screen shown again is restyled only if the app's theme changed since it
  was last styled. Textual restyles every widget of a screen each time it is
  shown (its `ScreenResume` event says `refresh_styles`): the curtain at every
  hand-over, the board each time the curtain goes, the game screen at the
  start, for widgets styled as they mounted a moment before. What changes a
  hidden screen's styles is a new theme; shown again after one, the screen is
  restyled as Textual would. (It uses public names only, but steers Textual
  away from work it chose to do, so it lives here.)
- A Resize to the size a screen has arranges nothing (unless an arrangement
  is waiting anyway). Textual arranges every screen of the stack at each
  Resize event: a start brought three of them, after the first curtain, each
  arranging the curtain and the board under it again.
- The game screen under the curtain is not current (Textual counts the
  screen under any other as shown, and paints it), nor before its board has
  been drawn for anyone: the board drawn behind a curtain is painted once,
  when the curtain goes, and the empty board of a new screen never.
- While the curtain is up, the board drawn for the next player is arranged
  and every widget's lines rendered (`arrange_unseen`), so that passing the
  curtain only puts the lines together and writes them. Textual would arrange
  the screen first when the curtain goes, then paint it twice: once for the
  new arrangement and once because the screen came back. A whole arrangement
  leaves none to do (Textual kept asking for one more at the next paint), and
  a panel that asks for its arrangement after the board was arranged under the
  curtain is arranged there too.
- The screen's paint timer is started at mount: its first tick would come a
  whole frame (1/60 s) after the screen's first paint, and the first curtain
  of a game went 17-20 ms before its board came.

It sets the public `ScreenResume.refresh_styles`; it overrides the private
`Screen._screen_resized`, `_refresh_layout` and `_on_layout`, reads `_size`,
`_layout_required` and `_layout_widgets`, and resumes the private `_update_timer`.
Weighed in issue 33 and kept: it saves few instructions a move, but a hand-over and a choice that
raises the curtain wait less with it (the figures are in the ledger of docs/architecture.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import events, messages
from textual.errors import NoWidget
from textual.geometry import Region, Size
from textual.widget import Widget

from . import on

if TYPE_CHECKING:
    from textual.screen import Screen

    _Screen = Screen[Any]  # what the mixins go with, for the checker
else:
    _Screen = object  # at run time no class but the mixin's own joins a screen's MRO

ON = on("screens")
RESTYLE = on("restyle")


class SteadyStyles(_Screen):
    """Mixin for screens: restyled when shown only after a new theme.

    (With this piece off, Textual restyles a screen each time it is shown.)
    """

    if RESTYLE:
        _styled_for: tuple[str, bool | None] | None = None  # the theme last styled in (None: never shown yet)

        def on_screen_resume(self, event: events.ScreenResume) -> None:
            # (Textual's own handler, in Screen, runs after this one with the event as this one leaves it;
            # a screen's own on_screen_resume runs before this one, as its class comes first)
            theme = (self.app.theme, self.app.ansi_color)
            if self._styled_for in (None, theme):  # first shown (styled as it mounted), or nothing changed
                event.refresh_styles = False
            self._styled_for = theme


class SteadyScreen(SteadyStyles):
    """Mixin for screens: restyled when shown only after a new theme; a Resize to its size arranges nothing.

    (With this piece off, Textual arranges a screen at every Resize.)
    """

    if ON:

        def _screen_resized(self, size: Size) -> None:
            if size != self._size or self._layout_required:
                super()._screen_resized(size)


class UnseenArrangement(SteadyScreen):
    """Mixin for the game screen: its board arranged and rendered while a screen hides it.

    The screen says with `board_drawn` whether its board has been drawn for
    anyone yet, and with `covered` whether another screen hides it all.
    (With this piece off, the board is arranged and painted when the curtain
    goes, as Textual does, and Textual starts the paint timer at the first paint.)
    """

    @property
    def board_drawn(self) -> bool:
        return False

    @property
    def covered(self) -> bool:
        return False

    if ON:

        @property
        def is_current(self) -> bool:
            return self.board_drawn and not self.covered and super().is_current

        def start_paint_timer(self) -> None:
            """Paint ticks from now on, the first at once when a paint is due."""
            self._update_timer.resume()

        def arrange_unseen(self) -> None:
            """Arrange the screen for its new board and render every widget's lines, while it is not shown."""
            if self.is_current or not self.board_drawn:
                return
            if self._layout_required:
                self._refresh_layout()
                self._layout_required = False
            for widget in self.walk_children(Widget):
                try:
                    if widget.display and widget.region:
                        widget.render_lines(Region(0, 0, *widget.outer_size))
                except NoWidget:  # not on the screen (a page of the compact layout not shown)
                    pass

        def _refresh_layout(self, size: Size | None = None, scroll: bool = False) -> None:
            whole = not scroll or bool(self._layout_widgets)
            super()._refresh_layout(size, scroll)
            if whole:
                self._layout_required = False

        async def _on_layout(self, message: messages.Layout) -> None:
            wanted = self._layout_required
            await super()._on_layout(message)
            if self._layout_required and not wanted and not self.is_current and self.board_drawn:
                self.call_after_refresh(self.arrange_unseen)
    else:

        def start_paint_timer(self) -> None:
            """(Textual starts the timer at the first paint.)"""

        def arrange_unseen(self) -> None:
            """(Textual arranges the board when it is shown.)"""
