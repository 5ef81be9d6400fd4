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
log. Then ctrl+q must end the session. The log is checked last, after the
session has ended, with an error of its own, so that the 160x50 run can be
an expected failure for that alone (an app bug, see its reason).

Every wait polls the pane with a timeout; nothing asserts on how long
anything took. The test is skipped where tmux is not installed (.ci/run
installs it).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rules import Engine, load_content

LAGOON = Path(sys.executable).with_name("lagoon")
TIMEOUT = 60.0  # seconds any one wait may take before the test fails (a slow CI machine, a cold start)
POLL = 0.05
OPTION_1 = re.compile(r"(?<![\w.$'])1\. [A-Z]")
"""The first option of a prompt, "1. Keep ...", at the start of a line or of a panel's line."""
BORDERS = re.compile(r"[│┃║╭╮╰╯┏┓┗┛╔╗╚╝▎▊]")

pytestmark = [
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
    pytest.mark.skipif(not LAGOON.exists(), reason=f"the lagoon command is not installed at {LAGOON}"),
]


class Tmux:
    """One detached tmux session on a private server."""

    def __init__(self, name: str, width: int, height: int, command: list[str]):
        self.socket = f"lagoon-test-{os.getpid()}-{name}"
        self.env = {**os.environ, "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
        self.env.pop("TMUX", None)  # not nested in the tmux the tests may run in
        # Textual's test harness leaves COLUMNS and LINES in os.environ, and the
        # app would take them over its pane's real size.
        self.env.pop("COLUMNS", None)
        self.env.pop("LINES", None)
        self.target = "game"
        self.run("new-session", "-d", "-s", self.target, "-x", str(width), "-y", str(height),
                 "env", "TERM=xterm-256color", *command)

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args], env=self.env,
                              capture_output=True, text=True, timeout=TIMEOUT, check=check)

    def alive(self) -> bool:
        return self.run("has-session", "-t", self.target, check=False).returncode == 0

    def capture(self) -> str:
        return self.run("capture-pane", "-p", "-t", self.target).stdout

    def send(self, *keys: str) -> None:
        self.run("send-keys", "-t", self.target, *keys)

    def wait_for(self, test, what: str) -> str:
        """Poll the pane until `test(text)`; the text."""
        deadline = time.monotonic() + TIMEOUT
        text = ""
        while time.monotonic() < deadline:
            if not self.alive():
                pytest.fail(f"the app ended while waiting for {what}; last screen:\n{text}")
            text = self.capture()
            if test(text):
                return text
            time.sleep(POLL)
        pytest.fail(f"timed out waiting for {what}; the screen:\n{text}")

    def settle(self, test=lambda text: True, what: str = "the screen", before: str | None = None) -> str:
        """The pane once it shows what `test` wants, differs from `before` and has stopped changing for a moment.

        The app may draw a choice in more than one frame (the prompt's question
        before its options), so a screen counts only once it is still.
        """
        while True:
            text = self.wait_for(lambda t: t != before and test(t), what)
            time.sleep(POLL * 2)
            if self.capture() == text:
                return text

    def press(self, key: str, before: str, test=lambda text: True, what: str = "the screen") -> str:
        self.send(key)
        return self.settle(test, f"{what} after {key}", before)

    def kill(self) -> None:
        self.run("kill-server", check=False)


def opening(content, seed: int):
    """The same opening on an engine: (first action prompt, [(name, island)] in order of choice)."""
    engine = Engine.new(content, ["Ana", "Ben"], seed=seed, start_player=0, colours=["red", "yellow"])
    chosen = []
    while engine.state.phase in ("created", "setup", "island_selection"):
        decision = engine.pending
        if decision.kind == "choose_island":
            chosen.append((engine.state.players[decision.seat].name, int(decision.options[0].id.split(":")[1])))
        engine.choose(decision.options[0].id)
    return engine.pending.prompt, chosen


class NotInLog(AssertionError):
    """The log on screen does not tell the island choices (checked last, after ctrl+q)."""


@pytest.fixture(scope="module")
def content():
    return load_content()


@pytest.mark.parametrize("width, height", [
    pytest.param(80, 24, id="80x24"),
    pytest.param(160, 50, id="160x50"),
])
def test_lagoon_play_in_tmux(content, width, height):
    seed = 5
    prompt, islands = opening(content, seed)
    assert [name for name, _ in islands] and all(1 <= i <= len(content.board.islands) for _, i in islands)
    tmux = Tmux(f"{width}x{height}", width, height, [str(LAGOON), "play", "Ana", "Ben", "--seed", str(seed),
                                                      "--start", "1"])
    try:
        screen = tmux.settle(lambda t: "Pass the keyboard to Ana" in t, "the first curtain")
        screen = tmux.press("Enter", screen, lambda t: "1. Keep " in t, "Ana's objectives to keep")
        assert "keep 2 of your 3 objectives" in screen, screen

        # the opening: first option of every choice, Enter at every curtain, up to the first action
        def ready(text: str) -> bool:
            return "Pass the keyboard to" in text or bool(OPTION_1.search(text))

        for _ in range(40):
            if prompt in screen:
                break
            if "Pass the keyboard to" in screen:  # after a curtain always comes a prompt, never a curtain
                screen = tmux.press("Enter", screen, lambda t: "Pass the keyboard to" not in t
                                    and bool(OPTION_1.search(t)), "the prompt behind the curtain")
            else:
                screen = tmux.press("1", screen, ready, "a curtain or a choice")
        assert prompt in screen, f"expected the prompt {prompt!r}:\n{screen}"

        # every panel, paging with ] in the compact layout
        seen = screen
        if width < 150:  # lagoon_tui.screens.game.WIDE: below it, one page of panels at a time
            first = screen
            for _ in range(30):
                screen = tmux.press("]", screen, lambda t: prompt in t, "the next panel")
                if screen == first:
                    break
                seen += "\n" + screen
        flat = " ".join(BORDERS.sub(" ", seen).split())  # a log line may wrap inside its panel
        assert "Round 1" in flat
        for name, island in islands:
            assert re.search(rf"Ships( here)?: {name} \[[RY]\]", flat), f"{name}'s ship is not on an island:\n{seen}"
        in_log = [re.search(rf"{name}( \[[RY]\])? chose island {island}\b", flat) for name, island in islands]

        tmux.send("C-q")
        deadline = time.monotonic() + TIMEOUT
        while tmux.alive() and time.monotonic() < deadline:
            time.sleep(POLL)
        assert not tmux.alive(), "ctrl+q did not end the app"
    finally:
        tmux.kill()
    if not all(in_log):
        raise NotInLog(f"the island choices {islands} are not in the log on screen:\n{seen}")
