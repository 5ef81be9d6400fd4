"""Which pieces of the internals layer are in use here, and why not where they are off.

    python -m lagoon_tui.turbo

`make test-next` prints this for the newest Textual release before it runs the app's tests there: a
piece written for another release switches itself off, and a guard off there says what it missed.
"""

from __future__ import annotations

import importlib

from . import GUARDS, PIECES, SWITCH, TEXTUAL, WRITTEN_FOR, on, switched_off


def state(piece: str) -> str:
    """`piece` in use, or off and why. A guard is imported, since it checks the release as it is."""
    if switched_off(piece):
        return f"off: switched off by {SWITCH}"
    if piece in GUARDS:
        guard = importlib.import_module(f"{__package__}.{piece}")
        return "on" if guard.ON else f"off: {getattr(guard, 'MISFIT', None) or 'see its module'}"
    return "on" if on(piece) else f"off: written for Textual {WRITTEN_FOR}"


def main() -> None:
    print(f"Textual {TEXTUAL}; the layer was written for {WRITTEN_FOR}")
    for piece in PIECES + GUARDS:
        print(f"  {piece:<11} {state(piece)}")
    print(f"  {'crash':<11} on (never switched off)")


if __name__ == "__main__":
    main()
