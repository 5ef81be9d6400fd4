"""Players away on vacation: `Vacations`, kept in the save file (`Store.vacations`).

A player may go away for a number of whole days: the clocks of all their
games stop until they come back (`lagoon_tui.serve.days`). They have
ALLOWANCE days a calendar year (UTC); the days are counted when they go,
and coming back early gives back the whole days not yet begun. A vacation
that reaches its end ends by itself. Times are wall-clock seconds (the
lobby's `wall`), so that a vacation outlives a restart of the server.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from rules.host import Store, StoreError

from . import faults

ALLOWANCE = 21
"""Days of vacation a player may take each calendar year: three weeks, as a long holiday or a few short trips."""
DAY = 86400.0


def year_of(when: float) -> int:
    return time.gmtime(when).tm_year


def date_words(when: float) -> str:
    """A moment as players read it: "Thu 3 Dec, 14:00 UTC"."""
    moment = time.gmtime(when)
    return f"{time.strftime('%a', moment)} {moment.tm_mday} {time.strftime('%b, %H:%M', moment)} UTC"


@dataclass
class Vacation:
    until: float | None = None  # away until then (None: not away)
    year: int = 0  # the year `used` counts
    used: int = 0  # days taken in `year`


class Vacations:
    def __init__(self, store: Store, wall: Callable[[], float]) -> None:
        self.store = store
        self.wall = wall
        self.kept: dict[str, Vacation] = {}
        for key, until, year, used in store.vacations():
            if isinstance(key, str) and isinstance(year, int) and isinstance(used, int):
                self.kept[key] = Vacation(until if isinstance(until, (int, float)) else None, year, used)

    def until(self, key: str | None) -> float | None:
        """When the player with `key` comes back, if they are away now."""
        held = self.kept.get(key) if key is not None else None
        return held.until if held is not None and held.until is not None and held.until > self.wall() else None

    def days_left(self, key: str) -> int:
        """The days of vacation the player may still take this year."""
        held = self.kept.get(key)
        return ALLOWANCE - (held.used if held is not None and held.year == year_of(self.wall()) else 0)

    def go(self, key: str, days: object) -> float:
        """The player goes away for `days` whole days: when they come back (ValueError, in words, if they may
        not). Saved before it counts (StoreError: nothing changed)."""
        if self.until(key) is not None:
            raise ValueError("You are on vacation already: come back first.")
        left = self.days_left(key)
        if not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= left:
            raise ValueError(
                f"You have {left} days of vacation left this year." if left < 1 else f"Give 1 to {left} days."
            )
        now = self.wall()
        year = year_of(now)
        used = ALLOWANCE - left + days
        self.store.save_vacation(key, now + days * DAY, year, used)
        self.kept[key] = Vacation(now + days * DAY, year, used)
        return now + days * DAY

    def back(self, key: str) -> None:
        """The player comes back before their vacation ends: the whole days not begun are theirs again."""
        held = self.kept.get(key)
        if held is None or held.until is None:
            return
        unused = max(0, math.floor((held.until - self.wall()) / DAY))
        used = max(0, held.used - unused) if held.year == year_of(self.wall()) else held.used
        self.store.save_vacation(key, None, held.year, used)
        self.kept[key] = Vacation(None, held.year, used)

    def ended(self) -> list[str]:
        """The players whose vacation has reached its end (each said once: it is over from now on, even if
        the save file refuses to say so: then the console does, and a restart ends it again)."""
        now = self.wall()
        over = [key for key, held in self.kept.items() if held.until is not None and held.until <= now]
        for key in over:
            held = self.kept[key]
            held.until = None
            try:
                self.store.save_vacation(key, None, held.year, held.used)
            except StoreError as error:
                faults.noted(f"player {key}, the end of their vacation", f"not saved: {error}")
        return over

    def next_end(self) -> float | None:
        ends = [held.until for held in self.kept.values() if held.until is not None]
        return min(ends) if ends else None
