"""Sessions forked by the fork server (serve/zygote.py) keep the promises a fresh interpreter kept (issue 36,
docs/serve.md "## Limits"), with real processes on real pseudo-terminals: each is set up as the launcher
sets one up, none shares the state of `random` with another, each dies with its server, and one past its
memory ceiling ends with the ceiling's exit code. Counted, never clocked."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from lagoon_tui import crash
from lagoon_tui.serve.terminal import ChildSpec, PtyChild, child_env
from lagoon_tui.serve.zygote import NAME, Zygote
from lagoon_tui.wire import frame
from tests.helpers.harness import ended, wait_until
from tests.helpers.zygote_alone import Sink

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="PR_SET_PDEATHSIG and /proc are Linux's")

REPO = Path(__file__).resolve().parents[2]
PROBE = [sys.executable, "-m", "tests.helpers.fork_probe"]
CEILING = 3 << 30


def said(sink: Sink) -> dict:
    """What the probe said of its process (its one JSON line)."""
    line = sink.data.decode().split("PROBE ", 1)[1].splitlines()[0]
    return json.loads(line)


def test_two_sessions_of_one_fork_server_are_set_up_as_fresh_ones_and_draw_different_random_numbers():
    async def two() -> tuple[list[dict], int, bytes, int]:
        zygote = await Zygote.start(child_env("xterm", FORK_SERVERS_OWN="1"))  # (a variable its sessions lack)
        seen, heard = [], b""
        try:
            for n in range(2):
                ours, theirs = socket.socketpair()
                fd = theirs.detach()
                env = child_env("xterm-256color", XDG_STATE_HOME=f"/nowhere/{n}")
                spec = ChildSpec([*PROBE, "--fd", str(fd)], env, pass_fds=[fd], zygote=zygote)
                sink = Sink()
                child = await PtyChild.start(spec, sink, 100, 30, memory=CEILING)
                os.close(fd)  # (as the SSH layer does once the child has started)
                assert await child.wait() == 0
                heard += ours.recv(16)
                ours.close()
                seen.append(said(sink))
        finally:
            zygote.close()
        return seen, zygote.pid, heard, await zygote.wait()

    (first, second), zygote, heard, zygote_status = asyncio.run(two())
    assert first["random"] != second["random"]  # (the same state in both would give the same bits)
    assert first["pid"] != second["pid"]
    assert heard == b"hellohello"  # each had the descriptor it was given, under the number it was told
    for n, one in enumerate((first, second)):
        assert one["parent"] == zygote
        assert one["session_leader"] and one["controlling"]  # its terminal is its controlling terminal
        assert one["death_signal"] == signal.SIGKILL  # it dies with the fork server, which dies with the server
        assert one["ceiling"] == CEILING
        assert one["env"] == child_env("xterm-256color", XDG_STATE_HOME=f"/nowhere/{n}")  # that, and no more
        fd = int(one["argv"][1])
        assert one["fds"] == sorted({0, 1, 2, fd})  # nothing of the fork server's is left open in it
        assert one["threads"] == 1
    assert zygote_status == 0  # closed, it ended once its sessions had


def test_the_fork_server_holds_no_thread_and_no_file_while_it_waits():
    async def look() -> tuple[str, list[str]]:
        zygote = await Zygote.start(child_env("xterm"))
        try:
            status = Path(f"/proc/{zygote.pid}/status").read_text()
            fds = [
                os.readlink(f"/proc/{zygote.pid}/fd/{fd}") for fd in os.listdir(f"/proc/{zygote.pid}/fd") if int(fd) > 2
            ]
        finally:
            zygote.close()
            await zygote.wait()
        return status, fds

    status, fds = asyncio.run(look())
    assert "Threads:\t1\n" in status
    kinds = sorted(target.split(":")[0] for target in fds)
    assert kinds == ["pipe", "pipe", "socket"]  # its line to the server and its pipe of signals; no file at all


def test_a_forked_session_dies_with_its_server_even_while_ignoring_hangups():
    alone = subprocess.Popen(
        [sys.executable, "-m", "tests.helpers.zygote_alone"], cwd=REPO, stdout=subprocess.PIPE, text=True
    )
    try:
        words = alone.stdout.readline().split()
        session, zygote = int(words[1]), int(words[3])
        assert Path(f"/proc/{session}/comm").read_text().strip() == NAME.decode()
        alone.kill()
        alone.wait()
        wait_until(lambda: ended(zygote), "the fork server to end with its server")
        wait_until(lambda: ended(session), "the session to end with its fork server")
    finally:
        if alone.poll() is None:
            alone.kill()
            alone.wait()


def test_a_forked_session_app_past_its_memory_ceiling_ends_with_the_ceilings_exit_code():
    # A window no ceiling keeps small, as in issue 36: drawing it needs gigabytes.
    async def past() -> int:
        zygote = await Zygote.start(child_env("xterm"))
        ours, theirs = socket.socketpair()
        fd = theirs.detach()
        ours.sendall(frame("hello", {"name": "Ana"}) + frame("lobby", {"mine": [], "open": []}))
        argv = [sys.executable, "-m", "lagoon_tui", "session", "--fd", str(fd)]
        spec = ChildSpec(argv, child_env("xterm-256color"), pass_fds=[fd], zygote=zygote)
        try:
            child = await PtyChild.start(spec, Sink(), 10_000, 10_000, memory=512 << 20)
            os.close(fd)
            return await child.wait()
        finally:
            ours.close()
            zygote.close()
            await zygote.wait()

    assert asyncio.run(past()) == crash.OUT_OF_MEMORY
