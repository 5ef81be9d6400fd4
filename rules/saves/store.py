"""The event store: every game's log in one SQLite file (WAL mode).

Tables:
- `games`: one row per game (seed, seats, content fingerprint, status, schema
  version, and a summary for the Load list: round, scores, whose decision).
  `length` is how many events the game's log holds now.
- `events`: append-only. Each row is one event with `pos`, its place in the
  game's log. An undo never deletes rows: it writes a `moves` row and cuts
  `games.length` back; later events then reuse the positions they overwrite.
- `moves`: append-only. One row per accepted choice (with the seat and the
  option picked) and one per undo, so undo still works after a resume.
- `leases` (schema 2): who may write a game now, at most one row per game:
  the process (pid and host) and the random token of the `Store` that opened
  it for writing. Every write checks, in its transaction, that this store still
  holds the game and that the log is as long as the writer believes, so two
  windows on one game can never both write to it (docs/saves.md section 9).
- `serve_players` and `serve_rooms` (schema 3): the lobby of `lagoon serve`,
  each player's name by the fingerprint of their SSH key, and each room with
  its seats and, once started, its game (`rooms.SavedRoom`).
- `serve_clocks`, `serve_vacations`, `serve_notices` (schema 4): games over
  days: each room's pace and the clock of the seat deciding (seconds left,
  and since when they run, as wall-clock time), each player's vacation and
  the days of it they took this year, and the URL a player gave for notices
  with when each game last sent one (JSON: room code -> time).
- `serve_private_rooms` and `serve_watchers` (schema 4): which rooms are
  private (a row each: listed only to their players, joined only by code), and
  who watches which room (a spectator waiting for it to start, or watching its
  game), so that a spectator finds it again after reconnecting.
- `serve_settings` (schema 4): each player's settings at the server, by key,
  as a JSON object (`{"hold_turns": false}`: their turns end at their last
  move, in every game of theirs).
- `serve_rematches` (schema 4): the rematch of a finished room of the lobby:
  the seats whose players accepted it, and its own room once it started
  (`rooms.SavedRematch`).
- `serve_resumes` (schema 4): the room a player's session was in when it
  ended without leaving it (a dropped connection, the server stopping), so
  that connecting again goes straight back to that seat, restart or not.

This module alone opens the file: the lobby reads and writes its tables
through a `Store` too. A file of an older schema is given what it lacks in
place when it is opened for writing; opened to read, it is read as it is.

A file that is not ours (not SQLite, or another program's SQLite) is refused
before SQLite opens it for writing, so it is never changed. Every SQLite
failure becomes a `StoreError` with a sentence a player can act on.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import sqlite3
import stat
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .. import codec
from .. import events as ev
from ..engine import JournalError, JournalLost
from ..record import FrozenRecord, Record, frozen_record, record
from ..undo import Mark
from .rooms import SavedRematch, SavedRoom, rematch_from_row, room_from_row, seats_text

APP_ID = 0x4C47_4E31  # "LGN1": marks a file as a Lagoon save, in the SQLite header
SCHEMA = 4  # 2 added the `leases` table, 3 the lobby's, 4 the games over days' (`serve_clocks`, `serve_vacations`,
# `serve_notices`), private rooms and spectators (`serve_private_rooms`, `serve_watchers`) and rematches
# (`serve_rematches`), the game each player's dropped session was in (`serve_resumes`) and each player's settings
# (`serve_settings`), and what happened at a game's table (`asides`: a computer began to play for a player who
# left); an older file is given them when opened for writing
SQLITE_MAGIC = b"SQLite format 3\x00"

TABLES = """
CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    created     TEXT NOT NULL,
    updated     TEXT NOT NULL,
    seed        INTEGER NOT NULL,
    seats       TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status      TEXT NOT NULL,
    schema      INTEGER NOT NULL,
    length      INTEGER NOT NULL,
    round       INTEGER NOT NULL DEFAULT 0,
    scores      TEXT NOT NULL DEFAULT '[]',
    deciding    INTEGER
);
CREATE TABLE IF NOT EXISTS events (
    id    INTEGER PRIMARY KEY,
    game  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    pos   INTEGER NOT NULL,
    type  TEXT NOT NULL,
    data  TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_of_game ON events(game, id);
CREATE TABLE IF NOT EXISTS moves (
    id     INTEGER PRIMARY KEY,
    game   INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    pos    INTEGER NOT NULL,
    seat   INTEGER,
    choice TEXT NOT NULL,
    at     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS moves_of_game ON moves(game, id);
CREATE TABLE IF NOT EXISTS leases (
    game  INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    host  TEXT NOT NULL,
    pid   INTEGER NOT NULL,
    token TEXT NOT NULL,
    taken TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS serve_players (
    key  TEXT PRIMARY KEY,
    name TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS serve_rooms (
    code    TEXT PRIMARY KEY,
    creator TEXT NOT NULL,
    seats   TEXT NOT NULL,
    seed    INTEGER,
    game    INTEGER
);
CREATE TABLE IF NOT EXISTS serve_clocks (
    code  TEXT PRIMARY KEY,
    pace  REAL NOT NULL,
    seat  INTEGER,
    left  REAL NOT NULL,
    since REAL
);
CREATE TABLE IF NOT EXISTS serve_vacations (
    key   TEXT PRIMARY KEY,
    until REAL,
    year  INTEGER NOT NULL,
    used  INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS serve_notices (
    key  TEXT PRIMARY KEY,
    url  TEXT NOT NULL,
    sent TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS serve_private_rooms (
    code TEXT PRIMARY KEY
);
CREATE TABLE IF NOT EXISTS serve_watchers (
    code TEXT NOT NULL,
    key  TEXT NOT NULL,
    PRIMARY KEY (code, key)
);
CREATE TABLE IF NOT EXISTS serve_rematches (
    room     TEXT PRIMARY KEY,
    accepted TEXT NOT NULL,
    next     TEXT
);
CREATE TABLE IF NOT EXISTS serve_resumes (
    key  TEXT PRIMARY KEY,
    room TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS serve_settings (
    key      TEXT PRIMARY KEY,
    settings TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS asides (
    id   INTEGER PRIMARY KEY,
    game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    pos  INTEGER NOT NULL,
    seat INTEGER,
    text TEXT NOT NULL,
    kind TEXT
);
"""

UNDO = "undo"  # the `choice` of a moves row that records an undo
ASIDE_KINDS = (None, "began", "back")  # an aside's kind: a line, a computer began to play for a seat, its player back


def _columns() -> dict[str, tuple[str, ...]]:
    """The columns of each table, as TABLES makes them."""
    conn = sqlite3.connect(":memory:")
    conn.executescript(TABLES)
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    found = {t: tuple(r[1] for r in conn.execute(f"PRAGMA table_info({t})")) for t in tables if t != "sqlite_sequence"}
    conn.close()
    return found


COLUMNS = _columns()


class StoreError(JournalError):
    """The save file cannot be used; the message says why and what to do."""


class GameLost(StoreError, JournalLost):
    """This window can no longer write the game: another took it over, changed it or deleted it."""


class GameInUse(StoreError):
    """The game is open for writing in another window (another process, or another `Store`)."""

    def __init__(self, game: int, pid: int, host: str, taken: str) -> None:
        where = "on this computer" if host == socket.gethostname() else f"on {host}"
        super().__init__(
            f"Game {game} is open in another window (process {pid} {where}, opened {taken[:16].replace('T', ' ')} UTC)."
        )
        self.game = game


PID_MAX = 2**31 - 1
"""The greatest process id a lease may hold (a pid_t); a lease with another is damaged."""
PF_EXITING = 0x4
"""The flag of a Linux process that is ending (it was killed, or returned), in field 9 of /proc/PID/stat."""


def _process(pid: int) -> tuple[str, int, int] | None:
    """The state, flags and start time (clock ticks after boot) of process `pid`, from /proc/PID/stat;
    None where there is no /proc (or no such process)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat_line = f.read().decode("ascii", "replace")
    except OSError:
        return None
    fields = stat_line[stat_line.rfind(")") + 2 :].split()  # (after the name, which may hold spaces)
    try:
        return fields[0], int(fields[6]), int(fields[19])
    except (IndexError, ValueError):
        return None


def alive(pid: int, started: int | None = None) -> bool:
    """Whether the process with this id that took a lease still runs on this computer (another user's
    counts). `started`: the start time the lease recorded for it, if any.

    `kill(pid, 0)` alone is not enough: it finds a process that was killed and has not yet been waited for
    by its parent (a zombie), one that is still ending, and a new process that was given a dead one's pid.
    Where /proc tells these apart, none of them holds a lease.
    """
    if not 0 < pid <= PID_MAX:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    except (OSError, OverflowError):  # a pid that cannot be a process
        return False
    found = _process(pid)
    if found is None:
        return not os.path.isdir("/proc/self")  # gone in between; or no /proc, and kill() is all there is
    state, flags, start = found
    if state in "ZXx" or flags & PF_EXITING:
        return False
    return started is None or start == started


def _started(token: str) -> int | None:
    """The start time of its process a lease's token records (after "@"), if it does."""
    _, at, started = token.rpartition("@")
    return int(started) if at and started.isdigit() and len(started) < 20 else None


SEED_MAX = 2**63 - 1
"""The greatest seed a game may have: it is kept in the save file as a signed 64-bit integer."""


def seed_problem(seed: int) -> str | None:
    """Why `seed` cannot seed a game (None if it can)."""
    if not 0 <= seed <= SEED_MAX:
        return f"The seed must be a whole number from 0 to {SEED_MAX}."
    return None


def default_db_path() -> Path:
    """`$XDG_DATA_HOME/lagoon/lagoon.db`, by default `~/.local/share/lagoon/lagoon.db`."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "lagoon" / "lagoon.db"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@frozen_record
class Summary(FrozenRecord):
    """What the Load list shows of a game without replaying it."""

    status: str  # "playing" | "over"
    round: int
    scores: tuple[int, ...]
    deciding: int | None


class _Damage(Exception):
    """A column of a games row that cannot be read (its name is the message)."""


def _readable(text: object, what: str) -> Any:
    """A JSON column's value; _Damage(what) if it is not JSON text of a sane depth."""
    if not isinstance(text, str):
        raise _Damage(what)
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise _Damage(what) from None


def _lease_readable(host: object, pid: object, token: object, taken: object) -> bool:
    """Whether a leases row is what Lagoon writes: a host name, a process id, a token and a time."""
    return (
        isinstance(host, str)
        and 0 < len(host) <= 255
        and host.isprintable()
        and type(pid) is int
        and 0 < pid <= PID_MAX
        and isinstance(token, str)
        and 0 < len(token) <= 64
        and codec.read_time(taken) is not None
    )


@frozen_record
class GameInfo(FrozenRecord):
    id: int
    created: str
    updated: str
    seed: int
    names: tuple[str, ...]
    colours: tuple[str, ...]
    fingerprint: str
    status: str
    round: int
    scores: tuple[int, ...]
    deciding: int | None
    length: int
    damage: str = ""  # what of its row could not be read ("" for a sound game): listed, never opened
    computers: tuple[tuple[int, str], ...] = ()  # (seat, level) of each seat a computer plays (`rules.bots.LEVELS`)

    @property
    def over(self) -> bool:
        return self.status == "over"


@record
class SavedGame(Record):
    info: GameInfo
    events: list[ev.Event] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)


def _explain(error: sqlite3.Error, path: Path) -> StoreError:
    """A sentence for a failure of SQLite, naming the file (and one naming nothing of this machine, `public`)."""
    text = str(error).lower()
    if "disk is full" in text or "disk i/o" in text:
        return StoreError(
            f"Could not save to {path}: the disk is full (or failed). Free some space and try again.",
            "The save file could not be written: its disk is full (or failed).",
        )
    if "readonly" in text or "read-only" in text or "unable to open" in text:
        return StoreError(
            f"Could not write to {path}: the file or its folder is read-only or missing. "
            "Choose another file with --db PATH.",
            "The save file could not be written: it is read-only.",
        )
    if "locked" in text or "busy" in text:
        return StoreError(
            f"{path} is busy: another Lagoon is writing to it. Try again in a moment.",
            "The save file is busy: try again in a moment.",
        )
    if "malformed" in text or "not a database" in text or "corrupt" in text:
        return StoreError(
            f"{path} is damaged ({error}). It was left as it is; move it away or choose another file with --db PATH.",
            "The save file is damaged.",
        )
    return StoreError(f"Could not use the save file {path}: {error}", "The save file could not be used.")


def _take_away(path: Path, made: list[Path] | None, *, file: bool = True) -> None:
    """Take away a save file that could not be made (and SQLite's files beside it), and the folders made for
    it, deepest first: a command that fails leaves nothing behind, not even an empty file."""
    if made is None:
        return  # the file was there before: it is never taken away
    if file:
        for name in (str(path), f"{path}-wal", f"{path}-shm", f"{path}-journal"):
            try:
                os.unlink(name)
            except OSError:
                pass
    for folder in made:  # (listed from the file's own folder up)
        try:
            folder.rmdir()
        except OSError:
            break


def _exists(path: Path) -> bool:
    """Whether `path` is there; StoreError if that cannot be known (Python 3.11's `Path.exists` raises when
    a folder on the way may not be searched, or a name is too long)."""
    try:
        return path.exists()
    except OSError as error:
        raise StoreError(
            f"Cannot reach {path}: {error.strerror or error} (a folder on the way to it may not be opened, "
            "or a name in it is too long). Choose another file with --db PATH."
        ) from None


def check_can_make(path: Path) -> None:
    """Refuse, making nothing, a save file that is not there and could not be made: a file in the way of
    its folder, or a folder Lagoon may not write to (a file that is there is checked by opening it)."""
    if _exists(path):
        return
    folder = path.parent
    while not _exists(folder) and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise StoreError(
            f"Cannot create the folder {path.parent} for saved games: {folder} is a file. "
            "Choose another file with --db PATH."
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StoreError(
            f"Could not write to {path}: the file or its folder is read-only or missing. "
            "Choose another file with --db PATH."
        )


def check_header(path: Path) -> None:
    """Refuse a file that is not a Lagoon save, reading only its first 100 bytes (and nothing but a
    regular file: /dev/null would take every write and keep none, and a pipe would wait for ever)."""
    try:
        kind = path.stat().st_mode
        if stat.S_ISDIR(kind):
            raise StoreError(f"{path} is a folder, not a save file. Give a file name with --db PATH.")
        if not stat.S_ISREG(kind):
            raise StoreError(
                f"{path} is not a regular file (a device or a pipe cannot keep saved games). "
                "Give a file name with --db PATH."
            )
        with open(path, "rb") as f:
            head = f.read(100)
    except OSError as error:
        raise StoreError(f"Cannot read the save file {path}: {error.strerror}.") from None
    if not head:
        return  # an empty file: SQLite makes it a new database, nothing is lost
    if len(head) < 100 or not head.startswith(SQLITE_MAGIC):
        raise StoreError(
            f"{path} is not a Lagoon save file (it is not an SQLite database). "
            "It was left as it is; choose another file with --db PATH."
        )
    app_id = int.from_bytes(head[68:72], "big")
    if app_id != APP_ID:
        raise StoreError(
            f"{path} is another program's SQLite database, not a Lagoon save file. "
            "It was left as it is; choose another file with --db PATH."
        )


class Store:
    """An open save file. Use as a context manager, or call `close()`."""

    def __init__(self, path: Path | str | None = None, *, synchronous: str = "NORMAL", read_only: bool = False) -> None:
        """Open the save file at `path` (by default `default_db_path()`).

        `read_only`: for a command that only looks (list, export, the checks before resume, delete or
        import). Then nothing is made or written, not even a missing file or folder: a file that is not
        there reads as one without games, and a write is refused by SQLite itself (`query_only`).
        Otherwise a missing file is made with its folders, and if that fails (a full disk, a read-only
        folder) whatever was made is taken away again.
        """
        self.path = Path(path) if path is not None else default_db_path()
        # who this store is, for the games it holds (see `hold`): a new token for each Store, with the start
        # time of this process, so that a lease is known to be another process's even when its pid is reused
        self.host, self.pid = socket.gethostname(), os.getpid()
        started = _process(self.pid)
        self.token = secrets.token_hex(8) + ("" if started is None else f"@{started[2]}")
        self.held: set[int] = set()  # the games this store has opened for writing
        self.read_only = read_only
        self.made: list[Path] | None = None  # the folders made for a file this store made (None: it was there)
        if read_only:
            self._open_to_read()
            return
        self.made = made = self._make_room()
        try:
            self.conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as error:
            _take_away(self.path, made)
            raise _explain(error, self.path) from None
        self._readable_text()
        try:
            self._check()
            self._prepare(synchronous)
        except (sqlite3.Error, StoreError) as error:
            self.conn.close()
            _take_away(self.path, made)
            raise _explain(error, self.path) if isinstance(error, sqlite3.Error) else error from None

    def _make_room(self) -> list[Path] | None:
        """Check an existing file is ours, or make the folders of a new one; what was made, to take away if
        the file cannot be made after all (None: the file was there already)."""
        if _exists(self.path):
            check_header(self.path)
            return None
        missing = [folder for folder in (self.path.parent, *self.path.parent.parents) if not _exists(folder)]
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            _take_away(self.path, missing, file=False)
            raise StoreError(
                f"Cannot create the folder {self.path.parent} for saved games: "
                f"{error.strerror}. Choose another file with --db PATH."
            ) from None
        return missing

    def _open_to_read(self) -> None:
        """Open for reading only; a file that is not there (or empty) reads as a file without games."""
        exists = _exists(self.path)
        if exists:
            check_header(self.path)  # (which reads it: a file that cannot be read is a sentence)
        if exists and self.path.stat().st_size > 0:
            # A reader with no -wal file to read opens as a writer would, and SQLite takes away the -wal
            # and -shm files it makes when it closes; a read-only connection would leave them behind. With
            # a -wal file there (a writer is at work, or was killed), or in a folder it may not write to,
            # it opens read-only, so that closing it never copies that file into the save file.
            wal = _exists(Path(f"{self.path}-wal")) or not os.access(self.path.parent, os.W_OK | os.X_OK)
            mode = "ro" if wal else "rw"
            try:
                self.conn = sqlite3.connect(
                    f"{self.path.resolve().as_uri()}?mode={mode}",
                    uri=True,
                    isolation_level=None,
                    check_same_thread=False,
                )
            except sqlite3.Error as error:
                raise _explain(error, self.path) from None
            self._readable_text()
            try:
                tables = self._check()
                # a file of an older schema is read as it is: what it lacks reads as empty (no game in a file
                # of schema 1 is held; a file of schema 2 has no lobby, or the tables its lobby made)
                for table in sorted(set(COLUMNS) - tables):
                    self.conn.execute(f"CREATE TEMP TABLE {table} ({', '.join(COLUMNS[table])})")
            except (sqlite3.Error, StoreError) as error:
                self.conn.close()
                raise _explain(error, self.path) if isinstance(error, sqlite3.Error) else error from None
            if not {"games", "events", "moves"} <= tables:  # an SQLite file with nothing in it yet
                self.conn.close()
                exists = False
        if not exists or self.path.stat().st_size == 0:
            self.conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            self.conn.executescript(TABLES)
        self.conn.execute("PRAGMA query_only = ON")

    def _readable_text(self) -> None:
        # text that is not UTF-8 (a damaged page) is read with U+FFFD where it went wrong: the row it is in
        # is then damaged, as a row that cannot be read is, instead of stopping every query of the table
        self.conn.text_factory = lambda data: data.decode("utf-8", "replace")

    def _check(self) -> set[str]:
        """Refuse a file that is not a Lagoon save Lagoon can use, only reading it; its tables."""
        c = self.conn
        c.execute("PRAGMA busy_timeout = 3000")
        version = c.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA:
            raise StoreError(
                f"{self.path} was written by a newer Lagoon (save format {version}; "
                f"this one reads up to {SCHEMA}). It was left as it is."
            )
        tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if version == 0 and tables - {"sqlite_sequence"}:
            raise StoreError(
                f"{self.path} is another program's SQLite database, not a Lagoon save file. "
                "It was left as it is; choose another file with --db PATH."
            )
        lost = {"games", "events", "moves"} - tables
        if version >= 1 and lost:  # ours, but a table of its games is gone: nothing is made up for it
            raise StoreError(
                f"{self.path} is damaged: its table{'s' if len(lost) > 1 else ''} of "
                f"{' and '.join(sorted(lost))} {'are' if len(lost) > 1 else 'is'} missing. "
                "It was left as it is; choose another file with --db PATH."
            )
        if version >= 1:  # ours: but a table that lacks a column Lagoon writes was not made by it
            for table in sorted(tables & set(COLUMNS)):
                lacks = [
                    col for col in COLUMNS[table] if col not in {r[1] for r in c.execute(f"PRAGMA table_info({table})")}
                ]
                if lacks:
                    raise StoreError(
                        f"{self.path} is damaged: its table of {table} lacks the column"
                        f"{'s' if len(lacks) > 1 else ''} {', '.join(lacks)}. It was left as it is; "
                        "choose another file with --db PATH."
                    )
        return tables

    def _prepare(self, synchronous: str) -> None:
        """Make a checked file ready for writing: marked, in WAL mode, with every table."""
        c = self.conn
        version = c.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if version == 0:
            # Marked while still in rollback mode, so the mark is in the main file's
            # header at once (in WAL mode it could wait in the -wal file).
            c.execute(f"PRAGMA application_id = {APP_ID}")
            c.execute(f"PRAGMA user_version = {SCHEMA}")
        c.execute("PRAGMA journal_mode = WAL")
        c.execute(f"PRAGMA synchronous = {synchronous}")
        c.execute("PRAGMA foreign_keys = ON")
        if version < SCHEMA or not set(COLUMNS) <= tables:
            # a new file, or one of an older schema (1: no `leases`; 2: no lobby, unless its lobby made the
            # tables it has now): given what it lacks, in place, and marked as of this schema
            c.executescript("BEGIN IMMEDIATE;" + TABLES + f"PRAGMA user_version = {SCHEMA};" + "COMMIT;")

    # --- housekeeping ------------------------------------------------------------------

    def close(self) -> None:
        """Let go of the games this store holds, then of the file."""
        if self.held:  # (a store that only read writes nothing, even now)
            try:
                self.release()
            except StoreError:
                pass  # a lease left behind is taken over once this process is gone
        try:
            self.conn.close()
        except sqlite3.Error:
            pass

    def forget_if_unused(self) -> None:
        """Close, and take away the file this store made if it holds nothing (no game, nor a player or room
        of `lagoon serve`) and nothing else has it open (a command that failed after making it leaves
        nothing behind)."""
        if self.made is None or self.read_only:
            self.close()
            return
        # The file goes only while no other connection has it open: leaving WAL mode is refused while one
        # has. So the mode is changed only after a count in an exclusive transaction found no game, and the
        # count is made again, locked to the end, in rollback mode (where the lock keeps out readers too).
        # A game that arrived in between (from a window that opened, saved and closed) keeps the file, and
        # the file is put back in WAL mode: it is never left in rollback mode.
        c, switched, alone = self.conn, False, False
        try:
            if self._empty_locked():
                c.execute("COMMIT")
                switched = c.execute("PRAGMA journal_mode = DELETE").fetchone()[0] == "delete"
                alone = switched and self._empty_locked()
        except sqlite3.Error:
            alone = False
        if alone:
            _take_away(self.path, self.made)  # (still locked: nobody can open it meanwhile)
        else:
            try:
                if c.in_transaction:
                    c.execute("ROLLBACK")
                if switched:
                    c.execute("PRAGMA journal_mode = WAL")
            except sqlite3.Error:
                pass  # (rollback mode is still a sound file, and the next store to write sets WAL again)
        self.close()

    def _empty_locked(self) -> bool:
        """In a new exclusive transaction (left open): whether the file holds no game, player or room."""
        self.conn.execute("BEGIN EXCLUSIVE")
        counted = " + ".join(f"(SELECT count(*) FROM {t})" for t in ("games", "serve_players", "serve_rooms"))
        return bool(self.conn.execute(f"SELECT {counted}").fetchone()[0] == 0)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One transaction: all of it is saved, or (on any failure) none of it."""
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise _explain(error, self.path) from None
        try:
            yield self.conn
            self.conn.execute("COMMIT")
        except BaseException as error:
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            if isinstance(error, sqlite3.Error):
                raise _explain(error, self.path) from None
            raise

    def _read(self, sql: str, args: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        try:
            return self.conn.execute(sql, args).fetchall()
        except sqlite3.Error as error:
            raise _explain(error, self.path) from None

    # --- writing ---------------------------------------------------------------------

    def create(
        self,
        *,
        seed: int,
        names: Sequence[str],
        colours: Sequence[str],
        fingerprint: str,
        events: Sequence[ev.Event],
        marks: Sequence[Mark],
        summary: Summary,
        computers: Mapping[int, str] | None = None,
    ) -> int:
        """Save a new game with its log so far; its id. `computers`: the seats a computer plays, with its level."""
        self.refuse_if_damaged()
        computers = computers or {}
        seats = json.dumps(
            [
                {"name": n, "colour": c, **({"computer": computers[seat]} if seat in computers else {})}
                for seat, (n, c) in enumerate(zip(names, colours))
            ]
        )
        stamp = now()
        with self._tx() as c:
            cur = c.execute(
                "INSERT INTO games (created, updated, seed, seats, fingerprint, status, schema, length,"
                " round, scores, deciding) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (
                    stamp,
                    stamp,
                    seed,
                    seats,
                    fingerprint,
                    summary.status,
                    SCHEMA,
                    len(events),
                    summary.round,
                    json.dumps(list(summary.scores)),
                    summary.deciding,
                ),
            )
            game = cur.lastrowid
            assert game is not None  # (an INSERT gives the id of its row)
            self._lease(c, game)
            self._insert_events(c, game, 0, events)
            c.executemany(
                "INSERT INTO moves (game, pos, seat, choice, at) VALUES (?,?,?,?,?)",
                [(game, m.pos, m.seat, m.choice, stamp) for m in marks],
            )
        return game

    def append(self, game: int, start: int, events: Sequence[ev.Event], mark: Mark, summary: Summary) -> None:
        """Save one accepted choice: its events and its move, in one transaction.

        Only while this store holds the game and its saved log is `start` events
        long, as the engine that made the choice believes: otherwise another
        window has written to it and nothing is saved (see `_check_writer`).
        """
        stamp = now()
        with self._tx() as c:
            self._check_writer(c, game, start)
            self._insert_events(c, game, start, events)
            c.execute(
                "INSERT INTO moves (game, pos, seat, choice, at) VALUES (?,?,?,?,?)",
                (game, mark.pos, mark.seat, mark.choice, stamp),
            )
            self._touch(c, game, start + len(events), summary, stamp)

    def rewind(self, game: int, length: int, seat: int | None, summary: Summary, *, was: int) -> None:
        """Save an undo: the game's log, `was` events long, is cut back to `length` events."""
        stamp = now()
        with self._tx() as c:
            self._check_writer(c, game, was)
            c.execute(
                "INSERT INTO moves (game, pos, seat, choice, at) VALUES (?,?,?,?,?)", (game, length, seat, UNDO, stamp)
            )
            # (an aside after the moves taken back stays, at the log's new end: it happened)
            c.execute("UPDATE asides SET pos = ? WHERE game = ? AND pos > ?", (length, game, length))
            self._touch(c, game, length, summary, stamp)

    def _check_writer(self, c: sqlite3.Connection, game: int, length: int) -> None:
        """Refuse a write unless this store holds `game` and its saved log is `length` events long."""
        saved = c.execute("SELECT length FROM games WHERE id = ?", (game,)).fetchone()
        if saved is None:  # (its lease went with it)
            raise GameLost(
                f"Game {game} was deleted from {self.path} in another window or by `lagoon delete`, "
                "so this window can no longer save it. Its moves until now went with it."
            )
        row = c.execute("SELECT token FROM leases WHERE game = ?", (game,)).fetchone()
        if row is None or row[0] != self.token:
            raise GameLost(
                f"Game {game} was taken over by another window, so this one can no longer "
                "change it. Close this window; the game goes on in the other one."
            )
        if saved[0] != length:
            raise GameLost(
                f"Game {game} was changed in another window (its saved log has {saved[0]} events, "
                f"this window's {length}). Close this window and resume the game to see it as saved."
            )

    def _lease(self, c: sqlite3.Connection, game: int) -> None:
        self.held.add(game)  # (if the transaction fails, releasing it later does no harm)
        c.execute(
            "INSERT OR REPLACE INTO leases (game, host, pid, token, taken) VALUES (?,?,?,?,?)",
            (game, self.host, self.pid, self.token, now()),
        )

    def hold(self, game: int, *, take_over: bool = False) -> None:
        """Open `game` for writing: this store alone may write to it until it lets go.

        A game held by another window is refused with `GameInUse`, unless
        `take_over` is given (the player chose to), or its holder has gone: a
        process on this computer that no longer runs (it crashed or was killed).
        """
        with self._tx() as c:
            self._may_hold(c, game, take_over)
            self._lease(c, game)

    def check_free(self, game: int) -> None:
        """Refuse as `hold` would (GameInUse; no such game; its lease damaged), writing nothing."""
        try:
            self._may_hold(self.conn, game, take_over=False)
        except sqlite3.Error as error:
            raise _explain(error, self.path) from None

    def _may_hold(self, c: sqlite3.Connection, game: int, take_over: bool) -> None:
        if c.execute("SELECT 1 FROM games WHERE id = ?", (game,)).fetchone() is None:
            raise StoreError(f"There is no game {game} in {self.path}. `lagoon list` shows the saved games.")
        row = c.execute("SELECT host, pid, token, taken FROM leases WHERE game = ?", (game,)).fetchone()
        if row is not None and not _lease_readable(*row):
            raise StoreError(f"Game {game} in {self.path} is damaged: its lease cannot be read. It was left as it is.")
        if row is not None and not take_over:
            host, pid, token, taken = row
            if token != self.token and not (host == self.host and not alive(pid, _started(token))):
                raise GameInUse(game, pid, host, taken)

    def release(self, game: int | None = None) -> None:
        """Let go of `game` (by default every game this store holds); a game held by another is left alone."""
        if not self.held:
            return  # nothing to let go of, and nothing to write
        with self._tx() as c:
            if game is None:
                c.execute("DELETE FROM leases WHERE token = ?", (self.token,))
            else:
                c.execute("DELETE FROM leases WHERE game = ? AND token = ?", (game, self.token))
        self.held = set() if game is None else self.held - {game}

    @staticmethod
    def _insert_events(c: sqlite3.Connection, game: int, start: int, events: Sequence[ev.Event]) -> None:
        c.executemany(
            "INSERT INTO events (game, pos, type, data) VALUES (?,?,?,?)",
            [
                (game, start + i, type(e).__name__, json.dumps(codec.to_plain(e), separators=(",", ":")))
                for i, e in enumerate(events)
            ],
        )

    @staticmethod
    def _touch(c: sqlite3.Connection, game: int, length: int, summary: Summary, stamp: str) -> None:
        cur = c.execute(
            "UPDATE games SET updated = ?, length = ?, status = ?, round = ?, scores = ?, deciding = ? WHERE id = ?",
            (stamp, length, summary.status, summary.round, json.dumps(list(summary.scores)), summary.deciding, game),
        )
        if cur.rowcount != 1:
            raise StoreError(
                f"Game {game} is no longer in {c.execute('PRAGMA database_list').fetchone()[2]}; "
                "was it deleted from another window?"
            )

    def delete(self, game: int) -> None:
        self.info(game)  # a clear error for an unknown id
        self.refuse_if_damaged()
        with self._tx() as c:
            c.execute("DELETE FROM events WHERE game = ?", (game,))
            c.execute("DELETE FROM moves WHERE game = ?", (game,))
            c.execute("DELETE FROM games WHERE id = ?", (game,))

    def refuse_if_damaged(self) -> None:
        """No new game and no deletion in a file that holds a damaged game: it stays as it was found, for
        whoever mends it (the sound games can still be played, exported and listed)."""
        damage = {g.id: g.damage for g in self.games() if g.damage} or self._log_damage()
        if damage:
            game = min(damage)
            raise StoreError(
                f"{self.path} holds a damaged game (game {game}: {damage[game]}), so Lagoon "
                "adds and deletes nothing in it. It was left as it is: export the games you want "
                "(lagoon export) and go on in another file with --db PATH."
            )

    # --- reading ---------------------------------------------------------------------

    # a game's row, with its lease's if it has one (a lease that cannot be read damages its game)
    _COLUMNS = (
        "g.id, g.created, g.updated, g.seed, g.seats, g.fingerprint, g.status, g.round, g.scores, g.deciding,"
        " g.length, l.game, l.host, l.pid, l.token, l.taken"
    )
    _FROM = "games AS g LEFT JOIN leases AS l ON l.game = g.id"

    @staticmethod
    def _info(row: tuple[Any, ...]) -> GameInfo:
        """A games row as GameInfo; a row that cannot be read is a damaged game (its `damage` says what)."""
        gid, created, updated, seed, seats, fingerprint, status, rnd, scores, deciding, length, *lease = row
        try:
            if lease[0] is not None and not _lease_readable(*lease[1:]):
                raise _Damage("lease")
            seats = _readable(seats, "seats")
            if not (
                isinstance(seats, list)
                and all(
                    isinstance(s, dict)
                    and isinstance(s.get("name"), str)
                    and isinstance(s.get("colour"), str)
                    and isinstance(s.get("computer", ""), str)
                    for s in seats
                )
            ):
                raise _Damage("seats")
            scores = _readable(scores, "scores")
            if not (isinstance(scores, list) and all(type(v) is int for v in scores)):
                raise _Damage("scores")
            for value, what in ((gid, "id"), (seed, "seed"), (rnd, "round"), (length, "length")):
                if type(value) is not int:
                    raise _Damage(what)
            if deciding is not None and not (type(deciding) is int and 0 <= deciding < len(seats)):
                raise _Damage("deciding")
            for value, what in ((fingerprint, "fingerprint"), (status, "status")):
                if not isinstance(value, str):
                    raise _Damage(what)
            for value, what in ((created, "created"), (updated, "updated")):
                if codec.read_time(value) is None:  # (one that cannot be shown, too: the list shows it)
                    raise _Damage(f"{what} time")
        except _Damage as damage:
            return GameInfo(
                gid if type(gid) is int else 0,
                str(created),
                str(updated),
                0,
                (),
                (),
                "",
                "damaged",
                0,
                (),
                None,
                0,
                f"its {damage} cannot be read",
            )
        return GameInfo(
            gid,
            created,
            updated,
            seed,
            tuple(s["name"] for s in seats),
            tuple(s["colour"] for s in seats),
            fingerprint,
            status,
            rnd,
            tuple(scores),
            deciding,
            length,
            computers=tuple((seat, s["computer"]) for seat, s in enumerate(seats) if "computer" in s),
        )

    # A log's damage, found by SQLite without reading the events into Python: per game, the first event
    # that does not follow the one before it (an event rewrites the log from its `pos`, so `pos` is at most
    # one more than the pos before it, and the first is 0), the first that is not JSON, holds a byte that
    # is not printable ASCII (Lagoon writes nothing else: json.dumps escapes the rest) or is of no known
    # type, and a `length` longer than the log's last event leaves it.
    _LOG_DAMAGE = """
        SELECT game, MIN(before + 1) FILTER (WHERE pos > before + 1 OR pos < 0),
               MIN(pos) FILTER (WHERE NOT json_valid(data) OR data GLOB '*[^ -~]*' OR type NOT IN ({types}))
        FROM (SELECT game, pos, type, data, LAG(pos, 1, -1) OVER (PARTITION BY game ORDER BY id) AS before
              FROM events)
        GROUP BY game"""
    _LOG_END = (
        "SELECT games.id, games.length, last.pos FROM games LEFT JOIN "
        "(SELECT game, MAX(id), pos FROM events GROUP BY game) AS last ON last.game = games.id"
    )

    def _log_damage(self) -> dict[int, str]:
        """What is wrong with each game whose log cannot be read, as `damage` says it."""
        names = sorted(ev.EVENT_TYPES)
        found: dict[int, str] = {}
        for game, gap, unreadable in self._read(self._LOG_DAMAGE.format(types=",".join("?" * len(names))), names):
            if gap is not None:
                found[game] = f"its log has a gap at event {gap}"
            elif unreadable is not None:
                found[game] = f"its event {unreadable} cannot be read"
        for game, length, last in self._read(self._LOG_END):
            held = 0 if last is None else last + 1
            if game not in found and type(length) is int and length > held:
                found[game] = f"its log is incomplete ({held} of {length} events)"
        return found

    def games(self) -> list[GameInfo]:
        """Every saved game, the most recently played first. (Only the rows are read: a log's damage is
        found when the game is opened, or by `refuse_if_damaged` before the file is written.)"""
        rows = self._read(f"SELECT {self._COLUMNS} FROM {self._FROM} ORDER BY g.updated DESC, g.id DESC")
        return [self._info(r) for r in rows]

    def latest_unfinished(self) -> GameInfo | None:
        """The unfinished game played last (a damaged one is passed over: it cannot be opened)."""
        rows = self._read(
            f"SELECT {self._COLUMNS} FROM {self._FROM} WHERE g.status != 'over' ORDER BY g.updated DESC, g.id DESC"
        )
        return next((info for info in map(self._info, rows) if not info.damage), None)

    def info(self, game: int) -> GameInfo:
        """The game's row; StoreError if there is none or it is damaged (a damaged game is only listed)."""
        rows = self._read(f"SELECT {self._COLUMNS} FROM {self._FROM} WHERE g.id = ?", (game,))
        if not rows:
            raise StoreError(f"There is no game {game} in {self.path}. `lagoon list` shows the saved games.")
        info = self._info(rows[0])
        if info.damage:
            raise StoreError(f"Game {game} in {self.path} is damaged: {info.damage}. It was left as it is.")
        return info

    def _event(self, game: int, pos: int, kind: object, data: object) -> ev.Event:
        """Event `pos` of game `game`, checked as an import checks each event (`rules.audit.event_from_json`):
        a known type, exactly its fields, each of its type; StoreError with a sentence if it is not."""
        from ..audit import LogError, event_from_json

        def damaged(why: str) -> StoreError:
            # (`why` is not said: it may quote the event's fields, a seat's hidden cards among them)
            return StoreError(
                f"Game {game} in {self.path} is damaged: Lagoon cannot read its event {pos}. It was left as it is."
            )

        # Lagoon writes an event as printable ASCII (json.dumps escapes the rest): any other character is
        # a changed byte (a byte that is not UTF-8 is read as U+FFFD), even inside a string
        if not (isinstance(kind, str) and isinstance(data, str) and data.isascii() and data.isprintable()):
            raise damaged("it holds a character Lagoon never writes")
        try:
            fields = json.loads(data)
        except (ValueError, RecursionError):
            raise damaged("it is not JSON") from None
        if not isinstance(fields, dict) or "type" in fields:
            raise damaged("it is not an object of fields")
        try:
            event: ev.Event = event_from_json({"type": kind, **fields}, pos, where="it")
        except LogError:
            raise damaged("its type or fields are not those of its kind of event") from None
        return event

    def load(self, game: int) -> SavedGame:
        """The game's log as it stands (undos applied) and where each of its choices began."""
        info = self.info(game)
        log: list[tuple[str, str]] = []
        for pos, kind, data in self._read("SELECT pos, type, data FROM events WHERE game = ? ORDER BY id", (game,)):
            if type(pos) is not int or pos < 0:
                raise StoreError(f"Game {game} in {self.path} is damaged: its log has a gap at event {len(log)}.")
            del log[pos:]
            if pos != len(log):
                raise StoreError(f"Game {game} in {self.path} is damaged: its log has a gap at event {len(log)}.")
            log.append((kind, data))
        del log[info.length :]
        if len(log) != info.length:
            raise StoreError(f"Game {game} in {self.path} is incomplete ({len(log)} of {info.length} events).")
        events = [self._event(game, pos, kind, data) for pos, (kind, data) in enumerate(log)]
        marks: list[Mark] = []
        for pos, seat, choice in self._read("SELECT pos, seat, choice FROM moves WHERE game = ? ORDER BY id", (game,)):
            if choice == UNDO:
                marks = [m for m in marks if m.pos < pos]
            else:
                marks.append(Mark(pos, seat, choice))
        return SavedGame(info, events, [m for m in marks if m.pos < info.length])

    def add_aside(self, game: int, pos: int, seat: int | None, text: str, kind: str | None = None) -> None:
        """Save a line of `game`'s log that is no event of the rules (`Host.aside`), after its first `pos` events;
        `kind`: ASIDE_KINDS' "began" (a computer began to play for `seat`) or "back" (its player took it back).
        Only while this store holds the game and its saved log is that long (see `_check_writer`)."""
        with self._tx() as c:
            self._check_writer(c, game, pos)
            c.execute(
                "INSERT INTO asides (game, pos, seat, text, kind) VALUES (?,?,?,?,?)", (game, pos, seat, text, kind)
            )

    def asides(self, game: int) -> list[tuple[int, int | None, str, str | None]]:
        """`game`'s saved asides, (events before it, seat, text, kind) in the order they came; none in a file older
        than them (a row that is not of that form is left out: a log line of the table, never one of the game)."""
        if not self._read("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'asides'"):
            return []
        rows = self._read("SELECT pos, seat, text, kind FROM asides WHERE game = ? ORDER BY id", (game,))
        return [
            (pos, seat, text, kind)
            for pos, seat, text, kind in rows
            if type(pos) is int
            and pos >= 0
            and (seat is None or type(seat) is int)
            and isinstance(text, str)
            and kind in ASIDE_KINDS
        ]

    # --- the lobby of `lagoon serve` -----------------------------------------------------

    def players(self) -> dict[str, str]:
        """The name each player of `lagoon serve` picked, by the fingerprint of their key (a row whose key
        or name is not text is left out: that player is asked for a name again)."""
        rows = self._read("SELECT key, name FROM serve_players")
        return {key: name for key, name in rows if isinstance(key, str) and isinstance(name, str)}

    def name_player(self, key: str, name: str) -> None:
        """Keep `name` as the name of the player with `key` (their former name, if any, goes)."""
        with self._tx() as c:
            c.execute("INSERT OR REPLACE INTO serve_players (key, name) VALUES (?, ?)", (key, name))

    def rooms(self) -> list[SavedRoom]:
        """Every room of the lobby, the one saved last last; a damaged one as such (its `damage` says what)."""
        rows = self._read("SELECT code, creator, seats, seed, game FROM serve_rooms ORDER BY rowid")
        return [room_from_row(*row) for row in rows]

    def save_room(self, room: SavedRoom, *, private: bool = False) -> None:
        """Keep `room` as it is now (its row, by its code, is written anew); `private`: a new room kept as private
        in the same transaction (so it is never listed, even for a moment)."""
        with self._tx() as c:
            if private:
                c.execute("INSERT OR REPLACE INTO serve_private_rooms (code) VALUES (?)", (room.code,))
            c.execute(
                "INSERT OR REPLACE INTO serve_rooms (code, creator, seats, seed, game) VALUES (?,?,?,?,?)",
                (room.code, room.creator, seats_text(room.seats), room.seed, room.game),
            )

    # --- games over days (`lagoon_tui.serve.days`) ----------------------------------------

    def clocks(self) -> list[tuple[Any, ...]]:
        """Every room's pace and clock: (code, pace, seat, left, since), as `save_clock` kept them."""
        return self._read("SELECT code, pace, seat, left, since FROM serve_clocks")

    def save_clock(self, code: str, pace: float, seat: int | None, left: float, since: float | None) -> None:
        """Keep room `code`'s pace (seconds a move, 0: live) and the clock of `seat`: `left` seconds from `since`
        (None: stopped)."""
        with self._tx() as c:
            c.execute(
                "INSERT OR REPLACE INTO serve_clocks (code, pace, seat, left, since) VALUES (?,?,?,?,?)",
                (code, pace, seat, left, since),
            )

    def vacations(self) -> list[tuple[Any, ...]]:
        """Every player's vacation: (key, until or None, year, days used that year)."""
        return self._read("SELECT key, until, year, used FROM serve_vacations")

    def save_vacation(self, key: str, until: float | None, year: int, used: int) -> None:
        with self._tx() as c:
            c.execute(
                "INSERT OR REPLACE INTO serve_vacations (key, until, year, used) VALUES (?,?,?,?)",
                (key, until, year, used),
            )

    def serve_settings(self) -> dict[str, dict[str, Any]]:
        """Each player's settings at the server, by key (a row whose JSON is not an object is left out)."""
        kept = {}
        for key, text in self._read("SELECT key, settings FROM serve_settings"):
            try:
                settings = json.loads(text)
            except ValueError:
                continue
            if isinstance(settings, dict):
                kept[key] = settings
        return kept

    def save_serve_settings(self, key: str, settings: Mapping[str, Any]) -> None:
        """Keep the settings of `key`'s player (all of them, as JSON)."""
        with self._tx() as c:
            c.execute(
                "INSERT OR REPLACE INTO serve_settings (key, settings) VALUES (?,?)", (key, json.dumps(dict(settings)))
            )

    def notices(self) -> list[tuple[Any, ...]]:
        """Every player's notices: (key, URL, the JSON of when each room last sent one)."""
        return self._read("SELECT key, url, sent FROM serve_notices")

    def save_notices(self, key: str, url: str, sent: Mapping[str, float]) -> None:
        """Keep the URL `key`'s player gave (empty: none, the row goes) and when each room last sent a notice."""
        with self._tx() as c:
            if url:
                c.execute(
                    "INSERT OR REPLACE INTO serve_notices (key, url, sent) VALUES (?,?,?)",
                    (key, url, json.dumps(dict(sent))),
                )
            else:
                c.execute("DELETE FROM serve_notices WHERE key = ?", (key,))

    # --- private rooms and spectators (`lagoon_tui.serve.gathering`) -----------------------

    def delete_room(self, code: str) -> None:
        """A room cancelled before its game began: its row, its privacy, its spectators and its pace go."""
        with self._tx() as c:
            for table in ("serve_rooms", "serve_private_rooms", "serve_watchers", "serve_clocks"):
                c.execute(f"DELETE FROM {table} WHERE code = ?", (code,))

    def private_rooms(self) -> set[str]:
        """The codes of the rooms their makers made private."""
        return {code for (code,) in self._read("SELECT code FROM serve_private_rooms") if isinstance(code, str)}

    def watchers(self) -> list[tuple[str, str]]:
        """(room code, key) of every spectator kept, in the order they came."""
        rows = self._read("SELECT code, key FROM serve_watchers ORDER BY rowid")
        return [(code, key) for code, key in rows if isinstance(code, str) and isinstance(key, str)]

    def watch(self, code: str, key: str, on: bool = True) -> None:
        """The player with `key` watches room `code` from now on (`on`), or no more."""
        with self._tx() as c:
            if on:
                c.execute("INSERT OR IGNORE INTO serve_watchers (code, key) VALUES (?, ?)", (code, key))
            else:
                c.execute("DELETE FROM serve_watchers WHERE code = ? AND key = ?", (code, key))

    def rematches(self) -> list[SavedRematch]:
        """The rematch of each finished room that has one (a row that cannot be read is left out: that room's
        rematch is asked for afresh)."""
        rows = self._read("SELECT room, accepted, next FROM serve_rematches ORDER BY rowid")
        return [kept for kept in (rematch_from_row(*row) for row in rows) if kept is not None]

    def save_rematch(
        self,
        rematch: SavedRematch,
        room: SavedRoom | None = None,
        *,
        private: bool = False,
        pace: float = 0.0,
        watchers: Sequence[str] = (),
    ) -> None:
        """Keep `rematch` as it is now; with `room`, the rematch's own room (started), in the same transaction,
        with what it carries over from the finished room: `private`, its `pace` (seconds a move, 0: live) and
        its spectators' keys (`watchers`). All of it is kept together or not at all."""
        with self._tx() as c:
            if room is not None:
                c.execute(
                    "INSERT OR REPLACE INTO serve_rooms (code, creator, seats, seed, game) VALUES (?,?,?,?,?)",
                    (room.code, room.creator, seats_text(room.seats), room.seed, room.game),
                )
                if private:
                    c.execute("INSERT OR REPLACE INTO serve_private_rooms (code) VALUES (?)", (room.code,))
                if pace > 0:
                    c.execute(
                        "INSERT OR REPLACE INTO serve_clocks (code, pace, seat, left, since) VALUES (?,?,?,?,?)",
                        (room.code, pace, None, 0.0, None),
                    )
                for key in watchers:
                    c.execute("INSERT OR IGNORE INTO serve_watchers (code, key) VALUES (?, ?)", (room.code, key))
            c.execute(
                "INSERT OR REPLACE INTO serve_rematches (room, accepted, next) VALUES (?, ?, ?)",
                (rematch.room, json.dumps(sorted(rematch.accepted)), rematch.next),
            )

    # --- the seat a dropped session comes back to (`lagoon_tui.serve.turns`) ----------------

    def resumes(self) -> dict[str, str]:
        """The room each player's session was in when it ended without leaving it, by their key."""
        rows = self._read("SELECT key, room FROM serve_resumes")
        return {key: room for key, room in rows if isinstance(key, str) and isinstance(room, str)}

    def save_resume(self, key: str, room: str | None) -> None:
        """Keep `room` as the one the player with `key` comes back to (None: none any more)."""
        with self._tx() as c:
            if room is None:
                c.execute("DELETE FROM serve_resumes WHERE key = ?", (key,))
            else:
                c.execute("INSERT OR REPLACE INTO serve_resumes (key, room) VALUES (?, ?)", (key, room))
