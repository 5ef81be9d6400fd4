"""`lagoon serve` under load: rooms of four players, every player an SSH session, all playing at once.

    python bench/serve_load.py [--sessions 4,8,16] [--moves 160] [--seed S]
    python bench/serve_load.py --connect 24 [--old] [--idle 2]

A benchmark, not a test: it prints figures and never fails on time.

`--connect N` measures arriving instead of playing: N players (named
already) connect one after another and stay, each timed from the start of
its SSH connection to the lobby's first frame ("Your games" on its screen);
once all are in and idle (--idle seconds, 2 by default), each session's proportional memory (PSS, from
/proc/PID/smaps_rollup: a page shared by k processes counts 1/k to each) is
read, with the fork server's and the server's. `--old` starts the server with
LAGOON_SERVE_FORK=0 (a fresh interpreter for each session, as before the fork
server) to compare.

Method. For each count of sessions (a room is four players, so 4, 8 and 16
sessions are 1, 2 and 4 rooms), a fresh save file is prepared with the
players (one generated ed25519 key each, named after the seat), their rooms
and the rooms' games already started, and the real `lagoon serve` command is
started on a free loopback port. Every player then connects with asyncssh's
client, with a pseudo-terminal of 160x50 (TERM=xterm-256color), and joins
their room (`join CODE`), which takes them to their game's screen: a
`lagoon session` process of their own on the server. From then on each
session reads everything its terminal receives, time-stamped, escape
sequences removed; the player whose window title the app last set to "Lagoon · Your turn" presses 1,
and the time from the key to the last byte of the screen's answer (the last
byte before QUIET seconds of silence, after a first byte however late) is
the key's latency. Every room plays
at once, so the server and every session are busy together. Each room plays
--moves moves.

Reported for each count: the key-to-screen latency after each room's
setup (median, p95; target p95 <= 50 ms at 16 sessions), the p95 of every
key pressed (the setups' too) and the slowest key of the setups (each room's
first SETUP keys, timed apart), the memory of one session's process (the
median resident set size of the `lagoon session` processes, from /proc), the
server process's own memory, and the CPU the server process used per second
of play (its user + system time over the wall-clock time of the moves; 100%
is one core). The session processes' CPU is reported too: it is where the
screens are drawn; and the benchmark's own (its SSH clients share the cores).
The sessions' and the server's CPU a key (their CPU time over the keys
pressed, setups included) compare two versions of the code better than the
latencies do, though the machine's phase moves them too.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lagoon_tui.serve.lobby import COLOURS  # noqa: E402
from lagoon_tui.serve.ssh import fingerprint  # noqa: E402
from rules.host import Host, SavedRoom, SavedSeat, Store, load_content  # noqa: E402

LAGOON = Path(sys.executable).with_name("lagoon")
TITLE = re.compile(r"\x1b\]2;([^\x07\x1b]*)(?:\x07|\x1b\\)")
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
QUIET = 0.15  # seconds of silence that end a screen's answer to a key
ANSWER_WAIT = 30.0  # seconds a key's answer may take to begin before the run is given up
SETUP = 8
"""Each room's first keys (the setup: objectives, corporations), timed apart too. A player's key that
keeps two objectives is the slowest of a game: their board, taller than the screen while it lists
the three, fits again, and Textual paints the whole board anew. Four such keys come in a game of
some 650 to 730 keys."""
SIZE = (160, 50)
NAMES = ("Ana", "Ben", "Cleo", "Dev")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def prepare(folder: Path, rooms: int, seed: int) -> list[tuple[str, list[asyncssh.SSHKey]]]:
    """A save file with `rooms` started games of four players each; each room's code and players' keys."""
    content = load_content()
    store = Store(folder / "lagoon.db")
    made = []
    for room in range(rooms):
        keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in NAMES]
        names = [f"{name}{room + 1}" for name in NAMES]
        host = Host.new(content, names, COLOURS, seed=seed + room, start_player=0, store=store)
        code = f"ROOM{room + 1:02d}"
        for key, name in zip(keys, names):
            store.name_player(fingerprint(key), name)
        seats = tuple(SavedSeat(fingerprint(key)) for key in keys)
        store.save_room(SavedRoom(code, fingerprint(keys[0]), seats, seed + room, host.game))
        made.append((code, keys))
    store.release()
    store.close()
    return made


class Session:
    """One player's terminal: an asyncssh client session with a pty, read as it arrives."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.text = ""  # the latest of what was received, escapes removed (while `reading`)
        self.reading = True  # whether `text` is kept (until the keys are timed: the bench's own CPU is the cores')
        self.title = ""  # the window title the app set last ("Lagoon · Your turn")
        self._raw = ""
        self.last_byte = 0.0
        self.received = 0  # bytes, all told
        self.first_byte: float | None = None  # the first byte after a key
        self._answered = asyncio.Event()  # set by the first byte after a key
        self.process: asyncssh.SSHClientProcess | None = None
        self.connection: asyncssh.SSHClientConnection | None = None

    async def open(self, port: int, key: asyncssh.SSHKey, code: str) -> None:
        self.connection = await asyncssh.connect(
            "127.0.0.1", port, username=self.name, client_keys=[key], known_hosts=None, agent_path=None
        )
        self.process = await self.connection.create_process(
            f"join {code}", term_type="xterm-256color", term_size=SIZE, encoding=None
        )
        asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        while True:
            data = await self.process.stdout.read(65536)
            if not data:
                return
            self.last_byte = time.perf_counter()
            self.received += len(data)
            if self.first_byte is None:
                self.first_byte = self.last_byte
                self._answered.set()
            raw = self._raw + data.decode("utf-8", "replace")
            titles = TITLE.findall(raw)
            if titles:
                self.title = titles[-1]
            self._raw = raw[-200:]  # (a title cut between two reads is found whole in the next)
            if self.reading:
                self.text = (self.text + ANSI.sub("", data.decode("utf-8", "replace")))[-20000:]

    @property
    def deciding(self) -> bool:
        """Whether the app says the turn is this player's: the window title it set last."""
        return self.title == "Lagoon · Your turn"

    async def press(self, key: str) -> tuple[float, float]:
        """Seconds from the key to the first and to the last byte of the screen's answer.

        The answer is awaited however late it begins (a busy server may take longer than QUIET to begin it: a key
        taken for unanswered would be timed as 0 and followed by another key at once)."""
        sent = time.perf_counter()
        self.first_byte = None
        self._answered.clear()
        self.process.stdin.write(key.encode())
        try:
            await asyncio.wait_for(self._answered.wait(), ANSWER_WAIT)
        except TimeoutError:
            raise RuntimeError(f"{self.name}'s key {key!r} had no answer in {ANSWER_WAIT} s") from None
        # (woken when the quiet would end, not every few milliseconds: the bench's client shares the cores)
        while (left := QUIET - (time.perf_counter() - self.last_byte)) > 0:
            await asyncio.sleep(left)
        return self.first_byte - sent, self.last_byte - sent

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()


async def play_room(
    sessions: list[Session],
    moves: int,
    latencies: list[tuple[float, float]],
    think: float,
    rng: random.Random,
    setup: list[tuple[float, float]],
) -> None:
    """`moves` keys timed into `latencies`, after the room's first SETUP keys timed into `setup`."""
    made, stuck = -SETUP, time.perf_counter()
    while made < moves:
        deciding = [s for s in sessions if s.deciding]
        if len(deciding) != 1:
            if time.perf_counter() - stuck > 60:
                raise RuntimeError(f"no one player to move after {made} moves: {[s.title for s in sessions]}")
            await asyncio.sleep(0.02)
            continue
        if think:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * think)  # (a player reads the screen, then decides)
            if [s for s in sessions if s.deciding] != deciding:  # (the last answer's end came while they read)
                continue
        (latencies if made >= 0 else setup).append(await deciding[0].press("1"))
        made, stuck = made + 1, time.perf_counter()


def p95(values) -> float:
    ordered = sorted(values)
    return ordered[int(0.95 * (len(ordered) - 1))]


def proc_kb(pid: int, file: str, field: str) -> int:
    """A figure in kB from /proc/PID/<file>'s line `field:`."""
    for line in Path(f"/proc/{pid}/{file}").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    return 0


def pss_kb(pid: int) -> int:
    """The process's proportional set size: its pages, each divided among the processes that share it."""
    return proc_kb(pid, "smaps_rollup", "Pss")


def uss_kb(pid: int) -> int:
    """The process's own pages (unique set size): those no other process shares, copied on write or new."""
    return proc_kb(pid, "smaps_rollup", "Private_Clean") + proc_kb(pid, "smaps_rollup", "Private_Dirty")


def sessions_of(server: int) -> tuple[list[int], int | None]:
    """The server's session processes (its children, or its fork server's) and its fork server, if any."""
    direct = children(server)
    zygotes = [pid for pid in direct if b"lagoon_tui.fork_server" in Path(f"/proc/{pid}/cmdline").read_bytes()]
    forked = [pid for zygote in zygotes for pid in children(zygote)]
    return [pid for pid in direct if pid not in zygotes] + forked, (zygotes[0] if zygotes else None)


def rss_kb(pid: int) -> int:
    return proc_kb(pid, "status", "VmRSS")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int(Path(entry, "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if parent == pid:
                found.append(int(entry.name))
    return found


def start_server(folder: Path, port: int, sessions: int, old: bool) -> subprocess.Popen:
    """`lagoon serve` on `port` with the save file in `folder`, room for `sessions` from loopback, once it
    listens; `old`: a fresh interpreter for each session (LAGOON_SERVE_FORK=0), else forked ones."""
    server = subprocess.Popen(
        [str(LAGOON), "serve", "--port", str(port), "--db", str(folder / "lagoon.db")]
        + ["--host-key", str(folder / "host_key"), "--per-address", str(sessions + 10)]
        + ["--max-players", str(sessions + 10), "--sessions-per-address", str(sessions + 10)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=dict(os.environ, LAGOON_SERVE_FORK="0" if old else "1"),
    )
    while "Players connect with" not in (line := server.stdout.readline()):
        if not line:
            raise RuntimeError("lagoon serve did not start")
    return server


async def measure(count: int, moves: int, seed: int, think: float, old: bool = False) -> dict:
    rooms = count // len(NAMES)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        made = prepare(folder, rooms, seed)
        port = free_port()
        server = start_server(folder, port, count, old)
        try:
            tables = []
            for code, keys in made:
                table = [Session(name) for name in NAMES]
                for session, key in zip(table, keys):
                    await session.open(port, key, code)
                tables.append(table)
            everyone = [s for table in tables for s in table]
            while not all("Score" in s.text or s.deciding for s in everyone):
                await asyncio.sleep(0.05)
            await asyncio.sleep(1.0)  # (every screen drawn once)
            for session in everyone:
                session.reading = False  # (from now on only the window's title is read)
            cpu_before, started, client_before = cpu_seconds(server.pid), time.perf_counter(), time.process_time()
            sessions_cpu_before = {pid: cpu_seconds(pid) for pid in sessions_of(server.pid)[0]}
            received_before = sum(s.received for s in everyone)
            latencies: list[tuple[float, float]] = []
            setup: list[tuple[float, float]] = []
            rng = random.Random(seed)
            await asyncio.gather(*(play_room(table, moves, latencies, think, rng, setup) for table in tables))
            wall = time.perf_counter() - started
            client_cpu = (time.process_time() - client_before) / wall
            received = sum(s.received for s in everyone) - received_before
            server_cpu = (cpu_seconds(server.pid) - cpu_before) / wall
            pids = sessions_of(server.pid)[0]
            sessions_cpu = sum(cpu_seconds(pid) - sessions_cpu_before.get(pid, 0.0) for pid in pids) / wall
            rss = [rss_kb(pid) for pid in pids]
            server_rss = rss_kb(server.pid)
            for s in everyone:
                s.close()
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(60)
    firsts, lasts = sorted(f for f, _ in latencies), sorted(last for _, last in latencies)
    return {
        "sessions": count,
        "keys": len(latencies),
        "first_p50_ms": 1000 * statistics.median(firsts),
        "first_p95_ms": 1000 * p95(firsts),
        "p50_ms": 1000 * statistics.median(lasts),
        "p95_ms": 1000 * p95(lasts),
        "all_p95_ms": 1000 * p95(last for _, last in latencies + setup),
        "setup_max_ms": 1000 * max(last for _, last in setup),
        "session_rss_mb": statistics.median(rss) / 1024 if rss else 0.0,
        "server_rss_mb": server_rss / 1024,
        "server_cpu": server_cpu,
        "sessions_cpu": sessions_cpu,
        "client_cpu": client_cpu,
        "keys_per_second": len(latencies + setup) / wall,
        "kb_per_key": received / 1024 / len(latencies + setup),
    }


def prepare_players(folder: Path, count: int) -> list[tuple[str, asyncssh.SSHKey]]:
    """A save file with `count` named players and no room; each one's name and key."""
    store = Store(folder / "lagoon.db")
    made = []
    for n in range(count):
        key = asyncssh.generate_private_key("ssh-ed25519")
        name = f"Player{n + 1}"
        store.name_player(fingerprint(key), name)
        made.append((name, key))
    store.release()
    store.close()
    return made


async def arrive(port: int, name: str, key: asyncssh.SSHKey) -> tuple[Session, float]:
    """A player connects and waits for the lobby: their session and the seconds it took."""
    session = Session(name)
    started = time.perf_counter()
    session.connection = await asyncssh.connect(
        "127.0.0.1", port, username=name, client_keys=[key], known_hosts=None, agent_path=None
    )
    session.process = await session.connection.create_process(term_type="xterm-256color", term_size=SIZE, encoding=None)
    asyncio.ensure_future(session._read())
    while "Your games" not in session.text:
        if time.perf_counter() - started > 60:
            raise RuntimeError(f"{name} saw no lobby in a minute: {session.text[-300:]!r}")
        await asyncio.sleep(0.002)
    return session, time.perf_counter() - started


async def measure_arrivals(count: int, old: bool, idle: float) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        players = prepare_players(folder, count)
        port = free_port()
        server = start_server(folder, port, count, old)
        sessions: list[Session] = []
        try:
            times = []
            for name, key in players:
                session, took = await arrive(port, name, key)
                sessions.append(session)
                times.append(took)
            await asyncio.sleep(idle)  # (every lobby idle)
            pids, zygote = sessions_of(server.pid)
            pss = [pss_kb(pid) for pid in pids]
            own = [uss_kb(pid) for pid in pids]
            zygote_pss = pss_kb(zygote) if zygote is not None else 0
            server_pss = pss_kb(server.pid)
        finally:
            for session in sessions:
                session.close()
            server.send_signal(signal.SIGTERM)
            server.wait(60)
    return {
        "sessions": count,
        "found": len(pids),
        "lobby_p50_s": statistics.median(times),
        "lobby_p95_s": p95(times),
        "lobby_max_s": max(times),
        "session_pss_mb": statistics.median(pss) / 1024,
        "session_uss_mb": statistics.median(own) / 1024,
        "zygote_pss_mb": zygote_pss / 1024,
        "each_with_zygote_mb": (sum(pss) + zygote_pss) / 1024 / len(pss),
        "server_pss_mb": server_pss / 1024,
    }


def arrivals_main(count: int, old: bool, idle: float) -> None:
    print(f"lagoon serve: {count} players connect one after another and stay (160x50), ", end="")
    print("a fresh interpreter each (LAGOON_SERVE_FORK=0)" if old else "forked by the fork server")
    print(f"load average before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    r = asyncio.run(measure_arrivals(count, old, idle))
    print(
        f" ssh to lobby: p50 {r['lobby_p50_s']:.3f} s  p95 {r['lobby_p95_s']:.3f} s  max {r['lobby_max_s']:.3f} s"
        f" (over {r['sessions']} connections)"
    )
    print(
        f" idle session PSS: median {r['session_pss_mb']:.1f} MB over {r['found']} sessions"
        f" (its own pages {r['session_uss_mb']:.1f} MB);"
        f" fork server {r['zygote_pss_mb']:.1f} MB; sessions and fork server together"
        f" {r['each_with_zygote_mb']:.1f} MB a session; server {r['server_pss_mb']:.1f} MB"
    )
    print(f"load average after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    print("targets: ssh to lobby p95 <= 0.5 s; idle session PSS <= 15 MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", default="4,8,16", help="counts of sessions, multiples of 4 (default 4,8,16)")
    parser.add_argument("--moves", type=int, default=160, help="moves each room plays after its setup (default 160)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean seconds a player looks at the screen before a key (0: keys as fast as the screens answer)",
    )
    parser.add_argument("--connect", type=int, default=0, help="measure N arrivals at the lobby instead of play")
    parser.add_argument("--idle", type=float, default=2.0, help="seconds every lobby idles before memory is read")
    parser.add_argument("--old", action="store_true", help="a fresh interpreter for each session (no fork server)")
    args = parser.parse_args()
    if args.connect:
        arrivals_main(args.connect, args.old, args.idle)
        return
    print(f"lagoon serve under load: rooms of 4 SSH sessions at {SIZE[0]}x{SIZE[1]}, {args.moves} moves a room")
    print(
        " sessions  keys  first byte p50  p95  done p50  p95 (ms)  session RSS (MB)  server RSS (MB)"
        "  server CPU  sessions CPU  client CPU  all keys p95  setup keys max (ms)  keys/s  KB to the room a key"
        "  CPU a key (ms): sessions  server"
    )
    for count in (int(n) for n in args.sessions.split(",")):
        r = asyncio.run(measure(count, args.moves, args.seed, args.think, args.old))
        print(
            f" {r['sessions']:8d}  {r['keys']:4d}  {r['first_p50_ms']:14.1f}  {r['first_p95_ms']:4.0f}"
            f"  {r['p50_ms']:8.1f}  {r['p95_ms']:8.1f}  {r['session_rss_mb']:16.1f}"
            f"  {r['server_rss_mb']:15.1f}  {r['server_cpu']:9.0%}  {r['sessions_cpu']:11.0%}  {r['client_cpu']:9.0%}"
            f"  {r['all_p95_ms']:12.1f}  {r['setup_max_ms']:19.0f}  {r['keys_per_second']:6.1f}"
            f"  {r['kb_per_key']:20.1f}  {1000 * r['sessions_cpu'] / r['keys_per_second']:24.1f}"
            f"  {1000 * r['server_cpu'] / r['keys_per_second']:6.1f}"
        )
    print("target: p95 <= 50 ms at 16 sessions")


if __name__ == "__main__":
    main()
