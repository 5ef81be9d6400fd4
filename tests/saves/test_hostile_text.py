"""Text from the save file or a game file reaches a terminal as text, cut short (issue 32, point 6).

The tester found `import` printing a file's `content_fingerprint` raw, and
`resume` printing a lease's host and time and the saved fingerprint raw.
Here each is written into a real save file (straight into SQLite, as a damaged
or hostile file would hold it) or a real export file, the command is run as a
process, and what it prints is held to the same two rules: nothing a terminal
acts on or shows as nothing (control and C1 characters, DEL, direction and
zero-width marks, line separators), and no line longer than the stated length.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

import pytest

from rules import Engine, load_content
from rules.names import LINE_SHOWN, NAME_SHOWN
from rules.saves import Store
from rules.saves.recorder import record_new
from tests.helpers.commands import REPO, lagoon, no_traceback, unshowable

CONTENT = load_content()
TITLE = "\x1b]0;PWNED\x07"
HOSTILE_NAMES = [TITLE + "Ana", "\u202eevil", "A\u200bna", "\x9b2J\x85\x7f", "x" * 100_000]
LONG = "f" * 100_000


def as_text(printed: str, longest: int = 2 * LINE_SHOWN) -> None:
    assert unshowable(printed) == []
    assert all(len(line) <= longest for line in printed.splitlines())


@pytest.fixture
def db(tmp_path):
    """A save file with one unfinished game of Ana and Ben."""
    path = tmp_path / "lagoon.db"
    with Store(path) as store:
        engine = Engine.new(CONTENT, ["Ana", "Ben"], seed=7)
        record_new(store, engine)
        for _ in range(6):
            engine.choose(engine.legal_ids()[0])
    return path


def write(db, sql: str, *values) -> None:
    with sqlite3.connect(db) as raw:
        raw.execute(sql, values)
    raw.close()


@pytest.fixture
def hostile_names_db(db):
    seats = [{"name": name, "colour": "red"} for name in HOSTILE_NAMES]
    write(db, "UPDATE games SET seats = ?, deciding = 0", json.dumps(seats))
    return db


def test_list_prints_hostile_names_and_times_from_the_save_file_as_bounded_text(hostile_names_db):
    result = lagoon("--db", str(hostile_names_db), "list", env={"COLUMNS": "200"})
    no_traceback(result)
    assert result.returncode == 0
    as_text(result.stdout + result.stderr, 200)
    assert "\\u001B]0;PWNED\\u0007Ana" in result.stdout and "\\u202Eevil" in result.stdout
    assert "x" * (NAME_SHOWN - 1) + "…" in result.stdout and "x" * NAME_SHOWN not in result.stdout
    assert len(result.stdout) < 5000
    # a time that is not one makes its game damaged (issue 32), and is still shown as text
    write(hostile_names_db, "UPDATE games SET updated = ?", "\x1b[2J\u202enever")
    result = lagoon("--db", str(hostile_names_db), "list", env={"COLUMNS": "200"})
    no_traceback(result)
    assert result.returncode == 0 and "damaged: its updated time cannot be read" in result.stdout
    as_text(result.stdout + result.stderr, 200)
    assert "\\u001B[2J\\u202Enever" in result.stdout


BLANK_SEATS = ["\u3164", "\u115f\u034f", "\ufe0f\U000e0100", "\u2800"]


def test_list_prints_names_that_show_as_nothing_as_escapes(db):
    seats = [{"name": name, "colour": "red"} for name in BLANK_SEATS]
    write(db, "UPDATE games SET seats = ?", json.dumps(seats))
    result = lagoon("--db", str(db), "list", env={"COLUMNS": "200"})
    no_traceback(result)
    assert result.returncode == 0
    as_text(result.stdout + result.stderr, 200)
    for escaped in ("\\u3164", "\\u115F\\u034F", "\\uFE0F\\U000E0100", "\\u2800"):
        assert escaped in result.stdout


def test_import_prints_a_file_name_of_hangul_fillers_as_escapes(export, tmp_path):
    path = tmp_path / "\u3164\u3164.json"
    path.write_text(json.dumps(export))
    result = lagoon("--db", str(tmp_path / "other.db"), "import", str(path))
    no_traceback(result)
    assert result.returncode == 0, result.stderr
    as_text(result.stdout + result.stderr)
    assert "\\u3164\\u3164.json as game 1." in result.stdout


def test_delete_asks_with_hostile_names_as_text(hostile_names_db):
    result = lagoon("--db", str(hostile_names_db), "delete", "1", stdin="n\n")
    no_traceback(result)
    assert result.returncode == 1 and "Nothing was deleted" in result.stdout
    as_text(result.stdout + result.stderr)
    assert "Delete game 1 (\\u001B]0;PWNED\\u0007Ana" in result.stdout


async def test_the_load_screen_shows_hostile_names_as_bounded_text(hostile_names_db):
    from lagoon_tui.app import LagoonApp
    from lagoon_tui.screens.confirm import ConfirmScreen
    from lagoon_tui.screens.load import LoadScreen

    with Store(hostile_names_db) as store:
        app = LagoonApp(CONTENT, store=store)
        async with app.run_test(size=(160, 50)) as pilot:
            await pilot.pause()
            await app.push_screen(LoadScreen(store))
            await pilot.pause()
            shown = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
            await pilot.press("d")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            question = app.screen.question
    assert unshowable(shown) == [] and "\\u001B]0;PWNED" in shown
    assert unshowable(question) == [] and "x" * NAME_SHOWN not in question and "\\u202Eevil" in question


@pytest.fixture
def export(db, tmp_path):
    path = tmp_path / "game.json"
    assert lagoon("--db", str(db), "export", "1", str(path)).returncode == 0
    return json.loads(path.read_text())


def test_import_prints_a_hostile_fingerprint_as_bounded_text(export, tmp_path):
    export["content_fingerprint"] = TITLE + "\u202e\u200b\x9b2J" + LONG
    path = tmp_path / "game.json"
    path.write_text(json.dumps(export))
    other = tmp_path / "other.db"
    result = lagoon("--db", str(other), "import", str(path))
    no_traceback(result)
    assert result.returncode == 2 and "played with other decks" in result.stderr
    as_text(result.stdout + result.stderr)
    assert "\\u001B]0;PWNED\\u0007" in result.stderr


def test_import_prints_a_hostile_file_name_as_text(export, tmp_path):
    path = tmp_path / f"game{TITLE}\u202e.json"
    path.write_text(json.dumps(export))
    result = lagoon("--db", str(tmp_path / "other.db"), "import", str(path))
    no_traceback(result)
    assert result.returncode == 0, result.stderr
    as_text(result.stdout + result.stderr)
    assert "game\\u001B]0;PWNED\\u0007\\u202E.json as game 1." in result.stdout


def resume_on_a_terminal(db, game: int = 1) -> subprocess.CompletedProcess:
    """`lagoon resume` with a pseudo-terminal for its input and output (so it goes as far as it can) and a
    pipe for its errors."""
    main, side = os.openpty()
    try:
        return subprocess.run(
            [sys.executable, "-m", "lagoon_tui", "--db", str(db), "resume", str(game)],
            stdin=side,
            stdout=side,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            cwd=REPO,
        )
    finally:
        os.close(main)
        os.close(side)


def test_resume_refuses_a_lease_with_a_hostile_host_and_time_as_damaged_printing_neither(db):
    write(
        db,
        "INSERT INTO leases (game, host, pid, token, taken) VALUES (1, ?, ?, 'another', ?)",
        TITLE + "\u202e" + "h" * 100_000,
        os.getpid(),
        "\x1b[2J\u202e\u200b2026-01-01T10:00",
    )
    result = resume_on_a_terminal(db)
    assert "Traceback" not in result.stderr
    assert result.returncode == 2 and "is damaged: its lease cannot be read" in result.stderr
    as_text(result.stderr)
    assert "PWNED" not in result.stderr and "hhh" not in result.stderr


def test_resume_prints_the_longest_lease_host_with_the_advice_whole(db):
    write(
        db,
        "INSERT INTO leases (game, host, pid, token, taken) VALUES (1, ?, ?, 'another', ?)",
        "h" * 255,
        os.getpid(),
        "2026-01-01T10:00:00+00:00",
    )
    result = resume_on_a_terminal(db)
    assert "Traceback" not in result.stderr
    assert result.returncode == 2 and "Game 1 is open in another window" in result.stderr
    as_text(result.stderr)
    assert "lagoon resume 1 --take-over" in result.stderr  # (the advice is not cut off by the long host)


def test_resume_prints_a_hostile_saved_fingerprint_as_text(db):
    write(db, "UPDATE games SET fingerprint = ?", TITLE + "\u202e\x9b2J" + LONG)
    result = resume_on_a_terminal(db)
    assert "Traceback" not in result.stderr
    assert result.returncode == 2 and "played with other decks" in result.stderr
    as_text(result.stderr)
    assert "\\u001B]0;PWNED\\u0007" in result.stderr


async def test_the_app_asks_to_take_over_with_a_hostile_lease_host_as_text(db):
    from lagoon_tui.app import LagoonApp
    from lagoon_tui.screens.confirm import ConfirmScreen

    write(
        db,
        "INSERT INTO leases (game, host, pid, token, taken) VALUES (1, ?, ?, 'another', ?)",
        "[b]" + "h" * 252,  # (the longest host a lease may hold: any other is damage)
        os.getpid(),
        "2026-01-01T10:00:00+00:00",
    )
    with Store(db) as store:
        app = LagoonApp(CONTENT, store=store)
        async with app.run_test(size=(120, 40)) as pilot:
            app.resume_game(1)
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            question = app.screen.question
    assert "Game 1 is open in another window" in question and "Take it over here?" in question
    assert unshowable(question) == [] and len(question) < 2 * LINE_SHOWN
