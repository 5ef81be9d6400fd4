"""What `lagoon serve` writes on its own terminal (issue 35, point 8), with players on the stock OpenSSH client.

One line for each connection (its name, address and the start of its key's fingerprint), room made, game
started, and refusal (which limit: the flag that sets it); `--quiet` keeps only refusals and faults. Nothing
else: every line is one of those shapes, so no card, hand or seed can be on it.
"""

from __future__ import annotations

import re

import pytest

from lagoon_tui.serve import capacity
from lagoon_tui.serve.ssh import TOO_MANY_LOGINS
from tests.helpers.harness import key_fingerprint, run
from tests.helpers.ssh_players import REASON, LagoonServer, make_room, new_player
from tests.helpers.terminal import flat

pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WHEN = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d "
KEY = r"\(key SHA256:[A-Za-z0-9+/]{8}\)"
SHAPES = [
    re.compile(WHEN + line)
    for line in (
        rf"(a new player|Ana) {KEY} connected from 127\.0\.0\.1",
        rf"room [A-Z2-9]{{6}} made by Ana {KEY}: 2 seats, 1 for people, 1 for computers",
        r"room [A-Z2-9]{6}: game \d+ started: Ana, \w+ \(computer, Normal\)",
        rf"refused 127\.0\.0\.1 {KEY} \[--[a-z-]+\]: .+",
        rf"room [A-Z2-9]{{6}} made by Eve {KEY}: 2 seats, 2 for people, 0 for computers",
        rf"room [A-Z2-9]{{6}} cancelled by Eve {KEY}",
    )
]
"""Every line the console may hold here, after the banner."""


def console(server: LagoonServer) -> list[str]:
    """The lines after the banner."""
    return server.output.read_text().split(" (--max-players", 1)[1].splitlines()[1:]


def short(server: LagoonServer, player: str) -> str:
    return key_fingerprint(server.key(player).with_suffix(".pub"))[:15]


def test_the_console_says_each_connection_room_and_game_and_nothing_else(serving):
    server = serving()
    memory = capacity.gib(capacity.memory_total() or 0)
    assert f"Up to {capacity.default_players()} players at once, from this machine: {memory} of memory" in (
        server.output.read_text()
    ), "the banner says how many may play at once, and why"
    ana = new_player(server, "Ana")
    code = make_room(ana, "2")  # you and a computer
    ana.type("s")
    ana.wait("Score · goal")
    ana.type("1")  # (a move: nothing of it reaches the console)
    eve = new_player(server, "Eve")  # (not Ben: the computer has that name)
    eve.wait("Your games")
    cancelled = make_room(eve, "1")  # (you and a friend) and cancelled: a line for each
    eve.type("x")
    eve.wait("Everyone in it is told")
    eve.type("y")
    eve.tmux.wait_for(lambda screen: cancelled not in flat(screen).split("Your games", 1)[-1], "the room gone")
    lines = console(server)
    assert [line.split(" ", 2)[2] for line in lines[:3]] == [
        f"a new player (key {short(server, 'ana')}) connected from 127.0.0.1",
        f"room {code} made by Ana (key {short(server, 'ana')}): 2 seats, 1 for people, 1 for computers",
        lines[2].split(" ", 2)[2],
    ]
    assert re.fullmatch(rf"room {code}: game \d+ started: Ana, \w+ \(computer, Normal\)", lines[2].split(" ", 2)[2])
    assert "a new player" in lines[3] and short(server, "eve") in lines[3]
    assert [line.split(" ", 2)[2] for line in lines[4:]] == [
        f"room {cancelled} made by Eve (key {short(server, 'eve')}): 2 seats, 2 for people, 0 for computers",
        f"room {cancelled} cancelled by Eve (key {short(server, 'eve')})",
    ]
    assert all(any(shape.fullmatch(line) for shape in SHAPES) for line in lines), lines


def test_a_key_past_its_logins_is_refused_and_quiet_says_only_that(serving):
    server = serving("--quiet", "--per-key", "1")
    ana = new_player(server, "Ana")
    ana.wait("Your games")
    again = run(server.client("ana"))
    assert TOO_MANY_LOGINS in again.stderr, again
    (line,) = console(server)
    assert line.split(" ", 2)[2] == f"refused 127.0.0.1 (key {short(server, 'ana')}) [--per-key]: {TOO_MANY_LOGINS}"
    assert "Lagoon" in flat(ana.screen())  # the first session goes on
