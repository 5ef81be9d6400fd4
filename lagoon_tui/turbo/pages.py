"""Page keys on an option list not laid out yet do nothing (Textual's `OptionList` failed, and the app ended).

Textual's `OptionList` pages (PgUp, PgDn) through a map of its lines that
it makes only once the list has a place on screen. A page key that reached
a list before that (the dropdown of a `Select` opened a moment before, a
list still hidden) failed with a `KeyError` and ended the app. The command
palette's list is made safe through the public API (`lagoon_tui.palette`);
the dropdown of a `Select` is built inside Textual's widget, where no public
API reaches, so here Textual's class itself is given page actions that first
ask whether the list has a place on screen, and do nothing if not.

A guard (`turbo.GUARDS`): on with any Textual release (the two actions it
wraps are public), unless `LAGOON_STOCK_TEXTUAL` names `pages`.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.widgets import OptionList

from . import on

ON = on("pages")

Page = Callable[[OptionList], None]


def once_laid_out(page: Page) -> Page:
    """`page`, done only when the list has a place on screen (and so the lines it pages through)."""

    def action(self: OptionList) -> None:
        if self.scrollable_content_region:
            page(self)

    action.__doc__ = page.__doc__
    action.laid_out_first = True  # type: ignore[attr-defined]  # (a mark on the function: guarded once)
    return action


def guard_pages() -> None:
    """Give Textual's `OptionList` the page actions that wait for its lines (once; nothing if the piece is off)."""
    if ON and not getattr(OptionList.action_page_down, "laid_out_first", False):
        OptionList.action_page_up = once_laid_out(OptionList.action_page_up)  # type: ignore[method-assign]  # (the guard)
        OptionList.action_page_down = once_laid_out(OptionList.action_page_down)  # type: ignore[method-assign]  # (the guard)
