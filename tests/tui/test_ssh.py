"""Lagoon over plain SSH: `ssh -tt host lagoon play ...` in an 80×24 tmux pane, against a private sshd.

The app then runs on a pseudo-terminal that sshd made, with the environment
sshd gives a login (TERM from the client, LANG passed along, no COLORTERM,
no COLUMNS or LINES), and every key and every frame crosses the SSH
connection. The test plays the same seeded opening as the tmux test, pages
through the panels, checks the board and the players' letters and that the
colours are 256-colour ones (what TERM=xterm-256color says when COLORTERM
does not travel), then presses ctrl+q: the app must end, ssh must exit with
status 0 (the remote command's own status), no traceback may be on screen,
and sshd must have logged the session's end.

It is skipped where tmux or OpenSSH is missing and cannot run, except in CI
(CI=true), where .ci/run installs them and a skip would hide the promise.
"""

from __future__ import annotations

import os
import re
import shutil
import time

import pytest

from rules import load_content
from tests.helpers.sgr import kinds
from tests.helpers.sshd import Sshd, missing
from tests.helpers.terminal import LAGOON, POLL, TIMEOUT, Tmux, flat, lagoon_play, opening, panel_pages, play_opening


def why_not() -> str | None:
    if shutil.which("tmux") is None:
        return "tmux is not installed"
    if not LAGOON.exists():
        return f"the lagoon command is not installed at {LAGOON}"
    return missing()


REASON = why_not()
if REASON and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the SSH test, but {REASON}")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Sshd(tmp_path_factory.mktemp("sshd"))
    server.start()
    yield server
    server.stop()


def wait_for_log(server: Sshd, pattern: str) -> str:
    """sshd's log once it matches `pattern` (it writes a line when a session ends, a moment after ssh exits)."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        log = server.log.read_text()
        if re.search(pattern, log):
            return log
        time.sleep(POLL)
    pytest.fail(f"sshd never logged {pattern!r}; its log:\n{server.log.read_text()}")


def test_lagoon_play_over_ssh(server):
    seed = 5
    game = opening(load_content(), seed)
    tmux = Tmux("ssh", 80, 24, server.client(*lagoon_play(seed)))
    try:
        screen = play_opening(tmux, game)
        pages = panel_pages(tmux, screen, game.first_action[1])
        status = tmux.quit()
        after = tmux.capture(history=True)
    finally:
        tmux.kill()

    text = flat("\n".join(plain for plain, _ in pages))
    assert "Round 1" in text
    for name, island in game.islands:
        assert re.search(rf"Ships( here)?: {name} \[[RY]\]", text), f"{name}'s ship is not on an island:\n{text}"
    used = kinds("\n".join(escaped for _, escaped in pages))
    assert used["256"] and not used["rgb"], f"expected 256 colours over SSH, got {used}"

    assert status == 0, f"after ctrl+q ssh ended with status {status}:\n{after}"
    assert "Traceback" not in after, after
    log = wait_for_log(server, rf"Disconnected from user {server.user}\b")
    assert "Accepted publickey" in log
