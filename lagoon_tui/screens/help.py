"""Help: the keys that work right now, listed for the screen the player is on.

`bindings_of(screen)` reads Textual's own record of the active bindings, so the
list can never drift from what the keys really do; it keeps only the keys Lagoon
itself declares (Textual's own, such as tab to move the focus or ctrl+c to copy,
mean nothing to a player). Any screen can call `show_help(self)` from an action
bound to `?`.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Label, Static

OURS = __name__.split(".")[0]
"""The package whose classes declare Lagoon's own keys (`lagoon_tui`)."""


def own_actions(node: DOMNode) -> frozenset[str]:
    """The actions `node`'s own classes bind (not those of Textual's classes it is made from)."""
    actions: set[str] = set()
    for cls in type(node).__mro__:
        if cls.__module__.split(".")[0] != OURS:
            continue
        for binding in cls.__dict__.get("BINDINGS", ()):
            actions.add(binding.action if isinstance(binding, Binding) else binding[1])
    return frozenset(actions)


def bindings_of(screen: Screen) -> list[tuple[str, str]]:
    """(keys, description) of every described binding of Lagoon's own active on `screen`.

    Bindings come from the focused widget and its ancestors, the screen and the
    app, in that order (the order in which Textual looks for a key). A widget's
    hidden bindings (an Input's cursor keys, say) are left out; the screen's and
    the app's are all listed. Keys that do the same thing are joined: "n / N".
    Bindings that only Textual's classes declare (tab, ctrl+c to copy) are left out.
    """
    app = screen.app
    entries: dict[tuple[int, str, str], list[str]] = {}
    ours: dict[int, frozenset[str]] = {}
    for node, binding, _enabled, _tooltip in screen.active_bindings.values():
        if not binding.description:
            continue
        if binding.action not in ours.setdefault(id(node), own_actions(node)):
            continue
        if not binding.show and node is not screen and node is not app:
            continue
        display = app.get_key_display(binding)
        keys = entries.setdefault((id(node), binding.action, binding.description), [])
        if display not in keys:
            keys.append(display)
    return [(" / ".join(keys), description) for (_, _, description), keys in entries.items()]


def help_title(screen: Screen) -> str:
    return getattr(screen, "HELP_TITLE", None) or screen.title or screen.app.title or "Keys"


def show_help(screen: Screen, title: str | None = None) -> None:
    """Open the help for `screen` (its bindings are read before the help covers it).

    A screen may add lines for keys its widgets handle without a described
    binding (the arrows in a list, say) as `HELP_EXTRA = [(keys, description)]`.
    """
    keys = list(getattr(screen, "HELP_EXTRA", ())) + bindings_of(screen)
    screen.app.push_screen(HelpScreen(title or help_title(screen), keys))


class HelpScreen(ModalScreen[None]):
    """A table of keys and what they do; Esc, ? or Enter closes it."""

    HELP_TITLE = "Help"
    BINDINGS = [
        # priority: the table would otherwise take Enter for itself
        Binding("escape", "close", "Close", priority=True),
        Binding("question_mark", "close", "Close", key_display="?", priority=True),
        Binding("enter", "close", "Close", priority=True),
    ]

    def __init__(self, title: str, keys: Iterable[tuple[str, str]]) -> None:
        super().__init__()
        self.help_title = title
        self.keys = list(keys)

    def compose(self) -> ComposeResult:
        with Vertical(id="help-dialog", classes="dialog"):
            yield Label(f"Keys — {self.help_title}", classes="dialog-title")
            table: DataTable = DataTable(id="help-keys", cursor_type="row", zebra_stripes=True)
            table.add_column("Key", key="key")
            table.add_column("What it does", key="what")
            for key, description in self.keys:
                table.add_row(key, description)
            if not self.keys:
                table.add_row("—", "No keys here")
            yield table
            yield Static("Esc, ? or Enter closes this list.", classes="hint")

    def action_close(self) -> None:
        self.dismiss(None)
