"""The lines `lagoon serve` writes on its terminal for a game (issue 35, point 8), and how many players it takes
at once by default (point 9), from real hosts and this machine's own figures."""

from __future__ import annotations

import io
import logging
import random
import resource

import pytest

from lagoon_tui.serve import capacity, console
from rules.host import Host, load_content
from tests.helpers.harness import FakeClock
from tests.helpers.lobby import LobbyThread, Terminal

CONTENT = load_content()
NAMES = ["Ana", "Cleo"]


@pytest.fixture
def lines():
    """What the console says at verbose, line by line (its handler taken away at the end)."""
    stream = io.StringIO()
    handler = console.setup("verbose", stream)
    root = logging.getLogger("lagoon_tui")
    yield lambda: [line.split(" ", 2)[2] for line in stream.getvalue().splitlines()]  # (without date and time)
    root.removeHandler(handler)
    root.setLevel(logging.NOTSET)
    root.propagate = True


def play_to_the_end(host: Host, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(5000):
        if host.over:
            return
        prompt = host.scene(host.turn().seat).prompt
        assert prompt is not None
        ids = [option.id for option in prompt.options]
        useful = [i for i in ids if i not in ("pass", "back")] or ids
        host.choose(useful[rng.randrange(len(useful))])
    pytest.fail("the game did not end in 5000 moves")


def test_a_game_is_one_line_as_it_starts_and_one_as_it_ends_naming_its_computer(lines):
    host = Host.new(CONTENT, NAMES, ["red", "yellow"], seed=3, computers={1: "hard"})
    console.watch("ABC234", host, NAMES, reopened=False)
    assert lines() == [f"room ABC234: game {host.game} started: Ana, Cleo (computer, Hard)"]
    play_to_the_end(host, 3)
    host.undo()  # (a change after the end: nothing more is said)
    assert lines()[1:] == [f"room ABC234: game {host.game} is over: Ana, Cleo (computer, Hard)"]


def test_a_game_opened_again_after_a_restart_is_said_only_at_verbose_and_a_finished_one_not_at_all(lines):
    host = Host.new(CONTENT, NAMES, ["red", "yellow"], seed=4)
    console.watch("ABC234", host, NAMES, reopened=True)
    assert lines() == [f"room ABC234: game {host.game} opened again: Ana, Cleo"]
    play_to_the_end(host, 4)
    console.watch("XYZ789", host, NAMES, reopened=True)
    assert lines()[1:] == [f"room ABC234: game {host.game} is over: Ana, Cleo"]


def test_a_name_that_could_act_on_the_terminal_is_written_escaped(lines):
    console.connected("Ana\x1b[2J", "SHA256:abcdefghijklmnop", "127.0.0.1")
    assert lines() == ["Ana\\u001B[2J (key SHA256:abcdefgh) connected from 127.0.0.1"]


def test_the_default_of_players_at_once_follows_the_memory_and_the_open_files():
    gib = 1024**3
    assert capacity.players_for(memory=24 * gib, files=20_000) == 24 * gib // 2 // capacity.SESSION_COST == 192
    assert capacity.players_for(memory=gib, files=20_000) == 8
    assert capacity.players_for(memory=gib // 4, files=20_000) == capacity.FEWEST
    assert capacity.players_for(memory=1024 * gib, files=20_000) == capacity.MOST
    assert capacity.players_for(memory=24 * gib, files=512) == (512 - 64) // 4 == 112
    assert capacity.players_for(memory=None, files=20_000) == capacity.UNKNOWN
    assert capacity.default_players() == capacity.players_for(
        capacity.memory_total(), resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    )


def test_the_machines_memory_is_read_from_proc_meminfo(tmp_path):
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       24684084 kB\nMemFree:         1000 kB\n")
    assert capacity.memory_total(meminfo) == 24684084 * 1024
    meminfo.write_text("nothing here\n")
    assert capacity.memory_total(meminfo) is None
    assert capacity.memory_total(tmp_path / "none") is None


def test_a_key_that_gives_too_many_wrong_room_codes_is_one_line_on_the_console(tmp_path, caplog):
    """Real lobby on a real save file; six wrong codes and more from Mal: one line, when the limit is reached."""
    server = LobbyThread(tmp_path / "lagoon.db", FakeClock())
    try:
        mal = Terminal(server.session("SHA256:malmalmalmalmal"))
        assert mal.link.ask("name", {"name": "Mal"}) == {"name": "Mal"}
        with caplog.at_level(logging.INFO, logger="lagoon_tui"):
            for n in range(9):
                mal.link.ask("join", {"code": f"WRONG{n}"})
        said = [record.getMessage() for record in caplog.records]
        assert said == [
            "Mal (key SHA256:malmalma) gave too many wrong room codes: every code is refused them for a while"
        ]
        assert caplog.records[0].levelno == logging.WARNING  # (so --quiet shows it)
    finally:
        server.stop()


def test_at_verbose_a_name_taken_and_a_name_changed_are_each_a_line(tmp_path, caplog):
    server = LobbyThread(tmp_path / "lagoon.db")
    try:
        zoe = Terminal(server.session("SHA256:zoezoezoezoezoe"))
        with caplog.at_level(logging.DEBUG, logger="lagoon_tui"):
            assert zoe.link.ask("name", {"name": "Zoe"}) == {"name": "Zoe"}
            assert zoe.link.ask("rename", {"name": "Zoé"}) == {"name": "Zoé"}
        assert [(record.levelno, record.getMessage()) for record in caplog.records] == [
            (logging.DEBUG, "key SHA256:zoezoezo took the name Zoe"),
            (logging.DEBUG, "Zoe (key SHA256:zoezoezo) is now called Zoé"),
        ]
    finally:
        server.stop()
