"""A `Room` (lagoon_tui.serve.room) served from a thread of its own, and links to it over real sockets.

The room runs on its own event loop, as in the server process, so that a
seat's app in the test's loop can wait for an answer as it would from a
server elsewhere. `RoomThread.link(seat)` is a connected socket pair: one end
served by the room, the other for a `RemoteHost`.
"""

from __future__ import annotations

import asyncio
import random
import socket
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager

from textual.app import App

from lagoon_tui.link import Link
from lagoon_tui.remote import RemoteHost
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.seat_app import SeatApp
from lagoon_tui.serve.room import Room
from rules.host import Host, load_content
from tests.helpers.drive import keys_for

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


async def play_in_a_room_of_four(seat: int | None, watch: Callable[[App], AbstractContextManager], moves: int = 120):
    """A 4-player room at 160x50 played `moves` moves, seen by the app of `seat` (Ana, 0, who answers with digit
    keys; None: a spectator); `watch(app)` is entered once the board is on screen and left after the last move."""
    names, colours = ["Ana", "Ben", "Cleo", "Dev"], ["red", "yellow", "green", "blue"]
    room = RoomThread(Host.new(load_content(), names, colours, seed=7))
    rng = random.Random(3)
    try:
        links = {other: room.remote(other) for other in range(4) if other != seat}
        app = SeatApp(Link(room.socket(seat)))
        async with app.run_test(size=(160, 50)) as pilot:
            await until_shown(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
            own, made = app.remote, 0
            await until_shown(pilot, lambda: app.screen._shown == own.changes, "the board")
            with watch(app):
                for made in range(1, moves + 1):
                    decider = next(iter(links.values())).turn().seat
                    seen, heard = own.message, [link.message for link in links.values()]
                    if decider == seat:
                        count = len(own.message.prompt.options)
                        await pilot.press(*keys_for(rng.randrange(count), count))
                    else:
                        link = links[decider]
                        until(lambda: link.message.prompt is not None, "the decider's options")
                        options = link.message.prompt.options
                        assert link.choose(options[rng.randrange(len(options))].id)
                    await until_shown(pilot, lambda: own.message is not seen and app.screen._shown == own.changes)
                    until(lambda: all(link.message is not m for link, m in zip(links.values(), heard)), "the move")
                    await pilot.pause()
    finally:
        room.stop()
    assert made == moves
