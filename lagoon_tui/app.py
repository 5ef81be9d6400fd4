"""The Textual app: title, new game, the game itself, and the end; kept thin on purpose."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.notifications import Notify
from textual.screen import Screen

from rules.host import Content, Host, Store, load_content

from .computer_turns import PACE
from .palette import Palette
from .quiet_gc import collector
from .saving import SavedGamesMixin
from .screens.game import QUIET_AFTER, GameScreen
from .screens.game_layout import GameLayout
from .settings import GameSettings
from .turbo.crash import CrashReports
from .turbo.keyboard import driver_class
from .turbo.pages import guard_pages
from .turbo.screens import SteadyScreen
from .turbo.strips import steady_strips

WRITER_SWITCH_INTERVAL = 0.0005
"""Seconds the interpreter lock may stay with one thread while another waits (Python's default: 0.005).

Textual writes each frame from its own thread, which needs the lock to run:
a frame followed by more work (a curtain just put up, with the board drawn
under it at once) reached the terminal up to the default's 5 ms late.
"""

TOAST_GONE = 0.5
"""Seconds after a toast's time is up that the screen is painted whole again (`LagoonApp.on_notify`)."""

guard_pages()  # (page keys on a list not laid out yet: see turbo/pages.py)
steady_strips()  # (a strip never kept in its own caches: freed without a full collection)

# The screens a game does not need to start (the title, the end, the rules, the
# keys, the new-game form) are imported when first shown: the game starts sooner.


class Ground(SteadyScreen, Screen[None]):
    """The empty screen at the bottom of the stack, under the game or the title (see `SteadyScreen`)."""


class LagoonApp(CrashReports, SavedGamesMixin, App[None]):
    """(A bug ends it with one sentence on the terminal and a report on disk: `CrashReports`.)"""

    TITLE = "Lagoon"
    SUB_TITLE = "Miner's Lagoon in your terminal"
    # The game screen's stylesheet is read with the app's: a screen's own CSS_PATH is read
    # when the screen is first shown, and Textual then parses every stylesheet again.
    CSS_PATH = ["lagoon.tcss", "screens/game.tcss"]
    BINDINGS = [
        Binding("question_mark", "help", "Keys"),
        Binding("f1", "rules", "Rules"),
        Binding("ctrl+q", "quit", "Quit", priority=True),
        Binding("ctrl+l", "redraw", "Redraw the screen", show=False),
        # Lagoon's own: Textual would add its own (described "palette") were it missing
        Binding("ctrl+p", "command_palette", "Commands", show=False, priority=True),
    ]

    def __init__(
        self,
        content: Content | None = None,
        settings: GameSettings | None = None,
        store: Store | None = None,
        resume: int | None = None,
        pace: float | None = None,
        computer_options: dict[str, dict] | None = None,
        confirm: bool = False,
        kept: Path | None = None,
    ) -> None:
        """`settings` starts a game straight away (for tests, screenshots and `lagoon play`).
        `pace`: seconds each computer player's step stays on screen (default `screens.game.PACE`);
        `computer_options`: a level's tuning, by level (tests give Hard a small budget);
        `confirm`: a person's turn waits for "End turn" while its last move can be taken back (on
        from the command line unless `--no-confirm`; off by default here, for tests that drive the
        engine's own decisions; the command palette turns it on and off). `kept`: the file the palette's
        setting is kept in for the next run (`settings.settings_file`; none: it lasts this run only).

        With a `store` (a `rules.saves.Store`) every game is saved as it is
        played and the title offers Resume and Load; `resume` opens that saved game.
        """
        super().__init__(driver_class=driver_class())  # the keyboard read safely (see turbo/keyboard.py)
        self.content = content or load_content()
        self.start_with = settings
        self.store = store
        self.resume_with = resume
        self.computer_pace = PACE if pace is None else pace  # (read by the game screen)
        self.computer_options = computer_options or {}
        self.confirm_turns = confirm  # (read by the game screen)
        self.kept = kept
        self._switch_interval = sys.getswitchinterval()  # restored as the app ends, however it ends

    def get_default_screen(self) -> Screen:
        return Ground(id="_default")

    def on_mount(self) -> None:
        collector.start()  # garbage is collected at quiet moments from now on
        sys.setswitchinterval(WRITER_SWITCH_INTERVAL)
        if not self.is_headless and self.console.color_system == "standard":
            # Textual turns the players' ANSI colours into its theme's RGB values
            # and, in a 16-colour terminal, back into the nearest standard colour:
            # red came out magenta and yellow red. Sent as they are, they are the
            # terminal's own red and yellow. (Headless runs, the snapshots among
            # them, keep the theme's colours whatever TERM the tests run under.)
            self.ansi_color = True
        self.open_first_screen()
        self.call_after_refresh(collector.freeze)  # what start-up built stays

    def window_title(self, says: str) -> str:
        """The window's title in a game: whose turn it is (`says`)."""
        return f"Lagoon · {says}"

    def title_screen(self) -> Screen[None]:
        """The title of this app's game, offering Resume and Load when games are saved."""
        from .screens.title import TitleScreen

        return TitleScreen(self.content, self if self.store is not None else None)

    def open_first_screen(self) -> None:
        # `lagoon play` goes straight to the game: the title is made when the game is over
        # (see `game_over`), not at the start, where it would only slow the first frame
        if self.start_with is None or not self.start_game(self.start_with):
            self.push_screen(self.title_screen())
            if self.resume_with is not None:
                self.resume_game(self.resume_with)

    async def on_event(self, event: events.Event) -> None:
        await super().on_event(event)
        if isinstance(event, events.Key) and collector.after_key():  # (garbage of keys that make no move)
            asyncio.get_running_loop().call_later(QUIET_AFTER, collector.after_keys)

    def on_unmount(self) -> None:
        collector.stop()
        sys.setswitchinterval(self._switch_interval)

    # --- actions the screens call ------------------------------------------------

    def action_new_game(self) -> None:
        from .screens.new_game import NewGameScreen

        self.push_screen(NewGameScreen(), self.game_from_form)

    def game_from_form(self, settings: GameSettings | None) -> None:
        """The new-game form's answer: a game, or (None) none, the form left."""
        self.start_game(settings)

    def start_game(self, settings: GameSettings | None) -> bool:
        """Start a game with `settings`; False if there is none or it could not be saved."""
        if settings is None:
            return False
        host = self.new_host(settings)
        if host is None:
            return False
        self.push_screen(GameScreen(host))
        return True

    def game_over(self, host: Host, seat: int | None = None) -> None:
        """Called by the game screen when the engine says the game has ended (`seat`: the screen's own, if one)."""
        from .screens.title import TitleScreen

        if any(isinstance(screen, TitleScreen) for screen in self.screen_stack):
            self.pop_screen()
        else:  # a game started straight away: the title takes its place, under the end screen
            self.switch_screen(self.title_screen())
        # Pushed from the app's own queue: a screen remembers who pushed it and answers
        # them, and the game screen that asks for this is gone by then (so its answer was lost).
        self.call_later(self._show_end, host, seat)

    def _show_end(self, host: Host, seat: int | None = None) -> None:
        """The end screen, drawn from the finished game's message (once over, every message shows all)."""
        from .scene import Scene
        from .screens.end import EndScreen

        scene = Scene(host.scene(seat), host.content)
        self.push_screen(EndScreen(scene, levels=host.levels), lambda what: self._after_end(what, host))

    def _after_end(self, what: str | None, host: Host) -> None:
        if what == "new":
            self.action_new_game()
        elif what == "replay":
            self.show_replay(host.replay(), host.levels)

    def action_rules(self) -> None:
        from .screens.rules import RulesScreen

        if not isinstance(self.screen, RulesScreen):
            self.push_screen(RulesScreen(self.content))

    async def action_quit(self) -> None:
        """ctrl+q: quit at once, except during a turn of a person at this terminal, who is asked first
        (what quitting does to the game said, no card named); ctrl+q again answers yes."""
        from .screens.confirm import QuitQuestion

        game = next((s for s in reversed(self.screen_stack) if isinstance(s, GameScreen)), None)
        if game is None or not game.own_turn or isinstance(self.screen, QuitQuestion):
            self.exit()
            return
        self.push_screen(QuitQuestion(self.quit_question()), lambda yes: self.exit() if yes else None)

    def quit_question(self) -> str:
        """What ctrl+q asks during one's own turn: what becomes of the game if they quit now."""
        if self.store is None:
            return "Quit Lagoon? This game is not saved: it ends here."
        return "Quit Lagoon? Every move is saved: Resume on the title brings this game back as it is now."

    def action_redraw(self) -> None:
        """Paint the whole screen anew, every widget from scratch, as terminal programs do on ctrl+l.

        For a terminal whose picture something else has spoiled: a message
        written to it by another program, line noise on a slow SSH link.
        """
        for widget in self.screen.walk_children(with_self=True):
            widget.refresh()

    def on_notify(self, event: Notify) -> None:
        """Once a toast's time is up, where it was is painted again: Textual takes the toast away but at times
        leaves its letters on the terminal (over SSH, over the log: "Ben left…" for good). On a board, that
        is the column the toasts are shown in; elsewhere the whole screen. (The whole board painted again
        was a frame of about 44 KB at 160x50, for every player a notice had reached.)"""
        self.set_timer(event.notification.timeout + TOAST_GONE, self._paint_after_toast)

    def _paint_after_toast(self) -> None:
        if not self.screen_stack:  # (not while the app ends)
            return
        screen = self.screen
        column = screen.toasts_at if isinstance(screen, GameLayout) else None
        if column:
            screen.refresh(column)
        else:
            screen.refresh()

    def action_help(self) -> None:
        from .screens.help import HelpScreen, show_help

        if not isinstance(self.screen, HelpScreen):
            show_help(self.screen)

    def action_command_palette(self) -> None:
        """ctrl+p: Textual's palette made safe for mashed keys (`palette.Palette`), one at a time.

        Not a second while one is open under another screen (a curtain raised over it), and without
        Textual's fixed id, which a palette still being closed holds (`DuplicateIds`: the app ended).
        """
        if self.use_command_palette and not any(isinstance(s, CommandPalette) for s in self.screen_stack):
            self.push_screen(Palette())

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The palette (ctrl+p): in a game, the game's own commands first; leaving it is asked first."""
        playing = any(isinstance(s, GameScreen) for s in self.screen_stack)
        if isinstance(screen, GameScreen):
            yield from screen.commands()
        if playing:
            if self.store is not None:
                yield SystemCommand(
                    "Save and quit", "Every move is saved as it is made: quit now, resume later", self.exit
                )
            yield SystemCommand(
                "New game",
                "Leave this game (asks first) and set up a new one",
                lambda: self.leave_game(self.action_new_game),
            )
            if self.store is not None:
                yield SystemCommand(
                    "Load",
                    "Leave this game (asks first) for a saved one or a replay",
                    lambda: self.leave_game(self.action_load),
                )
        else:
            yield SystemCommand("New game", "Set up a new game of Miner's Lagoon", self.action_new_game)
            if self.store is not None:
                if self.latest_unfinished() is not None:  # (no Resume with nothing to resume)
                    yield SystemCommand("Resume", "Go on with the latest unfinished game", self.action_resume)
                yield SystemCommand("Load", "Saved games: resume one or watch its replay", self.action_load)
        yield SystemCommand("Rules", "Read the rules of the game", self.action_rules)
        yield SystemCommand("Keys", "List the keys of this screen", self.action_help)
        if not (playing and self.store is not None):  # (else "Save and quit" says it)
            yield SystemCommand("Quit", "Close Lagoon (ctrl+q)", self.exit)
        # (none of Textual's own: its theme, screenshot and maximize commands are not the game's)

    def leave_game(self, then: Callable[[], object]) -> None:
        """Ask before leaving the game in play; if yes, go back to the title and do `then`."""
        from .screens.confirm import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                self.back_to_title()
                then()

        saved = " It is saved: Resume or Load brings it back." if self.store is not None else ""
        self.push_screen(ConfirmScreen(f"Leave the game in play?{saved}"), answered)

    def back_to_title(self) -> None:
        """Every screen above the title goes (the game's among them); a title is made if there is none."""
        from .screens.title import TitleScreen

        while len(self.screen_stack) > 1 and not isinstance(self.screen, TitleScreen):
            self.pop_screen()
        if not isinstance(self.screen, TitleScreen):
            self.push_screen(self.title_screen())
