"""The panels' small words: symbols, phase names, marks of what changed, what a card asks for.

Styles used inside Rich text stick to plain attributes (bold, dim, italic,
reverse) and the player colours of `lagoon_tui.scene`, so the panels read the
same in a 16-colour terminal and in light or dark themes; colour is never the
only thing that tells two things apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rich.text import Text

CUBE = "●"
SPENT = "○"
EMPTY_SLOT = "·"

PHASE_NAMES = {
    "created": "Getting ready",
    "setup": "Setting up",
    "island_selection": "Choosing islands",
    "actions": "Actions",
    "over": "Game over",
}


def join(parts: Iterable[Text | str], sep: str = ", ") -> Text:
    """Texts joined with a separator (an empty Text when there are none)."""
    out = Text()
    for i, part in enumerate(parts):
        if i:
            out.append(sep)
        out.append(part if isinstance(part, Text) else Text(part))
    return out


def label(text: str) -> Text:
    """A field name in a panel ("Money", "Ships here"...)."""
    return Text(text, style="bold")


def muted(text: str) -> Text:
    return Text(text, style="dim")


def needs(resources: Mapping[str, int], artifacts: Mapping[str, int] | None = None) -> str:
    """What a shipment asks for, in words: "2 gold + 1 iron + 1 silver artifact"."""
    parts = [f"{n} {m}" for m, n in resources.items()]
    parts += [f"{n} {m} artifact" if n == 1 else f"{n} {m} artifacts" for m, n in (artifacts or {}).items()]
    return " + ".join(parts) or "nothing"


def deal_needs(requires: Mapping[str, int]) -> str:
    """What a deal asks for: "copper 1'+, iron 3'+" (a higher level also does); the one form at every width."""
    return ", ".join(f"{metal} {level}'+" for metal, level in requires.items())


CHANGED = "*"
"""Marks what changed on the board since the reader's last move (a slot, a card, a score)."""
CHANGED_MARK = Text(f"{CHANGED} ", style="bold")
"""Before a thing that changed (a slot of a mining site, a level of the Enrichment Center)."""


def changed_after(changed: bool, gap: str = " ") -> Text:
    """The mark after a thing (after `gap`), if it changed since the reader's last move (else nothing)."""
    return Text(f"{gap}{CHANGED}", style="bold") if changed else Text()


def gain_mark(gain: int) -> Text:
    """After a number that changed since the reader's last move, by how much: " *+7" (else nothing)."""
    return Text(f" {CHANGED}{gain:+d}", style="bold") if gain else Text()


CHANGED_NOTE = muted(f"{CHANGED} changed since your last move")
