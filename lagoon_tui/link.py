"""A session's line to the server that hosts its games: `Link`.

Frames (`lagoon_tui.wire`) go both ways over one socket. A request is sent
from the app's event loop and waits there for its answer, as a local host's
answer is waited for (the engine and the save file work while the app
waits); a server that does not answer within `ANSWER_WAIT` seconds, or at
all, ends the link, and `lost` says why. Everything else the server sends
(the game's content, a seat's messages, word that the link is ending) is read
by a thread and handed on in order (`start`): an app posts it to itself as a
message, which Textual lets any thread do. However the reader ends, even
on a bug (which ends the app first, `crash.thread_failed`), the link is lost
and `receive` gets a `bye`, so the app never waits on a dead line.
"""

from __future__ import annotations

import queue
import socket
import threading
from collections.abc import Callable

from . import crash
from .wire import WireError, body, frame, parse

ANSWER_WAIT = 30.0
"""Seconds a request waits for the server's answer before the link is given up as lost."""

Receiver = Callable[[str, str], None]  # (kind, its JSON text), called in the reader's thread


class Link:
    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self._answers: queue.Queue[dict | None] = queue.Queue()
        self.lost: str | None = None

    def start(self, receive: Receiver) -> None:
        """Read from now on: each frame but answers goes to `receive` (in the reader's thread, which
        must not wait on the app), and the link's end as a `bye` frame with the reason."""
        threading.Thread(target=self._read, args=(receive,), name="lagoon-link", daemon=True).start()

    def ask(self, kind: str, request: object) -> dict | None:
        """Send a request and wait for its answer; None if the link is lost (then `lost` says why)."""
        if self.lost is not None:
            return None
        while not self._answers.empty():  # (an answer nobody waited for: none is expected)
            self._answers.get_nowait()
        try:
            self._sock.sendall(frame(kind, request))
            answer = self._answers.get(timeout=ANSWER_WAIT)
        except (OSError, queue.Empty):
            answer = None
        if answer is None:
            self._lose("The game's server did not answer.")
        return answer

    def close(self) -> None:
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()

    def _lose(self, why: str) -> None:
        if self.lost is None:
            self.lost = why
        self._answers.put(None)

    def _read(self, receive: Receiver) -> None:
        """(The reader thread.) Every frame from the server, until it or the socket ends the link."""
        why = "The connection to the game's server was lost."
        try:
            with self._sock.makefile("rb") as stream:
                for line in stream:
                    kind, text = parse(line)
                    if kind == "answer":
                        answer = body(text)  # (an answer that is not an object is none: the link is lost)
                        self._answers.put(answer if isinstance(answer, dict) else None)
                        continue
                    if kind == "bye":
                        said = body(text)
                        if isinstance(said, dict):
                            why = str(said.get("reason", why))
                        break
                    receive(kind, text)
        except (OSError, WireError, ValueError, AttributeError):
            pass  # (the socket ended, or the server sent what is not a frame)
        except Exception as error:  # a bug: the app ends on it before it hears of the link's end
            crash.thread_failed(error, remote=True)
        finally:
            self._lose(why)
            receive("bye", why)
