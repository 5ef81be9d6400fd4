"""The one place Lagoon reaches into Textual's private parts, each for a measured gain, each switchable off.

Everything else in `lagoon_tui` uses Textual through its public API. What is
here replaces or steers parts of Textual that are not public (names with a
leading `_`, or behaviour Textual does not promise), because a measured speed
target needed it (docs/performance.md); docs/architecture.md keeps the ledger:
each piece, the internals it touches, what it saves, how to remove it.

The layer is on only for the Textual release it was written against
(`WRITTEN_FOR`, the version pinned in pyproject.toml) and can be switched off
with the environment variable LAGOON_STOCK_TEXTUAL=1; off, every piece falls
back to stock Textual and the game works the same, only slower (`make test`
runs the app's tests a second time with the layer off to prove it). The
switch is read once, when this package is first imported.

- `compositor`: paint only the widgets under the changed spots (`SpotCompositor`).
- `framing`: frame each line of a widget's content once (`FramedLines`).
- `toasts`: a screen's notification rack hidden before it mounts.
- `sizes`: a widget's or container's new virtual size arranges nothing more.
- `screens`: screens arranged only when something changed, and the board arranged under the curtain.
"""
from __future__ import annotations

import os

import textual

WRITTEN_FOR = "8.2.8"
"""The Textual release every piece of the layer was written against and measured with."""

SWITCH = "LAGOON_STOCK_TEXTUAL"
"""Set to 1 (or anything but 0 or empty) to run on stock Textual paths only."""


def _on() -> bool:
    stock = os.environ.get(SWITCH, "").strip() not in ("", "0")
    return not stock and textual.__version__ == WRITTEN_FOR


ON = _on()
"""Whether the layer is in use in this process."""
