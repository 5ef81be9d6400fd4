"""The terminal window's title, for a player at their own terminal: "Lagoon · Your turn".

Textual writes nothing to the terminal but its frames, and offers no way to
set the window's title; its own `App.bell` writes the bell character through
the app's private driver, and this writes the title's escape sequence (OSC 2)
the same way, so it goes out in order with the frames. Off (with the layer,
or `LAGOON_STOCK_TEXTUAL=title`), the title is left as it is; the bell, which
is public, still rings.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from textual.app import App

from . import on

ON = on("title")

_titles: WeakKeyDictionary[App, str] = WeakKeyDictionary()  # each app's window title as last written


def set_title(app: App, title: str) -> None:
    """The window's title (control characters left out: a title is text, never an escape); written only when
    it changes (a served game's title is set again at each lobby the server sends)."""
    if not ON or app.is_headless or app._driver is None:
        return
    shown = "".join(char for char in title if char.isprintable())
    if _titles.get(app) != shown:
        _titles[app] = shown
        app._driver.write(f"\x1b]2;{shown}\x07")
