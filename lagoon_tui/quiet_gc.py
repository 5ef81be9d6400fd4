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
every FULL_EVERY moves. Keys that make no move (a lobby, the keys list or the
rules opened and closed, a replay stepped) collect too, once enough objects
have been made since the last collection (YOUNG_MOST): without them a session
kept in its lobby grew without end (300 openings of the keys list: 209 MB, a
million objects nobody held). When the app stops, the collector is turned back on.
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


YOUNG_MOST = 20_000
"""Objects made (less those freed) since the last collection past which a key asks for one (`after_key`).

Opening and closing the keys list makes some 3,000 objects that hold each other and nothing else
holds; a move's own collections (`after_move`) come first in a game."""

FULL_AFTER = 50
"""Collections asked for by keys between two full collections (what they kept is walked again then)."""


class QuietCollector:
    def __init__(self) -> None:
        self.active = False
        self.moves = 0
        self.asked = False  # a key asked for a collection that has not come yet
        self.young_since_full = 0  # collections asked for by keys since the last full one

    def start(self) -> None:
        """From now on collections come only when the app says it is quiet (the app starts it as it mounts)."""
        if self.active:
            return
        self.active = True
        self.asked, self.young_since_full = False, 0  # (a collection asked for by an app that stopped never came)
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
        self.moves = self.young_since_full = 0
        gc.collect()

    def after_key(self) -> bool:
        """A key was handled: whether a collection is due (YOUNG_MOST); if so, the app calls `after_keys` once
        the key's answer is on screen."""
        if not self.active or self.asked or gc.get_count()[0] < YOUNG_MOST:
            return False
        self.asked = True
        return True

    def after_keys(self) -> None:
        """The collection keys asked for: the young objects, and every FULL_AFTER times everything."""
        self.asked = False
        if not self.active:
            return
        self.young_since_full += 1
        if self.young_since_full >= FULL_AFTER:
            self.full()
        else:
            gc.collect(1)


collector = QuietCollector()
"""The one collector of the process: the app starts and stops it, the screens tell it when it is quiet."""
