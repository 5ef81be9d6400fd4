"""Nothing lost: the real app is killed with SIGKILL at random moments and resumed each time.

The app runs in a tmux pane (a real terminal) as `python -m lagoon_tui --db X
play ...`, later `... resume`. The test presses keys like a player: Enter on
a curtain, a digit for an option, now and then `u` to undo. A move counts as
acknowledged once the screen has changed after its key. Islands are chosen in
the open (no curtain), and a lone Pass is made by the app for the player, as a
move of its own. At 20+ random moments
(some right after a key, before the app could answer) the process is killed
with SIGKILL; then the save file must hold exactly a prefix of the moves sent,
at least every acknowledged one, the resumed state must equal the replay of
the committed events, and `lagoon resume` must bring back that very decision.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lagoon_tui.hand_over import READY, Change, Keyboard, next_state
from rules import Engine, load_content, replay
from rules.decision import OPEN_KINDS
from rules.host import Host
from rules.saves import Store
from rules.saves.recorder import open_game

pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")]

CONTENT = load_content()
KILLS = 22
SEED = 5
REPO = Path(__file__).resolve().parents[2]


class Pane:
    """One tmux server of our own (its own socket) with one pane running the app."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> str:
        result = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=30)
        return result.stdout

    def start(self, *argv: str) -> int:
        command = " ".join([f"exec {sys.executable} -m lagoon_tui", *argv])
        self.tmux("new-session", "-d", "-s", "g", "-x", "160", "-y", "50", "-c", str(REPO), command)
        return int(self.tmux("display-message", "-p", "-t", "g", "#{pane_pid}").strip())

    def text(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "g")

    def keys(self, key: str) -> None:
        self.tmux("send-keys", "-t", "g", key)

    def stop(self) -> None:
        self.tmux("kill-server")


def flat(text: str) -> str:
    return re.sub(r"[\s│┃╭╮╰╯─━┏┓┗┛]+", " ", text)


def wait_for(pane: Pane, ok, timeout: float = 60.0, changed_from: str | None = None) -> str:
    """Poll the screen until `ok(text)` holds twice in a row (the app has settled).

    `timeout` only turns a hang into a failure: a loaded machine may take many seconds to start the app.

    With `changed_from`, the screen must also differ from that earlier screen:
    the app has answered the key sent since.
    """
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        text = pane.text()
        if text == changed_from:
            time.sleep(0.05)
            continue
        if ok(text) and text == last:
            return text
        last = text if ok(text) else None
        time.sleep(0.05)
    raise AssertionError(f"the screen did not settle; it shows:\n{pane.text()}")


def shows_decision(engine: Engine):
    """The screen shows the prompt of `engine`'s pending decision (its first words) for its seat."""
    want = flat(engine.pending.prompt)[:28]
    return lambda text: want in flat(text) and "Pass the keyboard" not in text


def shows_curtain(name: str):
    return lambda text: f"Pass the keyboard to {name}" in text


def kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.02)


def hand_over(shadow: Engine, keyboard: Keyboard) -> tuple[Keyboard, bool]:
    """Where the keyboard goes for the pending decision, by the rule the game screen follows
    (`lagoon_tui.hand_over`), and whether a curtain comes up for it. A new screen (`Keyboard()`, as the
    app starts for two people) always begins with one."""
    pending = shadow.pending
    after, do = next_state(keyboard, Change(pending.seat, open=pending.kind in OPEN_KINDS))
    return after, do.curtain is not None


def play_until_kill(pane: Pane, pid: int, shadow: Engine, rng: random.Random) -> tuple[list, list[list]]:
    """Send 1..6 moves, each acknowledged on screen, then one more and kill at once.

    Returns the log as the screen last acknowledged it (before the move in flight), and the logs
    the move in flight may have left: the choice, and each pass the app then made for a player
    who could only pass (each is saved on its own).
    """
    keyboard, curtain = hand_over(shadow, Keyboard())
    moves = rng.randint(1, 6)
    for n in range(moves + 1):
        if curtain:
            wait_for(pane, shows_curtain(shadow.state.players[shadow.pending.seat].name))
            pane.keys("Enter")
            keyboard, _ = next_state(keyboard, READY)
        screen = wait_for(pane, shows_decision(shadow))
        acknowledged = list(shadow.events)
        in_flight = []
        if shadow.undo_point() and rng.random() < 0.15:
            pane.keys("u")
            shadow.undo()
            in_flight.append(list(shadow.events))
        else:
            options = shadow.pending.options[:9]
            moving = [i for i, o in enumerate(options) if o.id not in ("back", "pass")]
            index = rng.choice(moving) if moving and rng.random() < 0.9 else rng.randrange(len(options))
            pane.keys(str(index + 1))
            unsubscribe = shadow.subscribe(lambda new: in_flight.append(list(shadow.events)))
            Host(shadow).choose(options[index].id)  # as the app does: the choice, then forced passes
            unsubscribe()
        if n == moves:  # the last move is in flight when the kill comes
            time.sleep(rng.uniform(0, 0.08))
            kill(pid)
            return acknowledged, in_flight
        keyboard, curtain = hand_over(shadow, keyboard)
        if curtain:
            wait_for(pane, shows_curtain(shadow.state.players[shadow.pending.seat].name), changed_from=screen)
        else:
            wait_for(pane, shows_decision(shadow), changed_from=screen)
    raise AssertionError("unreachable")


def test_sigkill_at_random_moments_loses_nothing_acknowledged(tmp_path):
    db = tmp_path / "lagoon.db"
    rng = random.Random(2024)
    pane = Pane(f"lagoon-crash-{os.getpid()}")
    shadow = Engine.new(CONTENT, ["Ana", "Ben"], seed=SEED, start_player=0)
    try:
        pid = pane.start("--db", str(db), "play", "Ana", "Ben", "--seed", str(SEED), "--start", "1")
        for round_ in range(KILLS):
            acknowledged, in_flight = play_until_kill(pane, pid, shadow, rng)
            pane.stop()
            with Store(db) as store:
                (info,) = store.games()
                saved = store.load(info.id)
                resumed = open_game(store, info.id, CONTENT, record=False)
            committed = saved.events
            # every acknowledged move is there; the one in flight (and each pass made after it) is there
            # entirely or not at all
            assert committed in (acknowledged, *in_flight), (
                f"kill {round_}: saved {len(committed)} events; the screen had shown {len(acknowledged)}, "
                f"the move in flight would make {len(shadow.events)}"
            )
            assert resumed.state == replay(CONTENT, committed)
            if committed != shadow.events:  # the move in flight (or a pass after it) did not make it
                shadow = Engine(CONTENT, committed, saved.marks)
            assert resumed.state == shadow.state and resumed.marks == shadow.marks
            Host(shadow).pass_where_forced()  # as the app does when it opens a game
            pid = pane.start("--db", str(db), "resume")
            if rng.random() < 0.1:  # sometimes the app dies while it is still starting up
                time.sleep(rng.uniform(0, 0.3))
                kill(pid)
                pane.stop()
                pid = pane.start("--db", str(db), "resume")
        # the last resume shows the very decision that was left, to the right player
        wait_for(pane, shows_curtain(shadow.state.players[shadow.pending.seat].name))
        pane.keys("Enter")
        wait_for(pane, shows_decision(shadow))
    finally:
        pane.stop()
