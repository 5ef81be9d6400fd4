"""`python -m lagoon_tui.turbo`, which `make test-next` prints before it runs the app's tests on another
Textual release: each piece of the internals layer, on or off, and why it is off."""

from __future__ import annotations

import os
import subprocess
import sys

from lagoon_tui import turbo


def report(switch: str) -> dict[str, str]:
    result = subprocess.run(
        [sys.executable, "-m", "lagoon_tui.turbo"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, turbo.SWITCH: switch},
    )
    assert result.returncode == 0, result.stderr
    head, *rows = result.stdout.splitlines()
    assert head == f"Textual {turbo.TEXTUAL}; the layer was written for {turbo.WRITTEN_FOR}"
    return dict(row.strip().split(None, 1) for row in rows)


def test_the_report_names_every_piece_and_what_turned_it_off():
    pieces = set(turbo.PIECES + turbo.GUARDS) | {"crash"}
    everything = report("0")
    assert set(everything) == pieces
    written_for_this = turbo.TEXTUAL == turbo.WRITTEN_FOR
    for piece in turbo.PIECES:
        assert everything[piece] == ("on" if written_for_this else f"off: written for Textual {turbo.WRITTEN_FOR}")
    assert everything["crash"] == "on (never switched off)"

    some = report("sizes,keyboard")
    assert some["sizes"] == some["keyboard"] == f"off: switched off by {turbo.SWITCH}"
    assert some["pages"] == everything["pages"] and some["framing"] == everything["framing"]

    stock = report("1")
    assert all(stock[piece] == f"off: switched off by {turbo.SWITCH}" for piece in turbo.PIECES)
    assert stock["keyboard"] == everything["keyboard"], "the switch's 1 leaves the guards as they were"
