"""Real terminals for tests: `lagoon` in a tmux pane, typed into with send-keys, read with capture-pane.

Shared by the tmux smoke test, the colour-depth tests and the SSH test, which
all run the installed command in a pane of a private tmux server (its own
socket, no user configuration) and play the same seeded opening.

The pane's environment is built here from scratch on purpose: whatever the
test runner's own terminal says (COLORTERM, NO_COLOR, TEXTUAL_COLOR_SYSTEM)
must not decide what the app sees, and Textual's test harness leaves COLUMNS
and LINES in os.environ, which the app would take over its pane's real size.

Every wait polls the pane with a generous timeout; nothing asserts on how
long anything took.
"""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from lagoon_tui.screens.game import WIDE
from rules import Engine
from rules.cards import Content

LAGOON = Path(sys.executable).with_name("lagoon")
TIMEOUT = 60.0  # seconds any one wait may take before the test fails (a slow CI machine, a cold start)
POLL = 0.05
CURTAIN = "Pass the keyboard to"
EXITED = "pane command exited with status"
QUIT_ASKED = "Enter: quit · n"  # (the hint of the question ctrl+q asks on a player's own turn)
OPTION_1 = re.compile(r"(?<![\w.$'])1\. [A-Z]")
"""The first option of a prompt, "1. Keep ...", at the start of a line or of a panel's line."""
BORDERS = re.compile(r"[│┃║╭╮╰╯┏┓┗┛╔╗╚╝▎▊]")
PAGE = re.compile(r"(?<![\d/])(\d+)/(\d+) (?:\[ \]|o )")
"""The compact layout's page counter at the start of its key hint: "3/9 [ ] panels  o islands ..." or "3/9 o ..."."""

# Variables that would let the test runner's terminal (or its harness) leak into the app's.
FOREIGN = ("TMUX", "COLUMNS", "LINES", "COLORTERM", "NO_COLOR", "TEXTUAL_COLOR_SYSTEM", "FORCE_COLOR")
Predicate = Callable[[str], bool]
SERVERS = itertools.count()
"""Numbers the tests' tmux servers (see `Tmux`)."""


def clean_env(**overrides: str) -> dict[str, str]:
    """os.environ less the FOREIGN variables, with a UTF-8 locale and `overrides` on top."""
    env = {key: value for key, value in os.environ.items() if key not in FOREIGN}
    env.update(LANG="C.UTF-8", LC_ALL="C.UTF-8", TERM="xterm-256color")
    env.update(overrides)
    return env


class Tmux:
    """One detached tmux session on a private server, running `command` in its only pane.

    `pane_env` is what the command's environment adds to a clean one; the
    default TERM is xterm-256color with no COLORTERM (256 colours).
    """

    def __init__(
        self, name: str, width: int, height: int, command: Sequence[str], pane_env: Mapping[str, str] | None = None
    ):
        # (a server of its own each time: one just killed may still be going when the same player comes back,
        # and tmux then fails to start a new server on its socket, "server exited unexpectedly")
        self.socket = f"lagoon-test-{os.getpid()}-{name}-{next(SERVERS)}"
        self.env = clean_env()
        self.target = "game"
        # The pane inherits the server's (clean) environment; tmux sets TERM in
        # it to its own, so the pane's terminal type is always given here.
        # A shell runs the command and then writes its exit status in the pane,
        # which stays on screen after the pane's end (remain-on-exit): tmux's own
        # #{pane_dead_status} was seen to stay empty for a minute under load,
        # the app's process a zombie tmux had not reaped yet.
        settings = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", **(pane_env or {})}
        self.run(
            "start-server",
            ";",
            "set-option",
            "-g",
            "remain-on-exit",
            "on",
            ";",
            "new-session",
            "-d",
            "-s",
            self.target,
            "-x",
            str(width),
            "-y",
            str(height),
            "env",
            *(f"{key}={value}" for key, value in settings.items()),
            "sh",
            "-c",
            f'"$@"; echo "{EXITED} $?"',
            "sh",
            *command,
        )

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=check,
        )

    def alive(self) -> bool:
        """Whether the pane's command (the app, or ssh) is still running."""
        done = self.run("display-message", "-p", "-t", self.target, "#{pane_dead}", check=False)
        return done.returncode == 0 and done.stdout.strip() == "0"

    def capture(self, escapes: bool = False, history: bool = False) -> str:
        """The pane's text; with `escapes`, with the SGR sequences (colours, bold) tmux keeps for each cell;
        with `history`, with the lines scrolled off the top too."""
        options = (["-e"] if escapes else []) + (["-S", "-"] if history else [])
        return self.run("capture-pane", "-p", *options, "-t", self.target).stdout

    def send(self, *keys: str) -> None:
        self.run("send-keys", "-t", self.target, *keys)

    def wait_for(self, test: Predicate, what: str) -> str:
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

    def settle(self, test: Predicate = lambda text: True, what: str = "the screen", before: str | None = None) -> str:
        """The pane once it shows what `test` wants, differs from `before` and has stopped changing for a moment.

        The app may draw a choice in more than one frame (the prompt's question
        before its options), so a screen counts only once it is still.
        """
        while True:
            text = self.wait_for(lambda t: t != before and test(t), what)
            time.sleep(POLL * 2)
            if self.capture() == text:
                return text

    def press(self, key: str, before: str, test: Predicate = lambda text: True, what: str = "the screen") -> str:
        self.send(key)
        return self.settle(test, f"{what} after {key}", before)

    def quit(self) -> int | None:
        """Press ctrl+q (and, if it asks first, on a player's own turn, ctrl+q again: yes) and wait for the
        pane's command to end; its exit status (None if it did not end)."""
        self.send("C-q")
        asked = False
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            # the line may have scrolled up, pushed by tmux's own "Pane is dead"
            seen = self.capture(history=True)
            found = re.search(rf"{EXITED} (\d+)", seen)
            if found:
                return int(found[1])
            if not asked and QUIT_ASKED in flat(seen):
                asked = True
                self.send("C-q")
            time.sleep(POLL)
        return None

    def kill(self) -> None:
        self.run("kill-server", check=False)


def lagoon_play(seed: int) -> list[str]:
    """The command line of the seeded two-player game every terminal test plays: each move as the engine
    takes it, the turn passing at its last move (`--no-confirm`; tests/tui/test_solo_game.py plays with
    End turn)."""
    return [str(LAGOON), "play", "Ana", "Ben", "--seed", str(seed), "--start", "1", "--no-confirm"]


@dataclass(frozen=True)
class Opening:
    """The seeded opening as an engine plays it, always taking the first option: what the screen must show."""

    decisions: tuple[tuple[str, str], ...]  # (player, prompt) of every setup and island choice, in order
    islands: tuple[tuple[str, int], ...]  # (player, island) in the order the islands were chosen
    first_action: tuple[str, str]  # (player, prompt) of the first action decision, where the opening ends


def opening(content: Content, seed: int) -> Opening:
    """The opening of `lagoon_play(seed)`, played on an engine directly."""
    engine = Engine.new(content, ["Ana", "Ben"], seed=seed, start_player=0, colours=["red", "yellow"])
    decisions, islands = [], []

    def now() -> tuple[str, str]:
        return engine.state.players[engine.pending.seat].name, engine.pending.prompt

    while engine.state.phase in ("created", "setup", "island_selection"):
        decision = engine.pending
        decisions.append(now())
        if decision.kind == "choose_island":
            islands.append((now()[0], int(decision.options[0].id.split(":")[1])))
        engine.choose(decision.options[0].id)
    return Opening(tuple(decisions), tuple(islands), now())


def play_opening(tmux: Tmux, game: Opening) -> str:
    """Play the opening with the keyboard, up to the first action prompt; the screen then.

    Each key waits for the screen of the decision it answers: that player's
    curtain (Enter) or the decision's own prompt with its options (1). The
    prompts differ from one decision to the next, so a screen caught half
    drawn or a key that went astray fails here instead of letting the game
    run on past the opening.
    """
    screen = ""
    steps = [(decision, True) for decision in game.decisions] + [(game.first_action, False)]
    for (name, prompt), choose in steps:

        def shown(text: str, prompt: str = prompt) -> bool:
            return prompt in text and bool(OPTION_1.search(text))

        curtain = f"{CURTAIN} {name}"
        screen = tmux.settle(lambda t: curtain in t or shown(t), f"{prompt!r} or the curtain before it")
        if curtain in screen:
            screen = tmux.press("Enter", screen, shown, repr(prompt))
        if choose:
            tmux.send("1")  # the next step waits for the next prompt, which reads differently
    return screen


def compact(width: int, height: int) -> bool:
    """Whether the app shows one page of panels at a time at this size."""
    return width < WIDE[0] or height < WIDE[1]


def panel_pages(tmux: Tmux, screen: str, prompt: str) -> list[tuple[str, str]]:
    """Every page of the compact layout, paging with ]: (text, text with escapes) per page, this one first.

    A page counts once its counter ("4/9") is the next one and the screen is
    still; paging stops when the counter is back where it started.
    """

    def page_of(text: str) -> tuple[int, int]:
        found = PAGE.search(text)
        assert found, f"no page counter on the compact screen:\n{text}"
        return int(found[1]), int(found[2])

    start, count = page_of(screen)
    pages = [(screen, tmux.capture(escapes=True))]
    for step in range(1, count):
        wanted = (start - 1 + step) % count + 1
        screen = tmux.press(
            "]",
            screen,
            lambda t: prompt in t and PAGE.search(t) is not None and page_of(t)[0] == wanted,
            f"panel page {wanted}/{count}",
        )
        pages.append((screen, tmux.capture(escapes=True)))
    return pages


def flat(text: str) -> str:
    """The text without panel borders, on one line, so a line wrapped inside its panel reads whole."""
    return " ".join(BORDERS.sub(" ", text).split())


TOPS, SIDES = "╭┏", "│┃"


def panels(screen: str) -> list[str]:
    """The text of each panel on a screen, its title and lines joined, so a sentence its panel wrapped reads
    whole (the panels beside it left out). The compact layout's page (above a rule of ─) and its prompt (below
    the rule) count too."""
    rows = screen.splitlines()
    found = []
    for top, row in enumerate(rows):
        for left, corner in enumerate(row):
            if corner not in TOPS:
                continue
            right = min((row.find(c, left + 1) for c in "╮┓" if c in row[left + 1 :]), default=len(row))
            lines = [row[left + 1 : right].strip("─━ ")]  # (its title)
            for below in rows[top + 1 :]:
                if len(below) <= left or below[left] not in SIDES:
                    break
                lines.append(below[left + 1 : right])
            found.append(" ".join(" ".join(lines).split()))
        if row.startswith("─"):
            found += [" ".join(" ".join(rows[:top]).split()), " ".join(" ".join(rows[top + 1 : -1]).split())]
    return found
