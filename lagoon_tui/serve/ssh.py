"""The SSH server of `lagoon serve`: who may connect, what they may ask for, and the terminal they get.

Transport only; what runs in a session is the caller's choice:

    key = load_or_create_host_key(path)          # ed25519, mode 0600, made once and never again
    print(fingerprint(key))                      # "SHA256:...", as players' ssh will show it
    server = await start(on_session, host_key=key, port=2222, allow_keys=None, commands={"join"})
    server.port                                  # the port it listens on (useful with port=0)
    await server.close("The Lagoon server is stopping; your game is saved.")

    async def on_session(info: SessionInfo) -> ChildSpec | str

`on_session` is called for each session that has a terminal (`ssh -t`, a
shell request, or a command whose first word is one of `commands`, such as
`ssh -t host join ABC123`). It returns what to run on the session's terminal
(`terminal.ChildSpec`), or a line to show the player before the session
closes with status 1. Sessions without a terminal, and commands not listed,
get one line of usage and status 1 without reaching it.

Who the player is: the SHA256 fingerprint of the public key that
authenticated the connection (`SessionInfo.fingerprint`). asyncssh offers no
accessor for that key, and calls `validate_public_key` for every key the
client offers (twice for the one it signs with, once to probe and once with
the signature), checking a signature only after the hook said yes. A client
may offer someone else's public key and then sign with its own; so the key
is taken from the *most recent* call when `auth_completed` fires (the hook is
synchronous, so nothing runs between the signed request's call and the
success; asyncssh 2.24.1 also stops a cancelled attempt from succeeding),
never from the first key offered. The SSH user name is the client's choice,
given only as a suggestion (`SessionInfo.username`).

What is refused: passwords, keyboard-interactive, host-based and GSS
authentication, certificates; agent and X11 forwarding; TCP and Unix port
forwarding both ways, tun/tap; subsystems (so SFTP and scp); a second session
on one connection while one is open. The client's environment (SendEnv,
SetEnv) is accepted by asyncssh and never used: the child's environment is
built from scratch (`terminal.child_env`).

Limits (`Limits`): a login timeout; keepalives, so a frozen client is noticed;
and a connection that opens no session is closed after a while (`ssh -N`
would otherwise hold a place forever). A place is taken only once a
connection has logged in (`Server.admit`): logins per key, then per address
(token buckets; a key refused spends nothing of its address's), places at
once ("Lagoon is full"), places per key and per address; the refusal is the
reason of the disconnect, which ssh prints, and a line on the console naming
the flag that sets that limit (`refused`).
Connections not yet logged in take no place and no token: a few of them at
once per address (and in all), a newer one pushing out the oldest
(`Server.arrived`), so that empty connections cannot lock anyone out. A
session whose player presses nothing for `idle_timeout` seconds is closed
(`idle.IdleWatch`), its program told a while before (`ChildSpec.warn_idle`);
keys sent to a stopped program do not count. Each session has a memory
ceiling (its child's address space, `terminal.py`), a window of at most
`window`, and an input budget (`budget.InputBudget`: keys past it are
dropped, and the player is told once through `ChildSpec.notify`); a paste
that brings nothing more for `paste_wait` is ended, and window changes reach
the child at most once each `resize_gap` (the last size each time).
"""

from __future__ import annotations

import asyncio
import inspect
import ipaddress
import logging
import os
import re
import signal
import socket
import tempfile
import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from pathlib import Path

import asyncssh

from rules.host import printable

from .. import crash
from . import console
from .budget import Budget, InputBudget
from .hogs import SHARE, Hog
from .idle import IdleWatch, stopped
from .terminal import DEFAULT_SIZE, ChildSpec, PtyChild

log = logging.getLogger(__name__)

CIPHERS = ("aes128-gcm@openssh.com", "aes256-gcm@openssh.com", "aes128-ctr", "aes192-ctr", "aes256-ctr")
"""The ciphers the server offers: AES only. Every byte of every screen is encrypted here, in the server's one
process; asyncssh's ChaCha20-Poly1305 (which a client picks first when offered) makes a cipher and a MAC anew
for every packet, several times AES's cost (15 µs a packet against 3-5 µs). OpenSSH then picks aes128-ctr with
an encrypt-then-MAC hash; clients that put GCM first get it. Every OpenSSH since 2013 and PuTTY have these."""
STOPPING = "The Lagoon server is stopping; your game is saved."
USAGE = "Lagoon is a full-screen game: connect with ssh -t -p {port} {host}"
UNKNOWN = (
    "Lagoon knows no command {command!r}: connect with ssh -t -p {port} {host}, "
    "or add join (or watch) and a room's code"
)
"""The line for a session that cannot run the game; {host} and {port} are where the client connected."""
NOT_STARTED = "Lagoon could not start your session; please try again."
MEMORY_CEILING = f"Your session used more memory than this server allows, so it was ended. {crash.SAVED}"
ENDED = f"Your session ended unexpectedly. {crash.SAVED}"
"""For a session's app killed by a signal the server did not send (the kernel's, past the memory ceiling)."""
TOO_MANY_LOGINS = "Too many logins with this key; please wait a minute and try again."
TOO_MANY_CONNECTIONS = "Too many connections from {address}; please wait a minute and try again."
FULL = "Lagoon is full ({players} players); please try again later."
TOO_FAST = "Keys came faster than this server takes them; some were dropped. Type a little slower."
IDLE_CLOSED = (
    "Lagoon closed this session: nothing was pressed for {idle}. Your games are saved; connect again to go on."
)
TERM_PATTERN = re.compile(r"[A-Za-z0-9._+-]{1,64}")
FALLBACK_TERM = "xterm-256color"
RESET_TERMINAL = (
    "\x1b[0m\x1b[?25h"  # plain colours, cursor shown
    "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"  # no mouse reports
    "\x1b[?1004l\x1b[?2004l"  # no focus reports, no bracketed paste
    "\x1b[?1049l"  # back to the normal screen
)
"""Undoes what a full-screen app turns on, for when the server ends the app and then writes a line."""


def refused(connection: _Connection, flag: str | None, sentence: str) -> str:
    """`sentence`, the refusal of `connection` by the limit `flag` sets (None: fixed), written on the console."""
    console.refused(connection.address, connection.who or None, flag, sentence)
    return sentence


class SetupError(Exception):
    """A file the server was given cannot be used; the message names it and says why."""


@dataclass(frozen=True)
class Limits:
    """How much the server lets clients take; times in seconds."""

    max_connections: int = 32  # places: logged in at once (one session per connection)
    sessions_per_key: int = 3  # places one key may hold at once
    sessions_per_address: int = 8  # places one address (an IPv6 /64) may hold at once
    rate: int = 30  # logins from one address ...
    per: float = 60.0  # ... per this many seconds (bursts of up to `rate`)
    key_rate: int = 10  # logins with one key per `per` seconds (checked first: one key cannot spend its address's)
    logins_per_address: int = 4  # connections of one address not logged in yet: a newer one pushes out the oldest
    logins: int = 64  # ... and of all addresses together
    login_timeout: float = 30.0  # from the TCP connection to authenticated
    idle_timeout: float = 1800.0  # a session whose player pressed nothing this long is closed (0: never) ...
    idle_warning: float = 60.0  # ... its program told this long before (at most half the timeout)
    keepalive_interval: float = 15.0  # a silent client is asked after this long ...
    keepalive_count_max: int = 4  # ... and dropped after this many unanswered asks
    session_wait: float = 10.0  # an authenticated connection with no session open is closed after this
    hangup_grace: float = 5.0  # SIGHUP or SIGTERM to the child, then SIGKILL after this
    close_timeout: float = 10.0  # close() waits this long for sessions to end, then for connections
    session_memory: int = 1024 * 1024 * 1024  # a session's address space (RLIMIT_AS), bytes; 0: no ceiling
    window: tuple[int, int] = (500, 200)  # columns, rows at most: a larger window is drawn at this size
    keys_per_second: int = 30  # a session's keys past this are dropped, after a burst (budget.py); 0: no limit
    bytes_per_minute: int = 128 * 1024  # ... and its bytes past this; 0: no limit
    cpu_share: float = SHARE  # a session past this share of a core (over a few seconds) yields to others (hogs.py)
    paste_wait: float = 1.0  # a paste that brings nothing more for this long is ended (its end never came)
    resize_gap: float = 0.1  # a session's window changes reach its program at most once in this long
    receive_buffer: int = 16 * 1024  # bytes the system keeps of what a client sent and the server has not read
    # (asyncssh handles all it reads at once, and a read of 256 KiB of small packets, a storm of window
    # changes, held every other player's keys for a second or two: small reads let them in between)


@dataclass(frozen=True)
class SessionInfo:
    """What the server knows of a session when it asks what to run."""

    fingerprint: str  # SHA256 of the key that authenticated: the player's identity
    public_key: str  # that key in OpenSSH's text form, "ssh-ed25519 AAAA..."
    username: str  # as the client sent it: a suggested name, not proof of anything
    peer: tuple[str, int]  # the client's address and port
    term: str  # the client's terminal type, checked against TERM_PATTERN (FALLBACK_TERM if it failed)
    size: tuple[int, int]  # columns, rows
    command: str | None  # "join ABC123" for `ssh -t host join ABC123`; None for a plain `ssh -t host`


OnSession = Callable[[SessionInfo], Awaitable[ChildSpec | str]]


def fingerprint(key: asyncssh.SSHKey) -> str:
    """The SHA256 fingerprint of a key, written as `ssh-keygen -l` and ssh's first-connect prompt write it."""
    return key.get_fingerprint("sha256")


def load_or_create_host_key(path: Path) -> asyncssh.SSHKey:
    """The server's private host key at `path`, made (ed25519) if there is no file there yet.

    A key is made at most once: players' known_hosts files remember it, and a
    new one would look to them like an attack. It is written to a temporary
    file created with mode 0600 (so it is never readable by others, whatever
    the umask) and linked into place only if `path` still does not exist, so
    two servers starting at once end up with the same key. A file that is not
    a private key is an error, and is left as it is; so is a key that cannot
    be written (a folder that is read-only, say), in a sentence of its own.
    """
    path = Path(path)
    try:
        if not path.exists():
            _make_host_key(path)
    except OSError as error:
        why = os.strerror(error.errno) if error.errno else str(error)
        raise SetupError(
            f"cannot write a new host key at {path}: {why}. The server must be able to write to its folder; "
            "or choose another place with --host-key."
        ) from error
    try:
        return asyncssh.read_private_key(path)
    except (OSError, ValueError) as error:
        raise SetupError(f"{path} is not a private SSH key that Lagoon can read ({error})") from error


def _make_host_key(path: Path) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="lagoon host key")
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # mode 0600
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(key.export_private_key())
            file.flush()
            os.fsync(file.fileno())
        os.link(temporary, path)
    except FileExistsError:
        pass  # another server made one meanwhile: that one is the key
    finally:
        os.unlink(temporary)


def read_allowed_keys(path: Path) -> frozenset[str]:
    """The fingerprints of the keys listed in `path`, an authorized_keys-style file of public keys.

    Each line is a public key as ssh-keygen writes it ("ssh-ed25519 AAAA...
    comment"); blank lines and # comments are skipped. authorized_keys options
    (from=, command=, ...) are not supported: a line with them, or any line
    that is not a key, is an error naming the line, rather than a key
    silently left out or a restriction silently ignored.
    """
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, ValueError) as error:
        raise SetupError(f"cannot read the allowed keys in {path} ({error})") from error
    allowed = set()
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            allowed.add(fingerprint(asyncssh.import_public_key(line.strip())))
        except (asyncssh.KeyImportError, ValueError) as error:
            raise SetupError(f"{path}, line {number}: not a public key on its own ({error})") from error
    if not allowed:
        raise SetupError(f"{path} lists no key, so nobody could connect")
    return frozenset(allowed)


def address_group(address: str) -> str:
    """Whom an address counts as: itself, an IPv4-mapped one as its IPv4 address, and an IPv6 one by its /64
    (which one client usually holds whole)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False))


class RateLimit(Budget):
    """Logins per address (`address_group`): a burst of `rate`, then one more each `per / rate` seconds."""

    def name(self, who: str) -> str:
        return address_group(who)


def duration(seconds: float) -> str:
    """A time as a player reads it: "30 minutes", "1 minute", "45 seconds"."""
    if seconds >= 60 and seconds % 60 == 0:
        minutes = int(seconds // 60)
        return f"{minutes} minute{'s' * (minutes != 1)}"
    whole = round(seconds)
    return f"{whole} second{'s' * (whole != 1)}"


def _window(cols: int, rows: int, most: tuple[int, int]) -> tuple[int, int]:
    """A window size from the client: its own, but the default for a zero and at most `most` (a larger one
    is drawn at that size, in its top left corner: a session's memory grows with its window's area)."""
    return (min(cols, most[0]) or DEFAULT_SIZE[0], min(rows, most[1]) or DEFAULT_SIZE[1])


async def _call(callback: Callable[[], object] | None) -> None:
    """Call a cleanup callback, awaiting it if it is a coroutine; its errors are logged, not raised."""
    if callback is None:
        return
    try:
        result = callback()
        if inspect.isawaitable(result):
            await result
    except Exception as error:
        log.error("a session's cleanup failed on a bug; %s", crash.reported(error))


def _close_fds(fds: Collection[int]) -> None:
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass


class Server:
    """A running Lagoon SSH server; made by `start`."""

    def __init__(
        self,
        on_session: OnSession,
        allowed: frozenset[str] | None,
        commands: Collection[str],
        limits: Limits,
        clock: Callable[[], float],
    ):
        self.on_session = on_session
        self.allowed = allowed
        self.commands = frozenset(commands)
        self.limits = limits
        self.clock = clock  # (the rate limit's and the input budgets')
        self.rate = RateLimit(limits.rate, limits.per, clock)
        self.key_rate = Budget(limits.key_rate, limits.per, clock)  # logins by key
        self.connections: set[_Connection] = set()  # every connection not yet lost
        self.logging_in: dict[_Connection, None] = {}  # those not logged in yet, oldest first
        self.admitted: set[_Connection] = set()  # those logged in and given a place
        self.sessions: set[_Session] = set()  # open session channels
        self.tasks: set[asyncio.Task] = set()  # sessions' runs, until each has cleaned up
        self.children: set[PtyChild] = set()  # sessions' children, until each has exited
        self.farewell: str | None = None  # set once close() begins
        self.acceptor: asyncssh.SSHAcceptor | None = None

    @property
    def port(self) -> int:
        assert self.acceptor is not None
        return self.acceptor.get_port()

    def arrived(self, connection: _Connection) -> None:
        """A new connection, not logged in yet: beyond the caps on those, an older one of its address (or of
        all) is pushed out, so that connections that never log in cannot keep anyone else out."""
        self.logging_in[connection] = None
        same = [other for other in self.logging_in if other.group == connection.group]
        if len(same) > self.limits.logins_per_address:
            self._push_out(same)
        if len(self.logging_in) > self.limits.logins:
            self._push_out(list(self.logging_in))

    def _push_out(self, waiting: list[_Connection]) -> None:
        """The oldest of `waiting` still before the key exchange's end (an empty connection, say), else the
        oldest, closed."""
        oldest = next((each for each in waiting if not each.began), waiting[0])
        del self.logging_in[oldest]
        sentence = f"Too many connections from {oldest.address} at once."
        console.refused(oldest.address, None, None, f"{sentence} (closed before logging in, to make room)")
        oldest.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, sentence)

    def admit(self, connection: _Connection) -> str | None:
        """Give `connection`, just logged in, a place; why it may not have one, or None."""
        limits = self.limits
        if self.farewell is not None:
            return self.farewell
        if self.key_rate.spent(connection.who):  # (first, and spending nothing: one key cannot use up its address)
            return refused(connection, "--per-key", TOO_MANY_LOGINS)
        if not self.rate.allow(connection.address):
            return refused(connection, "--per-address", TOO_MANY_CONNECTIONS.format(address=connection.address))
        self.key_rate.allow(connection.who)
        if len(self.admitted) >= limits.max_connections:
            return refused(connection, "--max-players", FULL.format(players=limits.max_connections))
        same_key = sum(1 for other in self.admitted if other.who == connection.who)
        if same_key >= limits.sessions_per_key:
            return refused(
                connection,
                "--sessions-per-key",
                f"You have {same_key} session{'s' if same_key != 1 else ''} open with this key already, the most one "
                "key may have: close one to open another.",
            )
        same_address = sum(1 for other in self.admitted if other.group == connection.group)
        if same_address >= limits.sessions_per_address:
            return refused(
                connection,
                "--sessions-per-address",
                f"{same_address} sessions are open from {connection.address} already, the most one address "
                "may have; please try again later.",
            )
        self.admitted.add(connection)
        return None

    def start_task(self, coroutine: Awaitable[None]) -> asyncio.Task:
        """Run a session's coroutine, held here until it is done (the loop itself keeps only weak references)."""
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def close(self, message: str = STOPPING, timeout: float | None = None) -> None:
        """Stop: no new connections, `message` on every session's terminal, every child ended, all closed.

        Each step waits at most `timeout` seconds (Limits.close_timeout by
        default). A session's channel must have closed (the client's answer
        to our close, so it has read the message) before its connection is
        dropped, which throws away what was not yet read. Connections are
        closed before the listener is awaited: from Python 3.12 its
        wait_closed() waits for every connection.
        """
        timeout = self.limits.close_timeout if timeout is None else timeout
        self.farewell = message
        if self.acceptor is not None:
            self.acceptor.close()
        sessions = list(self.sessions)
        for session in sessions:
            session.stop(message)
        await _wait_for([*self.tasks, *(session.chan.wait_closed() for session in sessions if session.chan)], timeout)
        for connection in list(self.connections):
            connection.disconnect(asyncssh.DISC_BY_APPLICATION, message)
        await _wait_for([connection.closed() for connection in list(self.connections)], timeout)
        for child in list(self.children):  # one that outlived its SIGTERM and the timeout
            child.kill()
        for task in list(self.tasks):  # an on_session that never returned, say
            task.cancel()
        await _wait_for(self.tasks, timeout)
        if self.acceptor is not None:
            await _wait_for([self.acceptor.wait_closed()], timeout)


async def _wait_for(awaitables: Collection[Awaitable], timeout: float) -> None:
    """Wait for all of `awaitables`, giving up after `timeout` seconds (the tasks given are left running)."""
    futures = [asyncio.ensure_future(each) for each in awaitables]
    if futures:
        _, pending = await asyncio.wait(futures, timeout=timeout)
        for future, given in zip(futures, awaitables):
            if future in pending and future is not given:  # made here from a coroutine: nobody else awaits it
                future.cancel()


async def start(
    on_session: OnSession,
    *,
    host_key: asyncssh.SSHKey,
    host: str = "127.0.0.1",
    port: int = 2222,
    allow_keys: Path | None = None,
    commands: Collection[str] = (),
    limits: Limits | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Server:
    """Listen for players on `host`:`port` (0: any free port, see Server.port).

    `allow_keys`: an authorized_keys-style file; without it any key is
    accepted (the key is still the player's identity). `commands`: the first
    words of the commands a session may ask for besides a plain login.
    `clock` drives the rate limit and the input budgets (tests pass their own).
    A port that cannot be listened on is a SetupError saying why.
    """
    allowed = None if allow_keys is None else read_allowed_keys(allow_keys)
    limits = limits or Limits()
    server = Server(on_session, allowed, commands, limits, clock)
    try:
        server.acceptor = await _listen(server, host, port, host_key)
    except OSError as error:
        why = os.strerror(error.errno) if error.errno else str(error)
        raise SetupError(f"cannot listen on {host}:{port}: {why}") from error
    return server


async def _listen(server: Server, host: str, port: int, host_key: asyncssh.SSHKey) -> asyncssh.SSHAcceptor:
    limits = server.limits
    return await asyncssh.listen(
        host,
        port,
        server_factory=lambda: _Connection(server),
        server_host_keys=[host_key],
        server_version="Lagoon",
        encryption_algs=CIPHERS,
        encoding=None,  # sessions carry bytes, both ways
        line_editor=False,
        agent_forwarding=False,  # asyncssh's default is on
        x11_forwarding=False,
        allow_scp=False,
        public_key_auth=True,
        password_auth=False,
        kbdint_auth=False,
        host_based_auth=False,
        gss_host=None,
        login_timeout=limits.login_timeout,
        keepalive_interval=limits.keepalive_interval,
        keepalive_count_max=limits.keepalive_count_max,
    )


class _Connection(asyncssh.SSHServer):
    """One client's connection: its limits, its authentication, and its (one) session."""

    def __init__(self, server: Server):
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = ""
        self.group = ""  # the address as the caps count it (`address_group`)
        self.began = False  # the key exchange is done: the client has begun to log in
        self.who = ""  # the fingerprint of the key that logged in, once one has
        self.refusal: str | None = None
        self.offered: asyncssh.SSHKey | None = None  # the key of the latest validate_public_key call
        self.unlisted = ""  # the fingerprint of the latest key offered that --allow-keys does not list
        self.forwarding_refused = False  # a forwarding asked for and refused (written on the console once)
        self.key: asyncssh.SSHKey | None = None  # the key that authenticated, once one has
        self.session: _Session | None = None
        self.idle: asyncio.TimerHandle | None = None
        self.lost = asyncio.Event()

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        sock = conn.get_extra_info("socket")
        if sock is not None:  # (see Limits.receive_buffer)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, self.server.limits.receive_buffer)
        self.address = conn.get_extra_info("peername")[0]
        self.group = address_group(self.address)
        self.server.connections.add(self)
        self.server.arrived(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.connections.discard(self)
        self.server.logging_in.pop(self, None)
        self.server.admitted.discard(self)
        if self.idle is not None:
            self.idle.cancel()
        self.lost.set()
        if not self.who and self.unlisted:  # (once a connection, whatever keys it offered)
            console.refused(self.address, self.unlisted, "--allow-keys", "Permission denied (publickey): not listed")
        log.debug("connection from %s closed%s", self.address, f": {exc}" if exc else "")

    async def closed(self) -> None:
        await self.lost.wait()

    def disconnect(self, code: int, reason: str) -> None:
        if self.conn is not None and not self.lost.is_set():
            self.conn.disconnect(code, reason)

    # Authentication

    def begin_auth(self, username: str) -> bool:
        self.began = True
        self.refusal = self.refusal or self.server.farewell  # (the first moment a refusal reaches the client)
        if self.refusal is not None:
            log.debug("refused %s: %s", self.address, self.refusal)
            self.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, self.refusal)
        return True  # True: authentication is required (False would let anyone in)

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # Synchronous on purpose: see the module's docstring.
        self.offered = key
        if self.refusal is not None:  # being disconnected: asyncssh may still be reading its last packets
            return False
        if self.server.allowed is None or fingerprint(key) in self.server.allowed:
            return True
        self.unlisted = fingerprint(key)
        return False

    def validate_ca_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        return False

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def host_based_auth_supported(self) -> bool:
        return False

    def auth_completed(self) -> None:
        self.key, self.offered = self.offered, None
        self.server.logging_in.pop(self, None)
        if self.key is None:  # cannot happen with public keys the only method; never let it in unnamed
            self.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, "no key authenticated")
            return
        self.who = fingerprint(self.key)
        self.refusal = self.server.admit(self)
        if self.refusal is not None:
            self.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, self.refusal)
            return
        log.debug("%s logged in with key %s", self.address, console.short(self.who))
        self.wait_for_session()

    def wait_for_session(self) -> None:
        """Close the connection if it opens no session soon: it would hold a place under the cap."""
        self.idle = asyncio.get_running_loop().call_later(
            self.server.limits.session_wait,
            self.disconnect,
            asyncssh.DISC_BY_APPLICATION,
            "No session was opened.",
        )

    # Channels

    def session_requested(self) -> _Session | bool:
        if self.key is None or self.refusal is not None or self.session is not None:
            return False
        if self.idle is not None:
            self.idle.cancel()
        self.session = _Session(self)
        return self.session

    def session_ended(self) -> None:
        self.session = None
        if not self.lost.is_set():
            self.wait_for_session()

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> bool:
        return self.no_forwarding()  # ssh -L, -W, -D

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        return self.no_forwarding()  # ssh -R

    def unix_connection_requested(self, dest_path: str) -> bool:
        return self.no_forwarding()

    def unix_server_requested(self, listen_path: str) -> bool:
        return self.no_forwarding()

    def tun_requested(self, unit: int | None) -> bool:
        return self.no_forwarding()

    def tap_requested(self, unit: int | None) -> bool:
        return self.no_forwarding()

    def no_forwarding(self) -> bool:
        """Refused: forwarding of any kind (written on the console once a connection)."""
        if not self.forwarding_refused:
            self.forwarding_refused = True
            console.refused(self.address, self.who or None, None, "forwarding (ssh -L, -R, -W, -D) is not served")
        return False


class _Session(asyncssh.SSHServerSession):
    """One session channel: a terminal and the child on it, or a line of explanation."""

    def __init__(self, connection: _Connection):
        self.connection = connection
        self.server = connection.server
        self.chan: asyncssh.SSHServerChannel | None = None
        self.term: str | None = None
        self.size = DEFAULT_SIZE
        self.command: str | None = None
        self.child: PtyChild | None = None
        self.hog: Hog | None = None  # the child's process, watched for keeping a core busy
        self.watch: IdleWatch | None = None  # closes the session when its player presses nothing
        self.started = False
        self.gone = False  # the channel has closed
        self.farewell: str | None = None
        limits = self.server.limits
        self.budget = InputBudget(limits.keys_per_second, limits.bytes_per_minute, self.server.clock)
        self.notify: Callable[[str], object] | None = None  # the child's ChildSpec.notify, once it runs
        self.paste_wait: asyncio.TimerHandle | None = None  # ends a paste that brings nothing more (`end_paste`)
        self.resizing: asyncio.TimerHandle | None = None  # while set, window changes wait (`resize_later`)
        self.given = self.size  # the window the child was last given
        self.pixels = (0, 0)
        self.window_changes = [0, 0]  # window changes asked for, and given to the child

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:
        self.chan = chan
        self.server.sessions.add(self)

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: object) -> bool:
        self.term = term_type if TERM_PATTERN.fullmatch(term_type) else FALLBACK_TERM
        self.size = _window(term_size[0], term_size[1], self.server.limits.window)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        # Accepted whatever it is, so that a refused one gets our explanation, not ssh's "exec request failed".
        self.command = command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        said = f"the subsystem {printable(subsystem)[:20]!r} (sftp, say) is not served"
        console.refused(self.connection.address, self.connection.who or None, None, said)
        return False

    def session_started(self) -> None:
        self.started = True
        assert self.chan is not None  # (set as the channel opened, before any of its events)
        self.chan.pause_reading()  # keys wait in the channel until there is a child to take them
        self.server.start_task(self.run())

    def usable(self) -> bool:
        """Whether this session may reach on_session: it has a terminal and asks for nothing unlisted."""
        if self.term is None:
            return False
        return self.command is None or self.command.split(" ", 1)[0] in self.server.commands

    def info(self) -> SessionInfo:
        conn, key = self.connection.conn, self.connection.key
        assert conn is not None and key is not None and self.term is not None
        return SessionInfo(
            fingerprint=fingerprint(key),
            public_key=" ".join(key.export_public_key().decode("ascii").split()[:2]),
            username=conn.get_extra_info("username") or "",
            peer=tuple(conn.get_extra_info("peername")[:2]),
            term=self.term,
            size=self.size,
            command=self.command,
        )

    async def run(self) -> None:
        """The session from its start to its end; whatever goes wrong, the player is told and the channel closed."""
        try:
            if not self.usable():
                assert self.connection.conn is not None  # (set as the connection was made, before any session)
                host, port = self.connection.conn.get_extra_info("sockname")[:2]
                if self.term is not None and self.command is not None:  # (a terminal, and a word it does not know)
                    command = printable(self.command.split(" ", 1)[0])[:20]
                    said = UNKNOWN.format(command=command, host=host, port=port)
                else:
                    said = USAGE.format(host=host, port=port)
                console.refused(self.connection.address, self.connection.who or None, None, said)
                self.finish(1, said)
                return
            outcome = await self.server.on_session(self.info())
            if isinstance(outcome, str):
                self.finish(1, outcome)
                return
            try:
                await self.run_child(outcome)
            finally:
                await _call(outcome.cleanup)
        except Exception as error:
            log.error("the session of %s failed on a bug; %s", self.connection.address, crash.reported(error))
            if self.child is not None:
                self.child.kill()
            self.finish(1, NOT_STARTED)

    async def run_child(self, spec: ChildSpec) -> None:
        chan = self.chan
        try:
            assert chan is not None  # (set as the channel opened, before the session started)
            if self.gone or self.farewell is not None:  # the player left, or the server began stopping, meanwhile
                self.finish(0)
                return
            size = self.size
            self.child = await PtyChild.start(spec, chan, *size, memory=self.server.limits.session_memory)
            self.hog = Hog(self.child.pid, self.server.limits.cpu_share)
            self.notify, self.given = spec.notify, size
            if self.size != size:  # (it changed while the child started)
                self.resize_now()
        finally:
            _close_fds(spec.pass_fds)
        self.server.children.add(self.child)
        try:
            if self.gone:
                self.child.hang_up(self.server.limits.hangup_grace)
            elif self.farewell is not None:
                self.child.end(self.server.limits.hangup_grace)
            else:
                chan.resume_reading()
                self.watch_idle(spec)
            status = await self.child.wait()
        finally:
            self.server.children.discard(self.child)
            if self.watch is not None:
                self.watch.stop()
        asked, given = self.window_changes
        log.debug(
            "the session of %s (key %s) ended with status %d; its window changed %d times, %d of them given to it",
            self.connection.address,
            console.short(self.connection.who),
            status,
            asked,
            given,
        )
        self.finish(status, self.cut_short(status))

    def cut_short(self, status: int) -> str | None:
        """The line for a child that ended past its memory ceiling or on a signal the server did not send (a
        line for the server's console too); None for an ordinary end."""
        assert self.child is not None
        who = f"the session of {self.connection.address} (key {console.short(self.connection.who)})"
        if status == crash.OUT_OF_MEMORY:
            ceiling = self.server.limits.session_memory >> 20
            log.warning("%s reached its memory ceiling (%d MiB) and ended", who, ceiling)
            return RESET_TERMINAL + MEMORY_CEILING
        if status > 128 and not self.child.asked_to_end:
            log.warning("%s was ended by signal %d", who, status - 128)
            return RESET_TERMINAL + ENDED
        return None

    def watch_idle(self, spec: ChildSpec) -> None:
        """Close the session once its player has pressed nothing for the idle timeout (0: never)."""
        timeout, child = self.server.limits.idle_timeout, self.child
        if timeout <= 0 or child is None:
            return

        def expire() -> None:
            log.warning(
                "closed the session of %s (key %s): idle for %s",
                self.connection.address,
                console.short(self.connection.who),
                duration(timeout),
            )
            self.stop(IDLE_CLOSED.format(idle=duration(timeout)))

        self.watch = IdleWatch(
            timeout, self.server.limits.idle_warning, spec.warn_idle, expire, paused=lambda: stopped(child.pid)
        )

    def finish(self, status: int, line: str | None = None) -> None:
        """Close the session with `status`, after `line` (to stderr when the status says failure).

        When the server is stopping, its farewell replaces both, on a
        terminal put back to normal if a child had it.
        """
        if self.gone or self.chan is None:
            return
        stream = self.chan.write_stderr if status else self.chan.write
        if self.farewell is not None:
            status, stream = 0, self.chan.write
            line = (RESET_TERMINAL if self.child is not None else "") + self.farewell
        try:
            if line:
                stream(f"{line}\r\n".encode())
            self.chan.exit(status)
        except OSError:
            pass

    def stop(self, message: str) -> None:
        """The server is stopping: end the child (its run then says `message` and closes), or close now."""
        self.farewell = message
        if not self.started:
            self.finish(0)
        elif self.child is not None:
            self.child.end(self.server.limits.hangup_grace)
            self.child.end(self.server.limits.hangup_grace, signal.SIGCONT)  # (a stopped child takes its SIGTERM)
        # else on_session is still deciding: run() sees the farewell once it has

    # The channel's events

    def data_received(self, data: bytes, datatype: int | None) -> None:
        if self.watch is not None:
            self.watch.pressed()
        if self.child is not None:
            self.child.feed(self.budget.admit(data))
            if self.budget.first_drop():
                log.warning(
                    "the session of %s (key %s) typed past its budget; keys were dropped",
                    self.connection.address,
                    console.short(self.connection.who),
                )
                if self.notify is not None:
                    self.notify(TOO_FAST)
            if self.hog is not None and self.hog.looked():
                log.warning(
                    "the session of %s (key %s) kept %d %% of a core busy; it yields to the other sessions now",
                    self.connection.address,
                    console.short(self.connection.who),
                    round(100 * self.hog.used),
                )
            if self.paste_wait is not None:
                self.paste_wait.cancel()
            if self.budget.in_paste:
                wait = self.server.limits.paste_wait
                self.paste_wait = asyncio.get_running_loop().call_later(wait, self.end_paste)

    def end_paste(self) -> None:
        """A paste begun has brought nothing more for a while: it is ended (its end may never come, and until
        it does the program would take every key as pasted)."""
        self.paste_wait = None
        if self.child is not None:
            self.child.feed(self.budget.end_paste())

    def eof_received(self) -> bool:
        return True  # the client has no more to send; the child's output may still go to it

    def break_received(self, msec: int) -> bool:
        return False

    def pause_writing(self) -> None:
        if self.child is not None:
            self.child.pause_output()

    def resume_writing(self) -> None:
        if self.child is not None:
            self.child.resume_output()

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        """The player's window changed. The program is told at once, then at most once each `resize_gap`
        seconds, the last size each time: a storm of changes costs its program a few redraws, not thousands."""
        self.size, self.pixels = _window(width, height, self.server.limits.window), (pixwidth, pixheight)
        self.window_changes[0] += 1
        if self.child is not None and self.resizing is None:
            self.resize_now()

    def resize_now(self) -> None:
        """Give the child the window's last size, if it has not had it, and hold later changes for a while."""
        self.resizing = None
        if self.child is None or self.gone or self.given == self.size:
            return
        self.given = self.size
        self.window_changes[1] += 1
        self.child.resize(*self.size, *self.pixels)
        self.resizing = asyncio.get_running_loop().call_later(self.server.limits.resize_gap, self.resize_now)

    def connection_lost(self, exc: Exception | None) -> None:
        self.gone = True
        if self.watch is not None:
            self.watch.stop()
        for timer in (self.paste_wait, self.resizing):
            if timer is not None:
                timer.cancel()
        self.server.sessions.discard(self)
        self.connection.session_ended()
        if self.child is not None:
            self.child.hang_up(self.server.limits.hangup_grace)
