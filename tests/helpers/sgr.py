"""Reading the SGR sequences (colours and attributes) in `tmux capture-pane -e` output.

tmux keeps each cell's colour the way the app sent it: a 16-colour code
(30–37, 90–97 and their backgrounds), a 256-colour index (38;5;N) or an RGB
value (38;2;R;G;B), and capture-pane -e prints it back in that form. So the
kinds of colour in a capture tell which colour depth the app chose.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

SGR = re.compile(r"\x1b\[([0-9;:]*)m")
BASIC = set(range(30, 38)) | set(range(40, 48)) | set(range(90, 98)) | set(range(100, 108)) | {39, 49}
"""Codes of the 16 colours (and of the default colours) in the foreground and the background."""

Colour = tuple[int, ...]
"""A foreground as the codes that set it: (31,), (38, 5, 197), (38, 2, 244, 0, 95); () is the default."""


def colours(params: str) -> Iterator[tuple[str, Colour]]:
    """The colours set by one SGR sequence's parameters, in order, as ("basic" | "256" | "rgb", codes).

    A reset (0, or no parameter at all) comes out as ("reset", (0,)).
    """
    codes = [int(code) if code else 0 for code in re.split(r"[;:]", params)]
    i = 0
    while i < len(codes):
        code = codes[i]
        if code in (38, 48) and i + 1 < len(codes):
            size = 3 if codes[i + 1] == 5 else 5 if codes[i + 1] == 2 else 2
            yield ("256" if codes[i + 1] == 5 else "rgb"), tuple(codes[i : i + size])
            i += size
            continue
        if code == 0:
            yield "reset", (0,)
        elif code in BASIC:
            yield "basic", (code,)
        i += 1


def kinds(screen: str) -> dict[str, set[Colour]]:
    """Every colour a capture uses, by kind."""
    found: dict[str, set[Colour]] = {"basic": set(), "256": set(), "rgb": set()}
    for match in SGR.finditer(screen):
        for kind, codes in colours(match[1]):
            if kind in found:
                found[kind].add(codes)
    return found


def foregrounds(screen: str) -> Iterator[tuple[str, Colour]]:
    """Each printed character of a capture with the foreground it was drawn in (newlines as default)."""
    fg: Colour = ()
    position = 0
    for match in SGR.finditer(screen + "\x1b[0m"):
        for char in screen[position : match.start()]:
            yield char, fg
            if char == "\n":
                fg = ()  # capture-pane starts every line from the default attributes
        position = match.end()
        for kind, codes in colours(match[1]):
            if kind == "reset" or codes == (39,):
                fg = ()
            elif codes[0] == 38 or 30 <= codes[0] <= 37 or 90 <= codes[0] <= 97:
                fg = codes


def colour_of(screen: str, words: str) -> set[Colour]:
    """The foregrounds that every occurrence of `words` in the capture is drawn in (each character counted)."""
    cells = list(foregrounds(screen))
    text = "".join(char for char, _ in cells)
    found: set[Colour] = set()
    for match in re.finditer(re.escape(words), text):
        found.update(fg for _, fg in cells[match.start() : match.end()])
    return found
