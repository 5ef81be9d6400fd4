"""Lines drawn for SVG pictures: runs of text that keep their leading spaces in every SVG renderer."""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

SVG_SPACES = False
"""Set by the test stills (`tests/helpers/stills.py`): draw for SVG pictures (see `detach_spaces`);
terminals never do."""


def svg_safe(strips: list[Strip]) -> list[Strip]:
    """`strips` as they are, or, while pictures are taken, with their spaces detached."""
    return [detach_spaces(strip) for strip in strips] if SVG_SPACES else strips


def detach_spaces(strip: Strip) -> Strip:
    """The strip with the leading spaces of each run of text split off into a run of their own.

    What a terminal shows is unchanged (the spaces only flip their bold bit).
    SVG screenshots draw each run as one <text> at its own column, and some
    SVG renderers (librsvg) drop a run's leading spaces, drawing "Cleo [G] took"
    as "Cleo [G]took" and pulling right-aligned columns to the left; a run that
    starts with a letter is drawn where it belongs.
    """
    out: list[Segment] = []
    changed = False
    for segment in strip:
        text, style, control = segment
        if control or not text.startswith(" ") or not text.strip(" "):
            out.append(segment)
            continue
        n = len(text) - len(text.lstrip(" "))
        base = style or Style()
        out.append(Segment(text[:n], base + Style(bold=not base.bold)))
        out.append(Segment(text[n:], style))
        changed = True
    return Strip(out, strip.cell_length) if changed else strip
