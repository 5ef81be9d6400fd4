"""`lagoon list / delete / export / import / resume` and `--db`, run as real processes.

Problems with the save file must come out as one sentence and exit code 2,
never a traceback: a foreign file, a read-only folder, a full disk.
"""

from __future__ import annotations

import hashlib
import os
import resource
import shutil
import signal
from pathlib import Path

import pytest

from rules import Engine, load_content
from rules.saves import Store
from rules.saves.recorder import record_new
from tests.helpers.commands import checkpointed, lagoon, no_traceback, tree

CONTENT = load_content()


@pytest.fixture
def db(tmp_path) -> Path:
    path = tmp_path / "lagoon.db"
    with Store(path) as store:
        for seed, names in ((1, ["Ana", "Ben"]), (2, ["Cleo", "Dev", "Eli"])):
            engine = Engine.new(CONTENT, names, seed=seed)
            record_new(store, engine)
            for _ in range(20):
                engine.choose(engine.legal_ids()[0])
    return path


def test_list_shows_every_game_with_players_round_and_status(db):
    result = lagoon("--db", str(db), "list")
    assert result.returncode == 0, result.stderr
    assert "Ana, Ben" in result.stdout and "Cleo, Dev, Eli" in result.stdout
    assert "to play" in result.stdout


def test_list_says_so_when_there_are_no_games(tmp_path):
    result = lagoon("list", "--db", str(tmp_path / "new.db"))
    assert result.returncode == 0 and "No saved games" in result.stdout


def test_delete_asks_and_refuses_without_an_answer(db):
    result = lagoon("--db", str(db), "delete", "1")  # stdin is empty: no answer
    assert result.returncode == 2 and "--yes" in result.stderr
    result = lagoon("--db", str(db), "delete", "1", stdin="n\n")
    assert result.returncode == 1 and "Nothing was deleted" in result.stdout
    with Store(db) as store:
        assert len(store.games()) == 2
    result = lagoon("--db", str(db), "delete", "1", stdin="y\n")
    assert result.returncode == 0 and "Deleted game 1" in result.stdout
    result = lagoon("--db", str(db), "delete", "2", "--yes")
    assert result.returncode == 0
    with Store(db) as store:
        assert store.games() == []


def test_unknown_game_is_a_message(db):
    for argv in (("delete", "9", "--yes"), ("export", "9", "x.json"), ("resume", "9")):
        result = lagoon("--db", str(db), *argv)
        assert result.returncode == 2 and "no game 9" in result.stderr
        no_traceback(result)


def test_export_and_import_on_the_command_line(db, tmp_path):
    out = tmp_path / "game.json"
    result = lagoon("--db", str(db), "export", "2", str(out))
    assert result.returncode == 0 and out.exists()
    other = tmp_path / "other.db"  # (into the same file it is refused: it is game 2 already)
    result = lagoon("--db", str(other), "import", str(out))
    assert result.returncode == 0 and "as game 1" in result.stdout
    out.write_text(out.read_text().replace('"IslandChosen"', '"IslandStolen"', 1))
    result = lagoon("--db", str(other), "import", str(out))
    assert result.returncode == 2 and "unknown type 'IslandStolen'" in result.stderr
    no_traceback(result)


def test_resume_without_an_unfinished_game_says_so(tmp_path):
    result = lagoon("--db", str(tmp_path / "empty.db"), "resume")
    assert result.returncode == 2 and "no unfinished game" in result.stderr


def test_a_foreign_file_stops_every_command_and_stays_untouched(tmp_path):
    path = tmp_path / "thesis.db"
    path.write_text("Chapter 1\n" * 100)
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    for argv in (("list",), ("resume",), ("play", "Ana", "Ben"), ("delete", "1", "--yes"), ()):
        result = lagoon("--db", str(path), *argv)
        assert result.returncode == 2, argv
        assert "not a Lagoon save file" in result.stderr
        no_traceback(result)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


def _file_size_limit(most: int):
    """What a child runs first so that its files cannot grow past `most` bytes."""

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes past the limit fail with EFBIG, as on a full disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (most, most))

    return limit


def test_a_full_disk_is_a_message_not_a_traceback(db, tmp_path):
    big = tmp_path / "big.json"
    engine = Engine.new(CONTENT, ["Ana", "Ben", "Cleo", "Dev"], seed=4)
    fresh = tmp_path / "fresh.db"
    with Store(fresh) as store:
        game = record_new(store, engine)
        while engine.state.phase != "over":
            engine.choose(engine.legal_ids()[-1 if len(engine.events) % 3 else 0])
        from rules.saves.archive import export_game

        export_game(store, game, big)
    empty = tmp_path / "empty.db"
    with Store(empty):
        pass  # (room for an empty save file and a little more: the disk fills during the import)
    target = tmp_path / "full.db"
    result = lagoon("--db", str(target), "import", str(big), preexec=_file_size_limit(empty.stat().st_size + 16 * 1024))
    assert result.returncode == 2, result.stdout
    assert "disk is full" in result.stderr and "Nothing was imported" in result.stderr
    no_traceback(result)
    with Store(target) as store:
        assert store.games() == []


NO_OVERRIDE = ["setpriv", "--inh-caps=-dac_override,-dac_read_search", "--bounding-set=-dac_override,-dac_read_search"]
"""Root may write anywhere; without these two capabilities it obeys the folder's permissions."""


@pytest.mark.skipif(
    os.geteuid() == 0 and shutil.which("setpriv") is None,
    reason="running as root without setpriv, so no folder is read-only",
)
def test_a_read_only_folder_is_a_message_not_a_traceback(tmp_path):
    folder = tmp_path / "saves"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        prefix = NO_OVERRIDE if os.geteuid() == 0 else []
        result = lagoon("--db", str(folder / "lagoon.db"), "play", "Ana", "Ben", prefix=prefix)
        assert result.returncode == 2, result.stdout + result.stderr
        assert "read-only" in result.stderr
        no_traceback(result)
        listed = lagoon("--db", str(folder / "lagoon.db"), "list", prefix=prefix)  # (it only looks: nothing to see)
        assert listed.returncode == 0 and "No saved games" in listed.stdout, listed.stderr
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)


@pytest.mark.parametrize("kind", ["/dev/null", "fifo"])
def test_a_device_or_a_pipe_as_the_save_file_is_refused_for_what_it_is(kind, tmp_path):
    """--db /dev/null took every write and kept none, and was then "the disk is full"; a pipe waited for ever."""
    path = Path(kind) if kind.startswith("/") else tmp_path / kind
    if kind == "fifo":
        os.mkfifo(path)
    result = lagoon("--db", str(path), "list")
    no_traceback(result)
    assert result.returncode == 2 and f"{path} is not a regular file" in result.stderr
    assert "disk is full" not in result.stderr


NOTHING_THERE = {
    "list": (["list"], 0, "No saved games"),
    "export": (["export", "1", "out.json"], 2, "There is no game 1"),
    "delete": (["delete", "1", "--yes"], 2, "There is no game 1"),
    "resume a game": (["resume", "1"], 2, "There is no game 1"),
    "resume": (["resume"], 2, "There is no unfinished game"),
    "play": (["play", "Ana", "Ben"], 2, "needs a terminal"),
    "title": ([], 2, "needs a terminal"),
}


@pytest.mark.parametrize("argv, code, said", NOTHING_THERE.values(), ids=NOTHING_THERE.keys())
def test_a_command_on_a_save_file_that_is_not_there_makes_nothing(tmp_path, argv, code, said):
    """Issue 32, point 9: `export` or `delete` of a game not there, and `play` without a terminal, made the
    save file (and its missing folders)."""
    db = tmp_path / "not" / "yet" / "lagoon.db"
    result = lagoon("--db", str(db), *argv)
    no_traceback(result)
    assert result.returncode == code and said in result.stdout + result.stderr, result.stderr
    assert tree(tmp_path) == {}


def test_a_refused_command_leaves_every_file_as_it_was(db, tmp_path):
    """No lease, no -wal file left, no changed byte or time: resume without a terminal wrote its lease."""
    checkpointed(db)
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "lagoon-game", "version": 2}')
    before = tree(tmp_path)
    for argv in (
        ["export", "9", str(tmp_path / "out.json")],
        ["delete", "9", "--yes"],
        ["delete", "1"],  # (no answer)
        ["resume", "9"],
        ["resume", "1"],  # (no terminal)
        ["resume", "1", "--take-over"],
        ["resume"],
        ["play", "Ana", "Ben"],
        ["import", str(broken)],
    ):
        result = lagoon("--db", str(db), *argv)
        no_traceback(result)
        assert result.returncode == 2, (argv, result.stderr)
        assert tree(tmp_path) == before, argv


def _no_room_at_all() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))  # not a byte can be written: a disk that is full


def test_a_save_file_that_cannot_be_made_on_a_full_disk_leaves_nothing(db, tmp_path):
    """A full disk left a 0-byte save file (and the folders made for it)."""
    out = tmp_path / "game.json"
    assert lagoon("--db", str(db), "export", "1", str(out)).returncode == 0
    before = tree(tmp_path)
    target = tmp_path / "new" / "folder" / "lagoon.db"
    result = lagoon("--db", str(target), "import", str(out), preexec=_no_room_at_all)
    no_traceback(result)
    assert result.returncode == 2 and f"Could not save to {target}: the disk is full" in result.stderr, result.stderr
    assert tree(tmp_path) == before


def test_list_marks_the_seats_computers_played_with_their_level(tmp_path):
    path = tmp_path / "lagoon.db"
    with Store(path) as store:
        record_new(store, Engine.new(CONTENT, ["Ana", "Ben"], seed=3), computers={1: "hard"})
    result = lagoon("--db", str(path), "list")
    assert result.returncode == 0, result.stderr
    rows = [line.split("│")[1:-1] for line in result.stdout.splitlines() if line.startswith("│")]
    players = " ".join(" ".join(row[2].split()) for row in rows if row[2].strip())  # (the column wraps)
    assert players == "Ana, Ben (computer, Hard)"
