"""Players' names, and text from files on its way to a terminal.

Names: one rule wherever a name comes in (the New game form, `lagoon play`,
an import, a remote player). A name is data shown on other people's screens:
it may hold letters, digits, signs, symbols (emoji among them) and single
spaces inside, and nothing a terminal would act on (escape and other control
characters), nothing invisible (zero-width and direction marks, fillers, the
blank braille pattern) and no line breaks; at least one of its characters
shows. A name is first put in its normal form (`normal_name`: NFC, trimmed,
one space between words), then checked, then saved. Two names that look the
same are one name (`name_key`: capitals, and look-alike characters as
Unicode's UTS #39 defines them, see `rules.confusables`).

Text from a deck, an import or the save file is data too: `printable` is the
one way it reaches a terminal or a screen, every character that could act or
hide written as a visible escape and the whole cut to a stated length.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from .confusables import default_ignorable, skeleton

NAME_MAX = 16

NAME_SHOWN = 2 * NAME_MAX
"""The most characters of a name read from a file that a list shows (a name saved before names were
checked may be longer than `NAME_MAX`)."""

LINE_SHOWN = 500
"""The most characters of one sentence or problem holding text from a file that a command prints."""

ELLIPSIS = "…"


def _unshowable(char: str) -> bool:
    """A character a terminal may act on or that shows as nothing: control, format (zero-width, direction),
    private or unassigned, or a space other than the plain one (tabs, line and paragraph breaks)."""
    category = unicodedata.category(char)
    return category[0] == "C" or (category[0] == "Z" and char != " ")


def _blank(char: str) -> bool:
    """A character that is a letter or a symbol to Unicode but is drawn as empty space: the Hangul fillers
    and the blank braille pattern."""
    return char == "\u2800" or (default_ignorable(char) and unicodedata.category(char)[0] in "LNPS")


def _visible(char: str) -> bool:
    """A character that shows on its own: a letter, digit, sign or symbol that is not blank (not a space,
    a combining mark or a variation selector, which only change the character before them)."""
    return unicodedata.category(char)[0] in "LNPS" and not _blank(char)


def _named(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" ({name.lower()})" if name else "")


def normal_name(name: str) -> str:
    """`name` as it is checked and saved: composed (Unicode NFC), without spaces at its ends, one space
    between words (so "José" is one name however it was typed, and "A  B" is "A B")."""
    return re.sub(" {2,}", " ", unicodedata.normalize("NFC", name).strip())


def name_key(name: str) -> str:
    """What two names that look the same have in common: equal for names that differ only in capitals,
    in how they were typed (NFC or not, spaces) or by look-alike characters (Cyrillic "Вen" and "Ben")."""
    return skeleton(skeleton(normal_name(name)).casefold())


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name, in a sentence; None if it can. A name is expected in its
    normal form (`normal_name`): one that is not (from a file) is refused, saying why."""
    if not name:
        return "Give this seat a name."
    if len(name) > NAME_MAX:
        return f"A name has at most {NAME_MAX} characters (this one has {len(name)})."
    if name != name.strip():
        return "A name cannot begin or end with a space."
    bad = next((c for c in name if _unshowable(c) or _blank(c)), None)
    if bad is not None:
        return f"A name holds letters, digits, signs and spaces only, not the character {_named(bad)}."
    if not any(_visible(c) for c in name):
        return "A name needs a letter, digit or sign that shows, not only accents or marks."
    if "  " in name:
        return "A name has one space between words, not two."
    if name != unicodedata.normalize("NFC", name):
        return "A name is written in composed form (Unicode NFC): an accented letter as one character."
    return None


def names_problems(names: Iterable[str]) -> dict[int, str]:
    """The problem of each seat's name, by seat; two names that look the same (`name_key`) are one name."""
    problems: dict[int, str] = {}
    seen: dict[str, tuple[int, str]] = {}
    for seat, name in enumerate(names):
        problem = name_problem(name)
        if problem is None:
            key = name_key(name)
            if key in seen:
                first, other = seen[key]
                problem = f"Seat {first + 1} is already called {other}" + (
                    "." if other == name else f", too like {name} to tell apart."
                )
            else:
                seen[key] = (seat, name)
        if problem is not None:
            problems[seat] = problem
    return problems


def shown_safely(text: str) -> str:
    """`text` with every character a name may not hold taken out (line breaks kept): the cleaning of a name
    or a deck's text inside a game (a name saved before the rule); for printing text, see `printable`."""
    return "".join(c for c in text if c == "\n" or not _unshowable(c))


def _escape(char: str) -> str:
    """`char` as it may be printed: itself, or, if a terminal could act on it or it would not show, the
    escape TOML and JSON write it with (\\u001B, \\U000E0001)."""
    if not _unshowable(char):
        return char
    point = ord(char)
    return f"\\u{point:04X}" if point <= 0xFFFF else f"\\U{point:08X}"


def printable(text: str, most: int = LINE_SHOWN) -> str:
    """`text` from a file (a deck, an import, the save file) made safe to print, for a terminal or a screen.

    Every control, format (zero-width, direction), private, unassigned or
    separator character but the plain space is written as its escape, in
    TOML's way (ESC is \\u001B, a right-to-left override \\u202E, a line
    break \\u000A), so nothing in it can move the cursor, clear the screen,
    set a title, reverse what follows or hide, and a deck's author sees
    where such a character is. The result has at most `most` characters
    (`most` ≥ 1): a longer text is cut, never inside an escape, and ends
    with "…". Nothing else changes: markup such as "[/]" stays text for the
    caller to show as text (Rich's `Text`, `markup=False`).
    """
    if len(text) <= most and not any(_unshowable(c) for c in text):
        return text
    shown: list[str] = []
    length = 0
    for char in text[: most + 1]:  # (each character is at least one character shown)
        piece = _escape(char)
        shown.append(piece)
        length += len(piece)
        if length > most:
            break
    if length <= most:
        return "".join(shown)
    while shown and length > most - len(ELLIPSIS):
        length -= len(shown.pop())
    return "".join(shown) + ELLIPSIS
