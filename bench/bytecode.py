"""The game's modules compiled to bytecode before a bench starts the app, as they are for a player.

An installed wheel's modules come compiled (as Textual's do here), and `make play` compiles an
editable install's. Where PYTHONDONTWRITEBYTECODE is set, as on this machine, Python would
otherwise compile every module of `rules` and `lagoon_tui` afresh at each start of the app:
about a fifth of its start-up instructions (2,538 M against 2,110 M in
bench/tui_instructions.py, 2026-11-24).
"""

from __future__ import annotations

import compileall
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def compile_game() -> None:
    for package in ("rules", "lagoon_tui"):
        compileall.compile_dir(ROOT / package, quiet=1)
