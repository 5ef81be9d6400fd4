"""The SSH layer of `lagoon serve` (lagoon_tui.serve.ssh and .terminal), driven by real clients on loopback.

The clients are OpenSSH's own `ssh` (checking the server's host key strictly
against a known_hosts line built from it) and, for a client that lies about
its key, asyncssh's. The program on the session's terminal is tests/serve/
child.py, which reports its terminal, its environment and its signals. The
host key file and the rate limit are also tested on their own, the rate
limit with a clock that moves only when told.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import os
import re
import select
import signal
import socket
import stat
import tempfile

import asyncssh
import pytest

from lagoon_tui.serve import ssh
from tests.helpers.harness import (
    FLOOD_BYTES,
    FakeClock,
    ServerThread,
    child_pid,
    connect,
    gone,
    key_fingerprint,
    make_key,
    missing,
    run,
    wait_until,
)
from tests.helpers.sshd import free_port
from tests.helpers.terminal import EXITED, TIMEOUT, Tmux

REASON = missing()
needs_ssh = pytest.mark.skipif(REASON is not None, reason=REASON or "")
TMUX_REASON = missing("tmux")
needs_tmux = pytest.mark.skipif(TMUX_REASON is not None, reason=TMUX_REASON or "")


def usage(port: int) -> str:
    return ssh.USAGE.format(host="127.0.0.1", port=port)


def environment(output: str) -> dict[str, str]:
    """The child's variables, from its ENV lines."""
    return dict(line[4:].split("=", 1) for line in output.splitlines() if line.startswith("ENV "))


# The host key


def test_the_host_key_is_made_once_readable_only_by_its_owner(tmp_path):
    path = tmp_path / "keys" / "host_key"
    old_umask = os.umask(0)  # even a umask that would let anyone read a new file
    try:
        key = ssh.load_or_create_host_key(path)
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert key.get_algorithm() == "ssh-ed25519"
    assert re.fullmatch(r"SHA256:[A-Za-z0-9+/]{43}", ssh.fingerprint(key))
    written = path.read_bytes()
    again = ssh.load_or_create_host_key(path)
    assert ssh.fingerprint(again) == ssh.fingerprint(key)
    assert path.read_bytes() == written
    assert sorted(p.name for p in path.parent.iterdir()) == ["host_key"]  # no temporary file left behind


@needs_ssh
def test_the_host_key_fingerprint_is_the_one_openssh_shows(tmp_path):
    key = ssh.load_or_create_host_key(tmp_path / "host_key")
    public = tmp_path / "host_key.pub"
    public.write_bytes(key.export_public_key())
    assert key_fingerprint(public) == ssh.fingerprint(key)


def test_a_host_key_file_that_holds_no_key_is_an_error_and_is_left_alone(tmp_path):
    path = tmp_path / "host_key"
    path.write_text("not a key\n")
    with pytest.raises(ssh.SetupError, match=re.escape(str(path))):
        ssh.load_or_create_host_key(path)
    assert path.read_text() == "not a key\n"


# The allowed keys file


def test_allowed_keys_are_read_by_fingerprint_and_a_line_that_is_not_a_key_is_an_error(tmp_path):
    alice = asyncssh.generate_private_key("ssh-ed25519")
    listed = tmp_path / "allowed"
    listed.write_text(f"# the players\n\n{alice.export_public_key().decode()}")
    assert ssh.read_allowed_keys(listed) == {ssh.fingerprint(alice)}

    listed.write_text(f'# the players\nfrom="10.0.0.1" {alice.export_public_key().decode()}')
    with pytest.raises(ssh.SetupError, match=rf"{re.escape(str(listed))}, line 2"):
        ssh.read_allowed_keys(listed)
    listed.write_text("# nobody yet\n")
    with pytest.raises(ssh.SetupError, match="lists no key"):
        ssh.read_allowed_keys(listed)
    with pytest.raises(ssh.SetupError, match="cannot read"):
        ssh.read_allowed_keys(tmp_path / "missing")


# The rate limit, on its own clock


def test_the_rate_limit_lets_a_burst_through_then_one_more_per_interval():
    clock = FakeClock()
    limit = ssh.RateLimit(rate=3, per=60.0, clock=clock)
    assert [limit.allow("192.0.2.1") for _ in range(4)] == [True, True, True, False]
    assert limit.allow("192.0.2.2"), "another address has its own allowance"
    clock.now += 19.0
    assert not limit.allow("192.0.2.1"), "a refusal takes no token, and 19 s refill less than one"
    clock.now += 1.0
    assert limit.allow("192.0.2.1")
    assert not limit.allow("192.0.2.1")
    clock.now += 3600.0
    assert [limit.allow("192.0.2.1") for _ in range(4)] == [True, True, True, False], "no more than `rate` saved up"


def test_the_rate_limit_counts_an_ipv6_client_by_its_slash_64():
    limit = ssh.RateLimit(rate=2, per=60.0, clock=FakeClock())
    assert limit.allow("2001:db8:1:2::1")
    assert limit.allow("2001:db8:1:2:ffff::9")
    assert not limit.allow("2001:db8:1:2::abcd")
    assert limit.allow("2001:db8:1:3::1")
    assert limit.allow("::ffff:192.0.2.7") and limit.allow("192.0.2.7") and not limit.allow("192.0.2.7")


# Sessions with real clients


@pytest.mark.slow
@needs_ssh
def test_a_terminal_session_runs_the_child_and_relays_both_ways(servers, clients, key):
    server = servers()
    client = clients(server.ssh(key, "-tt", "-o", "SetEnv=FOO=bar LANG=xx_XX.UTF-8", "-o", "SendEnv=HOME"))
    output = client.wait_for("READY")
    assert "CTTY yes" in output, "the terminal is the child's controlling terminal, the child in its foreground"
    assert environment(output) == {
        "PATH": os.environ["PATH"],
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "SIGNALS_FILE": str(server.signals_file(0)),
    }, "only what on_session gave: nothing the client sent"
    assert "SIZE 80x24" in output  # ssh without a terminal of its own sends no size
    client.send("hello over ssh")
    client.wait_for("GOT hello over ssh")
    client.send("quit 3")
    assert client.wait() == 3, "the child's exit status is the session's"

    (info,) = server.sessions
    assert info.fingerprint == key_fingerprint(key.with_suffix(".pub"))
    assert info.public_key == " ".join(key.with_suffix(".pub").read_text().split()[:2])
    assert (info.username, info.peer[0], info.term, info.size, info.command) == (
        "player",
        "127.0.0.1",
        "xterm-256color",
        (80, 24),
        None,
    )
    wait_until(lambda: server.cleaned == [0], "the session's cleanup")


@pytest.mark.slow
@needs_ssh
def test_stock_ssh_gets_an_aes_cipher_not_chacha20(servers, key):
    """Every byte of every screen is encrypted in the server's one process, and asyncssh's ChaCha20-Poly1305,
    which OpenSSH's client asks for first, costs several times AES's CPU a packet: the server offers AES."""
    server = servers()
    done = run(server.ssh(key, "-v", "-T"))  # (no terminal: a line of usage, after the key exchange)
    ciphers = re.findall(r"kex: (?:server->client|client->server) cipher: (\S+)", done.stderr)
    assert len(ciphers) == 2, done.stderr
    assert all(cipher in ssh.CIPHERS and cipher.startswith("aes") for cipher in ciphers), ciphers


@pytest.mark.slow
@needs_tmux
@needs_ssh
def test_a_window_resize_reaches_the_child(servers, key):
    server = servers()
    tmux = Tmux("serve-resize", 80, 24, server.ssh(key, "-tt"))
    try:
        tmux.wait_for(lambda text: "READY" in text and "SIZE 80x24" in text, "the child at 80x24")
        tmux.run("resize-window", "-t", tmux.target, "-x", "100", "-y", "30")
        tmux.wait_for(lambda text: "SIZE 100x30" in text, "the child told of 100x30")
        tmux.send("hello", "Enter")
        tmux.wait_for(lambda text: "GOT hello" in text, "the child's echo")
        tmux.send("quit 0", "Enter")
        screen = wait_until(
            lambda: re.search(rf"{EXITED} \d+", tmux.capture(history=True)) and tmux.capture(history=True),
            "ssh to end",
        )
    finally:
        tmux.kill()
    assert f"{EXITED} 0" in screen
    assert server.sessions[0].size == (80, 24)


@pytest.mark.slow
@needs_ssh
def test_a_listed_command_reaches_on_session_and_passed_descriptors_reach_the_child(servers, clients, key):
    server = servers()
    client = clients(server.ssh(key, "-tt", command=("join", "ABC123")))
    client.wait_for("READY")
    client.send("quit 0")
    assert client.wait() == 0
    assert server.sessions[0].command == "join ABC123"

    client = clients(server.ssh(key, "-tt", command=("join", "fd")))
    pid = child_pid(client.wait_for("READY"))
    (reader,) = server.pipes
    received = b""
    while select.select([reader], [], [], TIMEOUT)[0]:
        chunk = os.read(reader, 100)
        if not chunk:
            break  # end of file: the child closed its end, and the server closed its own copy
        received += chunk
    else:
        pytest.fail("the pipe never ended: the server kept its copy of the child's descriptor")
    assert received == f"hello from {pid}\n".encode()
    client.send("quit 0")
    assert client.wait() == 0


class Counter(asyncssh.SSHClientSession):
    """A client session that counts the bytes it receives and keeps the exit status."""

    def __init__(self) -> None:
        self.received = 0
        self.status: int | None = None

    def data_received(self, data: bytes, datatype) -> None:
        self.received += len(data)

    def exit_status_received(self, status: int) -> None:
        self.status = status


@pytest.mark.slow
@needs_ssh
def test_a_client_that_stops_reading_pauses_the_child_and_nothing_piles_up(servers, key):
    """Flow control: the client stops reading, so the SSH window fills; the server must then stop reading the
    child's terminal (the child blocks in its writes) instead of buffering its output without end."""
    server = servers()

    def paused_session():
        sessions = list(server.server.sessions)
        return sessions and sessions[0].child is not None and sessions[0].child.output_paused and sessions[0]

    async def flood() -> tuple[int, Counter]:
        async with connect(server, [str(key)]) as connection:
            chan, counter = await connection.create_session(Counter, "join flood", term_type="xterm", encoding=None)
            chan.pause_reading()
            session = await asyncio.to_thread(wait_until, paused_session, "the server to pause the child's output")
            buffered = session.chan.get_write_buffer_size()
            chan.resume_reading()
            await asyncio.wait_for(chan.wait_closed(), TIMEOUT)
            return buffered, counter

    buffered, counter = asyncio.run(flood())
    assert buffered <= 2 * 65536, "at most the high-water mark and one read of the terminal wait in the server"
    assert (counter.received, counter.status) == (FLOOD_BYTES, 0), "then everything arrives, and the exit status"


@pytest.mark.slow
@needs_ssh
def test_a_session_without_a_terminal_or_with_another_command_gets_one_line_of_usage(servers, key, caplog):
    caplog.set_level(logging.INFO, logger="lagoon_tui.serve.console")
    server = servers()
    for args, command in [(("-T",), ()), ((), ("ls",))]:
        done = run(server.ssh(key, *args, command=command))
        assert done.returncode == 1, (args, command, done)
        assert usage(server.port) in done.stderr, (args, command, done)
    for command in (("ls", "-l"), ("joinx",)):  # (a terminal, and a word it does not know: a mistyped join)
        done = run(server.ssh(key, "-tt", command=command))
        said = ssh.UNKNOWN.format(command=command[0], host="127.0.0.1", port=server.port)
        assert done.returncode == 1 and said in done.stderr, (command, done)
    assert server.sessions == [], "none of them reached on_session"
    refusals = [r.getMessage() for r in caplog.records if r.getMessage().startswith("refused 127.0.0.1")]
    assert len(refusals) == 4 and all(usage(server.port) in r or "knows no command" in r for r in refusals), refusals

    done = run(server.ssh(key, "-tt", command=("whoami",)))
    assert done.returncode == 1 and f"you are {key_fingerprint(key.with_suffix('.pub'))}" in done.stderr


@pytest.mark.slow
@needs_ssh
def test_forwarding_and_subsystems_are_refused(servers, clients, key, caplog):
    caplog.set_level(logging.INFO, logger="lagoon_tui.serve.console")
    server = servers()
    sftp = run(server.ssh(key, "-s", command=("sftp",)))
    assert sftp.returncode == 255 and "subsystem request failed" in sftp.stderr, sftp
    stdio = run(server.ssh(key, "-W", f"127.0.0.1:{server.port}"))
    assert stdio.returncode == 255 and "stdio forwarding failed" in stdio.stderr, stdio
    remote = run(server.ssh(key, "-N", "-o", "ExitOnForwardFailure=yes", "-R", f"0:127.0.0.1:{server.port}"))
    assert remote.returncode == 255 and "remote port forwarding failed" in remote.stderr, remote

    # A local forward to the server's own port: had it been allowed, the server's SSH banner would come back.
    local = free_port()
    client = clients(server.ssh(key, "-tt", "-L", f"{local}:127.0.0.1:{server.port}"))
    client.wait_for("READY")  # ssh sets up its forwards before it opens the session
    with socket.create_connection(("127.0.0.1", local), timeout=TIMEOUT) as forwarded:
        assert forwarded.recv(100) == b"", "the forwarded connection was closed without a byte"
    client.wait_for("open failed")
    client.send("quit 0")
    assert client.wait() == 0, "the session itself went on"
    said = [r.getMessage().split(": ", 1)[1] for r in caplog.records if r.getMessage().startswith("refused")]
    assert said == [  # one line each: the console says what was refused, and to whose key
        "the subsystem 'sftp' (sftp, say) is not served",
        *["forwarding (ssh -L, -R, -W, -D) is not served"] * 3,  # (-W, -R, then -L: a connection each)
    ], said


@pytest.mark.slow
@needs_ssh
def test_agent_and_x11_forwarding_are_refused(servers, clients, key, tmp_path, caplog, monkeypatch):
    """With an agent to forward and -A, and a display and -X, the server denies both and the session goes on.

    asyncssh would make the forwarded agent's socket in a temporary folder:
    the server's temporary folder is a private one here, and stays empty.
    """
    caplog.set_level(logging.INFO, logger="asyncssh")
    server_tmp = tmp_path / "server-tmp"
    server_tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(server_tmp))
    agent_socket = tmp_path / "agent.sock"
    clients(["ssh-agent", "-D", "-a", str(agent_socket)])
    wait_until(agent_socket.exists, "ssh-agent's socket")
    server = servers()
    forwarding = ("env", f"SSH_AUTH_SOCK={agent_socket}", "DISPLAY=127.0.0.1:99")
    client = clients([*forwarding, *server.ssh(key, "-tt", "-A", "-X")])
    output = client.wait_for("READY")
    assert "X11 forwarding request failed" in output
    assert "SSH_AUTH_SOCK" not in environment(output) and "DISPLAY" not in environment(output)
    assert any("Agent forwarding request denied" in record.getMessage() for record in caplog.records)
    assert list(server_tmp.iterdir()) == []
    client.send("quit 0")
    assert client.wait() == 0


class Impersonator:
    """asyncssh clients that claim one player's public key while holding only another's private key."""

    def __init__(self, server: ServerThread, claimed, held):
        self.server = server
        self.claimed = asyncssh.read_public_key(claimed.with_suffix(".pub"))
        self.held = asyncssh.load_keypairs([str(held)])[0]

    def keys(self, signs: bool) -> list:
        """The claimed key offered first (able to sign with the held key or not), then the held key."""
        fake = copy.copy(self.held)
        fake.public_data = self.claimed.public_data
        if not signs:

            def refuse(data):
                raise ValueError("no private key")

            fake.sign = refuse
            fake.sign_async = None
        return [fake, self.held]

    async def whoami(self, signs: bool) -> str:
        async with connect(self.server, self.keys(signs), username="mallory") as connection:
            result = await connection.run("whoami", term_type="xterm", encoding="utf-8")
            return result.stderr


@pytest.mark.slow
@needs_ssh
@pytest.mark.parametrize("signs", [True, False], ids=["probes and signs as alice", "probes as alice only"])
def test_the_identity_is_the_key_that_authenticated_not_the_first_offered(servers, tmp_path, signs):
    alice, bob = make_key(tmp_path, "alice"), make_key(tmp_path, "bob")
    bob_fingerprint = key_fingerprint(bob.with_suffix(".pub"))
    server = servers()
    said = asyncio.run(Impersonator(server, claimed=alice, held=bob).whoami(signs))
    assert said.strip() == f"you are {bob_fingerprint}"
    assert [info.fingerprint for info in server.sessions] == [bob_fingerprint]
    assert server.sessions[0].username == "mallory"

    allowed = tmp_path / "allowed"
    allowed.write_text(alice.with_suffix(".pub").read_text())
    guarded = servers(allow_keys=allowed)
    with pytest.raises(asyncssh.PermissionDenied):
        asyncio.run(Impersonator(guarded, claimed=alice, held=bob).whoami(signs))
    assert guarded.sessions == []


@pytest.mark.slow
@needs_ssh
def test_allow_keys_refuses_a_key_not_listed(servers, tmp_path, caplog):
    alice, bob = make_key(tmp_path, "alice"), make_key(tmp_path, "bob")
    allowed = tmp_path / "allowed"
    allowed.write_text(alice.with_suffix(".pub").read_text())
    server = servers(allow_keys=allowed)
    caplog.set_level(logging.INFO, logger="lagoon_tui.serve.console")
    refused = run(server.ssh(bob, "-tt"))
    assert refused.returncode == 255 and "Permission denied (publickey)" in refused.stderr, refused
    bobs = key_fingerprint(bob.with_suffix(".pub"))
    lines = [r.getMessage() for r in caplog.records if "--allow-keys" in r.getMessage()]
    assert lines == [f"refused 127.0.0.1 (key {bobs[:15]}) [--allow-keys]: Permission denied (publickey): not listed"]
    let_in = run(server.ssh(alice, "-tt", command=("whoami",)))
    assert f"you are {key_fingerprint(alice.with_suffix('.pub'))}" in let_in.stderr, let_in


@pytest.mark.slow
@needs_ssh
def test_a_burst_of_connections_from_one_address_is_limited(servers, key):
    clock = FakeClock()
    server = servers(limits=ssh.Limits(rate=2, per=3600.0), clock=clock)
    assert [run(server.ssh(key, "-T")).returncode for _ in range(2)] == [1, 1]
    refused = run(server.ssh(key, "-T"))
    assert refused.returncode == 255
    assert "Too many connections from 127.0.0.1" in refused.stderr, refused
    clock.now += 1800.0  # half the period: one connection's worth
    assert run(server.ssh(key, "-T")).returncode == 1
    assert run(server.ssh(key, "-T")).returncode == 255


@pytest.mark.slow
@needs_ssh
def test_the_server_says_when_it_is_full(servers, clients, key):
    server = servers(limits=ssh.Limits(max_connections=1))
    first = clients(server.ssh(key, "-tt"))
    first.wait_for("READY")
    refused = run(server.ssh(key, "-T"))
    assert refused.returncode == 255 and "Lagoon is full (1 players)" in refused.stderr, refused
    first.send("quit 0")
    assert first.wait() == 0
    wait_until(lambda: not server.server.admitted, "the first connection to be gone")
    assert run(server.ssh(key, "-T")).returncode == 1, "there is room again"


@pytest.mark.slow
@needs_ssh
def test_a_connection_that_opens_no_session_is_closed(servers, key):
    server = servers(limits=ssh.Limits(session_wait=0.5))
    idle = run(server.ssh(key, "-N"))
    assert idle.returncode == 255 and "No session was opened" in idle.stderr, idle


@pytest.mark.slow
@needs_ssh
def test_a_dropped_connection_hangs_up_the_child_then_kills_it(servers, clients, key):
    """The child ignores SIGHUP ("join stubborn"), so it only ends by the SIGKILL after the grace period."""
    server = servers(limits=ssh.Limits(hangup_grace=0.5))
    client = clients(server.ssh(key, "-tt", command=("join", "stubborn")))
    pid = child_pid(client.wait_for("READY"))
    client.process.kill()
    signals = server.signals_file(0)
    wait_until(lambda: signals.exists() and "SIGHUP" in signals.read_text(), "the child's SIGHUP")
    wait_until(lambda: gone(pid), "the child to be killed")
    wait_until(lambda: server.cleaned == [0], "the session's cleanup")
    assert set(signals.read_text().split()) == {"SIGHUP"}  # ours, and the kernel's as the terminal hangs up


@pytest.mark.slow
@needs_ssh
def test_keepalives_drop_a_frozen_client(servers, clients, key):
    server = servers(limits=ssh.Limits(keepalive_interval=1.0, keepalive_count_max=4))
    client = clients(server.ssh(key, "-tt"))
    pid = child_pid(client.wait_for("READY"))
    client.signal(signal.SIGSTOP)
    signals = server.signals_file(0)
    wait_until(lambda: signals.exists() and "SIGHUP" in signals.read_text(), "the child's SIGHUP")
    wait_until(lambda: gone(pid) and server.cleaned == [0], "the child's end and the session's cleanup")
    assert not server.server.connections


@pytest.mark.slow
@needs_tmux
@needs_ssh
def test_close_tells_every_session_and_stops_listening(servers, clients, key):
    server = servers()
    tmux = Tmux("serve-close", 80, 24, server.ssh(key, "-tt"))
    try:
        tmux.wait_for(lambda text: "READY" in text, "the child in tmux")
        piped = clients(server.ssh(key, "-tt", command=("join", "ABC123")))
        piped.wait_for("READY")
        server.close("The Lagoon server is stopping; your game is saved.")
        screen = wait_until(
            lambda: re.search(rf"{EXITED} \d+", tmux.capture(history=True)) and tmux.capture(history=True),
            "ssh in tmux to end",
        )
    finally:
        tmux.kill()
    assert "The Lagoon server is stopping; your game is saved." in screen
    assert f"{EXITED} 0" in screen
    assert piped.wait() == 0
    assert "The Lagoon server is stopping; your game is saved." in piped.text()
    assert [server.signals_file(n).read_text() for n in (0, 1)] == ["SIGTERM\n", "SIGTERM\n"]
    assert sorted(server.cleaned) == [0, 1]
    refused = run(server.ssh(key, "-T"))
    assert refused.returncode == 255 and "refused" in refused.stderr, refused


@pytest.mark.slow
@needs_ssh
def test_a_restarted_server_keeps_its_host_key(servers, key, tmp_path):
    first = servers(tmp_path)
    first_line = first.host_key.export_public_key().decode()
    first.stop()
    second = servers(tmp_path)
    second.known_hosts.write_text(f"[127.0.0.1]:{second.port} {first_line}")
    done = run(second.ssh(key, "-T"))
    assert done.returncode == 1 and usage(second.port) in done.stderr, done
