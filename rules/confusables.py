"""Strings that look alike: the skeleton of Unicode's Technical Standard #39 (Unicode Security Mechanisms).

Two strings are confusable when their skeletons are equal (UTS #39, section 4):
the skeleton of a string is its decomposed form (NFD) without its
default-ignorable characters, each character replaced by the prototype it
looks like, decomposed again. "Вen" with a Cyrillic В and "Ben" have one
skeleton; so have "José" typed as one character or as "e" and an accent.

The prototypes are Unicode's own data, `confusables.txt` of UTS #39 version
17.0.0, shipped unchanged beside this module (`CONFUSABLES_FILE`) and read
the first time a skeleton is asked for. No package on PyPI fitted: the two
there (confusable-homoglyphs 3.3.1, confusables 1.2.0) compute no skeleton
and carry data of Unicode 13 or older. To move to a newer version of the
standard, replace the file and `DEFAULT_IGNORABLE` below with that version's
(the test of this module checks the version the file names).
"""

from __future__ import annotations

import unicodedata
from functools import cache
from pathlib import Path

CONFUSABLES_FILE = Path(__file__).with_name("confusables.txt")

DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""The code points with Unicode's property Default_Ignorable_Code_Point (DerivedCoreProperties.txt of
Unicode 17.0.0), as inclusive ranges: characters a renderer shows as nothing where it does not know them."""


def default_ignorable(char: str) -> bool:
    """Whether `char` is a default-ignorable code point (zero-width, direction and variation marks, fillers)."""
    point = ord(char)
    return any(low <= point <= high for low, high in DEFAULT_IGNORABLE)


def _code_points(field: str) -> str:
    return "".join(chr(int(point, 16)) for point in field.split())


@cache
def prototypes() -> dict[str, str]:
    """Each character of the data file mapped to the string of characters it looks like."""
    table: dict[str, str] = {}
    for line in CONFUSABLES_FILE.read_text(encoding="utf-8-sig").splitlines():
        data = line.split("#", 1)[0].strip()
        if data:
            source, target, _kind = (field.strip() for field in data.split(";"))
            table[_code_points(source)] = _code_points(target)
    return table


def data_version() -> str:
    """The version of UTS #39 whose data the shipped file holds (its "# Version:" line)."""
    with CONFUSABLES_FILE.open(encoding="utf-8-sig") as lines:
        for line in lines:
            if line.startswith("# Version:"):
                return line.split(":", 1)[1].strip()
    return ""


def skeleton(text: str) -> str:
    """The skeleton of `text` (UTS #39, section 4): equal for any two strings that look alike."""
    table = prototypes()
    kept = (char for char in unicodedata.normalize("NFD", text) if not default_ignorable(char))
    return unicodedata.normalize("NFD", "".join(table.get(char, char) for char in kept))
