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
import time
from pathlib import Path

import pytest

from lagoon_tui.hand_over import READY, Change, Keyboard, next_state
from rules import Engine, load_content, replay
from rules.decision import OPEN_KINDS
from rules.host import Host
from rules.saves import Store
from rules.saves.recorder import open_game
from tests.helpers.pane import Pane, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")]

CONTENT = load_content()
KILLS = 22
SEED = 5
REPO = Path(__file__).resolve().parents[2]


def flat(text: str) -> str:
    return re.sub(r"[\s│┃╭╮╰╯─━┏┓┗┛]+", " ", text)


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
        pid = pane.start("--db", str(db), "play", "Ana", "Ben", "--seed", str(SEED), "--start", "1", "--no-confirm")
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
            pid = pane.start("--db", str(db), "resume", "--no-confirm")
            if rng.random() < 0.1:  # sometimes the app dies while it is still starting up
                time.sleep(rng.uniform(0, 0.3))
                kill(pid)
                pane.stop()
                pid = pane.start("--db", str(db), "resume", "--no-confirm")
        # the last resume shows the very decision that was left, to the right player
        wait_for(pane, shows_curtain(shadow.state.players[shadow.pending.seat].name))
        pane.keys("Enter")
        wait_for(pane, shows_decision(shadow))
    finally:
        pane.stop()
