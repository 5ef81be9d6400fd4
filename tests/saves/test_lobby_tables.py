"""The lobby's players and rooms are tables of the store (schema 3), and the store alone opens the file.

`schema2.db` beside this module was written by Lagoon at schema 2 (commit
ca15c9a), as it stood: `Store` and `Host.new` saved a game of Ana and Ben
(seed 7, six choices made), then a `Lobby` over the same file, with its own
connection and tables then, named two keys (SHA256:ana "Ana", SHA256:ben
"Ben"), made a room LGPLQP that both joined and Ana started (game 2, seed 11)
and a room 2FVTJ9 of Ben's with a computer and an open seat, not started.
"""

from __future__ import annotations

import ast
import asyncio
import hashlib
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from lagoon_tui.serve.lobby import Lobby
from rules.host import SavedRoom, SavedSeat, Store, StoreError, load_content
from rules.saves.store import APP_ID, SCHEMA

CONTENT = load_content()
ROOT = Path(__file__).resolve().parents[2]
SCHEMA_2 = Path(__file__).with_name("schema2.db")
ANA, BEN = "SHA256:ana", "SHA256:ben"
STARTED = SavedRoom("LGPLQP", ANA, (SavedSeat(ANA), SavedSeat(BEN)), 11, 2)
WAITING = SavedRoom("2FVTJ9", BEN, (SavedSeat(BEN), SavedSeat(None, True), SavedSeat()), None, None)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def pragma(path: Path, name: str) -> int:
    with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)) as raw:
        value: int = raw.execute(f"PRAGMA {name}").fetchone()[0]
        return value


def tables(path: Path) -> set[str]:
    with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)) as raw:
        return {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


@pytest.fixture
def old(tmp_path: Path) -> Path:
    """A copy of the schema-2 file (never the file beside this module: it is opened for writing)."""
    copy = tmp_path / "lagoon.db"
    shutil.copyfile(SCHEMA_2, copy)
    return copy


def test_the_file_of_schema_2_is_what_lagoon_wrote_then():
    assert pragma(SCHEMA_2, "user_version") == 2 and pragma(SCHEMA_2, "application_id") == APP_ID
    assert {"games", "events", "moves", "leases", "serve_players", "serve_rooms"} <= tables(SCHEMA_2)


def test_a_file_of_schema_2_opened_to_write_becomes_schema_3_in_place_keeping_games_players_and_rooms(old):
    with Store(old, read_only=True) as reader:
        games, logs = reader.games(), {g.id: reader.load(g.id).events for g in reader.games()}
    assert [(g.id, g.length) for g in games] == [(2, 27), (1, 37)]
    with Store(old) as store:
        assert store.games() == games and {g.id: store.load(g.id).events for g in games} == logs
        assert store.players() == {ANA: "Ana", BEN: "Ben"}
        assert store.rooms() == [STARTED, WAITING]
    assert pragma(old, "user_version") == SCHEMA == 4 and pragma(old, "application_id") == APP_ID
    assert "serve_rematches" in tables(old)  # (schema 4: the lobby's rematches, issue 35)


def test_the_lobby_over_a_file_of_schema_2_knows_its_players_and_rooms(old):
    with Store(old) as store:
        lobby = Lobby(store, CONTENT)
        assert lobby.names == {ANA: "Ana", BEN: "Ben"}
        open_rooms = lobby.lobby_for(ANA)["open"]
        assert [room["code"] for room in open_rooms] == ["2FVTJ9"]
        assert [s["name"] for s in open_rooms[0]["seats"]] == ["Ben", "Computer", None]
        assert lobby.rooms["LGPLQP"].game == 2 and [s.key for s in lobby.rooms["LGPLQP"].seats] == [ANA, BEN]


def test_a_file_of_schema_2_that_never_served_is_given_the_lobbys_tables(old):
    with closing(sqlite3.connect(old)) as raw:  # (as `lagoon play` left a file of schema 2: no lobby in it)
        raw.executescript("DROP TABLE serve_players; DROP TABLE serve_rooms;")
    with Store(old) as store:
        assert store.players() == {} and store.rooms() == [] and len(store.games()) == 2
        store.name_player(ANA, "Ana")
    assert pragma(old, "user_version") == SCHEMA and {"serve_players", "serve_rooms"} <= tables(old)
    with Store(old, read_only=True) as reader:
        assert reader.players() == {ANA: "Ana"}


@pytest.mark.parametrize("lobby", [True, False], ids=["with its lobby", "without a lobby"])
def test_a_file_of_schema_2_opened_to_read_is_read_as_it_is_and_not_a_byte_changes(old, lobby):
    if not lobby:
        with closing(sqlite3.connect(old)) as raw:
            raw.executescript("DROP TABLE serve_players; DROP TABLE serve_rooms;")
    before = digest(old)
    with Store(old, read_only=True) as reader:
        assert [g.id for g in reader.games()] == [2, 1] and len(reader.load(1).events) == 37
        assert reader.players() == ({ANA: "Ana", BEN: "Ben"} if lobby else {})
        assert reader.rooms() == ([STARTED, WAITING] if lobby else [])
        with pytest.raises(StoreError):  # (and a write is refused)
            reader.name_player(ANA, "Anna")
    assert sorted(p.name for p in old.parent.iterdir()) == ["lagoon.db"]  # (no -wal file was left either)
    assert digest(old) == before and pragma(old, "user_version") == 2


def test_a_file_of_schema_3_opens_with_its_players_and_rooms_and_a_started_room_plays_on(tmp_path):
    path = tmp_path / "lagoon.db"

    async def serve_once() -> tuple[str, int]:
        with Store(path) as store:
            lobby = Lobby(store, CONTENT)
            lobby._answer(ANA, "name", {"name": "Ana"})
            lobby._answer(BEN, "name", {"name": "Ben"})
            code = lobby._answer(ANA, "create", {"seats": ["person", "person"], "seed": 3})["code"]
            lobby._answer(BEN, "join", {"code": code})
            lobby._answer(ANA, "start", {"code": code})
            game = lobby.rooms[code].game
            assert game is not None
            lobby.close("The server is stopping.")
            return code, game

    async def serve_again(code: str, game: int) -> int:
        with Store(path) as store:
            lobby = Lobby(store, CONTENT)
            assert await lobby.open_rooms() == []
            room = lobby.rooms[code].room
            assert room is not None
            host = room.host
            prompt = host.scene(host.turn().seat).prompt
            assert prompt is not None and host.choose(prompt.options[0].id)
            lobby.close("The server is stopping.")
            return store.info(game).length

    code, game = asyncio.run(serve_once())
    assert pragma(path, "user_version") == SCHEMA
    with Store(path, read_only=True) as reader:
        assert reader.players() == {ANA: "Ana", BEN: "Ben"}
        assert reader.rooms() == [SavedRoom(code, ANA, (SavedSeat(ANA), SavedSeat(BEN)), 3, game)]
        length = reader.info(game).length
    assert asyncio.run(serve_again(code, game)) > length


@pytest.mark.parametrize("how", ["newer", "foreign"])
def test_a_file_of_a_newer_schema_or_another_programs_is_refused_untouched_lobby_and_all(old, how):
    with closing(sqlite3.connect(old)) as raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA + 1}" if how == "newer" else "PRAGMA application_id = 0")
    before = digest(old)
    for read_only in (False, True):
        with pytest.raises(StoreError, match="newer Lagoon" if how == "newer" else "not a Lagoon save file"):
            Store(old, read_only=read_only)
    assert digest(old) == before


def test_a_room_whose_row_cannot_be_read_is_told_as_damaged_and_left_as_it_is(old):
    with closing(sqlite3.connect(old)) as raw, raw:
        raw.execute("UPDATE serve_rooms SET seats = '[{\"key\": 7}]' WHERE code = '2FVTJ9'")

    def row() -> tuple[object, ...]:
        with closing(sqlite3.connect(f"{old.resolve().as_uri()}?mode=ro&immutable=1", uri=True)) as raw:
            found: tuple[object, ...] = raw.execute("SELECT * FROM serve_rooms WHERE code = '2FVTJ9'").fetchone()
            return found

    damaged = row()

    async def serve() -> list[str]:
        with Store(old) as store:
            lobby = Lobby(store, CONTENT)
            assert "2FVTJ9" not in lobby.rooms
            problems = await lobby.open_rooms()
            lobby._answer(BEN, "create", {"seats": ["person", "person"]})  # (another room is saved)
            lobby.close("The server is stopping.")
            return problems

    problems = asyncio.run(serve())
    assert any(p.startswith("room 2FVTJ9 in ") and "damaged: its seats cannot be read" in p for p in problems)
    assert row() == damaged


def test_a_computers_level_is_kept_with_its_seat_and_a_level_that_is_not_text_is_damage(tmp_path):
    path = tmp_path / "lagoon.db"
    room = SavedRoom("HARD22", ANA, (SavedSeat(ANA), SavedSeat(None, True, "hard"), SavedSeat(None, True, "easy")))
    with Store(path) as store:
        store.save_room(room)
        assert store.rooms() == [room]
    with closing(sqlite3.connect(path)) as raw, raw:
        raw.execute("""UPDATE serve_rooms SET seats = '[{"key": null, "computer": true, "level": 3}]'""")
    with Store(path, read_only=True) as reader:
        assert reader.rooms()[0].damage == "its seats cannot be read"


def test_a_file_made_for_nothing_but_a_player_is_kept(tmp_path):
    path = tmp_path / "new" / "lagoon.db"
    store = Store(path)
    store.name_player(ANA, "Ana")
    store.forget_if_unused()
    with Store(path, read_only=True) as reader:
        assert reader.players() == {ANA: "Ana"}
    Store(tmp_path / "other" / "lagoon.db").forget_if_unused()
    assert not (tmp_path / "other").exists()  # (a file that holds nothing still goes)


# --- the store alone opens the file ----------------------------------------------------------------
# That no module of rules/ or lagoon_tui/ but the store imports sqlite3 is the contract `one-writer` in
# pyproject.toml (`lint-imports`); here is what a contract cannot see: bench/, outside its packages, and
# SQLite's module named as a string (`__import__`, `importlib.import_module`).

STORE = "rules/saves/store.py"
SOURCES = ("rules", "lagoon_tui", "bench")


def opens_sqlite(source: str, imports: bool = True) -> list[str]:
    """Each place in a module that reaches SQLite, as "line N: what" (its imports too, with `imports`)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if not imports and isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Import):
            found += [f"line {line}: import {a.name}" for a in node.names if a.name.split(".")[0] == "sqlite3"]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "sqlite3":
            found.append(f"line {line}: from {node.module}")
        elif isinstance(node, ast.Constant) and node.value == "sqlite3":  # __import__, import_module
            found.append(f"line {line}: 'sqlite3'")
    return found


def test_nothing_but_the_store_opens_the_save_file():
    modules = {
        str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
        for top in SOURCES
        for path in sorted((ROOT / top).rglob("*.py"))
    }
    assert STORE in modules and "lagoon_tui/serve/lobby.py" in modules and len(modules) > 100, "walked nothing"
    assert opens_sqlite(modules.pop(STORE)), "the walk does not find the store's own SQLite"
    opening = {
        path: what for path, source in modules.items() if (what := opens_sqlite(source, path.startswith("bench/")))
    }
    assert opening == {}


@pytest.mark.parametrize(
    "source",
    [
        "import sqlite3\ndb = sqlite3.connect(store.path)",  # (the lobby did, before schema 3)
        "from sqlite3 import connect",
        'db = __import__("sqlite3").connect(store.path, isolation_level=None)',  # (bench/serve_load.py did)
        'import importlib\nsql = importlib.import_module("sqlite3")',
    ],
)
def test_the_walk_finds_each_way_a_module_could_open_the_file(source):
    assert opens_sqlite(source)
