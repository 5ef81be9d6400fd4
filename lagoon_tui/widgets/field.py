"""A text field that holds at most its length: what is typed or pasted past it is dropped as it comes.

Textual's `Input` takes a `max_length`, and refuses a key that would pass it
(with a bell) and a paste that would pass it, whole. A field here keeps what
fits of a paste instead, so a name pasted a little long is kept to its
length, and a paste of megabytes costs one slice. The lengths of the app's
fields are here, each with its reason.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.binding import Binding
from textual.widgets import Input

from rules.host import NAME_SHOWN, SEED_MAX

NAME_FIELD = NAME_SHOWN
"""A name as typed: room for one in decomposed form (its normal form is what counts, at most NAME_MAX); a
longer one up to here is refused with a sentence saying how long it is."""
SEED_FIELD = len(str(SEED_MAX)) + 2  # (the largest seed, and spaces around it, which are stripped)
CODE_FIELD = 12  # a room's code is 6 letters: room for spaces, or a code mistyped twice over
ROUND_FIELD = 4  # a round number


def _own_keys() -> dict[str, str]:
    """The keys `Input` has bindings for (backspace, the arrows, Enter ...), each with its action."""
    return {
        key: binding.action
        for binding in Input.BINDINGS
        if isinstance(binding, Binding)
        for key in binding.key.split(",")
    }


OWN_KEYS = _own_keys()


class Field(Input):
    """An `Input` of at most `max_length` characters (required); see the module's docstring.

    Its own keys are acted on as they come, in order with the letters. Textual inserts a letter where the
    key reaches the field, but a key bound to an action (backspace) goes back up to the app to find its
    binding: keys that come in one read (typed fast over a slow link, or sent at once by a program, such
    as "x", backspace, "y") would be taken in another order ("y" before the backspace: "x" is left)."""

    async def on_key(self, event: events.Key) -> None:
        action = OWN_KEYS.get(event.key)
        if action is not None and not event.is_printable:
            event.stop()
            event.prevent_default()
            await self.run_action(action)

    def __init__(self, value: str = "", *, max_length: int, **kwargs: Any) -> None:
        super().__init__(value, max_length=max_length, **kwargs)

    def replace(self, text: str, start: int, end: int) -> None:
        most = self.max_length
        if most and len(text) > 1:  # a paste: what fits (one key past the length is refused as Textual does)
            start, end = sorted((max(0, start), min(len(self.value), end)))
            text = text[: max(0, most - len(self.value) + (end - start))]
        super().replace(text, start, end)
