"""Players' names, and text from files on its way to a terminal.

Names: one rule wherever a name comes in (the New game form, `lagoon play`,
an import, a remote player). A name is data shown on other people's screens:
it may hold letters, digits, signs, symbols (emoji among them) and single
spaces inside, and nothing a terminal would act on (escape and other control
characters), nothing invisible (zero-width and direction marks, fillers, the
blank braille pattern, variation selectors but the one that draws a symbol
as a picture, an accent with no letter under it), no line breaks and at most
`MARKS_MOST` marks on one letter; so its first character shows. A name is first
put in its normal form (`normal_name`: NFC, trimmed, one space between words),
then checked, then saved. Two names that look the
same are one name (`name_key`: capitals, and look-alike characters as
Unicode's UTS #39 defines them, see `rules.confusables`).

Text from a deck, an import or the save file is data too, and one test
(`_hidden`) says which of its characters may be shown as they are: not a
character a terminal acts on (control, format: zero-width and direction
marks), not one that shows as nothing (separators but the plain space,
fillers, the blank braille pattern, every default-ignorable character,
variation selectors but U+FE0E/U+FE0F right after a symbol, a combining mark
with no character to sit on). From that one test come `printable`, the one
way such text reaches a terminal or a screen (each hidden character written
as a visible escape, the whole cut to a stated length), `showable` (whether
a text has nothing to escape: a deck's text, which may hold line breaks) and
the name rule's refusal. `shown_safely` drops what `printable` would escape,
for a name that is not printed as data but used as a name: a player's name in
the game's state read from a save made before names were checked (an escape
would become part of the name on every screen), and the New game form's list
of seats, which shows a name as it is being typed (the field's problem names
the character).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator

from .confusables import default_ignorable, skeleton

NAME_MAX = 16

NAME_SHOWN = 2 * NAME_MAX
"""The most characters of a name read from a file that a list shows (a name saved before names were
checked may be longer than `NAME_MAX`)."""

LINE_SHOWN = 500
"""The most characters of one sentence or problem holding text from a file that a command prints."""

ELLIPSIS = "…"

MARKS_MOST = 3
"""The most combining marks one character of a name carries: enough for a Vietnamese or Devanagari
letter with its vowel and tone, not for marks stacked over the lines above and below ("Zalgo")."""


_PRESENTATION = "\ufe0e\ufe0f"
"""The two variation selectors that pick how a symbol is drawn, as text or as a picture ("\u2764\ufe0f")."""


def computer_words(level: str) -> str:
    """How a seat a computer plays is told apart wherever its name shows: "computer, Hard" (the level
    as a word), written after the name ("Cleo [G] (computer, Hard)", "Cleo [G] · computer, Hard")."""
    return f"computer, {level_word(level)}"


def level_word(level: str) -> str:
    """A computer's level as players read it: "Hard"."""
    return level.capitalize()


def _hidden(char: str, after: str | None) -> bool:
    """Whether `char` may not be shown as itself: a terminal may act on it or it shows as nothing. `after` is
    the character before it if that one is shown as itself (None at the start, after a line break or after
    a hidden character).

    Hidden: control, format (zero-width, direction), private and unassigned characters and surrogates; every
    separator but the plain space (tabs, line and paragraph breaks, other spaces); the blank braille pattern
    and every default-ignorable character (Hangul fillers, the combining grapheme joiner, variation
    selectors), but for U+FE0E and U+FE0F right after a symbol, where the pair is one picture; a combining
    mark with no character shown before it to sit on."""
    if " " <= char <= "~":
        return False
    category = unicodedata.category(char)
    if category[0] == "C" or (category[0] == "Z" and char != " "):
        return True
    if char in _PRESENTATION:
        return after is None or unicodedata.category(after) != "So"
    if char == "\u2800" or default_ignorable(char):
        return True
    return category[0] == "M" and after is None


def _showing(text: str, lines: bool = False) -> Iterator[tuple[str, bool]]:
    """Each character of `text`, and whether it is shown as itself (`_hidden`); with `lines`, a line break
    is shown (as the start of a new line)."""
    before: str | None = None
    for char in text:
        if lines and char == "\n":
            yield char, True
            before = None
        else:
            shown = not _hidden(char, before)
            yield char, shown
            before = char if shown else None


def _named(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" ({name.lower()})" if name else "")


def _most_marks(name: str) -> int:
    """The most combining marks in a row in `name` (the marks one character carries)."""
    most = run = 0
    for char in name:
        run = run + 1 if unicodedata.category(char)[0] == "M" else 0
        most = max(most, run)
    return most


def normal_name(name: str) -> str:
    """`name` as it is checked and saved: composed (Unicode NFC), without spaces at its ends, one space
    between words (so "José" is one name however it was typed, and "A  B" is "A B")."""
    return re.sub(" {2,}", " ", unicodedata.normalize("NFC", name).strip())


def name_key(name: str) -> str:
    """What two names that look the same have in common: equal for names that differ only in capitals,
    in how they were typed (NFC or not, spaces), by look-alike characters (Cyrillic "Вen" and "Ben"), or
    by spaces and punctuation ("A n a", "Ana.", "Ana_" and "'Ana'" read as Ana in a sentence or a list).
    A name of punctuation alone keeps it: "?!" and "!?" are two names."""
    key = skeleton(skeleton(normal_name(name)).casefold())
    bare = "".join(c for c in key if unicodedata.category(c)[0] not in "PZ")
    return bare or key


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name, in a sentence; None if it can. A name is expected in its
    normal form (`normal_name`): one that is not (from a file) is refused, saying why."""
    if not name:
        return "Give this seat a name."
    if _most_marks(name) > MARKS_MOST and unicodedata.category(name[0])[0] != "M":  # (before the length:
        return f"A name has at most {MARKS_MOST} marks on one letter."  # a letter under 30 marks looks like one)
    if len(name) > NAME_MAX:
        return f"A name has at most {NAME_MAX} characters (this one has {len(name)})."
    if name != name.strip():
        return "A name cannot begin or end with a space."
    at, bad = next(((i, c) for i, (c, shown) in enumerate(_showing(name)) if not shown), (0, ""))
    if bad and at == 0 and unicodedata.category(bad)[0] == "M" and not default_ignorable(bad):
        return f"A name begins with a letter, digit or sign that shows, not the mark {_named(bad)}."
    if bad:
        return f"A name holds letters, digits, signs and spaces only, not the character {_named(bad)}."
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


def showable(text: str, lines: bool = False) -> bool:
    """Whether every character of `text` shows as itself (`printable` would leave it as it is, but for its
    length); with `lines`, line breaks are allowed (a deck's text)."""
    return all(shown for _, shown in _showing(text, lines))


def shown_safely(text: str) -> str:
    """`text` without the characters `printable` would escape (what is left, `printable` leaves as it is): for
    a name used as a name, not printed as data (a player's name in the game's state read from a save made
    before names were checked, the New game form's list of seats); to print text, use `printable`."""
    return "".join(char for char, shown in _showing(text) if shown)


def _escape(char: str) -> str:
    """`char` written as TOML and JSON write it (\\u001B, \\U000E0001)."""
    point = ord(char)
    return f"\\u{point:04X}" if point <= 0xFFFF else f"\\U{point:08X}"


def printable(text: str, most: int = LINE_SHOWN) -> str:
    """`text` from a file (a deck, an import, the save file) made safe to print, for a terminal or a screen.

    Every character a terminal acts on or that shows as nothing (`_hidden`:
    control, format, zero-width and direction marks, separators but the
    plain space, fillers, variation selectors, a combining mark with nothing
    to sit on) is written as its escape, in TOML's way (ESC is \\u001B, a
    right-to-left override \\u202E, a line break \\u000A, a Hangul filler
    \\u3164), so nothing in it can move the cursor, clear the screen, set a
    title, reverse what follows or hide, and a deck's author sees where such
    a character is. The result has at most `most` characters (`most` ≥ 1):
    a longer text is cut, never inside an escape, and ends with "…". Nothing
    else changes: markup such as "[/]" stays text for the caller to show as
    text (Rich's `Text`, `markup=False`).
    """
    if len(text) <= most and showable(text):
        return text
    shown: list[str] = []
    length = 0
    for char, as_itself in _showing(text[: most + 1]):  # (each character is at least one character shown)
        piece = char if as_itself else _escape(char)
        shown.append(piece)
        length += len(piece)
        if length > most:
            break
    if length <= most:
        return "".join(shown)
    while shown and length > most - len(ELLIPSIS):
        length -= len(shown.pop())
    return "".join(shown) + ELLIPSIS
