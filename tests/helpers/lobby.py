"""The lobby of `lagoon serve` on a loop of its own over a real save file, as in the server, and sessions
that speak to it through bare links (no app), as a second terminal would."""

from __future__ import annotations

import threading

from lagoon_tui.link import Link
from lagoon_tui.remote import RemoteHost
from lagoon_tui.serve.lobby import Lobby
from lagoon_tui.wire import body
from rules.host import Store, load_content
from tests.helpers.rooms import WAIT, LoopThread

CONTENT = load_content()


class LobbyThread(LoopThread):
    """The lobby over the save file at `path`, served on the thread's loop; `session(key)` is a socket to it."""

    def __init__(self, path, clock=None, wall=None) -> None:
        """`clock`: the lobby's (for how long a player has been away); `wall`: its wall clock (games over days)."""
        super().__init__()
        self.store = Store(path)
        kept = {"clock": clock, "wall": wall}
        self.lobby: Lobby = self.call(
            lambda: Lobby(self.store, CONTENT, **{name: given for name, given in kept.items() if given})
        )

    def session(self, key: str):
        return self.serving(lambda reader, writer: self.lobby.serve(key, reader, writer))

    def stop(self) -> None:
        self.call(lambda: self.lobby.close("The server is stopping."))
        self.settle()
        self.store.close()


class Terminal:
    """A session through a bare link: frames read as they come (no app)."""

    def __init__(self, sock) -> None:
        self.link = Link(sock)
        self.frames: list[tuple[str, object]] = []
        self.remote: RemoteHost | None = None
        self.link.start(self._receive)

    def _receive(self, kind: str, text: str) -> None:
        if kind in ("content", "scene", "presence", "computers", "clock") and self.remote is not None:
            self.remote.receive(kind, text)
        else:
            self.frames.append((kind, text if kind == "bye" else body(text)))

    def last(self, kind: str):
        return next((b for k, b in reversed(self.frames) if k == kind), None)


class Held:
    """A room's computer player whose decisions wait until the test lets them go, so that its seat is
    seen thinking for as long as the test looks; the real player then makes the move."""

    def __init__(self, player) -> None:
        self.player = player
        self.asked = threading.Event()
        self.go = threading.Event()

    def choose(self, message):
        self.asked.set()
        self.go.wait(WAIT)
        return self.player.choose(message)


def named(server: LobbyThread, *names: str) -> list[Terminal]:
    """A session for each of `names` (its key made of the name), each given that name by the lobby."""
    terminals = []
    for name in names:
        terminal = Terminal(server.session(f"SHA256:{name.lower()}"))
        assert terminal.link.ask("name", {"name": name}) == {"name": name}
        terminals.append(terminal)
    return terminals
