"""A fast mouse on a real terminal: `lagoon play` in a tmux pane, sent mouse reports faster than anyone types.

Mouse reports are the terminal's, not typing: however many come, a key sent
after them is a key (terminal_input.InputFilter counts only what is typed).
tmux's `paste-buffer` without `-p` writes the bytes to the pane's terminal at
once, as a terminal sends them; nothing here asserts on how long anything took.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lagoon_tui.turbo import keyboard
from rules import load_content
from tests.helpers.hostile import SEED, first_prompt, quits_saved
from tests.helpers.terminal import CURTAIN, LAGOON, OPTION_1, Tmux, opening

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
    pytest.mark.skipif(not LAGOON.exists(), reason=f"the lagoon command is not installed at {LAGOON}"),
    pytest.mark.skipif(keyboard.SWITCHED_OFF, reason="the keyboard piece of lagoon_tui.turbo is switched off here"),
]


def test_a_key_after_a_burst_of_mouse_moves_is_taken(pane: Tmux, db: Path, tmp_path: Path) -> None:  # noqa: F811
    assert keyboard.ON, f"the keyboard guard is off: {keyboard.MISFIT}"
    name, prompt = opening(load_content(), SEED).decisions[1]
    first_prompt(pane)
    # 4,000 reports of a mouse moving over the whole window (about 50,000 characters), then the key 1
    moves = "".join(f"\x1b[<35;{n % 80 + 1};{n // 80 % 24 + 1}M" for n in range(4000))
    burst = tmp_path / "burst.txt"
    burst.write_text(moves + "1", encoding="ascii")
    pane.run("load-buffer", "-b", "burst", str(burst))
    pane.run("paste-buffer", "-d", "-b", "burst", "-t", pane.target)  # without -p: no paste markers
    pane.wait_for(
        lambda t: f"{CURTAIN} {name}" in t or (prompt in t and bool(OPTION_1.search(t))),
        "the next decision (1 took the first option)",
    )
    quits_saved(pane, db)
