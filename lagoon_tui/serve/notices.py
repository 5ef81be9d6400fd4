"""Notices for players who are not connected: `Notices`, a POST to a URL each player may give.

A player may give a URL (http or https) in the lobby. When one of their
games turns to them while no session of theirs is connected, the server
POSTs to it a small JSON object: the room's code, the game's number, whose
turn it is and a sentence ("Your turn in game 12 (room ABC234).") - nothing
secret. At most one a game an hour (EVERY), whatever the game's pace.

A notice is sent in the background, on threads of its own (at most SENDING
at once; more than WAITING_MOST waiting are dropped), each with a bounded
timeout, so the server's loop never waits for one. A notice that fails is
one line on the server's console (naming the URL's host, not the URL: it
may hold the player's token) and is never sent again. The URL and when each
game last sent a notice are kept in the save file (`Store.notices`), so a
restart sends no second notice within the hour.

Whoever runs the server should know that it will POST to any address a
player names, their own network's included (the body is only the words above).
"""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from urllib.parse import urlsplit, urlunsplit

from rules.host import Store

from . import console, faults

EVERY = 3600.0
"""Seconds a game waits before it sends the same player another notice."""
TIMEOUT = 10.0
"""Seconds a notice may take, all told (to connect, send and be answered), before it counts as failed."""
SENDING = 3
"""Notices sent at once; others wait their turn."""
WAITING_MOST = 64
"""Notices that may wait to be sent; past that they are dropped, with a line on the console."""
URL_LONGEST = 400


def url_problem(url: str) -> str | None:
    """Why `url` cannot take notices, in words; None if it can."""
    if len(url) > URL_LONGEST:
        return f"That URL is too long (at most {URL_LONGEST} characters)."
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  # (reading it checks it: a port that is not a number raises ValueError)
    except ValueError:
        return "That is not a URL."
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "Give an http:// or https:// URL."
    if any(ord(c) <= 32 or ord(c) == 127 for c in url):
        return "A URL has no spaces or control characters."
    return None


def post(url: str, data: bytes) -> int:
    """POST `data` (JSON) to `url`; the status of the answer (an error status raises). The whole of it within
    TIMEOUT: a socket's own timeout bounds each wait alone, and an answer that comes a byte every few seconds
    held a sending thread for good (three such URLs, every thread), so the connection is shut at the deadline."""
    parts = urlsplit(url)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    connection = kind(parts.hostname or "", parts.port, timeout=TIMEOUT)
    late = threading.Event()

    def cut() -> None:
        late.set()
        if connection.sock is not None:
            try:
                connection.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    deadline = threading.Timer(TIMEOUT, cut)
    deadline.start()
    try:
        target = urlunsplit(("", "", parts.path or "/", parts.query, ""))
        connection.request("POST", target, body=data, headers={"Content-Type": "application/json"})
        status = connection.getresponse().status
    except (OSError, http.client.HTTPException) as error:
        raise TimeoutError("timed out") if late.is_set() else error from None
    finally:
        deadline.cancel()
        connection.close()
    if late.is_set():
        raise TimeoutError("timed out")
    if status >= 400:
        raise OSError(f"the answer was HTTP {status}")
    return status


class Notices:
    def __init__(self, store: Store, wall: Callable[[], float]) -> None:
        self.store = store
        self.wall = wall
        self.urls: dict[str, str] = {}
        self.sent: dict[str, dict[str, float]] = {}  # a player's key -> room code -> when its last notice went
        for key, url, sent in store.notices():
            if isinstance(key, str) and isinstance(url, str) and url_problem(url) is None:
                self.urls[key] = url
                self.sent[key] = _times(sent)
        self._pool: ThreadPoolExecutor | None = None
        self.pending: set[Future[int]] = set()

    def give(self, key: str, url: str) -> None:
        """`url` takes the player's notices from now on ("": none). ValueError, in words, if it cannot;
        StoreError if the save file refuses (nothing changed)."""
        url = url.strip()
        problem = url_problem(url) if url else None
        if problem is not None:
            raise ValueError(problem)
        sent = self.sent.get(key, {})
        self.store.save_notices(key, url, sent)
        if url:
            self.urls[key] = url
            self.sent[key] = sent
        else:
            self.urls.pop(key, None)
            self.sent.pop(key, None)

    def your_turn(self, key: str, code: str, game: int | None, name: str) -> bool:
        """Tell the player with `key` that game `game` of room `code` waits for them, if they gave a URL and the
        game has sent them none this last hour: whether a notice went."""
        url = self.urls.get(key)
        now = self.wall()
        if url is None or now - self.sent[key].get(code, -EVERY) < EVERY:
            return False
        where = f"{console.who(name, key)}, a notice to {_host(url)}"
        if len(self.pending) >= WAITING_MOST:
            faults.noted(where, "dropped: too many notices waiting")
            return False
        sent = {**self.sent[key], code: now}
        self.store.save_notices(key, url, sent)  # (first: a restart never sends it twice within the hour)
        self.sent[key] = sent
        data = json.dumps(
            {"text": f"Your turn in game {game} (room {code}).", "room": code, "game": game, "turn": name}
        ).encode()
        if self._pool is None:
            self._pool = ThreadPoolExecutor(SENDING, thread_name_prefix="lagoon-notice")
        future = self._pool.submit(post, url, data)
        self.pending.add(future)
        loop = asyncio.get_running_loop()

        def done(future: Future[int]) -> None:  # (in the thread that sent it)
            try:
                loop.call_soon_threadsafe(self._done, future, where)
            except RuntimeError:  # (the server's loop is closed: it stopped meanwhile)
                pass

        future.add_done_callback(done)
        return True

    def _done(self, future: Future[int], where: str) -> None:
        self.pending.discard(future)
        if future.cancelled():
            return
        error = future.exception()
        if error is not None:  # (in words, not Python's: "connection refused", "timed out")
            said = getattr(error, "strerror", None) or str(error)
            faults.noted(where, f"not sent: {said[:1].lower()}{said[1:]}")

    def close(self) -> None:
        """Notices not sent yet are dropped; those on their way are left to their timeout."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)


def _times(text: object) -> dict[str, float]:
    """The times a saved row holds (a damaged one: none, so a notice may go a little early)."""
    try:
        found = json.loads(text) if isinstance(text, str) else {}
    except ValueError:
        return {}
    if not isinstance(found, dict):
        return {}
    return {str(code): float(at) for code, at in found.items() if isinstance(at, (int, float))}


def _host(url: str) -> str:
    return urlsplit(url).hostname or "?"
