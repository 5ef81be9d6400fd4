"""SVG snapshots of the screens a player sees, at 80×24 and 160×50.

The stills come from `tests/helpers/stills.py` (fixed seeds, animations and cursor
blinking off). After a deliberate change of looks, review the new pictures and
accept them with `make test PYTEST_ARGS="tests/tui/test_snapshots.py --snapshot-update"`.
"""

from __future__ import annotations

import pytest

from tests.helpers.stills import STILLS

SIZES = [(80, 24), (160, 50)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("still", list(STILLS))
def test_screen_looks_as_accepted(snap_compare, still, size):
    app, steps = STILLS[still]()
    assert snap_compare(app, terminal_size=size, run_before=steps)
