"""One game, one writer: two windows on one saved game never both write to it (docs/saves.md section 9).

Each window is a real process (tests/helpers/window.py) with its own Store on
the same file, driven a command at a time, so no test waits on a clock: what
is asserted holds whatever order the processes' writes reach SQLite in. The
saved log must always load whole, hold every move a window was told it made,
and a window that lost the game must be told so, its move not made.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from lagoon_tui.app import LagoonApp
from lagoon_tui.screens.confirm import ConfirmScreen
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.screens.title import TitleScreen
from rules import Engine, load_content, replay
from rules.host import Host
from rules.saves import GameInUse, Store, StoreError
from rules.saves.recorder import open_game, record_new
from rules.saves.store import SCHEMA

CONTENT = load_content()
REPO = Path(__file__).resolve().parents[2]
WINDOW = Path(__file__).resolve().parents[1] / "helpers" / "window.py"


class Window:
    """A window on game `game` of `db`: a process of its own (see window.py)."""

    def __init__(self, db: Path, game: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(WINDOW), str(db), str(game)],
            cwd=REPO,
            text=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )

    def send(self, *commands: str) -> list[dict]:
        """Send every command at once, then read the answers (another window may write meanwhile)."""
        self.process.stdin.write("".join(f"{c}\n" for c in commands))
        self.process.stdin.flush()
        return [self.answer() for _ in commands]

    def answer(self) -> dict:
        line = self.process.stdout.readline()
        assert line, f"the window ended: {self.process.stderr.read()}"
        return json.loads(line)

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()  # reaped: its pid no longer names a process


@pytest.fixture
def db(tmp_path) -> Path:
    return tmp_path / "lagoon.db"


@pytest.fixture
def game(db) -> int:
    """A saved game twelve moves in, held by no one."""
    with Store(db) as store:
        engine = Engine.new(CONTENT, ["Ana", "Ben"], seed=3, start_player=0)
        game = record_new(store, engine)
        for _ in range(12):
            Host(engine).choose(engine.legal_ids()[0])
    return game


@pytest.fixture
def windows(db, game):
    opened: list[Window] = []

    def window() -> Window:
        opened.append(Window(db, game))
        return opened[-1]

    yield window
    for w in opened:
        w.kill()


def expected_log(db: Path, game: int, moves: int) -> list:
    """The log after `moves` more moves from the saved one, each the first option, as the windows choose."""
    with Store(db) as store:
        engine = open_game(store, game, CONTENT, record=False)
    host = Host(engine)
    for _ in range(moves):
        assert host.choose(engine.legal_ids()[0])
    return engine.events


def saved_log(db: Path, game: int) -> list:
    """The game as saved: it must load and replay (no gap, nothing half written)."""
    with Store(db) as store:
        saved = store.load(game)
        engine = open_game(store, game, CONTENT, record=False)
    assert engine.state == replay(CONTENT, saved.events)
    return saved.events


def test_a_second_window_is_refused_then_takes_over_and_the_first_windows_moves_are_refused(db, game, windows):
    want = expected_log(db, game, 3 + 5)  # the first window's three moves, then the second's five
    first, second = windows(), windows()
    assert first.send("open")[0]["ok"]
    acknowledged = first.send("move", "move", "move")
    assert all(a["ok"] for a in acknowledged)

    refused = second.send("open")[0]
    assert not refused["ok"] and f"Game {game} is open in another window" in refused["error"]
    taken = second.send("open take")[0]
    assert taken["ok"] and taken["length"] == acknowledged[-1]["length"]  # it reads every acknowledged move

    # both windows move at once: only the one holding the game may write
    for w in (first, second):
        w.process.stdin.write("move\n" * 5)
        w.process.stdin.flush()
    late = [first.answer() for _ in range(5)]
    made = [second.answer() for _ in range(5)]
    assert all(m["ok"] for m in made)
    for answer in late:
        assert not answer["ok"] and "taken over by another window" in answer["error"]
        assert "Your move was not made" in answer["error"]
        assert answer["length"] == acknowledged[-1]["length"]  # the engine took the move back
    assert saved_log(db, game) == want and made[-1]["length"] == len(want)


def test_a_window_whose_log_is_behind_the_saved_one_cannot_write_even_holding_the_game(db, game, windows):
    """The second line of defence: every write checks the saved log's length in its transaction."""
    want = expected_log(db, game, 2)
    first, second = windows(), windows()
    assert first.send("open")[0]["ok"]
    assert second.send("open take")[0]["ok"]
    made = second.send("move", "move")
    assert all(m["ok"] for m in made)
    assert first.send("hold")[0]["ok"]  # takes the game back without reading it again: its log is behind
    refused = first.send("move")[0]
    assert not refused["ok"] and f"Game {game} was changed in another window" in refused["error"]
    assert "Your move was not made" in refused["error"]
    assert saved_log(db, game) == want and made[-1]["length"] == len(want)


def test_a_killed_window_does_not_keep_the_game(db, game, windows):
    first, second = windows(), windows()
    assert first.send("open")[0]["ok"]
    assert first.send("move")[0]["ok"]
    assert not second.send("open")[0]["ok"]
    first.kill()  # SIGKILL: no chance to let go of the game
    opened = second.send("open")[0]
    assert opened["ok"], opened["error"]
    assert second.send("move")[0]["ok"]
    saved_log(db, game)


def test_a_window_that_ends_lets_go_of_the_game(db, game, windows):
    first, second = windows(), windows()
    assert first.send("open")[0]["ok"]
    assert not second.send("open")[0]["ok"]
    assert first.send("quit")[0]["ok"]
    assert second.send("open")[0]["ok"]


def test_an_undo_from_a_window_behind_the_saved_log_is_refused(db):
    """Two engines on one store (the store's own checks, without another process): undo is conditional too."""
    with Store(db) as store:
        engine = Engine.new(CONTENT, ["Ana", "Ben"], seed=1, start_player=0)
        game = record_new(store, engine)
        while not engine.undo_point():
            engine.choose(engine.legal_ids()[-1])
        behind = open_game(store, game, CONTENT)
        assert behind.undo_point()
        engine.choose(engine.legal_ids()[0])
        log = list(behind.events)
        with pytest.raises(StoreError, match="changed in another window"):
            behind.undo()
        with pytest.raises(StoreError, match="changed in another window"):
            behind.choose(behind.legal_ids()[0])
        assert behind.events == log  # nothing taken back, nothing made
        assert store.load(game).events == engine.events


def test_lagoon_resume_of_a_game_open_in_another_window_says_so_and_exits_2(db, game, windows):
    first = windows()
    assert first.send("open")[0]["ok"]
    result = subprocess.run(
        [sys.executable, "-m", "lagoon_tui", "--db", str(db), "resume", str(game)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 2
    assert f"Game {game} is open in another window" in result.stderr
    assert f"lagoon resume {game} --take-over" in result.stderr and "Traceback" not in result.stderr
    assert first.send("move")[0]["ok"]  # the first window plays on


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_lagoon_resume_take_over_opens_the_game_and_the_first_window_is_refused(db, game, windows):
    from tests.helpers.pane import Pane, wait_for

    first = windows()
    assert first.send("open")[0]["ok"]
    acknowledged = first.send("move")[0]
    pane = Pane(f"lagoon-take-over-{os.getpid()}")
    try:
        pane.start("--db", str(db), "resume", str(game), "--take-over")
        wait_for(pane, lambda text: "Pass the keyboard to" in text)
        refused = first.send("move")[0]
        assert not refused["ok"] and "taken over by another window" in refused["error"]
    finally:
        pane.stop()
    assert len(saved_log(db, game)) == acknowledged["length"]


async def test_the_app_asks_before_taking_over_a_game_open_in_another_window(db, game, windows):
    first = windows()
    assert first.send("open")[0]["ok"]
    with Store(db) as store:
        app = LagoonApp(CONTENT, store=store)
        async with app.run_test(size=(120, 40)) as pilot:
            app.resume_game(game)
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            assert f"Game {game} is open in another window" in app.screen.question
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen)
            assert first.send("move")[0]["ok"]  # left alone: the first window plays on

            app.resume_game(game)
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()
            assert isinstance(app.screen, GameScreen) or any(isinstance(s, GameScreen) for s in app.screen_stack)
            refused = first.send("move")[0]
            assert not refused["ok"] and "taken over by another window" in refused["error"]


def test_a_save_file_of_schema_1_is_given_the_tables_it_lacks_and_its_games_play_on(db):
    with Store(db) as store:
        engine = Engine.new(CONTENT, ["Ana", "Ben"], seed=5)
        game = record_new(store, engine)
        for _ in range(8):
            engine.choose(engine.legal_ids()[0])
    raw = sqlite3.connect(db)  # as Lagoon wrote it before leases (and before the lobby's tables)
    raw.executescript(
        "DROP TABLE leases; DROP TABLE serve_players; DROP TABLE serve_rooms; DROP TABLE serve_rematches;"
    )
    raw.execute("PRAGMA user_version = 1")
    raw.commit()
    raw.close()
    with Store(db) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA == 4
        assert store.players() == {} and store.rooms() == [] and store.rematches() == []
        again = open_game(store, game, CONTENT)
        assert again.events == engine.events
        assert Host(again).choose(again.legal_ids()[0])
    assert len(saved_log(db, game)) == len(again.events)


def test_a_game_deleted_elsewhere_while_it_is_played_is_said_to_be_deleted(db, game, windows):
    """`lagoon delete` from another shell while a window plays the game: the window's next move is refused
    with what happened (it read "Not allowed — … FOREIGN KEY constraint failed", later "taken over")."""
    first = windows()
    assert first.send("open")[0]["ok"]
    result = subprocess.run(
        [sys.executable, "-m", "lagoon_tui", "--db", str(db), "delete", str(game), "--yes"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 0, result.stderr
    (answer,) = first.send("move")
    assert not answer["ok"] and f"Game {game} was deleted from {db}" in answer["error"]
    assert "FOREIGN KEY" not in answer["error"] and "taken over" not in answer["error"]


async def test_the_app_whose_game_was_taken_over_offers_the_title(db, game, windows):
    """This window's game is taken by another: the next key says so and offers the title (before, every key
    was refused with the sentence, and the window stayed on a game it could no longer play)."""
    with Store(db) as store:
        app = LagoonApp(CONTENT, store=store)
        async with app.run_test(size=(120, 40)) as pilot:
            app.resume_game(game)
            await pilot.pause()
            await pilot.press("enter")  # the curtain
            await pilot.pause()
            assert any(isinstance(s, GameScreen) for s in app.screen_stack)
            other = windows()
            assert other.send("open take")[0]["ok"]
            await pilot.press("1")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            assert f"Game {game} was taken over by another window" in app.screen.question
            await pilot.press("y")
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen)
            assert not any(isinstance(s, GameScreen) for s in app.screen_stack)


# --- issue 32, point 9: a lease of a process that is gone is never a refusal ------------------------------


def killed_not_reaped(window: Window) -> None:
    """SIGKILL, then wait until the process is dead but still a zombie: its parent (this test) has not
    waited for it, so its pid still answers kill(pid, 0), as after a kill in tmux before the shell reaps."""
    window.process.send_signal(signal.SIGKILL)
    os.waitid(os.P_PID, window.process.pid, os.WEXITED | os.WNOWAIT)  # (WNOWAIT: it stays a zombie)


def test_a_killed_window_not_yet_reaped_does_not_keep_the_game(db, game, windows):
    """A resume right after a SIGKILL was refused as "open in another window" though the process was gone."""
    first, second = windows(), windows()
    assert first.send("open")[0]["ok"] and first.send("move")[0]["ok"]
    assert not second.send("open")[0]["ok"]  # (held by a live window: refused)
    killed_not_reaped(first)
    opened = second.send("open")[0]
    assert opened["ok"], opened["error"]
    assert second.send("move")[0]["ok"]


def test_lagoon_resume_right_after_a_kill_is_not_refused_as_in_use(db, game, windows):
    first = windows()
    assert first.send("open")[0]["ok"]
    killed_not_reaped(first)
    result = subprocess.run(
        [sys.executable, "-m", "lagoon_tui", "--db", str(db), "resume", str(game)],
        input="",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert result.returncode == 2 and "needs a terminal" in result.stderr, result.stderr  # (not "open in another")


def start_time(pid: int) -> int:
    """When process `pid` started, in clock ticks after boot (field 22 of /proc/PID/stat)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat[stat.rfind(")") + 2 :].split()[19])


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="no /proc to read a start time from")
def test_a_lease_whose_pid_now_names_another_process_is_taken_over(db, game):
    """A lease records when its process started: a live process given the dead holder's pid is not it."""
    other = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        for started, in_use in ((start_time(other.pid), True), (start_time(other.pid) - 1, False)):
            with closing(sqlite3.connect(db)) as conn, conn:
                conn.execute(
                    "INSERT OR REPLACE INTO leases (game, host, pid, token, taken) VALUES (?, ?, ?, ?, ?)",
                    (game, socket.gethostname(), other.pid, f"0123456789abcdef@{started}", "2026-11-25T08:40:00+00:00"),
                )
            with Store(db) as store:
                if in_use:  # its own start time: the process that took the lease, still running
                    with pytest.raises(GameInUse, match=f"process {other.pid} on this computer"):
                        store.hold(game)
                else:
                    store.hold(game)
    finally:
        other.kill()
        other.wait()
