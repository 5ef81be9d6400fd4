"""A tmux server of a test's own, with one pane running the app, polled until its screen settles."""

from __future__ import annotations

import subprocess
import sys
import time

from tests.helpers.commands import REPO


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
