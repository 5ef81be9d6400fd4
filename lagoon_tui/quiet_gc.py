"""Garbage collection at quiet moments instead of in the middle of a move.

Python's cycle collector runs whenever enough objects have been allocated,
which in this app was every few moves, often while a move was being drawn:
over 80 moves of a game (tests' Pilot, 160x50) it ran 956 times for 1.6 s in
all, the full collections for up to 166 ms each. Once the app has started,
`QuietCollector` freezes what start-up built (modules, decks, the first
screens: never garbage, never walked again), turns the automatic collector
off and collects when nobody waits for the screen: the young objects after
each move is on screen (a few milliseconds), everything behind a curtain
that has been up a moment or after every FULL_EVERY moves. When the app
stops, the collector is turned back on.
"""
from __future__ import annotations

import gc

FULL_EVERY = 25  # moves between full collections when no curtain comes (a player alone at the keyboard)


class QuietCollector:
    def __init__(self) -> None:
        self.active = False
        self.moves = 0

    def start(self) -> None:
        if self.active:
            return
        self.active = True
        gc.freeze()  # (without collecting first: that would keep the first screen waiting)
        gc.disable()

    def stop(self) -> None:
        if not self.active:
            return
        self.active = False
        gc.unfreeze()
        gc.enable()

    def after_move(self) -> None:
        """A move is on screen: collect the young objects, and everything now and then."""
        if not self.active:
            return
        self.moves += 1
        if self.moves >= FULL_EVERY:
            self.full()
        else:
            gc.collect(1)

    def full(self) -> None:
        """A quiet moment for a full collection (a curtain is up)."""
        if not self.active:
            return
        self.moves = 0
        gc.collect()


collector = QuietCollector()
"""The one collector of the process: the app starts and stops it, the screens tell it when it is quiet."""
