"""A bug in the app never shows a secret: it ends with one sentence and a report on disk.

A fault is put into four places a bug could be (a panel's drawing, the
engine, the replay, a computer player thinking in its worker thread), each
raising an exception whose own text names a secret card, as a `KeyError`
of a card would. The app runs under Textual's pilot, as in every app test;
what it leaves on the terminal is what it writes on stderr once it has
closed. That must be the sentence (what happened, that the game is saved,
where the report is) and nothing of the game: no name or id of any seat's
objectives, corporations or deals, offered or held. The report must be on
disk under $XDG_STATE_HOME/lagoon, readable by its owner only, with the
traceback of the fault and no local variables; the exit code is
`crash.CRASHED`. (A real terminal is in test_crash_terminal.py.)
"""

from __future__ import annotations

import asyncio
import re
import stat
import threading
from pathlib import Path

import pytest
from rich.traceback import Traceback

from lagoon_tui import crash, link
from lagoon_tui.app import LagoonApp
from lagoon_tui.link import Link
from lagoon_tui.screens.replay import ReplayScreen
from lagoon_tui.seat_app import SeatApp
from lagoon_tui.settings import GameSettings
from lagoon_tui.widgets.player_board import PlayerBoard
from rules import Engine, load_content
from rules.actions.deals import deal_label
from rules.bots.heuristic import Bot
from rules.host import Host
from rules.playback import Replay
from rules.state import GameState
from tests.helpers.drive import game_screen, play_game, start
from tests.helpers.rooms import RoomThread

SIZE = (160, 50)
GUARD = 120.0
"""Seconds a wait may last before the test fails: only so that a broken app fails the test rather than
hangs it (what a test waits for is an event, never a time)."""


class Fault(Exception):
    """The bug put in for a test."""


@pytest.fixture(autouse=True)
def state_home(tmp_path, monkeypatch) -> Path:
    """Reports go to the test's own folder."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path / "state"


@pytest.fixture(scope="module")
def content():
    return load_content()


def secrets(state: GameState, content) -> set[str]:
    """Every card of every seat that another seat may not see: names and ids of objectives and corporations
    offered or held, deals in hand (ids and how the board writes them)."""
    found: set[str] = set()
    for player in state.players:
        for objective in (*player.objective_offer, *player.objectives):
            found |= {objective, content.objectives[objective].name}
        for corporation in (*player.corporation_offer, *([player.corporation] if player.corporation else [])):
            found |= {corporation, content.corporations[corporation].name}
        for deal in player.deals:
            found |= {deal, deal_label(content.deals[deal])}
    return found


def a_secret(state: GameState) -> str:
    """One secret card of the game, for the fault's own text to carry."""
    for player in state.players:
        for card in (*player.objectives, *player.objective_offer, *player.deals):
            return card
    raise AssertionError("no secret card in this game yet")


def words(text: str) -> str:
    """The text without its white space (where a line was wrapped, a long path may have been folded)."""
    return "".join(text.split())


async def ended_after(app: LagoonApp, fault: threading.Event) -> None:
    """Wait until the fault has been hit (in whichever thread), then until the app has its exit code.

    (With `asyncio.sleep`: the pilot's own pause waits for screens that the app's end closes.)"""
    assert await asyncio.to_thread(fault.wait, GUARD), "the fault was never hit"

    async def ended() -> None:
        while app.return_code is None:
            await asyncio.sleep(0.01)

    try:
        await asyncio.wait_for(ended(), GUARD)
    except TimeoutError:
        raise AssertionError("the fault was hit and the app went on") from None


def check_the_end(app: LagoonApp, told: str, state: GameState, content, state_home: Path) -> None:
    """The terminal got the sentence, and nothing of the game; the report is on disk, private, without locals."""
    assert app.return_code == crash.CRASHED
    reports = sorted((state_home / "lagoon").glob("crash-*.txt"))
    assert len(reports) == 1, reports
    report = reports[0]
    assert told.split() == crash.sentence(report).split() or words(told) == words(crash.sentence(report)), told
    found = sorted(secret for secret in secrets(state, content) if re.search(rf"\b{re.escape(secret)}\b", told))
    assert found == [], f"the terminal shows {found}:\n{told}"
    assert stat.S_IMODE(report.stat().st_mode) == 0o600
    assert stat.S_IMODE(report.parent.stat().st_mode) == 0o700
    text = report.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in text and re.search(r"\bFault: ", text), text
    assert "locals" not in text and "GameState(" not in text


async def test_a_fault_in_a_panels_drawing(content, state_home, capsys, monkeypatch):
    app = LagoonApp(content, GameSettings(("Ana", "Ben"), ("red", "yellow"), 7, 0))
    with pytest.raises(crash.Stopped):
        async with app.run_test(size=SIZE) as pilot:
            await start(pilot)
            state = game_screen(app).host.engine.state
            secret = a_secret(state)

            def broken(panel, scene):
                raise Fault(f"no such card: {secret}")

            monkeypatch.setattr(PlayerBoard, "show", broken)
            await pilot.press("enter")
            await pilot.press("1")  # (Ana's first choice: the boards are drawn again)
            await pilot.pause()
    check_the_end(app, capsys.readouterr().err, state, content, state_home)


async def test_a_fault_in_the_engine(content, state_home, capsys, monkeypatch):
    app = LagoonApp(content, GameSettings(("Ana", "Ben"), ("red", "yellow"), 8, 0))
    with pytest.raises(crash.Stopped):
        async with app.run_test(size=SIZE) as pilot:
            await start(pilot)
            state = game_screen(app).host.engine.state
            secret = a_secret(state)

            def broken(engine, option_id):
                raise Fault(f"{option_id} cannot be taken with {secret}")

            monkeypatch.setattr(Engine, "choose", broken)
            await pilot.press("enter")
            await pilot.press("1")
            await pilot.pause()
    check_the_end(app, capsys.readouterr().err, state, content, state_home)


async def test_a_fault_in_a_computer_players_thread(content, state_home, capsys, monkeypatch):
    secret: list[str] = []
    fault = threading.Event()

    def broken(bot, message):
        fault.set()
        raise Fault(f"thinking of {secret[0]}")

    monkeypatch.setattr(Bot, "choose", broken)
    app = LagoonApp(content, GameSettings(("Ana", "Cora"), ("red", "yellow"), 9, 0, {1: "normal"}), pace=0.0)
    with pytest.raises(crash.Stopped):
        async with app.run_test(size=SIZE) as pilot:
            while game_screen(app) is None:  # (one person: no curtain)
                await pilot.pause()
            state = game_screen(app).host.engine.state
            secret.append(a_secret(state))
            for _ in range(50):  # Ana's setup choices (as many as the seed makes them), until the computer's turn
                if fault.is_set() or game_screen(app).host.engine.pending.seat != 0:
                    break
                await pilot.press("1")
                await pilot.pause()
            await ended_after(app, fault)
    check_the_end(app, capsys.readouterr().err, state, content, state_home)


async def test_a_fault_in_the_replay(content, state_home, capsys, monkeypatch):
    app = LagoonApp(content, GameSettings(("Ana", "Ben"), ("red", "yellow"), 10, 0))
    with pytest.raises(crash.Stopped):
        async with app.run_test(size=SIZE) as pilot:
            engine = await play_game(pilot, 10, until=lambda run: run.accepted >= 12)
            state = engine.state
            secret = a_secret(state)
            shown = Replay.scene_at

            def broken(replay, pos):
                if replay.first < pos < replay.last:  # (the first and last scenes are drawn as it opens)
                    raise Fault(f"no scene at {pos}: {secret}")
                return shown(replay, pos)

            monkeypatch.setattr(Replay, "scene_at", broken)
            await app.push_screen(ReplayScreen(engine_replay(engine)))
            await pilot.pause()
            await pilot.press("right")
            await pilot.pause()
    check_the_end(app, capsys.readouterr().err, state, content, state_home)


async def test_a_fault_in_the_terminals_input_thread(content, state_home, capsys):
    """Textual's terminal driver, when its thread reading the keys fails, hands the app a traceback
    (`App.panic`) from that thread: as it does, here, with a fault naming a card."""
    app = LagoonApp(content, GameSettings(("Ana", "Ben"), ("red", "yellow"), 12, 0))
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        state = game_screen(app).host.engine.state
        secret = a_secret(state)

        fault = threading.Event()

        def reading() -> None:
            try:
                raise Fault(f"a key for {secret}")
            except Fault:
                app.call_later(app.panic, Traceback())  # (word for word what the driver does)
            fault.set()

        threading.Thread(target=reading).start()
        await ended_after(app, fault)
    check_the_end(app, capsys.readouterr().err, state, content, state_home)


def engine_replay(engine: Engine) -> Replay:
    return Replay(engine.content, engine.events, engine.marks)


async def test_a_fault_in_the_app_of_a_player_over_ssh_names_no_path_of_the_server(content, state_home, capsys):
    """The app `lagoon session` runs for an SSH player: the report stays on the server, and its path is
    not said on the player's terminal (it is the server's business, and says where its files are)."""
    host = Host.new(content, ["Ana", "Ben"], ["red", "yellow"], seed=11, start_player=0)
    state = host.engine.state
    secret = a_secret(state)
    fault = threading.Event()

    def broken(panel, scene):
        fault.set()
        raise Fault(f"no such card: {secret}")

    room = RoomThread(host)
    app = SeatApp(Link(room.socket(0)))
    try:
        with pytest.MonkeyPatch.context() as patch, pytest.raises(crash.Stopped):
            patch.setattr(PlayerBoard, "show", broken)
            async with app.run_test(size=SIZE):
                await ended_after(app, fault)  # (once the game's first frames have come, the board is drawn)
    finally:
        app.link.close()
        room.stop()
    told = capsys.readouterr().err
    assert app.return_code == crash.CRASHED
    assert told.split() == crash.sentence(None, remote=True).split()
    assert str(state_home) not in told and secret not in told
    (report,) = (state_home / "lagoon").glob("crash-*.txt")
    assert stat.S_IMODE(report.stat().st_mode) == 0o600 and f"Fault: no such card: {secret}" in report.read_text()


async def test_a_fault_in_a_thread_started_while_the_app_runs(content, state_home, capsys):
    """Any thread of the app's process (as `lagoon` runs it: `crash.handlers`) that a bug ends ends the
    app as a bug of its own would: the sentence after the app, never over its screen."""
    app = LagoonApp(content, GameSettings(("Ana", "Ben"), ("red", "yellow"), 13, 0))
    fault = threading.Event()
    with crash.handlers(), pytest.raises(crash.Stopped):
        async with app.run_test(size=SIZE) as pilot:
            await start(pilot)
            state = game_screen(app).host.engine.state
            secret = a_secret(state)

            def working() -> None:
                fault.set()
                raise Fault(f"counting {secret}")

            threading.Thread(target=working).start()
            await ended_after(app, fault)
    check_the_end(app, capsys.readouterr().err, state, content, state_home)


async def test_a_fault_in_the_links_reader_thread_ends_the_app_of_a_player_over_ssh(
    content, state_home, capsys, monkeypatch
):
    """The thread that reads the server's frames fails on a bug (not a broken socket or frame): the SSH
    player's app ends with the sentence and the report is written, instead of waiting on a dead line."""
    host = Host.new(content, ["Ana", "Ben"], ["red", "yellow"], seed=14, start_player=0)
    secret = a_secret(host.engine.state)
    fault = threading.Event()
    read = link.parse

    def broken(line: bytes) -> tuple[str, str]:
        kind, text = read(line)
        if kind == "content":  # (the game's first frame)
            fault.set()
            raise Fault(f"no such card: {secret}")
        return kind, text

    monkeypatch.setattr(link, "parse", broken)
    room = RoomThread(host)
    app = SeatApp(Link(room.socket(0)))
    try:
        with pytest.raises(crash.Stopped):
            async with app.run_test(size=SIZE):
                await ended_after(app, fault)
    finally:
        app.link.close()
        room.stop()
    told = capsys.readouterr().err
    assert app.return_code == crash.CRASHED
    assert told.split() == crash.sentence(None, remote=True).split(), told  # (and not the lost link's words)
    assert app.link.lost is not None  # (the link knows it is lost: a request now is not waited on)
    (report,) = (state_home / "lagoon").glob("crash-*.txt")
    assert f"Fault: no such card: {secret}" in report.read_text()
