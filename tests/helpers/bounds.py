"""How much memory a piece of work took, counted by Python itself (tracemalloc), not by the clock.

The fuzz tests bound each generated file by the memory its reading and playing
takes: a count of allocations does not change with how busy the machine is, so
the bound holds on a noisy machine as on a quiet one. Time is bounded by work
counted in the same way (the decisions a game takes, the events a file may hold).
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def memory_bound(megabytes: int) -> Iterator[None]:
    """Fail if the work in the block ever held more than `megabytes` MB of Python objects at once."""
    tracemalloc.start()
    try:
        yield
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak <= megabytes * 2**20, f"the work held {peak / 2**20:.0f} MB at its peak (bound: {megabytes} MB)"
