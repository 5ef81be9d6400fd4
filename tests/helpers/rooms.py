"""A `Room` (lagoon_tui.serve.room) served from a thread of its own, and links to it over real sockets.

The room runs on its own event loop, as in the server process, so that a
seat's app in the test's loop can wait for an answer as it would from a
server elsewhere. `RoomThread.link(seat)` is a connected socket pair: one end
served by the room, the other for a `RemoteHost`.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time

from lagoon_tui.link import Link
from lagoon_tui.remote import RemoteHost
from lagoon_tui.serve.room import Room
from rules.host import Host

WAIT = 30.0  # seconds a condition may take before a test gives up (generous: shared, noisy machines)


class LoopThread:
    """An event loop in a thread of its own, as the server's."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def call(self, fn):
        """`fn()` run on the room's loop (as everything touching the room or its host must be)."""

        async def run():
            return fn()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(WAIT)

    def serving(self, serve) -> socket.socket:
        """A socket whose other end `await serve(reader, writer)` serves, on the loop."""
        ours, theirs = socket.socketpair()

        async def run():
            reader, writer = await asyncio.open_connection(sock=theirs)
            await serve(reader, writer)

        asyncio.run_coroutine_threadsafe(run(), self.loop)
        return ours

    def settle(self) -> None:
        """Every task on the loop done, then the loop stopped."""

        async def settle():
            others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            await asyncio.wait(others, timeout=WAIT) if others else None

        asyncio.run_coroutine_threadsafe(settle(), self.loop).result(WAIT)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(WAIT)
        self.loop.close()


class RoomThread(LoopThread):
    def __init__(self, host: Host) -> None:
        super().__init__()
        self.room: Room = self.call(lambda: Room(host))

    def socket(self, seat: int | None) -> socket.socket:
        """A socket whose other end the room serves as `seat`."""
        return self.serving(lambda reader, writer: self.room.attach(seat, reader, writer))

    def remote(self, seat: int | None) -> RemoteHost:
        """A seat's host over its own link, its frames taken in the reader's thread (no app), once ready."""
        remote = RemoteHost(Link(self.socket(seat)))
        remote.link.start(remote.receive)
        until(lambda: remote.ready or remote.lost is not None, "the seat's first message")
        return remote

    def stop(self) -> None:
        """Every link ended, then the loop, once the links' tasks are done."""
        self.call(lambda: self.room.close("The test is over."))
        self.settle()


def until(condition, what: str = "the condition") -> None:
    """Wait for `condition()` (another thread makes it true), polling; fail after WAIT seconds."""
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} never came")
        time.sleep(0.005)


async def until_shown(pilot, condition, what: str = "the condition", tries: int = 2000) -> None:
    """Pause the app until `condition()`: a change from another thread reaches it between pauses."""
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.005)
    raise AssertionError(f"{what} never came; on {pilot.app.screen!r}")
