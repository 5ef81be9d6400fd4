"""Places on `lagoon serve`'s SSH layer (issue 36, points 3 and 7), with OpenSSH's own client on loopback.

A place is taken once a connection has logged in: one key, and one address,
may hold only so many; connections that never log in take none and spend
nothing of their address's allowance; a session whose player presses
nothing is warned, then closed, and one whose program is stopped cannot
hold its place by keys it never reads; a killed server takes its sessions'
programs with it. Times are a few seconds, set for the test; every wait is
for an event (the client's end, a line, a process gone), none is measured.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from lagoon_tui.serve import ssh
from lagoon_tui.serve.idle import stopped
from tests.helpers.harness import (
    Client,
    child_pid,
    ended,
    gone,
    key_fingerprint,
    make_key,
    missing,
    run,
    ssh_command,
    wait_until,
)
from tests.helpers.terminal import POLL, TIMEOUT

REASON = missing()
pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def whoami(server, key) -> str:
    """What the server answers `key` when it asks who it is: "you are SHA256:..." if it got in."""
    done = run(server.ssh(key, "-tt", command=("whoami",)))
    return done.stderr


def test_one_key_takes_at_most_its_places_and_the_next_is_told_why(servers, clients, key, tmp_path):
    server = servers(limits=ssh.Limits(sessions_per_key=2))
    for _ in range(2):
        clients(server.ssh(key, "-tt")).wait_for("READY")
    refused = run(server.ssh(key, "-tt"))
    assert refused.returncode == 255, refused
    assert "You have 2 sessions open with this key already, the most one key may have" in refused.stderr
    other = make_key(tmp_path, "other")
    assert f"you are {key_fingerprint(other.with_suffix('.pub'))}" in whoami(server, other), "another key gets in"


def test_one_address_takes_at_most_its_places_and_the_next_is_told_why(servers, clients, tmp_path):
    server = servers(limits=ssh.Limits(sessions_per_address=2))
    for name in ("alice", "bob"):
        clients(server.ssh(make_key(tmp_path, name), "-tt")).wait_for("READY")
    refused = run(server.ssh(make_key(tmp_path, "carol"), "-tt"))
    assert refused.returncode == 255, refused
    assert "2 sessions are open from 127.0.0.1 already, the most one address may have" in refused.stderr


def test_empty_connections_take_no_place_and_do_not_lock_out_their_address(servers, key):
    """Ten raw sockets that never send a byte, from the address a real client then comes from: a server of one
    place, two logins a minute from one address and three connections logging in at once lets that client in."""
    server = servers(limits=ssh.Limits(max_connections=1, rate=2, logins_per_address=3))
    empty = [socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) for _ in range(10)]
    try:
        assert f"you are {key_fingerprint(key.with_suffix('.pub'))}" in whoami(server, key)
        assert len(server.server.logging_in) <= 3
        pushed_out = 0
        for sock in empty:
            sock.settimeout(0.0)
            try:
                while chunk := sock.recv(4096):  # (the server's version line, then the end if it was pushed out)
                    assert chunk.startswith(b"SSH-2.0-Lagoon") or pushed_out
            except BlockingIOError:
                continue
            pushed_out += 1
        assert pushed_out >= 8, "all but the three newest were closed"
    finally:
        for sock in empty:
            sock.close()


def test_a_connection_that_never_logs_in_is_closed_at_the_login_timeout(servers):
    server = servers(limits=ssh.Limits(login_timeout=1.0))
    with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as sock:
        received = b""
        while chunk := sock.recv(4096):
            received += chunk
    assert received.startswith(b"SSH-2.0-Lagoon")
    wait_until(lambda: not server.server.connections, "the connection to be forgotten")


def test_an_idle_session_is_warned_a_key_puts_the_end_off_then_it_is_closed_with_a_sentence(servers, clients, key):
    server = servers(limits=ssh.Limits(idle_timeout=8.0, idle_warning=4.0))
    client = clients(server.ssh(key, "-tt"))
    client.wait_for("READY")
    wait_until(lambda: server.warnings, "the first warning")
    (number, left), *_ = server.warnings
    assert number == 0 and 0 < left <= 4.0
    client.send("still here")
    wait_until(lambda: (0, None) in server.warnings, "word that the player is back")
    assert client.wait() == 0
    said = ssh.IDLE_CLOSED.format(idle="8 seconds")
    assert said in client.text()
    assert [left is None for _, left in server.warnings] == [False, True, False], "warned again before the end"
    assert server.signals_file(0).read_text() == "SIGTERM\n"
    wait_until(lambda: not server.server.admitted, "the place to be free")


def test_a_stopped_session_cannot_hold_its_place_by_keys_it_never_reads(servers, clients, key, tmp_path):
    """The session's program is stopped (as ctrl+z would); the player goes on typing. The session is closed at
    the idle timeout all the same, its program ended, and the one place is free for someone else."""
    server = servers(limits=ssh.Limits(max_connections=1, idle_timeout=3.0, idle_warning=1.0, hangup_grace=1.0))
    client = clients(server.ssh(key, "-tt"))
    pid = child_pid(client.wait_for("READY"))
    os.kill(pid, signal.SIGSTOP)
    wait_until(lambda: stopped(pid), "the program to be stopped")
    for _ in range(int(TIMEOUT / POLL)):
        if client.process.poll() is not None:
            break
        client.send("x")
        time.sleep(POLL)
    else:
        pytest.fail("the stopped session was never closed")
    assert client.wait() == 0
    assert ssh.IDLE_CLOSED.format(idle="3 seconds") in client.text()
    wait_until(lambda: gone(pid) and not server.server.admitted, "the program's end and the place's")
    other = make_key(tmp_path, "other")
    assert f"you are {key_fingerprint(other.with_suffix('.pub'))}" in whoami(server, other)


def test_the_sessions_of_a_killed_server_end_with_it(tmp_path, key):
    """The program on the session ignores SIGHUP and SIGTERM ("join stubborn"): only the kernel's word that its
    server died (PR_SET_PDEATHSIG) ends it once the server is killed."""
    alone = subprocess.Popen(
        [sys.executable, "-m", "tests.helpers.ssh_alone", str(tmp_path)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    client = None
    try:
        port = int(alone.stdout.readline().split()[1])
        client = Client(ssh_command(port, tmp_path / f"known_hosts-{port}", key, "-tt", command=("join", "stubborn")))
        pid = child_pid(client.wait_for("READY"))
        alone.kill()
        alone.wait(TIMEOUT)
        wait_until(lambda: ended(pid), "the session's program to end")
    finally:
        if alone.poll() is None:
            alone.kill()
            alone.wait(TIMEOUT)
        if client is not None:
            client.kill()
