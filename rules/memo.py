"""Work derived from content, done once per content object.

Content objects (the board, cards, tiles) are immutable, so anything worked out
from one alone never changes. The engine's hot paths keep such results here
instead of recomputing them at every decision. Objects are kept by identity
(not equality), so content edited for a test (`dataclasses.replace`) gets its
own entry, and each cached object is held so its id cannot be reused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def once_per_object(build: Callable[[K], V]) -> Callable[[K], V]:
    """`build(obj)` computed the first time for each object, then remembered."""
    cache: dict[int, tuple[K, V]] = {}
    last: tuple[K, V] | None = None  # the object asked for last time and its result: nearly always the one

    def get(obj: K) -> V:
        nonlocal last
        if last is not None and last[0] is obj:
            return last[1]
        hit = cache.get(id(obj))
        if hit is None or hit[0] is not obj:
            hit = cache[id(obj)] = (obj, build(obj))
        last = hit
        return hit[1]

    get.__doc__ = build.__doc__
    get.__name__ = build.__name__
    return get
