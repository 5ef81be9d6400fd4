"""Where the keyboard goes after a change of a game of people at one keyboard, in three words.

For the benchmark that follows the app from outside (bench/tui_bench.py): the
answer is the game screen's own state machine's (`lagoon_tui.keyboard`), so
the two cannot part.
"""

from __future__ import annotations

from rules.seat import Turn

from . import keyboard as kb

OPEN = "open"  # the keyboard goes on to the deciding seat with the board as everyone sees it: no curtain
CURTAIN = "curtain"  # the board is hidden until the deciding seat's player says they alone see the screen
STAY = "stay"  # the seat at the keyboard decides again: the board is redrawn for it


def hand_over(turn: Turn, at_keyboard: int | None, veiled: bool, drawn: bool) -> str:
    """OPEN, CURTAIN or STAY, for the pending decision (`turn`) of a game of people, not over.

    `at_keyboard` is the seat that has the keyboard (None: nobody), `veiled`
    whether it plays on the board as everyone sees it, `drawn` whether the
    board has been drawn for anyone yet.
    """
    if not drawn:
        state = kb.Keyboard()
    elif at_keyboard is None:
        state = kb.Keyboard(kb.COMPUTERS)  # (nobody at it, the board as everyone sees it)
    else:
        state = kb.Keyboard(kb.VEILED if veiled else kb.PERSON, at_keyboard)
    after, do = kb.next_state(state, kb.Change(turn.seat, open=turn.open))
    if do.curtain is not None:
        return CURTAIN
    return OPEN if after.veiled and after != state else STAY
