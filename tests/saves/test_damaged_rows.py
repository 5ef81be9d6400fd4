"""A damaged row of the save file is a damaged game with a sentence, never a traceback (issue 17, point 6).

Each case damages one game of a real save file with SQLite itself (as a
disk error, a bad sector or another program might) and runs the real
commands: `lagoon list` still lists every game, the damaged one as damaged;
resuming or exporting it says what is wrong and exits 2; no file is left
behind by an export that failed.
"""

from __future__ import annotations

import re
import socket
import sqlite3
from contextlib import closing

import pytest

from rules import Engine, load_content
from rules.host import Host
from rules.saves import Store, StoreError
from rules.saves.recorder import record_new
from rules.saves.store import now
from tests.helpers.commands import lagoon, no_traceback, tree

CONTENT = load_content()
DEEP = "[" * 100_000 + "]" * 100_000

ROWS = {
    "seats garbage": ("UPDATE games SET seats = 'garbage' WHERE id = 1", "its seats cannot be read"),
    "seats not players": ("UPDATE games SET seats = '[1, 2]' WHERE id = 1", "its seats cannot be read"),
    "seats nested deep": (f"UPDATE games SET seats = '{DEEP}' WHERE id = 1", "its seats cannot be read"),
    "scores": ("UPDATE games SET scores = 'x' WHERE id = 1", "its scores cannot be read"),
    "deciding": ("UPDATE games SET deciding = 99 WHERE id = 1", "its deciding cannot be read"),
    "seed as text": ("UPDATE games SET seed = 'seven' WHERE id = 1", "its seed cannot be read"),
}
EVENTS = {
    "event nested deep": f"UPDATE events SET data = '{DEEP}' WHERE game = 1 AND pos = 3",
    "event not json": "UPDATE events SET data = 'garbage' WHERE game = 1 AND pos = 3",
}


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "lagoon.db"
    with Store(path) as store:
        for seed, names in ((1, ["Ana", "Ben"]), (2, ["Cleo", "Dev"])):
            engine = Engine.new(CONTENT, names, seed=seed)
            record_new(store, engine)
            for _ in range(12):
                engine.choose(engine.legal_ids()[0])
    return path


def damage(path, sql: str) -> None:
    with closing(sqlite3.connect(path)) as conn, conn:  # (closed: no connection is left open)
        conn.execute(sql)


@pytest.mark.parametrize("sql, said", ROWS.values(), ids=ROWS.keys())
def test_a_damaged_games_row_is_listed_as_damaged_and_cannot_be_opened(db, tmp_path, sql, said):
    damage(db, sql)
    listed = lagoon("--db", str(db), "list", env={"COLUMNS": "200"})
    no_traceback(listed)
    assert listed.returncode == 0 and f"damaged: {said}" in listed.stdout
    assert "Cleo, Dev" in listed.stdout  # the sound game is listed as ever
    for command in (["resume", "1"], ["export", "1", str(tmp_path / "out.json")]):
        result = lagoon("--db", str(db), *command)
        no_traceback(result)
        assert result.returncode == 2 and f"Game 1 in {db} is damaged: {said}" in result.stderr
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("sql", EVENTS.values(), ids=EVENTS.keys())
def test_a_damaged_event_is_a_sentence(db, tmp_path, sql):
    damage(db, sql)
    result = lagoon("--db", str(db), "export", "1", str(tmp_path / "out.json"))
    no_traceback(result)
    assert result.returncode == 2 and "Game 1" in result.stderr and "cannot read" in result.stderr
    assert not (tmp_path / "out.json").exists()


async def test_the_load_screen_lists_a_damaged_game_and_says_why_it_cannot_be_opened(db):
    from lagoon_tui.app import LagoonApp
    from lagoon_tui.screens.load import LoadScreen

    damage(db, ROWS["scores"][0])
    with Store(db) as store:
        app = LagoonApp(CONTENT, store=store)
        async with app.run_test(size=(160, 50), notifications=True) as pilot:
            await pilot.pause()
            await app.push_screen(LoadScreen(store))
            await pilot.pause()
            shown = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
    assert "damaged: its scores cannot be read" in shown and "Cleo, Dev" in shown


@pytest.mark.parametrize("table", ["events", "moves", "games"])
def test_a_save_file_that_lost_a_table_is_refused_and_left_as_it_is(db, table):
    """A dropped table was silently made anew (and the games' logs with it lost for good)."""
    with sqlite3.connect(db) as conn:
        if table != "games":
            conn.execute(f"DROP TABLE {table}")
        else:
            conn.execute("PRAGMA foreign_keys = OFF")
            conn.execute("DROP TABLE games")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = db.read_bytes()
    for command in (["list"], ["resume", "1"], ["delete", "1", "--yes"]):
        result = lagoon("--db", str(db), *command)
        no_traceback(result)
        assert result.returncode == 2 and f"{db} is damaged: its table of {table} is missing" in result.stderr
    assert db.read_bytes() == before
    with sqlite3.connect(db) as conn:
        assert table not in {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


@pytest.mark.parametrize(
    "sql, said",
    [
        ("UPDATE games SET seats = CAST(X'5B7B226E616D65223A22FF' AS TEXT) WHERE id = 1", "damaged: its seats"),
        ("UPDATE events SET data = CAST(X'7B22FFFE' AS TEXT) WHERE game = 1 AND pos = 3", "cannot read"),
    ],
    ids=["seats", "event"],
)
def test_text_that_is_not_utf8_damages_its_row_only(db, tmp_path, sql, said):
    damage(db, sql)
    listed = lagoon("--db", str(db), "list", env={"COLUMNS": "200"})
    no_traceback(listed)
    assert listed.returncode == 0 and "Cleo, Dev" in listed.stdout  # the other game is listed as ever
    out = tmp_path / "out.json"
    exported = lagoon("--db", str(db), "export", "1", str(out))
    no_traceback(exported)
    assert exported.returncode == 2 and said in exported.stderr and not out.exists()


HOLDS = {
    "row": (ROWS["scores"][0], "game 1: its scores cannot be read"),
    "event not json": (EVENTS["event not json"], "game 1: its event 3 cannot be read"),
    "event nested deep": (EVENTS["event nested deep"], "game 1: its event 3 cannot be read"),
    "event of no known type": (
        "UPDATE events SET type = 'Gone' WHERE game = 1 AND pos = 3",
        "game 1: its event 3 cannot be read",
    ),
    "gap": ("DELETE FROM events WHERE game = 1 AND pos = 5", "game 1: its log has a gap at event 5"),
    "log cut short": ("DELETE FROM events WHERE game = 1 AND pos >= 10", "game 1: its log is incomplete (10 of"),
}


@pytest.mark.slow
@pytest.mark.parametrize("sql, said", HOLDS.values(), ids=HOLDS.keys())
def test_a_file_holding_a_damaged_game_gets_no_new_game_and_loses_none(db, tmp_path, sql, said):
    """Once `list` or `resume` has called game 1 damaged (its row or its log), import and delete leave the
    file as it is (they wrote into it)."""
    other = tmp_path / "other.db"
    with Store(other) as store:
        record_new(store, Engine.new(CONTENT, ["Eli", "Fay"], seed=7))
    out = tmp_path / "another.json"
    assert lagoon("--db", str(other), "export", "1", str(out)).returncode == 0
    damage(db, sql)
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = db.read_bytes()
    for command in (["import", str(out)], ["delete", "2", "--yes"]):
        result = lagoon("--db", str(db), *command)
        no_traceback(result)
        assert result.returncode == 2 and f"holds a damaged game ({said}" in result.stderr, result.stderr
    assert db.read_bytes() == before
    resumed = lagoon("--db", str(db), "export", "2", str(tmp_path / "again.json"))  # the sound game is still there
    assert resumed.returncode == 0, resumed.stderr


def test_a_file_with_our_mark_but_tables_lagoon_did_not_make_is_refused_before_anything_is_written(tmp_path):
    """Its tables are not ours: `list` must not switch it to WAL (byte 18 of the header) and then fail."""
    from rules.saves.store import APP_ID

    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.executescript(
            f"PRAGMA application_id = {APP_ID}; PRAGMA user_version = 2;"
            "CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT);"
            "CREATE TABLE events (id INTEGER PRIMARY KEY, game INTEGER, pos INTEGER, type TEXT);"
            "CREATE TABLE moves (id INTEGER PRIMARY KEY); INSERT INTO games (title) VALUES ('x');"
        )
    before = path.read_bytes()
    assert before[18] == 1  # rollback journal, as the other program left it
    for command in (["list"], ["resume", "1"], ["delete", "1", "--yes"]):
        result = lagoon("--db", str(path), *command)
        no_traceback(result)
        assert result.returncode == 2, result
        assert f"{path} is damaged: its table of events lacks the column data. It was left as it is" in result.stderr, (
            result.stderr
        )
    assert path.read_bytes() == before and not (tmp_path / "other.db-wal").exists()


# --- issue 32, point 9 -------------------------------------------------------------------------------------

LEASES = {
    "pid as text": "'seven'",
    "pid too large": str(2**63 - 1),
    "pid of no process": "-1",
    "time garbage": "4242, 'abc', 'yesterday'",
}


def checkpointed(path) -> None:
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


@pytest.mark.parametrize("values", LEASES.values(), ids=LEASES.keys())
def test_a_lease_that_cannot_be_read_makes_its_game_damaged(db, tmp_path, values):
    """A lease row whose pid was text or too large was a traceback on `resume`."""
    host = socket.gethostname()
    row = f"1, '{host}', {values}" if "yesterday" in values else f"1, '{host}', {values}, 'abc', '{now()}'"
    damage(db, f"INSERT INTO leases (game, host, pid, token, taken) VALUES ({row})")
    checkpointed(db)
    before = tree(tmp_path)
    listed = lagoon("--db", str(db), "list", env={"COLUMNS": "200"})
    no_traceback(listed)
    assert listed.returncode == 0 and "damaged: its lease cannot be read" in listed.stdout
    assert "Cleo, Dev" in listed.stdout
    for command in (["resume", "1"], ["resume", "1", "--take-over"], ["export", "1", str(tmp_path / "out.json")]):
        result = lagoon("--db", str(db), *command)
        no_traceback(result)
        assert result.returncode == 2, result.stderr
        assert f"Game 1 in {db} is damaged: its lease cannot be read" in result.stderr, result.stderr
    assert lagoon("--db", str(db), "export", "2", str(tmp_path / "two.json")).returncode == 0  # the sound game
    (tmp_path / "two.json").unlink()
    assert tree(tmp_path) == before


def flip(path, game: int, pos: int, inside: bytes, bit: int = 0x80) -> None:
    """One bit of event `pos` of `game` changed, in the first byte of `inside` (a bad sector, a cosmic ray)."""
    with closing(sqlite3.connect(path)) as conn, conn:
        (data,) = conn.execute(
            "SELECT CAST(data AS BLOB) FROM events WHERE game = ? AND pos = ?", (game, pos)
        ).fetchone()
        at = data.index(inside)
        data = data[:at] + bytes([data[at] ^ bit]) + data[at + 1 :]
        conn.execute("UPDATE events SET data = CAST(? AS TEXT) WHERE game = ? AND pos = ?", (data, game, pos))


@pytest.mark.parametrize(
    "pos, inside, bit",
    [(37, b"ning_site", 0x80), (37, b'island"', 0x80), (38, b'pick"', 0x01)],
    ids=["a value read as 'operate_mi\\ufffding_site'", "a key not UTF-8", "a key renamed 'qick'"],
)
def test_an_event_changed_by_one_flipped_bit_is_damage_named_by_game_and_event(db, tmp_path, pos, inside, bit):
    """'depart_isla\\ufffdd' was resumed, replayed and exported without a word."""
    flip(db, 1, pos, inside, bit)  # (event 37 is an ActionStarted, 38 a Picked)
    checkpointed(db)
    before = tree(tmp_path)
    said = f"Game 1 in {db} is damaged: Lagoon cannot read its event {pos}"
    for command in (["resume", "1"], ["export", "1", str(tmp_path / "out.json")]):
        result = lagoon("--db", str(db), *command)
        no_traceback(result)
        assert result.returncode == 2 and said in result.stderr, result.stderr
    with Store(db, read_only=True) as store, pytest.raises(StoreError, match=re.escape(said)):
        Host.replay_saved(store, 1, CONTENT)
    assert tree(tmp_path) == before
    if bit == 0x80:  # a file with such a game takes no new one (a renamed key is found only when it is read)
        checkpointed(db)
        refused_new_game(db, pos)


def refused_new_game(db, pos: int) -> None:
    with Store(db) as store:
        with pytest.raises(StoreError, match=f"holds a damaged game \\(game 1: its event {pos} cannot be read"):
            record_new(store, Engine.new(CONTENT, ["Eli", "Fay"], seed=5))


def test_a_refused_import_leaves_a_damaged_file_in_rollback_mode_byte_for_byte(db, tmp_path):
    """It rewrote the file's header (its switch to WAL) while saying the file was left as it was."""
    other = tmp_path / "other.db"
    with Store(other) as store:
        record_new(store, Engine.new(CONTENT, ["Eli", "Fay"], seed=7))
    out = tmp_path / "another.json"
    assert lagoon("--db", str(other), "export", "1", str(out)).returncode == 0
    damage(db, EVENTS["event not json"])
    with closing(sqlite3.connect(db)) as conn:
        assert conn.execute("PRAGMA journal_mode = DELETE").fetchone()[0] == "delete"
    before = tree(tmp_path)
    for command in (["import", str(out)], ["delete", "2", "--yes"], ["resume", "1"], ["list"]):
        result = lagoon("--db", str(db), *command)
        no_traceback(result)
        assert result.returncode == (0 if command == ["list"] else 2), result.stderr
    assert tree(tmp_path) == before


@pytest.mark.parametrize("sql", EVENTS.values(), ids=EVENTS.keys())
def test_the_app_resuming_a_damaged_game_writes_no_lease(db, tmp_path, sql):
    """Resume and Load took the game's lease before they read its log, then let go of it: a damaged file
    was written to while it was said to be left as it was."""
    damage(db, sql)
    checkpointed(db)
    before = tree(tmp_path)
    with Store(db) as store, pytest.raises(StoreError, match=f"Game 1 in {re.escape(str(db))}.* event 3"):
        Host.resume(store, 1, CONTENT)
    assert tree(tmp_path) == before
