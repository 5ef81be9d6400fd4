"""Players' names: one rule wherever a name comes in (the New game form, `lagoon play`, an import, later a
remote player), and the cleaning of text that came in before the rule or from a file.

A name is data shown on other people's screens: it may hold letters, digits,
signs, symbols (emoji among them) and single spaces inside, and nothing a
terminal would act on (escape and other control characters), nothing
invisible (zero-width and direction marks) and no line breaks.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

NAME_MAX = 16


def _unshowable(char: str) -> bool:
    """A character a name may not hold: control, format (zero-width, direction), unassigned, or a space
    other than the plain one (tabs, line and paragraph breaks)."""
    category = unicodedata.category(char)
    return category[0] == "C" or (category[0] == "Z" and char != " ")


def _named(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" ({name.lower()})" if name else "")


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name, in a sentence; None if it can (it is expected trimmed)."""
    if not name:
        return "Give this seat a name."
    if len(name) > NAME_MAX:
        return f"A name has at most {NAME_MAX} characters (this one has {len(name)})."
    if name != name.strip():
        return "A name cannot begin or end with a space."
    bad = next((c for c in name if _unshowable(c)), None)
    if bad is not None:
        return f"A name holds letters, digits, signs and spaces only, not the character {_named(bad)}."
    return None


def names_problems(names: Iterable[str]) -> dict[int, str]:
    """The problem of each seat's name, by seat; two names that differ only in capitals are the same name."""
    problems: dict[int, str] = {}
    seen: dict[str, int] = {}
    for seat, name in enumerate(names):
        problem = name_problem(name)
        if problem is None and name.casefold() in seen:
            problem = f"Seat {seen[name.casefold()] + 1} is already called {name}."
        if problem is None:
            seen[name.casefold()] = seat
        else:
            problems[seat] = problem
    return problems


def shown_safely(text: str) -> str:
    """`text` with every character a name may not hold taken out (line breaks kept): for text that came in
    before the rule, or from a file, on its way to a screen or a terminal."""
    return "".join(c for c in text if c == "\n" or not _unshowable(c))
