"""A bug on a real terminal: what is left on it is the sentence, never the game.

`lagoon play` runs in a tmux pane (tests/helpers/terminal.py) from a small
script that puts a fault in first and then runs the command's own `main`:
Ana's first choice raises a `KeyError` naming a card of hers, as a bug of
the engine might, or (the move made) starts a thread that does. Once the app has ended, the whole pane (what
scrolled off too) must hold the sentence and nothing of the game (no name or
id of any seat's objectives, corporations or deals; the board gone, the
terminal given back), the exit status must be `crash.CRASHED`, the report
must be on disk (0600, a traceback, no local variables), and the game must
be in the save file up to the move before.
"""

from __future__ import annotations

import re
import shutil
import stat
import subprocess
import sys
import time

import pytest

from lagoon_tui import crash
from rules import Engine, load_content
from rules.actions.deals import deal_label
from tests.helpers.terminal import CURTAIN, EXITED, LAGOON, TIMEOUT, Tmux, clean_env

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
    pytest.mark.skipif(not LAGOON.exists(), reason=f"the lagoon command is not installed at {LAGOON}"),
]

FAULTY = """\
import sys

from lagoon_tui.cli import main
from rules import Engine


def broken(engine, option_id):
    raise KeyError(engine.state.players[0].objective_offer[0])  # (a card of Ana's, by its id)


Engine.choose = broken
sys.exit(main())
"""

IN_A_THREAD = """\
import sys
import threading

from lagoon_tui.cli import main
from rules import Engine

choose = Engine.choose


def broken(engine, option_id):
    card = engine.state.players[0].objective_offer[0]  # (a card of Ana's, by its id)

    def counting():
        raise KeyError(card)

    threading.Thread(target=counting).start()
    return choose(engine, option_id)


Engine.choose = broken
sys.exit(main())
"""

SEED = 5


def secrets(content) -> set[str]:
    """Every card dealt to a seat at the start of the seeded game: objectives and corporations offered,
    deals in hand, by name and by id (and deals as the board writes them)."""
    engine = Engine.new(content, ["Ana", "Ben"], seed=SEED, start_player=0, colours=["red", "yellow"])
    found: set[str] = set()
    for player in engine.state.players:
        for objective in (*player.objective_offer, *player.objectives):
            found |= {objective, content.objectives[objective].name}
        for corporation in player.corporation_offer:
            found |= {corporation, content.corporations[corporation].name}
        for deal in player.deals:
            found |= {deal, deal_label(content.deals[deal])}
    assert found
    return found


@pytest.mark.parametrize("fault", [FAULTY, IN_A_THREAD], ids=["in-the-engine", "in-a-thread"])
def test_a_bug_on_a_real_terminal_leaves_the_sentence_and_nothing_of_the_game(tmp_path, fault):
    content = load_content()
    script = tmp_path / "faulty_lagoon.py"
    script.write_text(fault, encoding="utf-8")
    state, db = tmp_path / "state", tmp_path / "lagoon.db"
    command = [
        sys.executable,
        str(script),
        "play",
        "Ana",
        "Ben",
        "--seed",
        str(SEED),
        "--start",
        "1",
        "--no-confirm",
        "--db",
        str(db),
    ]
    tmux = Tmux("crash", 80, 24, command, pane_env={"XDG_STATE_HOME": str(state)})
    try:
        tmux.settle(lambda text: f"{CURTAIN} Ana" in text, "Ana's curtain")
        tmux.send("Enter")
        tmux.settle(lambda text: CURTAIN not in text and "1." in text, "Ana's first choice")
        tmux.send("1")
        deadline = time.monotonic() + TIMEOUT
        while (found := re.search(rf"{EXITED} (\d+)", tmux.capture(history=True))) is None:
            assert time.monotonic() < deadline, f"the app did not end:\n{tmux.capture()}"
            time.sleep(0.05)
        pane = tmux.capture(history=True)
    finally:
        tmux.kill()
    assert int(found[1]) == crash.CRASHED, pane
    reports = sorted((state / "lagoon").glob("crash-*.txt"))
    assert len(reports) == 1, pane
    report = reports[0]
    told = pane[: pane.index(EXITED)]
    assert "".join(told.split()) == "".join(crash.sentence(report).split()), pane
    shown = sorted(secret for secret in secrets(content) if re.search(rf"\b{re.escape(secret)}\b", pane))
    assert shown == [], f"the terminal shows {shown}:\n{pane}"
    assert CURTAIN not in pane and "Round" not in pane  # (the app's screen is gone: the terminal given back)
    assert stat.S_IMODE(report.stat().st_mode) == 0o600
    text = report.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in text and "KeyError" in text and "locals" not in text
    # every move up to the last one is saved: the game is in the save file
    listed = subprocess.run(
        [str(LAGOON), "list", "--db", str(db)], env=clean_env(), capture_output=True, text=True, timeout=TIMEOUT
    )
    assert listed.returncode == 0 and "Ana" in listed.stdout and "Ben" in listed.stdout, listed
