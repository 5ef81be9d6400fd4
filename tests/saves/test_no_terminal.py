"""Without a terminal the game says so and stops at once, before a game is created (issue 17, point 7).

`lagoon`, `lagoon play` and `lagoon resume` run as real processes with their
input from /dev/null and their output into a pipe (or one of the two a real
pseudo-terminal); before, they hung, wrote escape codes into the pipe, and
`play` had saved a game already. (A save file that cannot be used, or a game
that is not there, is said first, as without a terminal it was before.)
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from rules import Engine, load_content
from rules.saves import Store
from rules.saves.recorder import record_new
from tests.helpers.commands import REPO, lagoon, tree

COMMANDS = [[], ["play", "Ana", "Ben"], ["resume", "1"]]


@pytest.fixture(autouse=True)
def a_game_to_resume(tmp_path):
    """Game 1, unfinished, for `lagoon resume 1` (so it gets as far as wanting the terminal)."""
    with Store(tmp_path / "lagoon.db") as store:
        record_new(store, Engine.new(load_content(), ["Ana", "Ben"], seed=1))


@pytest.mark.parametrize("command", COMMANDS, ids=["title", "play", "resume"])
def test_no_terminal_at_all(command, tmp_path):
    db = tmp_path / "lagoon.db"
    before = tree(tmp_path)
    result = lagoon("--db", str(db), *command)  # input "" from a pipe, output into a pipe
    assert result.returncode == 2
    assert "needs a terminal" in result.stderr and "neither its input nor its output" in result.stderr
    assert result.stdout == "" and "\x1b" not in result.stderr
    assert tree(tmp_path) == before  # not a byte written: no game, no lease (issue 32, point 9)
    assert [g.id for g in Store(db).games()] == [1]  # no game was added


@pytest.mark.parametrize("command", COMMANDS, ids=["title", "play", "resume"])
def test_a_terminal_for_input_but_a_pipe_for_output(command, tmp_path):
    db = tmp_path / "lagoon.db"
    before = tree(tmp_path)
    main, side = os.openpty()
    try:
        result = subprocess.run(
            [sys.executable, "-m", "lagoon_tui", "--db", str(db), *command],
            stdin=side,
            capture_output=True,
            text=True,
            timeout=120,
            cwd=REPO,
        )
    finally:
        os.close(main)
        os.close(side)
    assert result.returncode == 2 and "its output is not one" in result.stderr
    assert result.stdout == ""
    assert tree(tmp_path) == before
    assert [g.id for g in Store(db).games()] == [1]
