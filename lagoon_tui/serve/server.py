"""`lagoon serve`: the lobby and its rooms, served over SSH (`ssh.py`), one app process a session.

For each SSH session with a terminal the server makes a socket pair: one end
is the session's link to the lobby (`Lobby.serve`, keyed by the fingerprint
of the key that logged in), the other is handed to a `lagoon session`
process started on the session's own pseudo-terminal. That process gets its
seat's messages and nothing else: never the engine, the seed or another
seat's secrets. The server itself draws nothing.

Stopping (ctrl+c, SIGTERM) tells every session, ends every app, and loses
nothing: every accepted move is in the save file before anyone sees it, and
a restarted server opens every room where it was.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rules.host import Content, Store, printable

from .. import crash
from ..wire import frame
from . import capacity, console, ssh
from .lobby import STAND_IN_AFTER, Lobby
from .terminal import ChildSpec, child_env
from .zygote import Zygote, forking

STOPPING = ssh.STOPPING
FALLBACK_TERM = ssh.FALLBACK_TERM
ZYGOTE_WAIT = 5.0  # seconds the stopping server waits for its fork server to end


@dataclass(frozen=True)
class Options:
    host: str = "127.0.0.1"
    port: int = 2222
    host_key: Path | None = None  # default: beside the save file
    allow_keys: Path | None = None
    content_dir: Path | None = None
    limits: ssh.Limits = ssh.Limits()
    console: str = "normal"  # how much the server writes on its terminal: quiet, normal or verbose (console.py)
    players_set: bool = True  # --max-players was given (else the banner says the number follows the memory)
    stand_in_after: float = STAND_IN_AFTER  # seconds a player is away before the others may ask for a stand-in


def connect_command(host: str, port: int) -> str:
    """What a player types to join: the address they must reach (this machine's name for any address)."""
    where = socket.gethostname() if host in ("0.0.0.0", "::", "") else host
    return f"ssh -t -p {port} {where}" if port != 22 else f"ssh -t {where}"


def session_env(term: str) -> dict[str, str]:
    """A session's environment (and the fork server's): a bug in its app is reported where the server's own are
    (the player is told only that)."""
    return child_env(term, XDG_STATE_HOME=str(crash.state_dir().parent))


def players_line(options: Options) -> str:
    """The banner's line on how many may play at once, and where the number comes from."""
    most = options.limits.max_connections
    if options.players_set:
        return f"Up to {most} players at once (--max-players)."
    memory = capacity.memory_total()
    each = capacity.SESSION_COST >> 20
    whence = "" if memory is None else f": {capacity.gib(memory)} of memory, about {each} MiB a player"
    return f"Up to {most} players at once, from this machine{whence} (--max-players N to set it)."


def tell(writer: asyncio.StreamWriter, kind: str, body: object) -> None:
    """A frame from the server itself to a session's app on its link (whether the lobby or a room has it),
    unless the link is closing."""
    if not writer.is_closing():
        writer.write(frame(kind, body))


def notice(writer: asyncio.StreamWriter, text: str) -> None:
    """`text` shown to a session by its app, as the lobby's and the rooms' notices are (a toast)."""
    tell(writer, "notice", {"text": text})


def idle_warner(writer: asyncio.StreamWriter) -> Callable[[float | None], None]:
    """How a session's app is told that it closes soon unless its player presses a key (an `idle` frame):
    `{"closes_in": seconds}`, or `{"closes_in": null}` once they have."""

    def warn(left: float | None) -> None:
        tell(writer, "idle", {"closes_in": None if left is None else round(left)})

    return warn


class Served:
    """The lobby and the SSH server, running on the current loop."""

    def __init__(self, lobby: Lobby, server: ssh.Server | None, content_dir: Path | None) -> None:
        self.lobby, self.content_dir = lobby, content_dir
        self.server = server  # (None only while `start` starts it: it needs `on_session` first)
        self.zygote: Zygote | None = None  # forks the sessions (zygote.py); None: a fresh interpreter each

    @classmethod
    async def start(
        cls, store: Store, content: Content, options: Options, say: Callable[[str], None] = print
    ) -> Served:
        lobby = Lobby(store, content, stand_in_after=options.stand_in_after)
        for problem in await lobby.open_rooms():
            say(printable(f"lagoon serve: {problem}"))  # (it may quote the save file)
        key_path = options.host_key or Path(store.path).with_name("ssh_host_ed25519_key")
        host_key = ssh.load_or_create_host_key(key_path)
        served = cls(lobby, None, options.content_dir)
        if forking():
            try:
                served.zygote = await Zygote.start(session_env(FALLBACK_TERM))
            except OSError as error:
                say(f"lagoon serve: each session starts a program of its own (no fork server: {error})")
        served.server = server = await ssh.start(
            served.on_session,
            host_key=host_key,
            host=options.host,
            port=options.port,
            allow_keys=options.allow_keys,
            commands={"join", "watch"},
            limits=options.limits,
        )
        say(f"Lagoon is serving on {options.host}:{server.port}.")
        say(f"Players connect with:  {connect_command(options.host, server.port)}")
        say(f"The server's host key: {ssh.fingerprint(host_key)} (ssh shows it on first connection: compare them)")
        say(players_line(options))
        return served

    async def on_session(self, info: ssh.SessionInfo) -> ChildSpec | str:
        console.connected(self.lobby.names.get(info.fingerprint), info.fingerprint, info.peer[0])
        ours, theirs = socket.socketpair()
        fd = theirs.detach()  # (the SSH layer hands it to the child and closes this process's copy)
        argv = [sys.executable, "-m", "lagoon_tui", "session", "--fd", str(fd)]
        if self.content_dir is not None:
            argv += ["--content", str(self.content_dir)]
        words = (info.command or "").split()
        if words[:1] in (["join"], ["watch"]):  # (a seat, if one is free; or a spectator's place)
            if len(words) != 2:
                ours.close()
                os.close(fd)
                return f"Usage: ssh -t -p PORT HOST {words[0]} CODE (the room's code, as its maker gave it)"
            argv += [f"--{words[0]}", words[1][:12]]
        reader, writer = await asyncio.open_connection(sock=ours)
        asyncio.ensure_future(self.lobby.serve(info.fingerprint, reader, writer))
        zygote = self.zygote if self.zygote is not None and self.zygote.alive else None
        return ChildSpec(
            argv,
            session_env(info.term),
            pass_fds=[fd],
            cleanup=writer.close,
            warn_idle=idle_warner(writer),
            notify=lambda text: notice(writer, text),
            zygote=zygote,
        )

    async def stop(self, message: str = STOPPING) -> None:
        self.lobby.close(message)
        if self.server is not None:
            await self.server.close(message)
        if self.zygote is not None:
            self.zygote.close()
            try:  # (it ends once the sessions it forked have, which the server has just waited for)
                await asyncio.wait_for(self.zygote.wait(), ZYGOTE_WAIT)
            except TimeoutError:
                pass


async def serve(store: Store, content: Content, options: Options) -> int:
    """Serve until ctrl+c or SIGTERM (a task that fails on a bug is reported, in one line here)."""
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(crash.loop_handler(print))
    with console.writing(options.console):
        served = await Served.start(store, content, options)
        stop = asyncio.Event()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        await stop.wait()
        print("Stopping: telling the players; every move is saved.")
        await served.stop()
    return 0
