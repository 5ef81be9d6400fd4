"""A text field that holds at most its length: what is typed or pasted past it is dropped as it comes.

Textual's `Input` takes a `max_length`, and refuses a key that would pass it
(with a bell) and a paste that would pass it, whole. A field here keeps what
fits of a paste instead, so a name pasted a little long is kept to its
length, and a paste of megabytes costs one slice. The lengths of the app's
fields are here, each with its reason.

A field also does its editing keys (backspace, the arrows, Enter…) in their
place among the characters typed. Textual's `Input` inserts a character as
its key event comes, but acts on an editing key through its bindings, once
the key has bubbled up, after the keys that came in the same read: over SSH,
where keys typed quickly often arrive together, three backspaces, "Ben" and
Enter read at once after "ana" made "anaBen", then deleted three characters
and sent "ana".
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.binding import Binding
from textual.widgets import Input, Static

from rules.host import NAME_SHOWN, SEED_MAX

NAME_FIELD = NAME_SHOWN
"""A name as typed: room for one in decomposed form (its normal form is what counts, at most NAME_MAX); a
longer one up to here is refused with a sentence saying how long it is."""
SEED_FIELD = len(str(SEED_MAX)) + 2  # (the largest seed, and spaces around it, which are stripped)
CODE_FIELD = 12  # a room's code is 6 letters (a private room's 10): room for spaces around it
ROUND_FIELD = 4  # a round number


EDITING = {binding.key: binding.action for binding in Binding.make_bindings(Input.BINDINGS)}
"""What each editing key of a text field does (`Input`'s own bindings, one key each)."""


class Field(Input):
    """An `Input` of at most `max_length` characters (required); see the module's docstring."""

    def __init__(self, value: str = "", *, max_length: int, **kwargs: Any) -> None:
        super().__init__(value, max_length=max_length, **kwargs)

    def replace(self, text: str, start: int, end: int) -> None:
        most = self.max_length
        if most and len(text) > 1:  # a paste: what fits (one key past the length is refused as Textual does)
            start, end = sorted((max(0, start), min(len(self.value), end)))
            text = text[: max(0, most - len(self.value) + (end - start))]
        super().replace(text, start, end)

    async def on_key(self, event: events.Key) -> None:
        """An editing key acts now, before the keys read after it (see the module's docstring)."""
        action = EDITING.get(event.key)
        if action is not None:
            event.stop()
            event.prevent_default()
            await self.run_action(action)


def show_problem(widget: Static, problem: str) -> None:
    """A form's problem under its field ("" hides it)."""
    widget.update(problem)
    widget.set_class(bool(problem), "-shown")
