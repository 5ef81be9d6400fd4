"""Garbage collection at quiet moments instead of in the middle of a move.

Python's cycle collector runs whenever enough objects have been allocated,
which in this app was every few moves, often while a move was being drawn:
over 80 moves of a game (tests' Pilot, 160x50) it ran 956 times for 1.6 s in
all, the full collections for up to 166 ms each. From the moment the app
mounts (a full collection took 25 ms in the middle of the first frame),
`QuietCollector` turns the automatic collector off; once the first frame is
up it freezes what start-up built (modules, decks, the first screens: never
garbage, never walked again). It collects when nobody waits for the screen:
the young objects once a move is on screen, every YOUNG_EVERY moves (a few
milliseconds), everything behind a curtain that has been up a moment or after
every FULL_EVERY moves. When the app stops, the collector is turned back on.
"""

from __future__ import annotations

import gc

YOUNG_EVERY = 8
"""Moves between collections of the young objects (those made since the last collection).

A collection walks every young object still alive, and moves those it keeps to the old ones,
walked again only by a full collection. Many of a move's objects live until the next move (its
message, the lines it replaced): collected after each move, each was walked before it went.
Over 150 moves of a 4-player room at 160x50 (a seat's app in Textual's Pilot, `gc.callbacks`
timing every collection) the collections took 97 ms in all after every move, 45-60 ms every 8 moves
(two runs), 50 ms every 16; the garbage they find, a dozen objects a move, waits that much longer."""

FULL_EVERY = 250
"""Moves between full collections when no curtain comes (a player alone at the keyboard, a served seat).

Few are needed: a move leaves almost no garbage only a full collection finds
(Textual's strips did, until `lagoon_tui.turbo.strips`), and each walks every
object the game holds, 20-30 ms at 160x50 in a 4-player game."""


class QuietCollector:
    def __init__(self) -> None:
        self.active = False
        self.moves = 0

    def start(self) -> None:
        """From now on collections come only when the app says it is quiet (the app starts it as it mounts)."""
        if self.active:
            return
        self.active = True
        gc.disable()
        self.freeze()

    def freeze(self) -> None:
        """What exists now is never garbage: it is never walked again (the app freezes once its first frame is up).

        Frozen without a collection first, which would keep the first frame waiting.
        """
        if self.active:
            gc.freeze()

    def stop(self) -> None:
        if not self.active:
            return
        self.active = False
        gc.unfreeze()
        gc.enable()

    def after_move(self) -> None:
        """A move is on screen: collect the young objects now and then, and everything more seldom."""
        if not self.active:
            return
        self.moves += 1
        if self.moves >= FULL_EVERY:
            self.full()
        elif self.moves % YOUNG_EVERY == 0:
            gc.collect(1)

    def full(self) -> None:
        """A quiet moment for a full collection (a curtain is up)."""
        if not self.active:
            return
        self.moves = 0
        gc.collect()


collector = QuietCollector()
"""The one collector of the process: the app starts and stops it, the screens tell it when it is quiet."""
