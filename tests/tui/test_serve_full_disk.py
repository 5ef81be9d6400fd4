"""`lagoon serve` with its save file on a disk that fills up, played with the stock OpenSSH client in tmux.

The save file is on a small tmpfs of its own (tests/helpers/disk.py; needs
root, skipped otherwise), filled for real while the players play: a move and
a new player's name are refused in words that name nothing of the server's
machine, every session goes on, the server's console says what was not saved,
and once there is room again both are made.
"""

from __future__ import annotations

import os
import time

import pytest

from rules.host import Store
from tests.helpers.disk import FullDisk
from tests.helpers.ssh_players import ANSI, REASON, LagoonServer, Player, make_room, mover_now, new_player
from tests.helpers.terminal import POLL, TIMEOUT

if REASON and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the lagoon serve tests, but {REASON}")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]


@pytest.fixture
def on_a_small_disk(tmp_path):
    """`lagoon serve` whose save file (alone) is on a small disk of its own; the disk."""
    disk = FullDisk.mount(tmp_path / "disk")
    if isinstance(disk, str):
        pytest.skip(disk)
    served = LagoonServer(tmp_path)
    served.db = disk.folder / "lagoon.db"
    try:
        served.start()
        yield served, disk
    finally:
        for terminal in served.terminals:
            terminal.kill()
        disk.free()
        served.stop()
        disk.unmount()


def saved_length(server: LagoonServer) -> int:
    """How many events of the game the save file holds (read as the players may not)."""
    with Store(server.db, read_only=True) as store:
        return store.games()[0].length


def test_a_full_disk_refuses_a_move_and_a_name_in_words_and_every_session_goes_on(on_a_small_disk):
    server, disk = on_a_small_disk
    ana = new_player(server, "Ana")
    make_room(ana, "2")  # you and a computer
    ana.type("s")
    mover_now([ana])  # (her move asked for, on a screen that has stopped changing: her key goes to it)
    saved = saved_length(server)
    disk.fill()
    ana.type("1")
    ana.hears("The save file could not be written: its disk is full")  # (a toast: its words wrap at "(or")
    ana.hears("Your move was not made.")
    assert "Not saved" in ana.screen()  # (the toast's title: not a refusal of the rules)
    assert saved_length(server) == saved
    ben = Player(server, "Eve")  # (not "Ben": Ana's computer carries that name, and no person may take it)
    ben.wait("What name should the others see?")
    ben.type("Eve", "Enter")
    ben.wait("Nothing was changed; try again later.")  # (under the name, on the name form: still open)
    assert "not saved" in server.output.read_text() and str(disk.folder) in server.output.read_text()

    disk.free()
    ben.type("Enter")
    ben.wait("Your games")
    ana.type("1")
    deadline = time.monotonic() + TIMEOUT
    while saved_length(server) == saved:
        assert time.monotonic() < deadline, "Ana's move was never saved once there was room"
        time.sleep(POLL)
    for player in (ana, ben):
        heard = ANSI.sub("", player.stream.read_text(errors="replace"))
        assert str(disk.folder) not in heard and str(server.folder) not in heard
