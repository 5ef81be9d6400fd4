"""Saved times, a file made and taken away, and paths that cannot be looked at (issue 32, point 9).

- A time in a row that cannot be shown ('0001-01-01T00:00:00+14:00' leaves the calendar when moved to
  local time) made `lagoon list` and the Load screen crash: it is damage, named by its key.
- `Store.forget_if_unused` left a file in rollback mode when a game arrived while it looked.
- `Path.exists` raises on Python 3.11 for a path it cannot look at: a sentence, not a traceback.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from rules import Engine, load_content
from rules.saves import Store, StoreError
from rules.saves.recorder import record_new
from rules.saves.store import check_can_make
from tests.helpers.commands import checkpointed, lagoon, no_traceback, tree

CONTENT = load_content()
BAD_TIMES = {
    "before the calendar in UTC": "0001-01-01T00:00:00+14:00",
    "after the calendar in UTC": "9999-12-31T23:59:59-14:00",
    "not a time": "garbage",
    "no offset": "2026-11-27T07:00:00",
}


@pytest.fixture
def db(tmp_path) -> Path:
    path = tmp_path / "lagoon.db"
    with Store(path) as store:
        for seed, names in ((1, ["Ana", "Ben"]), (2, ["Cleo", "Dev"])):
            engine = Engine.new(CONTENT, names, seed=seed)
            record_new(store, engine)
            for _ in range(6):
                engine.choose(engine.legal_ids()[0])
        store.release()
    return path


def write(db: Path, sql: str, *args) -> None:
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute(sql, args)
    checkpointed(db)


@pytest.mark.parametrize("column", ["updated", "created"])
@pytest.mark.parametrize("stamp", BAD_TIMES.values(), ids=BAD_TIMES.keys())
def test_a_saved_time_that_cannot_be_shown_makes_its_game_damaged(db, tmp_path, column, stamp):
    write(db, f"UPDATE games SET {column} = ? WHERE id = 1", stamp)
    said = f"its {column} time cannot be read"
    listed = lagoon("--db", str(db), "list", env={"COLUMNS": "200"})
    no_traceback(listed)
    assert listed.returncode == 0 and f"damaged: {said}" in listed.stdout, listed.stdout + listed.stderr
    assert "Cleo, Dev" in listed.stdout
    before = tree(tmp_path)
    for command in (["resume", "1"], ["export", "1", str(tmp_path / "out.json")]):
        result = lagoon("--db", str(db), *command)
        no_traceback(result)
        assert result.returncode == 2 and f"Game 1 in {db} is damaged: {said}" in result.stderr, result.stderr
    assert tree(tmp_path) == before


async def test_the_load_screen_lists_a_game_whose_time_cannot_be_shown_as_damaged(db):
    from lagoon_tui.app import LagoonApp
    from lagoon_tui.screens.load import LoadScreen

    write(db, "UPDATE games SET updated = ? WHERE id = 1", BAD_TIMES["before the calendar in UTC"])
    with Store(db) as store:
        app = LagoonApp(CONTENT, store=store)
        async with app.run_test(size=(160, 50), notifications=True) as pilot:
            await pilot.pause()
            await app.push_screen(LoadScreen(store))
            await pilot.pause()
            shown = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
    assert "damaged: its updated time cannot be read" in shown and "Cleo, Dev" in shown


def test_a_lease_taken_at_a_time_that_cannot_be_shown_is_damage(db):
    write(
        db,
        "INSERT INTO leases (game, host, pid, token, taken) VALUES (1, ?, ?, 'another', ?)",
        socket.gethostname(),
        os.getpid(),
        BAD_TIMES["before the calendar in UTC"],
    )
    listed = lagoon("--db", str(db), "list", env={"COLUMNS": "200"})
    no_traceback(listed)
    assert listed.returncode == 0 and "damaged: its lease cannot be read" in listed.stdout


def test_an_import_exported_at_a_time_that_cannot_be_shown_is_refused(db, tmp_path):
    path = tmp_path / "game.json"
    assert lagoon("--db", str(db), "export", "1", str(path)).returncode == 0
    doc = json.loads(path.read_text())
    path.write_text(json.dumps({**doc, "exported": BAD_TIMES["before the calendar in UTC"]}))
    other = tmp_path / "other.db"
    result = lagoon("--db", str(other), "import", str(path))
    no_traceback(result)
    assert result.returncode == 2 and "'exported' must be a time" in result.stderr, result.stderr
    assert not other.exists()


def journal_mode(path: Path) -> str:
    """The file's journal mode as its header says (bytes 18 and 19 are 2 in WAL mode, 1 in rollback)."""
    return "wal" if path.read_bytes()[18:20] == b"\x02\x02" else "rollback"


STATEMENTS = 8  # forget_if_unused runs fewer statements than this


@pytest.mark.parametrize("at", range(STATEMENTS))
def test_a_game_that_arrives_while_an_unused_file_is_taken_away_keeps_it_in_wal_mode(tmp_path, at):
    """The file left WAL mode before its last count: a game saved in between left it in rollback mode."""
    path = tmp_path / "lagoon.db"
    store = Store(path)  # (this store makes the file, and gets no game)
    seen: list[str] = []
    arrived: list[int] = []

    def another_window_saves_a_game(statement: str) -> None:
        seen.append(statement)
        if len(seen) == at + 1:  # just before statement `at` of this store runs
            try:
                with Store(path) as other:
                    arrived.append(record_new(other, Engine.new(CONTENT, ["Eli", "Fay"], seed=3)))
                    other.release()
            except StoreError:
                pass  # (refused while this store holds the file locked: then no game arrived)

    store.conn.set_trace_callback(another_window_saves_a_game)
    store.forget_if_unused()
    if not arrived:
        assert not path.exists()  # nothing arrived, and the file was taken away
        return
    assert path.exists()  # a game arrived: the file is kept
    with Store(path, read_only=True) as reader:
        assert [g.names for g in reader.games()] == [("Eli", "Fay")]
    assert journal_mode(path) == "wal"


def test_an_unused_file_is_still_taken_away(tmp_path):
    path = tmp_path / "lagoon.db"
    Store(path).forget_if_unused()
    assert sorted(tmp_path.iterdir()) == []


LONG = "a" * 300  # a name longer than a folder's name may be: Path.exists raises OSError on Python 3.11


def test_a_path_that_cannot_be_looked_at_is_a_sentence(tmp_path):
    """As root, a folder that may not be searched cannot be made: a name too long is the OSError run here."""
    path = tmp_path / LONG / "lagoon.db"
    for make in (lambda: Store(path), lambda: Store(path, read_only=True), lambda: check_can_make(path)):
        with pytest.raises(StoreError, match="Cannot reach"):
            make()
    for command in (["list"], ["export", "1", str(tmp_path / "out.json")], ["delete", "1", "--yes"]):
        result = lagoon("--db", str(path), *command)
        no_traceback(result)
        assert result.returncode == 2 and "Cannot reach" in result.stderr, result.stderr
    assert sorted(tmp_path.iterdir()) == []
