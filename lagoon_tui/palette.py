"""The command palette (ctrl+p), made safe for keys that come faster than it draws.

Textual's own `CommandPalette` failed on keys mashed at it, and the app ended:

- PgUp or PgDn straight after ctrl+p paged the list through its line map,
  which is made only once the list is laid out on screen (`KeyError`).
  Here a page key does nothing until the list has a place on screen.
- A palette closed before it had opened (ctrl+p, then a move that hands the
  keyboard over, which closes every window above the game) started its
  search anyway, among widgets already gone (`NoMatches`). Here it does not.
- Two Enters on a command each closed the palette (the second closed the
  screen under it, the game, and then the last screen: `ScreenStackError`)
  and each ran the command. Here what the palette's input and list say
  once the palette has closed (an Enter, a letter typed, a command picked)
  is dropped, before Textual's own handlers see it.

Everything else is Textual's palette as it is, through its public API
(`check_action`, `Message.prevent_default`); the app opens it in
`LagoonApp.action_command_palette`.
"""

from __future__ import annotations

from textual import on
from textual.command import CommandList, CommandPalette
from textual.events import Mount
from textual.message import Message
from textual.widgets import Button, Input, OptionList

PAGES = ("page_up", "page_down")
"""The list's actions that need its lines laid out (Textual's bindings: `command_list('page_up')`...)."""


class Palette(CommandPalette):
    """Textual's palette, with its page keys waiting for its list to be drawn, and deaf once closed."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "command_list" and parameters and parameters[0] in PAGES:
            # (not laid out yet, or hidden: the list has no lines to page through)
            return any(commands.scrollable_content_region for commands in self.query(CommandList))
        return super().check_action(action, parameters)

    @on(Input.Changed)
    @on(Input.Submitted)
    @on(Button.Pressed)
    @on(OptionList.OptionSelected)
    def drop_once_closed(self, message: Message) -> None:
        """Once closed (no longer the screen on top), the palette neither searches, closes again nor runs a command."""
        if not self.is_active:
            message.prevent_default()  # (Textual's handlers are the base class's: they are skipped)
            message.stop()

    def on_mount(self, event: Mount) -> None:
        """A palette closed before it opened (ctrl+p, then a screen that closes those above the game) stays shut."""
        if self not in self.app.screen_stack:
            event.prevent_default()  # (Textual's own would start a search among widgets already gone)
