"""Hostile bytes over SSH: `lagoon serve`, the stock OpenSSH client in a tmux pane, bytes no keyboard makes.

Each player's session (`lagoon session`) runs on a pseudo-terminal of the
server's own (lagoon_tui/serve/terminal.py), and reads it as `lagoon play`
reads its own (test_hostile_keyboard.py): a byte that is not UTF-8 and a
paste that never ends, sent through ssh, leave the session answering, and
ctrl+q ends it. Skipped where tmux or OpenSSH is missing (as the other
`lagoon serve` tests are) or the guard is switched off by name; a guard off
for another reason (a Textual it does not know) fails it.
"""

from __future__ import annotations

import pytest

from lagoon_tui.turbo import keyboard
from tests.helpers.hostile import hexes
from tests.helpers.ssh_players import REASON, new_player
from tests.helpers.terminal import flat

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(REASON is not None, reason=REASON or ""),
    pytest.mark.skipif(keyboard.SWITCHED_OFF, reason="the keyboard piece of lagoon_tui.turbo is switched off here"),
]


def test_a_session_over_ssh_takes_bad_bytes_and_an_unended_paste(server):  # noqa: F811
    assert keyboard.ON, f"the keyboard guard is off: {keyboard.MISFIT}"
    ana = new_player(server, "Ana")
    lobby = ana.wait("Your games")
    ana.type("-H", "ff", "fe", "c3", "28", "e2", "82")
    ana.type("c")  # the lobby still answers: its form for a new room
    ana.tmux.wait_for(lambda t: "New room" in flat(t) and t != lobby, "the new room form")
    ana.type("-H", *hexes(b"\x1b[200~some text, and no end"))
    status = ana.tmux.quit()  # ctrl+q: the session ends, and ssh with its status
    seen = ana.tmux.capture(history=True)
    assert status == 0, f"ctrl+q did not end the session with status 0 (status {status}):\n{seen}"
    assert "Traceback" not in seen, seen
