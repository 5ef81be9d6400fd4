"""Games over days over real `ssh` against a real `lagoon serve` on loopback (issue 35, point 6).

The server offers one more pace, for tests only (LAGOON_TEST_PACE, seconds),
so that a clock runs out while the test looks; everything else is the flow
a player has: the room form's pace, the lobby's row, the prompt's clock, the
computer's move and the notice, the lobby's keys for vacation and notices,
and a POST to an HTTP server on loopback.

Skipped where tmux or OpenSSH is missing, except in CI (.ci/run installs them).
"""

from __future__ import annotations

import os

import pytest

from tests.helpers.hook import Hook
from tests.helpers.rooms import until
from tests.helpers.ssh_players import CODE, REASON, YOUR_MOVE, LagoonServer, Player, mover, new_player
from tests.helpers.terminal import flat

if REASON and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the lagoon serve tests, but {REASON}")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]

PACE = 12  # seconds a move, the test's pace


@pytest.fixture
def server(tmp_path):
    served = LagoonServer(tmp_path, env={"LAGOON_TEST_PACE": str(PACE)})
    served.start()
    yield served
    for terminal in served.terminals:
        terminal.kill()
    served.stop()


def room_at_pace(player: Player, layout: str, pace: str, *keys: str) -> str:
    """A room made in the form (layout by its digit) at the pace its list says in those words, picked with
    `keys` in that list; its code."""
    player.wait("Your games")
    player.type("c")
    player.wait("New room")
    player.type("Tab", "Tab", "Enter")  # (the pace's list, opened)
    player.wait(pace)
    player.type(*keys, "Enter")
    player.tmux.wait_for(lambda s: flat(s).count(pace) == 1, "the pace picked, its list closed")
    for tries in range(2):  # (a digit typed as the pace's list closes can be lost under load: typed again then)
        player.type(layout)
        try:
            screen = flat(player.wait(f"· {pace}", "the room's row, with its pace"))
            break
        except pytest.fail.Exception:
            if tries or "New room" not in flat(player.tmux.capture()):
                raise
    row = next(line for line in screen.split("Your games", 1)[1].splitlines() if pace in line)
    return CODE.search(row)[1]


def test_over_ssh_a_paced_room_shows_the_clock_and_a_computer_moves_for_a_seat_that_ran_out(server):
    ana = new_player(server, "Ana")
    code = room_at_pace(ana, "1", f"{PACE} s a move", "End")
    ben = new_player(server, "Ben", "join", code)
    ben.wait("has not started yet")
    ana.type("s")
    for p in (ana, ben):
        p.wait("Score · goal")
        p.hears("has less than a minute left")  # ("Ana [R] has less than a minute left", on every screen)
    # nobody moves: the seat deciding runs out of time, a computer moves for them, and everyone is told
    for p in (ana, ben):
        p.hears("ran out")  # (the notice: "Ana ran out of time: …", to her "Your time ran out: …")
        p.wait("ran out of time: a computer played this turn for them.")  # (the log's line)
    # the seats stay theirs: each is asked for a move of their own again
    for p in (ana, ben):
        p.tmux.wait_for(lambda s: YOUR_MOVE in flat(s), f"{p.name}'s own move again")
    # a spectator at 80×24 reads the clock on the prompt too
    eve = Player(server, "Eve", "join", code, size=(80, 24))
    eve.wait("What name should the others see?")
    eve.type("Eve", "Enter")
    eve.wait("has less than a minute left", "the clock on a spectator's prompt at 80×24")


def test_over_ssh_a_player_goes_on_vacation_comes_back_and_is_sent_a_notice_when_not_connected(server):
    hook = Hook()
    try:
        ana = new_player(server, "Ana")
        ben = new_player(server, "Ben")
        ben.wait("Your games")
        ben.type("n")
        ben.wait("Notices while you are not connected")
        ben.type("ftp://example.org/x", "Enter")  # refused: the form says why and keeps what he typed
        ben.wait("Give an http:// or https:// URL.")
        assert "ftp://example.org/x" in flat(ben.screen())
        ben.type(*["BSpace"] * len("ftp://example.org/x"), hook.url, "Enter")
        ben.hears("Notices go to that URL.")
        code = room_at_pace(ana, "1", "1 day a move", "Down", "Down")
        ben.type("j")
        ben.wait("Join a room")
        ben.type(code, "Enter")
        ben.hears("has not started yet")
        ben.wait(f"Room {code} (you sit here)")  # (he waits in the room: Esc, the lobby)
        ben.type("Escape")
        ben.wait("Your games")
        ben.type("v")
        ben.wait("How many days? You have 21 left this year.")
        ben.type("3", "Enter")
        ben.hears("You are on vacation until")
        ben.wait("Lagoon · Ben · on vacation until", "his lobby's title")
        ana.wait("Ben (on vacation until", "Ben's vacation, on Ana's lobby row")
        ben.type("v")
        ben.wait("Enter: come back now")
        ben.type("Enter")
        ben.hears("Welcome back: the clocks of your games run again.")
        ana.tmux.wait_for(lambda s: "on vacation" not in flat(s), "Ben back, on Ana's lobby row")
        ben.type("v")
        ben.wait("You have 20 left this year.")  # (the whole days not begun are his again)
        ben.type("Escape")
        ben.tmux.wait_for(lambda s: "left this year" not in flat(s), "the form closed")
        ana.type("s")
        for p in (ana, ben):
            p.wait("Score · goal")
        for _ in range(200):  # (a game may begin with Ben's turn: he plays it out first)
            deciding = mover([ana, ben])
            if deciding is ana:
                break
            if deciding is ben:
                before = ben.screen()
                ben.type("1")
                ben.tmux.wait_for(lambda s, before=before: s != before, "Ben's move")
        ben.leave()  # no session of his is connected now
        ana.hears("Ben left; their clock runs on")  # (a game over days does not wait for him)
        # the game turns to Ben: every screen shows his clock, and his URL is sent one notice
        for _ in range(40):
            screen = flat(ana.screen())
            if "Ben [Y] has 23 h left" in screen:
                break
            if YOUR_MOVE in screen:
                before = ana.screen()
                ana.type("1")
                ana.tmux.wait_for(lambda s, before=before: s != before, "Ana's move")
        ana.wait("Ben [Y] has 23 h left")
        ana.wait("Ben [Y], who left")  # (and under it, his time left)
        until(lambda: len(hook.posts) == 1, "the notice's POST")
        path, kind, sent = hook.posts[0]
        assert (path, kind, sent["room"], sent["turn"]) == ("/lagoon/token-1234", "application/json", code, "Ben")
        assert sent["text"] == f"Your turn in game {sent['game']} (room {code})."
    finally:
        hook.close()
