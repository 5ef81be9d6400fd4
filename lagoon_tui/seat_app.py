"""The app of one seat whose game is hosted elsewhere: what `lagoon serve` runs for each SSH session.

The same game screen as at one keyboard, drawn for this seat only, from the
messages its `RemoteHost` receives over the session's `Link`: no curtains
(nobody else sees this terminal), no saved games here (the server keeps
them). It waits for the game's content and the seat's first message before
it shows the board; the end of the game, leaving it, or the server ending the
link ends the app (the reason is printed as it goes).
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import SystemCommand
from textual.message import Message
from textual.screen import Screen

from rules.host import Content

from .app import LagoonApp
from .link import Link
from .remote import RemoteHost
from .scene import Scene
from .screens.game import GameScreen
from .screens.waiting import WaitingScreen
from .seat_host import SeatHost


class SeatApp(LagoonApp):
    crash_remote = True  # (a bug's report stays on the server: its path is not the player's business)

    def __init__(self, link: Link, content: Content | None = None) -> None:
        super().__init__(content)
        self.link = link
        self.remote = RemoteHost(link)

    class Received(Message):
        """A frame from the server (posted by the link's reader thread)."""

        def __init__(self, kind: str, text: str) -> None:
            super().__init__()
            self.kind, self.text = kind, text

    WAITING = "Joining the game…"  # (what the first screen says until the server's first frames come)

    def open_first_screen(self) -> None:
        self.push_screen(WaitingScreen(self.WAITING))

        def heard(kind: str, text: str) -> None:  # (in the link's reader thread)
            self.post_message(self.Received(kind, text))

        self.link.start(heard)

    def on_seat_app_received(self, message: Received) -> None:
        """Each frame from the server, the game's to the seat's host."""
        self.receive(message.kind, message.text)

    def receive(self, kind: str, text: str) -> None:
        was_ready = self.remote.ready
        self.remote.receive(kind, text)
        if kind == "bye":
            self.exit(1 if self.remote.message is None or not self.remote.over else 0, message=text)
        elif self.remote.ready and not was_ready and self.remote.content is not None:  # (ready: it has come)
            self.content = self.remote.content
            self.game_ready()

    def game_ready(self) -> None:
        """The game's content and the seat's first message have come: its screen takes the waiting one's place."""
        seat = self.remote.seat
        self.switch_screen(GameScreen(self.remote, seat, watching=seat is None))

    def quit_question(self) -> str:
        remote = self.remote
        if remote.pace is not None and not remote.clock_runs:  # (on vacation, say)
            return "Leave Lagoon? Your seat is kept, and your clock does not run now: the game waits for you."
        others = any(seat != remote.seat for seat in remote.people)  # (people who could agree to a stand-in)
        if remote.pace is not None:  # (a game over days: asked at one's own turn, whose clock runs)
            meanwhile = " (or plays for you meanwhile, if the others agree)" if others else ""
            return (
                "Leave Lagoon? Your seat is kept, but your clock runs on: when it runs out, a computer makes "
                f"your move{meanwhile}."
            )
        meanwhile = " (or a computer plays for you meanwhile, if the others agree)" if others else ""
        return f"Leave Lagoon? Your seat is kept: the game waits for you until you connect again{meanwhile}."

    def game_over(self, host: SeatHost, seat: int | None = None) -> None:
        from .screens.end import EndScreen

        scene, levels = Scene(host.scene(seat), host.content), host.levels
        self.call_later(lambda: self.push_screen(EndScreen(scene, away=True, levels=levels), lambda _: self.leave()))

    def back_to_title(self) -> None:
        self.leave()

    def leave(self) -> None:
        """Leave the game (it goes on without this screen)."""
        self.exit()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        if isinstance(screen, GameScreen):
            yield from screen.commands()
        yield SystemCommand("Rules", "Read the rules of the game", self.action_rules)
        yield SystemCommand("Keys", "List the keys of this screen", self.action_help)
        yield SystemCommand(*self.LEAVING, self.leave)

    LEAVING = ("Leave", "Leave the game (it goes on; connect again to come back)")
    """The palette's command that leaves the game's screen: its title and help."""
