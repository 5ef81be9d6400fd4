"""A session's app run once, headless, in the fork server before it forks anything (serve/zygote.py).

Whatever a session does on its way to the lobby that it need do only once
per process is then done, in pages every forked session shares: the code
Python specialises as it runs it, the caches Textual and Rich fill as they
draw. Measured (bench/serve_load.py --connect): about 1 MB less of each
idle session's own memory and 60 ms less from `ssh` to the lobby.

The app gets a link whose other end says "hello" to a player and shows an
empty lobby, as the server would; nothing is saved and nothing is sent
anywhere. It leaves no thread behind: the link's reader ends with the socket.
"""

from __future__ import annotations

import socket
import threading

from rules.host import Content, load_content

from .link import Link
from .quiet_gc import collector
from .screens.lobby import LobbyScreen
from .session_app import SessionApp
from .wire import frame

SIZE = (160, 50)
PAUSES = 50  # the app's message queues emptied at most this many times while the lobby comes up
THREAD_WAIT = 5.0  # seconds each thread the app started may take to end

content: Content | None = None
"""The shipped decks, loaded by the warm-up: a forked session's app starts with them (until the server's come)
instead of reading them again (which cost 1.3 MB of its own memory). None in a process that was not warmed up."""


async def _to_the_lobby() -> None:
    ours, theirs = socket.socketpair()
    app = SessionApp(Link(theirs), content=content)
    ours.sendall(frame("hello", {"name": "Warm"}) + frame("lobby", {"mine": [], "open": []}))
    try:
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(PAUSES):
                await pilot.pause()
                if isinstance(app.screen, LobbyScreen):
                    break
            await pilot.pause()
    finally:
        ours.close()


def warm_up() -> None:
    """Read the decks (`content`), and run a session's app to its lobby and back; returns once every thread it
    started has ended."""
    import asyncio

    global content
    content = load_content()
    asyncio.run(_to_the_lobby())
    collector.stop()  # (the app's collector, as a fresh process has it: automatic collections, nothing frozen)
    for thread in threading.enumerate():
        if thread is not threading.current_thread():
            thread.join(THREAD_WAIT)
