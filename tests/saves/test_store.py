"""The SQLite event store on a real file: saving, loading, undo, and refusing what it cannot use.

Every test uses a real database file under tmp_path; nothing about SQLite is
imitated. A full disk is made real with SQLite's own page limit (the write
fails with SQLITE_FULL exactly as on a full disk) and, for the command line,
with a file-size limit on a real process (tests/saves/test_cli_saves.py).
"""

from __future__ import annotations

import hashlib
import random
import sqlite3

import pytest

from rules import Engine, clone, load_content, replay
from rules.host import Host
from rules.saves import Store, StoreError
from rules.saves.recorder import open_game, record_new
from rules.saves.store import APP_ID, SCHEMA

CONTENT = load_content()


def play(engine: Engine, choices: int, seed: int = 1, undo: float = 0.0) -> None:
    rng = random.Random(seed)
    for _ in range(choices):
        if engine.state.phase == "over":
            return
        if undo and engine.undo_point() and rng.random() < undo:
            engine.undo()
            continue
        ids = engine.legal_ids()
        engine.choose(ids[rng.randrange(len(ids))])


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def db(tmp_path):
    return tmp_path / "saves" / "lagoon.db"


def test_a_game_is_saved_as_played_and_loads_exactly_as_it_was_left(db):
    with Store(db) as store:
        engine = Engine.new(CONTENT, ["Ana", "Ben", "Cleo"], seed=4)
        game = record_new(store, engine)
        play(engine, 150, undo=0.2)
    assert db.exists()
    with Store(db) as store:
        again = open_game(store, game, CONTENT)
        info = store.info(game)
    assert again.events == engine.events and again.marks == engine.marks
    assert again.state == engine.state == replay(CONTENT, engine.events)
    assert again.pending == engine.pending  # whose decision, and any unfinished step
    assert (info.names, info.seed, info.fingerprint) == (("Ana", "Ben", "Cleo"), 4, CONTENT.fingerprint)
    assert info.round == engine.state.round and info.scores == tuple(p.vp for p in engine.state.players)
    assert info.status == "playing" and info.deciding == engine.pending.seat and info.length == len(engine.events)


def test_the_file_is_wal_marked_as_ours_and_versioned(db):
    Store(db).close()
    raw = sqlite3.connect(db)
    try:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert raw.execute("PRAGMA application_id").fetchone()[0] == APP_ID
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"games", "events", "moves"} <= tables
    finally:
        raw.close()


def test_events_are_append_only_and_an_undo_is_a_row_not_a_deletion(db):
    with Store(db) as store:
        engine = Engine.new(CONTENT, ["Ana", "Ben"], seed=1, start_player=0)
        game = record_new(store, engine)
        while not engine.undo_point():
            play(engine, 1, seed=len(engine.events))
        rows_before = store.conn.execute("SELECT count(*) FROM events").fetchone()[0]
        engine.undo()
        assert store.conn.execute("SELECT count(*) FROM events").fetchone()[0] == rows_before
        assert store.conn.execute("SELECT choice FROM moves ORDER BY id DESC LIMIT 1").fetchone()[0] == "undo"
        assert open_game(store, game, CONTENT).events == engine.events


def test_each_choice_is_committed_before_any_subscriber_hears_of_it(db):
    """A second connection (another process would see the same) finds the events when the screen is told."""
    with Store(db) as store:
        engine = Engine.new(CONTENT, ["Ana", "Ben"], seed=2)
        game = record_new(store, engine)
        seen = []

        def screen(new_events):
            with Store(db) as other:
                seen.append(other.info(game).length == len(engine.events) and len(new_events) > 0)

        engine.subscribe(screen)
        play(engine, 30)
    assert seen and all(seen)


def test_a_full_disk_refuses_the_move_and_changes_nothing(db):
    """SQLite's page limit gives the same SQLITE_FULL as a full disk: the move is not made."""
    with Store(db) as store:
        engine = Engine.new(CONTENT, ["Ana", "Ben"], seed=3)
        game = record_new(store, engine)
        host = Host(engine)
        play(engine, 10)
        pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
        store.conn.execute(f"PRAGMA max_page_count = {pages}")
        told: list = []
        engine.subscribe(told.append)
        rng = random.Random(1)
        for _ in range(500):  # moves fit in the free room of the last pages, until one does not
            before = (list(engine.events), clone(engine.state), list(engine.marks), len(told))
            ids = engine.legal_ids()
            result = host.choose(ids[rng.randrange(len(ids))])
            if not result:
                break
        assert not result and "disk is full" in result.reason and "not made" in result.reason
        assert (engine.events, engine.state, engine.marks, len(told)) == before
        assert open_game(store, game, CONTENT, record=False).events == engine.events


def test_a_file_that_is_not_sqlite_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "notes.db"
    path.write_bytes(b"my shopping list\n" * 20)
    before = digest(path)
    with pytest.raises(StoreError, match="not a Lagoon save file"):
        Store(path)
    assert digest(path) == before and sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"]


def test_another_programs_sqlite_database_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "other.db"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE contacts (name TEXT)")
    raw.execute("INSERT INTO contacts VALUES ('Ana')")
    raw.commit()
    raw.close()
    before = digest(path)
    with pytest.raises(StoreError, match="another program's SQLite database"):
        Store(path)
    assert digest(path) == before


def test_a_damaged_save_file_gives_a_clear_message_and_is_left_as_it_is(db):
    with Store(db) as store:
        engine = Engine.new(CONTENT, ["Ana", "Ben"], seed=5)
        game = record_new(store, engine)
        play(engine, 120)
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(db.read_bytes())
    page = 4096
    for i in range(page, len(data) - page, page):  # scribble over every page but the first
        data[i + 8 : i + 200] = b"\xa5" * 192
    db.write_bytes(bytes(data))
    before = digest(db)
    with pytest.raises(StoreError, match="damaged"):
        with Store(db) as store:
            open_game(store, game, CONTENT)
    assert digest(db) == before


def test_a_save_file_from_a_newer_lagoon_is_refused(db):
    Store(db).close()
    raw = sqlite3.connect(db)
    raw.execute(f"PRAGMA user_version = {SCHEMA + 1}")
    raw.close()
    before = digest(db)
    with pytest.raises(StoreError, match="newer Lagoon"):
        Store(db)
    assert digest(db) == before


def test_a_folder_that_cannot_be_made_is_a_clear_message(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError, match="Cannot create the folder"):
        Store(blocker / "lagoon" / "lagoon.db")


def test_a_game_played_with_other_decks_is_refused(db, tmp_path):
    with Store(db) as store:
        engine = Engine.new(CONTENT, ["Ana", "Ben"], seed=6)
        game = record_new(store, engine)
        store.conn.execute("UPDATE games SET fingerprint = 'f00d' WHERE id = ?", (game,))
        with pytest.raises(StoreError, match="other decks"):
            open_game(store, game, CONTENT)


def test_list_latest_unfinished_and_delete(db):
    with Store(db) as store:
        finished = Engine.new(CONTENT, ["Ana", "Ben"], seed=7)
        first = record_new(store, finished)
        play(finished, 10_000)
        assert finished.state.phase == "over"
        waiting = Engine.new(CONTENT, ["Cleo", "Dev"], seed=8)
        second = record_new(store, waiting)
        play(waiting, 5)
        assert [g.id for g in store.games()] == [second, first] or {g.id for g in store.games()} == {first, second}
        assert store.info(first).status == "over" and store.info(first).deciding is None
        assert store.latest_unfinished().id == second
        store.delete(second)
        assert store.latest_unfinished() is None
        with pytest.raises(StoreError, match="no game"):
            store.info(second)
        assert store.conn.execute("SELECT count(*) FROM events WHERE game = ?", (second,)).fetchone()[0] == 0


def test_a_file_made_for_a_window_that_got_no_game_is_taken_away_and_no_other(tmp_path):
    """Issue 32, point 9: the file is made only when a game is really written (a window opened and closed
    on the title screen left an empty save file, and its folders)."""
    made = tmp_path / "new" / "lagoon.db"
    Store(made).forget_if_unused()
    assert list(tmp_path.iterdir()) == []
    with Store(made) as kept:  # a game in it: it stays
        record_new(kept, Engine.new(CONTENT, ["Ana", "Ben"], seed=1))
    store = Store(tmp_path / "other.db")
    other = sqlite3.connect(tmp_path / "other.db")  # open elsewhere too: it stays, for that one may write
    try:
        other.execute("SELECT count(*) FROM games").fetchone()
        store.forget_if_unused()
    finally:
        other.close()
    again = Store(made)  # was there before this store: never taken away
    again.forget_if_unused()
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["lagoon.db", "new", "other.db"]
