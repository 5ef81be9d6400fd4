"""Hostile bytes on a real terminal: `lagoon play` in a tmux pane, sent bytes no keyboard makes.

tmux's `send-keys -H` writes raw bytes to the pane's terminal, and
`paste-buffer -p` pastes as a terminal does, between the bracketed-paste
markers the app asked for. After each kind of bad input the app must still
answer a key (a screen that changes) and end on ctrl+q with status 0, the
game saved. Every wait polls the pane with a generous timeout; nothing
asserts on how long anything took.
"""

from __future__ import annotations

import random
import re
import shutil
import time
from pathlib import Path

import pytest

from lagoon_tui.turbo import keyboard
from tests.helpers.hostile import first_prompt, hexes, quits_saved
from tests.helpers.terminal import CURTAIN, LAGOON, OPTION_1, PAGE, POLL, Tmux

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
    pytest.mark.skipif(not LAGOON.exists(), reason=f"the lagoon command is not installed at {LAGOON}"),
    pytest.mark.skipif(keyboard.SWITCHED_OFF, reason="the keyboard piece of lagoon_tui.turbo is switched off here"),
]

QUIT_HINT = "to quit the app"
"""What Textual's ctrl+c says (a toast: "Press ctrl+q to quit the app")."""
INVALID_UTF8 = ["ff", "fe", "c0", "af", "c3", "28", "e2", "82", "f0", "9f", "92", "ed", "a0", "80", "80", "bf"]
"""Bytes that are not UTF-8: never-valid bytes, a lone continuation, overlong and surrogate forms, cut sequences."""
FRAGMENTS = [
    b"\x1b",
    b"\x1b[",
    b"\x1b[200~",
    b"\x1b[201~",
    b"\x1bO",
    b"\x1b[1;",
    b"\x1b[1:2;3u",
    b"\x1b[99999999u",
    b"\x1b[<0;1",
    b"\x1b]2;",
    b"\xe2\x82",
    b"\xf0\x9f",
    b"\xff",
]
"""Pieces of escape sequences and of UTF-8, cut short, mixed into the random bytes."""


PALETTE_KEYS = [b"\x10", b"\x10", b"\x1b[5~", b"\x1b[6~", b"\x1b", b"\x1b[A", b"\x1b[B", b"\x1b[H", b"\x1b[F"]
"""ctrl+p (the command palette) and the palette's keys: PgUp, PgDn, Escape, the arrows, Home, End."""
LEFT_OUT = {0x03, 0x11, 0x0A, 0x0D}
"""Bytes left out of the soup: ctrl+c and ctrl+q, which the test sends itself at the end, and Enter (CR, LF), which
at the palette runs the command highlighted, "Save and quit" among them (the Pilot tests of the palette,
tests/tui/test_palette_keys.py, mash Enter there, with an app that stays when asked to quit)."""


def soup(seed: int, size: int) -> bytes:
    """`size` or so random bytes with FRAGMENTS and PALETTE_KEYS among them, without the LEFT_OUT bytes."""
    rng = random.Random(seed)
    out = bytearray()
    while len(out) < size:
        if rng.random() < 0.2:
            out += rng.choice(FRAGMENTS)
        elif rng.random() < 0.25:
            out += b"".join(rng.choice(PALETTE_KEYS) for _ in range(rng.randrange(1, 6)))
        else:
            out += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 16)))
    return bytes(byte for byte in out if byte not in LEFT_OUT)


def still_answers(tmux: Tmux) -> None:
    """ctrl+c is answered on screen (after any earlier answer has gone)."""
    tmux.wait_for(lambda t: QUIT_HINT not in t, "the screen without the ctrl+c hint")
    tmux.send("C-c")
    tmux.wait_for(lambda t: QUIT_HINT in t, "the answer to ctrl+c")


def answers_once_closed(tmux: Tmux, tries: int = 5) -> None:
    """ctrl+c is answered on screen once Escape has closed what random keys may leave: a window over the board
    (`w`'s, say) with toasts piled up, or a text the mouse reports selected, which ctrl+c copies without a word."""
    for _ in range(tries):
        tmux.send("Escape")
        tmux.settle(what="the screen after Escape")
        tmux.send("C-c")
        for _ in range(40):
            if QUIT_HINT in tmux.capture():
                return
            time.sleep(POLL)
    pytest.fail(f"ctrl+c was never answered:\n{tmux.capture()}")


def test_bytes_that_are_not_utf8_are_dropped(pane, db):
    screen = pane.settle(lambda t: CURTAIN in t, "the first curtain")
    pane.send("-H", *INVALID_UTF8)
    # the curtain stays, and Enter still passes it
    pane.press("Enter", screen, lambda t: CURTAIN not in t and bool(OPTION_1.search(t)), "the first prompt")
    quits_saved(pane, db)


def test_sequences_the_parser_cannot_read_cost_only_themselves(pane, db):
    pane.settle(lambda t: CURTAIN in t, "the first curtain")
    # a kitty key with a colon where a number goes, a character past Unicode: each made Textual end the app;
    # the Enter written with them (one write, most often one read) passes the curtain
    pane.send("-H", *hexes(b"\x1b[1:2;3u\x1b[99999999u\r"))
    pane.wait_for(lambda t: CURTAIN not in t and bool(OPTION_1.search(t)), "the first prompt")
    quits_saved(pane, db)


def test_a_paste_that_never_ends_gives_way_to_ctrl_q(pane, db):
    first_prompt(pane)
    pane.send("-H", *hexes(b"\x1b[200~some text, and no end"))
    quits_saved(pane, db)


def test_a_paste_that_never_ends_gives_way_to_ctrl_c(pane, db):
    screen = first_prompt(pane)
    pane.send("-H", *hexes(b"\x1b[200~some text, and no end"))
    still_answers(pane)
    # the paste is over: keys are keys again (1 takes the first option, and the next decision shows)
    pane.press("1", screen, lambda t: QUIT_HINT not in t and t != screen, "the next decision")
    quits_saved(pane, db)


def test_random_bytes_leave_the_app_answering(pane, db):
    first_prompt(pane)
    data = soup(seed=32, size=4096)
    for start in range(0, len(data), 512):  # (one send-keys a piece: a command line has a limit)
        pane.send("-H", *hexes(data[start : start + 512]))
    pane.settle(what="the screen after the bytes")
    assert pane.alive(), f"the app ended:\n{pane.capture(history=True)}"
    answers_once_closed(pane)  # (ctrl+c ends a paste the bytes may have begun, and is answered)
    quits_saved(pane, db)


def app_pid(tmux: Tmux) -> int:
    """The app's process: the only child of the pane's shell."""
    shell = int(tmux.run("display-message", "-p", "-t", tmux.target, "#{pane_pid}").stdout)
    (child,) = Path(f"/proc/{shell}/task/{shell}/children").read_text().split()
    return int(child)


def peak_memory(pid: int) -> int:
    """The most memory the process has held at once so far (VmHWM, in kB)."""
    found = re.search(r"^VmHWM:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text(), re.MULTILINE)
    assert found
    return int(found[1])


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the app's memory from /proc")
def test_a_megabyte_paste_then_ctrl_q(pane, db, tmp_path):
    first_prompt(pane)
    app = app_pid(pane)
    before = peak_memory(app)
    rng = random.Random(7)
    words = ["gold", "ore", "ship", "lagoon", "island", "déjà", "€", "\n"]
    text = " ".join(rng.choice(words) for _ in range(200_000))[: 1 << 20]
    paste = tmp_path / "paste.txt"
    paste.write_text(text, encoding="utf-8")
    pane.run("load-buffer", "-b", "big", str(paste))
    pane.run("paste-buffer", "-p", "-d", "-b", "big", "-t", pane.target)
    still_answers(pane)
    # a paste reaches the app cut to 64 K characters (Textual alone kept all of it, and more: 19 MB here)
    assert peak_memory(app) - before < 8 * 1024, "the app's memory grew by more than 8 MB over a 1 MB paste"
    quits_saved(pane, db)


def test_a_megabyte_of_keys_without_paste_markers_then_ctrl_q(pane, db, tmp_path):
    """Text poured in as keys (a terminal that does not mark pastes): the app is not kept busy for
    minutes, and ctrl+q, sent straight after, ends it."""
    first_prompt(pane)
    keys = tmp_path / "keys.txt"
    keys.write_text("z" * (1 << 20), encoding="ascii")  # (z is no key of the game; x is look mode)
    pane.run("load-buffer", "-b", "keys", str(keys))
    pane.run("paste-buffer", "-d", "-b", "keys", "-t", pane.target)  # without -p: no paste markers
    quits_saved(pane, db)


def test_a_size_sent_among_the_keys_changes_nothing(pane, db):
    """The window's size is the kernel's: bytes that claim another (and claim the terminal sends sizes so)
    leave the app as it was, and a real change of the window's size is still followed."""
    screen = first_prompt(pane)
    assert PAGE.search(screen), screen  # 80x24: the compact layout, one page of panels at a time
    app = app_pid(pane)
    before = peak_memory(app)
    pane.send("-H", *hexes(b"\x1b[?2048;2$y\x1b[48;3000;3000;1;1t"))
    still_answers(pane)
    assert PAGE.search(pane.capture()), pane.capture()
    assert peak_memory(app) - before < 8 * 1024, "the app's memory grew by more than 8 MB (a screen drawn too big)"
    pane.run("resize-window", "-t", pane.target, "-x", "160", "-y", "50")
    pane.wait_for(lambda t: len(t.splitlines()) >= 40 and PAGE.search(t) is None, "the whole board at 160x50")
    quits_saved(pane, db)
