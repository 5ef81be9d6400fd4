"""Fixtures for every test of the app."""

from pathlib import Path

import pytest

from lagoon_tui.turbo import keyboard
from lagoon_tui.widgets import svg
from rules.saves import Store
from tests.helpers.hostile import SEED
from tests.helpers.ssh_players import LagoonServer
from tests.helpers.terminal import Tmux, lagoon_play


@pytest.fixture(autouse=True)
def _drawn_for_a_terminal(monkeypatch):
    """Each test starts with the panels drawn for a terminal, and gets the setting back as it was after.

    `stills.py` turns `SVG_SPACES` on for the SVG pictures it makes
    and never turns it off: without this, every test run after a snapshot in
    the same process would get strips cut up for SVG (`detach_spaces`), and
    pass or fail by the order the tests happened to run in.
    """
    monkeypatch.setattr(svg, "SVG_SPACES", False)


@pytest.fixture
def store(tmp_path: Path):
    """A save file of the test's own, open for the test."""
    with Store(tmp_path / "lagoon.db") as s:
        yield s


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def pane(db: Path):
    assert keyboard.ON, f"the keyboard guard is off: {keyboard.MISFIT}"
    tmux = Tmux("hostile", 80, 24, [*lagoon_play(SEED), "--db", str(db)])
    try:
        yield tmux
    finally:
        tmux.kill()


@pytest.fixture
def server(tmp_path):
    served = LagoonServer(tmp_path)
    served.start()
    yield served
    for terminal in served.terminals:
        terminal.kill()
    served.stop()


@pytest.fixture
def serving(tmp_path):
    """A server started with the flags a test gives."""
    started: list[LagoonServer] = []

    def start(*flags: str) -> LagoonServer:
        server = LagoonServer(tmp_path, *flags)
        server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        for terminal in server.terminals:
            terminal.kill()
        server.stop()
