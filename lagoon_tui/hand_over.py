"""Where the keyboard goes after a change of the game, at one keyboard shared by the players.

One rule, read by the game screen (which then draws) and by the benchmark that
follows the app from outside (bench/tui_bench.py), so the two cannot part.
"""

from __future__ import annotations

from rules.seat import Turn

OPEN = "open"  # the keyboard goes on to the deciding seat with the board as everyone sees it: no curtain
CURTAIN = "curtain"  # the board is hidden until the deciding seat's player says they alone see the screen
STAY = "stay"  # the seat at the keyboard decides again: the board is redrawn for it


def hand_over(turn: Turn, at_keyboard: int | None, veiled: bool, drawn: bool) -> str:
    """OPEN, CURTAIN or STAY, for the pending decision (`turn`) of a game not over.

    `at_keyboard` is the seat that has the keyboard (None behind a curtain),
    `veiled` whether it plays on the board as everyone sees it, `drawn`
    whether the board has been drawn for anyone yet (a new screen's first
    hand-over is a curtain, open decision or not). A decision anyone may
    watch (choosing an island) needs no curtain; the player's own cards stay
    hidden until they ask for them. Any other decision of another seat, or of
    a veiled seat, needs one.
    """
    seat, open_ = turn.seat, turn.open
    if seat is None:
        return STAY
    if seat != at_keyboard and open_ and drawn:
        return OPEN
    if seat != at_keyboard or (veiled and not open_):
        return CURTAIN
    return STAY
