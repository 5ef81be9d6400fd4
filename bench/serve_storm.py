"""`lagoon serve` while one client sends a storm of window changes: how long another player's keys take.

    python bench/serve_storm.py [--keys 60] [--seconds 30]

A benchmark, not a test: it prints figures and never fails on time.

Method. The real `lagoon serve --verbose` starts on a free loopback port
with a fresh save file. A player connects with asyncssh's client (80x24) and
waits at the name form; then, calm, they type --keys keys one at a time
(letters, and every tenth key ten backspaces), each timed from the key to the
first byte of the screen's answer, 80 ms apart. Then a second client, in a
process of its own, logs in and changes its window's size as fast as it can
for --seconds seconds (a different size each time), and the player types the
same keys again. Reported for each: the median and p95 of the keys and how
many took over 120 ms; then the changes the storm sent, how many of them the
server gave its session's program (its console's line at the session's end),
and the CPU the server process used during the storm.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

STORM = """
import asyncio, sys
import asyncssh
port, key, known, seconds = int(sys.argv[1]), sys.argv[2], sys.argv[3], float(sys.argv[4])
async def main():
    async with asyncssh.connect("127.0.0.1", port, username="storm", known_hosts=asyncssh.import_known_hosts(known),
            client_keys=[asyncssh.read_private_key(key)], agent_path=None, config=None) as connection:
        channel, _ = await connection.create_session(
            asyncssh.SSHClientSession, term_type="xterm-256color", term_size=(80, 24), encoding=None)
        await asyncio.sleep(2.0)
        loop, sent = asyncio.get_running_loop(), 0
        end = loop.time() + seconds
        while loop.time() < end:
            channel.change_terminal_size(60 + sent % 100, 20 + sent % 30)
            sent += 1
            if sent % 200 == 0:
                await asyncio.sleep(0)
        print(sent, flush=True)
asyncio.run(main())
"""
GIVEN = re.compile(r"its window changed (\d+) times, (\d+) of them given")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def key_file(folder: Path, name: str) -> Path:
    path = folder / name
    path.write_bytes(asyncssh.generate_private_key("ssh-ed25519").export_private_key())
    path.chmod(0o600)
    return path


async def player(port: int, key: Path, known: str, rounds: list, keys: int) -> list[list[float]]:
    """Type `keys` keys for each of `rounds` (a callable run before the round); each round's latencies."""
    async with asyncssh.connect(
        "127.0.0.1",
        port,
        username="ana",
        known_hosts=asyncssh.import_known_hosts(known),
        client_keys=[asyncssh.read_private_key(key)],
        agent_path=None,
        config=None,
    ) as connection:
        answered, seen = asyncio.Event(), bytearray()

        class Screen(asyncssh.SSHClientSession):
            def data_received(self, data: bytes, datatype: object) -> None:
                seen.extend(data)
                answered.set()

        channel, _ = await connection.create_session(
            Screen, term_type="xterm-256color", term_size=(80, 24), encoding=None
        )
        while b"What name" not in seen:
            await asyncio.sleep(0.05)
        results = []
        for before in rounds:
            await asyncio.get_running_loop().run_in_executor(None, before)
            times = []
            for n in range(keys):
                answered.clear()
                start = time.perf_counter()
                channel.write(b"\x7f" * 10 if n % 10 == 0 else b"ab"[n % 2 : n % 2 + 1])
                try:
                    await asyncio.wait_for(answered.wait(), 10.0)
                except TimeoutError:
                    pass
                times.append(time.perf_counter() - start)
                await asyncio.sleep(0.08)
            results.append(times)
        return results


def report(name: str, times: list[float]) -> None:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    over = sum(t > 0.120 for t in times)
    print(
        f"{name}: {len(times)} keys, median {statistics.median(times) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
        f"over 120 ms: {over}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keys", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    lagoon = Path(sys.executable).with_name("lagoon")
    with tempfile.TemporaryDirectory() as name:
        folder, port = Path(name), free_port()
        output = folder / "serve.log"
        with output.open("w") as out:
            server = subprocess.Popen(
                [
                    str(lagoon),
                    "serve",
                    "--verbose",
                    "--port",
                    str(port),
                    "--db",
                    str(folder / "lagoon.db"),
                    "--host-key",
                    str(folder / "host_key"),
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        try:
            while "Players connect with" not in output.read_text():
                time.sleep(0.05)
            public = asyncssh.read_private_key(folder / "host_key").export_public_key().decode()
            known = f"[127.0.0.1]:{port} {public}"
            storm: dict[str, object] = {}

            def calm() -> None:
                pass

            def begin_storm() -> None:
                storm["process"] = subprocess.Popen(
                    [sys.executable, "-c", STORM, str(port), str(key_file(folder, "storm")), known, str(args.seconds)],
                    stdout=subprocess.PIPE,
                    text=True,
                )
                time.sleep(3.0)  # (logged in, and storming)
                storm["cpu"] = cpu_seconds(server.pid)

            quiet, stormy = asyncio.run(player(port, key_file(folder, "ana"), known, [calm, begin_storm], args.keys))
            process = storm["process"]
            assert isinstance(process, subprocess.Popen)
            sent = process.communicate()[0].strip()
            cpu = cpu_seconds(server.pid) - float(storm["cpu"])  # type: ignore[arg-type]  # (set by begin_storm)
            report("calm", quiet)
            report("storm", stormy)
            deadline = time.monotonic() + 30.0
            while len(GIVEN.findall(output.read_text())) < 2 and time.monotonic() < deadline:
                time.sleep(0.1)  # (both sessions' ends: the player's, and the storm's)
            read, given = max(((int(m[1]), int(m[2])) for m in GIVEN.finditer(output.read_text())), default=(0, 0))
            print(
                f"the storm sent {sent} changes; the server read {read} of them and gave its session {given}; "
                f"the server's CPU from the storm's start to its end: {cpu:.1f} s"
            )
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
