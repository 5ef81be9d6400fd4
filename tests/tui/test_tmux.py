"""A real terminal: `lagoon play` in a tmux pane, driven with send-keys and read with capture-pane.

The app runs as its installed command in a detached tmux session of a fixed
size (80×24, the compact layout, and 160×50, the whole board) with
TERM=xterm-256color, on a tmux server of its own (its own socket, no user
configuration). The test passes the first curtain, sees the setup prompt,
plays the opening (both players' setup choices and both island choices,
always the first option, passing every curtain) and checks the pane against
the same opening played on an engine directly: the first action prompt, and,
somewhere among the panels (] pages through them in the compact layout),
"Round 1", both players' ships at an island and the island choices in the
log. Then ctrl+q must end the app with exit status 0. The log is checked last, after the
session has ended, with an error of its own (`NotInLog`), so that a log
that lost the island choices is told apart from a game that went wrong.

A second test plays on at 160×50 and checks that what the moves' partial
paints leave in the pane is what a whole new paint shows.

The terminal plumbing and the opening are shared with the colour-depth and
SSH tests (tests/helpers/terminal.py). Every wait polls the pane with a timeout;
nothing asserts on how long anything took. The test is skipped where tmux is
not installed (.ci/run installs it).
"""

from __future__ import annotations

import re
import shutil

import pytest

from rules import load_content
from tests.helpers.terminal import CURTAIN, LAGOON, Tmux, compact, flat, lagoon_play, opening, panel_pages, play_opening

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
    pytest.mark.skipif(not LAGOON.exists(), reason=f"the lagoon command is not installed at {LAGOON}"),
]


class NotInLog(AssertionError):
    """The log on screen does not tell the island choices (checked last, after ctrl+q)."""


@pytest.fixture(scope="module")
def content():
    return load_content()


@pytest.mark.parametrize(
    "width, height",
    [
        pytest.param(80, 24, id="80x24"),
        pytest.param(160, 50, id="160x50"),
    ],
)
def test_lagoon_play_in_tmux(content, width, height):
    seed = 5
    game = opening(content, seed)
    islands = game.islands
    assert islands and all(1 <= i <= len(content.board.islands) for _, i in islands)
    tmux = Tmux(f"{width}x{height}", width, height, lagoon_play(seed))
    try:
        screen = play_opening(tmux, game)
        # every panel, paging with ] in the compact layout
        pages = panel_pages(tmux, screen, game.first_action[1]) if compact(width, height) else [(screen, "")]
        seen = "\n".join(text for text, _ in pages)
        text = flat(seen)  # a log line may wrap inside its panel
        assert "Round 1" in text
        for name, island in islands:
            assert re.search(rf"Ships( here)?: {name} \[[RY]\]", text), f"{name}'s ship is not on an island:\n{seen}"
        in_log = [re.search(rf"{name}( \[[RY]\])? chose island {island}\b", text) for name, island in islands]
        assert tmux.quit() == 0, f"ctrl+q did not end the app with status 0:\n{tmux.capture()}"
    finally:
        tmux.kill()
    if not all(in_log):
        raise NotInLog(f"the island choices {islands} are not in the log on screen:\n{seen}")


def test_what_the_pane_shows_after_many_moves_is_what_a_whole_new_paint_shows(content):
    """A move paints only the cells that changed (`Note`, `SpotCompositor`): the terminal must end up the same.

    At 160×50 the game is played on for a few turns, taking the first option
    and passing every curtain. Now and then, with the board showing, the pane
    (text and colours) is kept; ctrl+l then has every widget paint itself
    anew, the help opened and closed has the whole screen painted again, and
    the pane must be what it was, cell for cell.
    """
    game = opening(content, 5)
    tmux = Tmux("repaint", 160, 50, lagoon_play(5))
    try:
        screen = play_opening(tmux, game)
        checked = presses = 0
        while checked < 3:
            assert presses < 60, f"no board to check after {presses} keys:\n{screen}"
            if CURTAIN in screen:
                screen = tmux.press("Enter", screen, lambda t: CURTAIN not in t, "the board")
                continue
            screen = tmux.press("1", screen, what="the next move")
            presses += 1
            if presses % 4 or CURTAIN in screen:
                continue
            painted = tmux.capture(escapes=True)
            tmux.send("C-l")
            helped = tmux.press("?", screen, lambda t: "Keys — " in t, "the help")
            again = tmux.press("Escape", helped, lambda t: "Keys — " not in t, "the board again")
            assert again == screen
            repainted = tmux.capture(escapes=True)
            assert repainted == painted, "a move left the pane unlike a whole new paint:\n" + "\n".join(
                f"{a!r}\n{b!r}" for a, b in zip(painted.splitlines(), repainted.splitlines()) if a != b
            )
            checked += 1
    finally:
        tmux.kill()
