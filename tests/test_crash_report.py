"""A bug in any `lagoon` command (or any thread of it, or the server's loop) is one sentence and a report.

The terminal gets `crash.sentence(path)` only: never the exception's own
text, which may name a card. The report is under $XDG_STATE_HOME/lagoon
(here a folder of the test's), made for its owner only, and holds the
traceback without local variables. (The app's own crashes are in
tests/tui/test_crash_screen.py and, on a real terminal, test_crash_terminal.py.)
"""

from __future__ import annotations

import asyncio
import os
import socket
import stat
import threading
from datetime import datetime
from pathlib import Path

import pytest

import rules.host
from lagoon_tui import cli_saves, crash
from lagoon_tui.cli import main
from lagoon_tui.link import Link
from lagoon_tui.serve import ssh
from lagoon_tui.wire import frame
from rules import load_content
from tests.helpers.harness import ServerThread, make_key, missing, run

GUARD = 120.0
"""Seconds a wait may last before the test fails (only so that a broken link fails the test, not hangs it)."""

SECRET = "Refined Reserves"
"""A card's name, carried by the faults' own messages, as a KeyError of a card carries it."""


class Fault(Exception):
    """The bug put in for a test."""


@pytest.fixture(autouse=True)
def state_home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "state"


def the_report(state_home: Path) -> Path:
    reports = sorted((state_home / "lagoon").glob("crash-*.txt"))
    assert len(reports) == 1, reports
    return reports[0]


def check_told(err: str, out: str, state_home: Path, *, playing: bool = False) -> Path:
    """The sentence alone on the terminal (saying the game is saved only if a game was `playing`), the
    report private and whole; the report's path."""
    report = the_report(state_home)
    assert err.strip() == crash.sentence(report, playing=playing) and out == ""
    assert SECRET not in err
    assert stat.S_IMODE(report.stat().st_mode) == 0o600
    assert stat.S_IMODE(report.parent.stat().st_mode) == 0o700
    text = report.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in text and f"Fault: no card {SECRET}" in text
    assert "locals" not in text
    return report


def raise_fault(*args, **kwargs):
    raise Fault(f"no card {SECRET}")


def test_a_bug_in_check_content_is_a_sentence_and_a_report(capsys, state_home, monkeypatch):
    monkeypatch.setattr(rules.host, "check_content", raise_fault)
    assert main(["check-content"]) == crash.CRASHED
    captured = capsys.readouterr()
    check_told(captured.err, captured.out, state_home)


def test_a_bug_in_a_command_of_saved_games_is_a_sentence_and_a_report(capsys, state_home, monkeypatch):
    monkeypatch.setitem(cli_saves.SAVE_COMMANDS, "list", raise_fault)
    assert main(["list"]) == crash.CRASHED
    captured = capsys.readouterr()
    check_told(captured.err, captured.out, state_home)


def test_a_bug_in_a_thread_of_a_command_is_a_sentence_and_a_report(capsys, state_home, monkeypatch):
    def list_in_a_thread(args, content_dir):
        worker = threading.Thread(target=raise_fault)
        worker.start()
        worker.join()
        return 0

    monkeypatch.setitem(cli_saves.SAVE_COMMANDS, "list", list_in_a_thread)
    before = threading.excepthook
    assert main(["list"]) == 0  # (the command itself went on)
    captured = capsys.readouterr()
    check_told(captured.err, captured.out, state_home)
    assert threading.excepthook is before


def test_a_bug_in_a_command_that_plays_says_the_game_is_saved(capsys, state_home, monkeypatch):
    monkeypatch.setitem(cli_saves.SAVE_COMMANDS, "resume", raise_fault)
    assert main(["resume"]) == crash.CRASHED
    captured = capsys.readouterr()
    check_told(captured.err, captured.out, state_home, playing=True)
    assert crash.SAVED in captured.err


def test_a_command_that_plays_no_game_says_nothing_of_saved_moves(capsys, state_home, monkeypatch):
    monkeypatch.setattr(rules.host, "check_content", raise_fault)
    assert main(["check-content"]) == crash.CRASHED
    err = capsys.readouterr().err
    assert err.startswith("Lagoon stopped on a bug.") and "saved" not in err and "move" not in err


def test_the_two_wordings_of_the_sentence():
    report = Path("/home/ana/.local/state/lagoon/crash-1.txt")
    assert crash.sentence(report) == f"Lagoon stopped on a bug. {crash.SAVED}\nThe report is in {report}"
    assert crash.sentence(report, playing=False) == f"Lagoon stopped on a bug.\nThe report is in {report}"


def test_a_link_whose_reader_fails_on_a_bug_is_lost_and_says_so(capsys, state_home):
    """The thread reading the server's frames fails on a bug (no app runs): the report is written, the
    sentence said (for a player over SSH), and the link is lost and ends with a `bye`, never a silent
    dead line that a request would wait on."""
    ours, servers = socket.socketpair()
    heard: list[str] = []
    ended = threading.Event()

    def receive(kind: str, text: str) -> None:
        heard.append(kind)
        if kind == "bye":
            ended.set()
        else:
            raise Fault(f"no card {SECRET}")

    line = Link(ours)
    try:
        line.start(receive)
        servers.sendall(frame("scene", {}) + frame("scene", {}))
        assert ended.wait(GUARD), f"the link never ended; heard {heard}"
    finally:
        line.close()
        servers.close()
    assert heard == ["scene", "bye"] and line.lost is not None
    assert line.ask("undo", {}) is None  # (a request is not waited on)
    assert capsys.readouterr().err.strip() == crash.sentence(None, remote=True)
    assert f"Fault: no card {SECRET}" in the_report(state_home).read_text(encoding="utf-8")


def test_a_failed_task_of_the_servers_loop_is_one_line_with_the_report(state_home):
    said: list[str] = []

    async def serve() -> None:
        told = asyncio.Event()

        def tell(line: str) -> None:
            said.append(line)
            told.set()

        asyncio.get_running_loop().set_exception_handler(crash.loop_handler(tell))
        task = asyncio.ensure_future(asyncio.sleep(0))
        task.add_done_callback(raise_fault)  # (a callback's bug goes to the loop's handler)
        await asyncio.wait_for(told.wait(), GUARD)

    asyncio.run(serve())
    report = the_report(state_home)
    assert said == [
        f"lagoon serve: a bug stopped one of the server's tasks (in raise_fault); the report is in {report}"
    ]
    assert f"Fault: no card {SECRET}" in report.read_text(encoding="utf-8")


def test_a_bug_met_again_and_again_on_a_server_is_reported_once_and_reports_are_bounded(state_home, monkeypatch):
    """A request a client can repeat that meets a bug each time fills no disk: the same bug (its type, the
    same lines) is written once and named again; past SERVER_REPORTS different ones, none is written."""
    lines = []
    for _ in range(50):
        try:
            raise_fault()
        except Fault as error:
            lines.append(crash.reported(error))
    report = the_report(state_home)
    assert lines == [f"the report is in {report}"] + [f"the same bug as before; the report is in {report}"] * 49
    monkeypatch.setattr(crash, "SERVER_REPORTS", 3)
    for kind in (KeyError, ValueError, IndexError, TypeError):
        try:
            raise kind(SECRET)
        except Exception as error:
            lines.append(crash.reported(error))
    assert len(list((state_home / "lagoon").glob("crash-*.txt"))) == 3
    assert lines[-1] == "no report was written: this run has written 3 already"


def test_the_report_holds_the_chain_of_exceptions_and_no_local_variables(state_home):
    hand = ["deal_gold_rush", "obj_refined_reserves"]  # (a local every frame below could show)
    try:
        try:
            raise KeyError(hand[0])
        except KeyError as error:
            raise Fault(f"no card {SECRET}") from error
    except Fault as error:
        report = crash.write_report(error)
    assert report is not None and report.parent == state_home / "lagoon"
    text = report.read_text(encoding="utf-8")
    assert "KeyError: 'deal_gold_rush'" in text and f"Fault: no card {SECRET}" in text
    assert text.index("KeyError") < text.index("direct cause") < text.index("Fault:")
    assert "obj_refined_reserves" not in text  # (the list itself, a local, is nowhere)


class StoppedClock(datetime):
    """Always the same moment: every report of a test is named for the same second."""

    @classmethod
    def now(cls, tz=None):
        return cls(2026, 11, 27, 7, 0, 0, tzinfo=tz)


def test_the_folder_is_made_private_and_a_file_already_there_is_never_written_into(state_home, monkeypatch):
    monkeypatch.setattr(crash, "datetime", StoppedClock)
    folder = state_home / "lagoon"
    folder.mkdir(parents=True, mode=0o755)
    folder.chmod(0o755)
    first = crash.write_report(Fault("one"))
    assert first is not None and stat.S_IMODE(folder.stat().st_mode) == 0o700
    # a report already there, and a link where the next would go, are left alone
    target = state_home / "elsewhere.txt"
    target.write_text("mine\n")
    linked = folder / first.name.replace(".txt", "-2.txt")
    linked.symlink_to(target)
    second = crash.write_report(Fault("two"))
    assert second is not None and second not in (first, linked) and second.name.endswith("-3.txt")
    assert target.read_text() == "mine\n" and "Fault: one" in first.read_text() and "Fault: two" in second.read_text()
    # a later bug of the same run goes on in the same report
    assert crash.write_report(Fault("three"), into=second) == second
    assert "Fault: two" in second.read_text() and "Fault: three" in second.read_text()


def test_the_state_folder_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert crash.state_dir() == tmp_path / "lagoon"
    for ignored in ("", "relative/path"):  # (the XDG specification: a relative path is to be ignored)
        monkeypatch.setenv("XDG_STATE_HOME", ignored)
        assert crash.state_dir() == Path.home() / ".local" / "state" / "lagoon"


def test_a_report_that_cannot_be_written_is_said(capsys, state_home, monkeypatch):
    state_home.mkdir()
    state_home.chmod(0o500)  # (a folder not writable: for root, a file where the folder would be)
    if os.access(state_home, os.W_OK):
        state_home.chmod(0o700)
        (state_home / "lagoon").write_text("not a folder")
    monkeypatch.setattr(rules.host, "check_content", raise_fault)
    assert main(["check-content"]) == crash.CRASHED
    err = capsys.readouterr().err
    assert err.strip() == crash.sentence(None, playing=False) and SECRET not in err


def test_the_sentence_to_a_player_over_ssh_names_no_path_of_the_server():
    told = crash.sentence(Path("/home/host/.local/state/lagoon/crash-1.txt"), remote=True)
    assert "/home/host" not in told and "saved" in told and "server" in told


def test_the_shipped_decks_are_unharmed_by_the_handler(capsys):
    """(The handler is in every command: one without a bug says what it always said.)"""
    assert main(["check-content"]) == 0
    assert capsys.readouterr().out.startswith("OK: ")
    assert load_content() is not None


class FaultyServer(ServerThread):
    """An SSH server whose sessions fail on a bug before their app starts."""

    async def on_session(self, info: ssh.SessionInfo):
        raise Fault(f"no card {SECRET}")


@pytest.mark.skipif(missing() is not None, reason=missing() or "")
def test_a_session_that_fails_on_a_bug_is_one_line_on_the_servers_console_and_a_report(tmp_path, state_home, caplog):
    server = FaultyServer(tmp_path)
    try:
        done = run(server.ssh(make_key(tmp_path, "player_key"), "-tt"))
    finally:
        server.stop()
    assert done.returncode == 1 and ssh.NOT_STARTED in done.stderr and SECRET not in done.stderr + done.stdout
    report = the_report(state_home)
    lines = [record.getMessage() for record in caplog.records if record.name == ssh.__name__]
    assert [line for line in lines if "failed" in line] == [
        f"the session of 127.0.0.1 failed on a bug; the report is in {report}"
    ]
    assert all(record.exc_info is None and SECRET not in record.getMessage() for record in caplog.records)
    assert f"Fault: no card {SECRET}" in report.read_text(encoding="utf-8")


def test_a_folder_that_holds_its_most_reports_gets_no_more(state_home, monkeypatch):
    """Sessions of lagoon serve each write their own report: however many end on a bug, the folder is bounded."""
    monkeypatch.setattr(crash, "FOLDER_REPORTS", 3)
    written = [crash.write_report(Fault(SECRET)) for _ in range(5)]
    assert all(written[:3]) and written[3:] == [None, None]
    assert len(list((state_home / "lagoon").glob("crash-*.txt"))) == 3


def test_a_server_whose_report_folder_is_full_says_so_and_what_the_bug_was_without_its_words(state_home, monkeypatch):
    """The console's line when no report can be written: why (the folder holds its most), and the bug's kind and
    where it was raised, never its message (which may name a card of a hand)."""
    monkeypatch.setattr(crash, "FOLDER_REPORTS", 1)
    crash.write_report(Fault("an earlier run's"))
    try:
        raise_fault()
    except Fault as error:
        line = crash.reported(error)
    folder = state_home / "lagoon"
    assert line.startswith("Fault at test_crash_report.py:")
    assert line.endswith(f"; no report could be written: {folder} holds 1 reports already (remove old ones)")
    assert SECRET not in line
