"""What one session of `lagoon serve` may take (issue 36, points 1 and 2), against a real server on
loopback and the stock OpenSSH client in tmux: its window, its memory, its keys and its text fields.

The session's process is found as the server's child; what it was given and what it spent is read
where the kernel keeps it: its terminal's size (TIOCGWINSZ), its CPU time in clock ticks and its
peak memory (/proc/PID/stat and status). Counted, never clocked.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from lagoon_tui import crash
from lagoon_tui.serve.idle import stopped
from lagoon_tui.serve.ssh import ENDED, MEMORY_CEILING, TOO_FAST, Limits
from lagoon_tui.serve.zygote import SWITCH
from tests.helpers.harness import ended, wait_until
from tests.helpers.ssh_players import REASON, LagoonServer, Player, new_player, session_of, sessions_of, window_of
from tests.helpers.terminal import POLL, flat

pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]

TICKS = os.sysconf("SC_CLK_TCK")
CPU_MOST = 5 * TICKS  # "at most a few seconds of CPU" for 100,000 characters
FLOOD = 100_000


def cpu_ticks(pid: int) -> int:
    """The CPU time the process has spent, user and system, in clock ticks."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # (utime and stime, fields 14 and 15 of the whole line)


def peak_memory(pid: int) -> int:
    """The largest the process's address space has been (VmPeak), in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmPeak:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmPeak for {pid}")


def claim_window(player: Player, cols: int, rows: int) -> None:
    """The player's terminal says it has `cols` x `rows` and ssh is told of a change (as a resize would)."""
    pane = player.tmux.run("display-message", "-p", "-t", player.tmux.target, "#{pane_tty} #{pane_pid}").stdout
    tty, ssh = pane.split()
    subprocess.run(["stty", "-F", tty, "cols", str(cols), "rows", str(rows)], check=True)
    os.kill(int(ssh), signal.SIGWINCH)  # ssh sends the server the window's new size


def paste(player: Player, text: str, *, bracketed: bool) -> None:
    """`text` pasted into the player's terminal: as a terminal pastes it for an app that asked (bracketed),
    or as raw keys."""
    buffer = player.tmux.target + "-paste"
    file = Path(player.stream).with_suffix(".paste")
    file.write_text(text)
    player.tmux.run("load-buffer", "-b", buffer, str(file))
    player.tmux.run("paste-buffer", "-d", "-b", buffer, "-t", player.tmux.target, *(["-p"] if bracketed else []))


def press_until(player: Player, key: str, text: str, tries: int = 20) -> None:
    """Press `key` until `text` is on the screen (a key that comes while the budget is spent is dropped)."""
    for _ in range(tries):
        player.type(key)
        for _ in range(40):
            if text in flat(player.screen()):
                return
            time.sleep(POLL)
    pytest.fail(f"{text!r} never came to {player.name}'s screen after {tries} presses of {key}")


def test_a_window_of_10000_by_10000_is_drawn_at_500_by_200_and_so_is_a_resize_to_one(serving):
    server = serving()
    ana = Player(server, "Ana", size=(80, 24), claims=(10_000, 10_000))
    ana.hears("What name should the others see?")  # (drawn in the middle of 500 columns: off the pane)
    session = session_of(server)
    assert window_of(session) == Limits().window == (500, 200)
    ana.tmux.run("resize-window", "-t", ana.tmux.target, "-x", "100", "-y", "30")
    ana.tmux.wait_for(lambda _: window_of(session) == (100, 30), "the session's window at 100x30")
    claim_window(ana, 20_000, 9_000)
    ana.tmux.wait_for(lambda _: window_of(session) == (500, 200), "the session's window back at 500x200")
    ana.type("Ana", "Enter")
    ana.hears("Your games")  # the session goes on
    assert peak_memory(session) < Limits().session_memory


@pytest.mark.parametrize("fork", ["1", "0"], ids=["forked", "fresh-interpreter"])
def test_a_session_past_its_memory_ceiling_ends_with_a_sentence_and_the_server_serves_others(
    serving, monkeypatch, fork
):
    # A window no ceiling keeps small needs gigabytes (as issue 36 found): the memory ceiling stops it.
    # (Sessions forked by the fork server, and each a fresh interpreter as LAGOON_SERVE_FORK=0 has them.)
    monkeypatch.setenv(SWITCH, fork)
    server = serving("--max-window", "10000x10000", "--session-memory", "512")
    ana = Player(server, "Ana", size=(80, 24), claims=(10_000, 10_000))
    ana.ended_with(MEMORY_CEILING[:60])
    screen = ana.tmux.capture(history=True)
    assert "Traceback" not in screen and "bug" not in screen, screen
    assert f"status {crash.OUT_OF_MEMORY}" in flat(screen)  # (ssh passes on the session's exit status)
    log = server.output.read_text()
    assert log.count("reached its memory ceiling (512 MiB)") == 1, log
    ben = new_player(server, "Ben")  # the server goes on, and so does a session that fits
    ben.wait("Your games")
    assert server.process is not None and server.process.poll() is None
    assert "Traceback" not in server.output.read_text()


def test_a_session_killed_by_a_signal_the_server_did_not_send_ends_with_a_sentence(serving):
    # (what the kernel does to a process past its memory by other means: the OOM killer, a stack it cannot grow)
    server = serving()
    ana, session, _ = at_the_name_form(server)
    os.kill(session, signal.SIGKILL)
    ana.ended_with(ENDED)
    assert "was ended by signal 9" in server.output.read_text()
    new_player(server, "Ben").wait("Your games")


def test_a_stopped_session_of_a_killed_server_ends_with_it(serving):
    """Issue 36, point 7, as it was found: the real session's program stopped (as ctrl+z stops it), then the
    server killed outright. The program, which could take no SIGHUP while stopped, ends all the same."""
    server = serving()
    ana, session, _ = at_the_name_form(server)
    os.kill(session, signal.SIGSTOP)
    wait_until(lambda: stopped(session), "the session's program to be stopped")
    assert server.process is not None
    server.process.kill()
    server.process.wait()
    wait_until(lambda: ended(session), "the session's program to end with its server")


def at_the_name_form(server: LagoonServer) -> tuple[Player, int, int]:
    """A new player at the name form: them, their session's process and the CPU it has spent so far."""
    ana = Player(server, "Ana", size=(80, 24))
    ana.wait("What name should the others see?")
    session = session_of(server)
    return ana, session, cpu_ticks(session)


def spent_little(session: int, since: int, what: str) -> None:
    """The session spent at most CPU_MOST since `since`, and its memory stayed under its ceiling."""
    spent = cpu_ticks(session) - since
    assert spent <= CPU_MOST, f"{what} cost the session {spent / TICKS:.1f} s of CPU"
    assert peak_memory(session) < Limits().session_memory


def test_100000_characters_pasted_into_the_name_field_keep_its_length_for_a_few_seconds_of_cpu(serving):
    server = serving()
    ana, session, before = at_the_name_form(server)
    paste(ana, "n" * FLOOD, bracketed=True)
    ana.type("Enter")
    ana.wait("(this one has 32)")  # the field kept 32 characters of the 100,000, and the name was refused
    spent_little(session, before, "the paste")
    ana.type("BSpace", "Enter")  # (deleting one leaves 31: still too long, still refused)
    ana.wait("(this one has 31)")


def test_a_flood_of_keys_past_the_budget_is_dropped_and_the_player_told_once(serving):
    server = serving()
    ana, session, before = at_the_name_form(server)
    paste(ana, "k" * FLOOD, bracketed=False)  # as raw keys, 100,000 of them
    ana.hears(TOO_FAST[:16])  # (the notice is a toast: its words wrap over lines)
    paste(ana, "k" * FLOOD, bracketed=False)
    press_until(ana, "Enter", "(this one has 32)")  # the field is full (32 k's), and the session answers
    spent_little(session, before, "200,000 keys")
    log = server.output.read_text()
    assert log.count("typed past its budget") == 1, log  # told once (the notice goes with the line)


def test_a_paste_past_a_minutes_bytes_is_cut_there_and_the_player_told_once(serving):
    server = serving()
    ana, session, before = at_the_name_form(server)
    paste(ana, "b" * 2 * FLOOD, bracketed=True)  # one key of 200,000 bytes: past the minute's 131,072
    ana.hears(TOO_FAST[:16])
    press_until(ana, "Enter", "(this one has 32)")  # the field kept its 32, and the session answers
    spent_little(session, before, "a paste of 200,000 bytes")
    log = server.output.read_text()
    assert log.count("typed past its budget") == 1, log


def nice_of(pid: int) -> int:
    """The process's nice value (field 19 of /proc/PID/stat)."""
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def test_a_session_that_keeps_a_core_busy_yields_to_the_others_and_the_console_says_so(serving):
    """Opening and closing the keys list as fast as the keys come kept half a core busy: a few such clients slowed
    everyone's keys. A session past --cpu-share of a core (here a small one, so that any machine gets there) is
    lowered (nice 10, and its autogroup): it runs on, and gives way. Another player's session is left as it was."""
    server = serving("--cpu-share", "0.05")
    ben = new_player(server, "Ben")
    ben.wait("Your games")
    bens = session_of(server)
    ana = new_player(server, "Ana")
    ana.wait("Your games")
    anas = next(pid for pid in sessions_of(server) if pid != bens)
    for _ in range(1000):  # each key as soon as the last was answered (bounded by presses, not by time)
        ana.type("?")
        ana.wait("What it does")
        ana.type("Escape")
        ana.tmux.wait_for(lambda s: "What it does" not in flat(s), "the keys list closed")
        if "it yields to the other sessions now" in server.output.read_text():
            break
    else:
        pytest.fail(f"Ana's session was never lowered:\n{server.output.read_text()}")
    assert nice_of(anas) == 10 and nice_of(bens) == 0
    group = Path(f"/proc/{anas}/autogroup")
    if group.exists():
        assert group.read_text().split()[-1] == "10", group.read_text()
    press_until(ana, "?", "What it does")  # (it answers all the same)
    log = server.output.read_text()
    assert log.count("it yields to the other sessions now") == 1 and "key SHA256:" in log, log
