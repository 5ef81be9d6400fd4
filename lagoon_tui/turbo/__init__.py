"""The one place Lagoon reaches into Textual's private parts, each for a measured gain, each switchable off.

Everything else in `lagoon_tui` uses Textual through its public API. What is
here replaces or steers parts of Textual that are not public (names with a
leading `_`, or behaviour Textual does not promise), because a measured speed
target needed it (docs/performance.md); docs/architecture.md keeps the ledger:
each piece, the internals it touches, what it saves, how to remove it.

The layer is on only for the Textual release it was written against
(`WRITTEN_FOR`, the version pinned in pyproject.toml), its guards (`GUARDS`)
on any release that has what they use, and it can be switched off
with the environment variable LAGOON_STOCK_TEXTUAL=1, or piece by piece
(LAGOON_STOCK_TEXTUAL=compositor,framing); off, a piece falls back to stock
Textual and the game works the same, only slower (`make test` runs the app's
tests a second time with the layer off to prove it). The switch is read as
each piece is imported.

- `compositor`: paint only the widgets under the changed spots (`SpotCompositor`).
- `framing`: frame each line of a widget's content once (`FramedLines`).
- `sizes`: a widget's or container's new virtual size arranges nothing more.
- `screens`: screens arranged only when something changed, and the board arranged under the curtain.
- `restyle` (in `screens.py`): a screen shown again is restyled only after a new theme.
- `strips`: a strip never kept in its own caches, so a line no longer shown is freed at once.
- `title`: the terminal window's title, which Textual has no way to set (not for speed: for a
  player at their own terminal, told by the title that the turn is theirs).
- `crash` (not among `PIECES`, never switched off): a bug ends the app with a sentence and a
  report (`lagoon_tui.crash`) instead of Textual's traceback with the game in its local variables.
- `keyboard` (one of `GUARDS`: the switch's 1 leaves it on, only `LAGOON_STOCK_TEXTUAL=keyboard`
  turns it off): the keyboard read through `terminal_input.InputFilter`, not for speed but so the app
  goes on whatever bytes arrive; off, a byte that is not UTF-8 ends the app and an unended paste
  holds every key. On with any Textual release whose parser it checks and finds as it expects
  (`keyboard.misfit`); otherwise off, with a line on stderr.
- `pages` (one of `GUARDS`): a page key on an option list not laid out yet (a `Select`'s dropdown just
  opened) does nothing; off, it ends the app.
"""

from __future__ import annotations

import os
from pathlib import Path

import textual

WRITTEN_FOR = "8.2.8"
"""The Textual release every piece of the layer was written against and measured with."""

SWITCH = "LAGOON_STOCK_TEXTUAL"
"""1 (or any word but 0): the whole layer off. A list of pieces (`compositor,sizes`): those pieces off."""

PIECES = ("compositor", "framing", "sizes", "screens", "restyle", "title", "strips")
"""The pieces the switch's 1 turns off: the game works the same without them, only slower (or, for the
title, without the window's title)."""

GUARDS = ("keyboard", "pages")
"""Pieces the app needs to be safe, which only their own name in the switch turns off (to tell a bug of
the guard from one of Textual's): `make test`'s pass on stock Textual keeps them on. Another Textual
release does not turn them off either: each checks, as it is imported, that what it uses is there."""


def installed_textual() -> str:
    """The version of the Textual in use.

    `textual.__version__` reads it with importlib.metadata, whose import and
    parse of the package's metadata cost 50 M instructions (2.5 % of the
    game's start). The wheel pip installs names its metadata directory after
    the version, beside the package, so a look for that one directory answers
    first; Textual installed another way is asked the long way.
    """
    if (Path(textual.__file__).parent.parent / f"textual-{WRITTEN_FOR}.dist-info").is_dir():
        return WRITTEN_FOR
    return textual.__version__


TEXTUAL = installed_textual()


def _off(switch: str) -> set[str]:
    """The pieces a value of the switch turns off."""
    words = {word.strip() for word in switch.split(",") if word.strip()}
    if not words or words == {"0"}:
        return set()
    return words if words <= set(PIECES + GUARDS) else set(PIECES)


def switched_off(piece: str) -> bool:
    """Whether the switch (`LAGOON_STOCK_TEXTUAL`) turns `piece` off in this process."""
    return piece in _off(os.environ.get(SWITCH, ""))


def on(piece: str, release: str | None = None) -> bool:
    """Whether `piece` of the layer is in use with Textual `release`, by default the one in use (read once,
    as each piece is imported).

    A guard is on with any release: it checks for itself that the release has what it uses.
    """
    return (piece in GUARDS or (release or TEXTUAL) == WRITTEN_FOR) and not switched_off(piece)


ON = all(on(piece) for piece in PIECES)
"""Whether the whole layer is in use in this process (the tests that measure it need all of it)."""
