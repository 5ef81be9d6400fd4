"""A locale that is not UTF-8 (issue 17, point 8): the game runs in UTF-8 anyway, and the commands print
their "≥" and their players' names instead of failing on them.

Under LC_ALL=C with Python's UTF-8 mode and locale coercion off, Python
writes ASCII; under ISO-8859-1, Latin-1: either failed at the first box line,
cube or "≥". The app is run in a real terminal (tmux) as in test_tmux.py.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.terminal import CURTAIN, LAGOON, Tmux, clean_env, lagoon_play

REPO = Path(__file__).resolve().parents[2]

NOT_UTF8 = [
    pytest.param({"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}, id="C"),
    pytest.param(
        {"LC_ALL": "en_US.ISO-8859-1", "LANG": "en_US.ISO-8859-1", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"},
        id="latin-1",
    ),
]


@pytest.mark.parametrize("locale", NOT_UTF8)
def test_check_content_prints_its_messages_under_any_locale(locale, tmp_path):
    decks = tmp_path / "decks"
    shutil.copytree(REPO / "content", decks)
    equipment = decks / "equipment.toml"
    text = equipment.read_text()
    at = text.index("vp = ")
    equipment.write_text(text[:at] + "vp = -3" + text[text.index("\n", at) :])
    result = subprocess.run(
        [sys.executable, "-m", "lagoon_tui", "check-content", str(decks)],
        capture_output=True,
        timeout=120,
        cwd=REPO,
        env={**clean_env(), **locale},
    )
    out = result.stdout.decode("utf-8")
    assert result.returncode == 2 and "Traceback" not in result.stderr.decode("utf-8", "replace")
    assert "'vp' must be an integer ≥ 0, got -3" in out


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
@pytest.mark.skipif(not LAGOON.exists(), reason=f"the lagoon command is not installed at {LAGOON}")
@pytest.mark.parametrize("locale", NOT_UTF8)
def test_the_game_runs_under_a_locale_that_is_not_utf8(locale):
    tmux = Tmux(f"locale-{locale['LC_ALL']}", 80, 24, lagoon_play(5), pane_env=locale)
    try:
        screen = tmux.settle(lambda text: CURTAIN in text, "the first curtain")
        assert "┏" in screen or "╭" in screen  # its frame, drawn in UTF-8
        tmux.press("Enter", screen, lambda text: "keep 2 of your 3 objectives" in text, "the setup prompt")
        assert tmux.quit() == 0
    finally:
        tmux.kill()
