"""Which pieces of the internals layer are in use here, and why not where they are off.

    python -m lagoon_tui.turbo

`make test-next` prints this for the newest Textual release before it runs the app's tests there: a
piece written for another release switches itself off, and a guard off there says what it missed.
"""

from __future__ import annotations

from . import GUARDS, PIECES, SWITCH, TEXTUAL, WRITTEN_FOR, keyboard, on, switched_off


def state(piece: str) -> str:
    """`piece` in use, or off and why."""
    if switched_off(piece):
        return f"off: switched off by {SWITCH}"
    if piece == "keyboard" and not keyboard.ON:
        # the one guard that checks, as it is imported, that the release has what it uses
        return f"off: {keyboard.MISFIT or 'not on this system'}"
    return "on" if on(piece) else f"off: written for Textual {WRITTEN_FOR}"


def main() -> None:
    print(f"Textual {TEXTUAL}; the layer was written for {WRITTEN_FOR}")
    for piece in PIECES + GUARDS:
        print(f"  {piece:<11} {state(piece)}")
    print(f"  {'crash':<11} on (never switched off)")


if __name__ == "__main__":
    main()
