"""The game screen's keys, and what each does: `GameKeys`.

A digit picks an option (one the engine refuses now only says why, under the
question), Escape backs out of a step, u takes back a move, i opens the card
behind the highlighted option (and why it is refused, if it is), x looks at the board (a cursor
over everything on it, `look`), b the player's own cards, f filters the log, PgUp and PgDn
page it, v shows a veiled player their cards (behind the curtain), space hurries the computers;
the page keys are the layout's (`game_layout`).
Each hands the host what the player asked for and says what came of it; the
engine alone decides whether it may be done. A key counts only for the seat
at the keyboard (`at_keyboard`), and only for the options on screen. The
command palette (ctrl+p) offers the same, each naming its key.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol, cast

from textual.app import SystemCommand
from textual.binding import Binding

from rules.host import NotMade, NoUndo, Rejection
from rules.seat import Choice

from ..cards_text import describe_option
from ..computer_turns import ComputerTurns
from ..hand_over import UNVEIL, Change, Key
from ..scene import Scene
from ..seat_host import SeatHost
from ..widgets import LogPanel
from ..widgets.player_board import secrets_text
from ..widgets.prompt import PromptPanel
from .confirm import ConfirmScreen
from .game_layout import GameLayout
from .inspect import InspectScreen
from .look import LOOK_KEY, BoardItemsCommands, LookScreen, look_follows
from .paging import SCROLL_KEYS, STEP_KEYS, goto_key
from .since import SINCE_KEY, SinceScreen


class GameApp(Protocol):
    """What the game screen asks of its app (`LagoonApp`, or a remote seat's `SeatApp`)."""

    computer_pace: float  # seconds a computer's move stays on screen before the next
    computer_options: dict[str, dict[str, Any]]  # each level's tuning, by level
    confirm_turns: bool  # a person's turn waits for "End turn" while its last move can be taken back
    kept: Path | None  # the file the setting above is kept in for the next run (None: this run only)

    def game_over(self, host: SeatHost, seat: int | None = None) -> None: ...

    def window_title(self, says: str) -> str: ...

    def back_to_title(self) -> None: ...


class GameKeys(GameLayout):
    """The keys of the game screen (`GameScreen`, which holds the host, the keyboard and the options on screen)."""

    # The options have the keyboard from the start: focus moved to them from the board
    # (Textual's first choice) restyled every panel on it, 8 ms at the first move.
    AUTO_FOCUS = "#options"
    COMMANDS = {BoardItemsCommands}  # (ctrl+p: everything on the board, by name, as it is typed)
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("i", "inspect", "Inspect"),
        # priority: before the options' own Enter, once the game is over and they are gone
        Binding("enter", "scores", "Scores", priority=True),
        *STEP_KEYS,
        Binding("b", "my_cards", "My cards"),
        goto_key("b", "board", "my board"),
        goto_key("p", "players", "next player's board"),
        goto_key("o", "islands", "islands"),
        goto_key("g", "sites", "mining sites"),
        goto_key("e", "centre", "Enrichment Center"),
        goto_key("t", "tracks", "score and rounds"),
        goto_key("m", "market", "market"),
        goto_key("l", "log", "log"),
        *SCROLL_KEYS,
        # priority: the log pages even while the options (which page with them too) have the keyboard
        Binding("pageup", "log_page(-1)", "Log: a page back", show=False, priority=True),
        Binding("pagedown", "log_page(1)", "Log: a page on", show=False, priority=True),
        Binding("u,ctrl+z", "undo", "Undo"),  # saves: take back a move of this turn
        # (after Undo, before Log filter: at 80 columns the footer has room for Undo and this, not Log filter too)
        Binding(SINCE_KEY, "since", "What changed"),
        Binding("f", "filter_log", "Log filter"),
        Binding(LOOK_KEY, "look", "Look at the board"),  # (screens/look.py)
        Binding("v", "unveil", "Show my cards"),  # only while the board is shown as everyone sees it
        Binding("space", "hurry", "Hurry the computers"),  # only while a computer plays
        # priority: picked as the key comes in, not after it has travelled up from the focused widget
        # (no description: the help lists them as one line, `HELP_EXTRA`)
        *(Binding(str(n), f"pick({n - 1})", "", show=False, priority=True) for n in range(1, 10)),
    ]
    # (PgUp/PgDn: the options bind them too, and Textual's record of the active keys names the options'
    # though the screen's, priority from the app down, are the ones that run)
    HELP_EXTRA = [("1–9", "Pick an option"), ("pgup / pgdn", "Log: a page back / on")]
    HELP_TITLE = "Game"
    WIDE_ONLY = frozenset({"my_cards"})
    PLAYERS_ONLY = frozenset({"undo", "my_cards", "since", "unveil"})
    """What a spectator's screen does not offer: a player's own keys."""

    host: SeatHost
    watching: bool  # a spectator's screen
    turns: ComputerTurns
    own: int | None  # the screen's one reader, if it has one
    holder: int | None  # the seat that had the keyboard last (at one keyboard, also once the game is over)
    finished: bool  # the game is over and its last board stays on screen until Enter
    _shown: int  # the host's count of changes the screen shows
    _prompt: dict[str, Choice]  # the options on screen, by id
    _refused: dict[str, Choice]  # the options on screen the engine refuses now, by id
    _back: str | None  # the option that backs out of the step on screen

    def _step(self, event: Change | Key) -> None:
        raise NotImplementedError  # (the game screen's: one step of the keyboard's state machine)

    @property
    def confirms(self) -> bool | None:
        raise NotImplementedError  # (the game screen's: whether turns here wait for End turn; None: not here)

    def toggle_confirm(self) -> None:
        raise NotImplementedError  # (the game screen's: End turn asked for, or no more)

    @property
    def at_keyboard(self) -> int | None:
        """The seat whose keys count now (None: behind a curtain, or while computers move at a shared keyboard)."""
        return self.keyboard.at_keyboard

    @property
    def veiled(self) -> bool:
        """The seat at the keyboard makes an open decision on the board as everyone sees it."""
        return self.keyboard.veiled

    @property
    def lagoon(self) -> GameApp:
        return cast(GameApp, self.app)

    def commands(self) -> Iterator[SystemCommand]:
        """The game's own commands, for the command palette (ctrl+p); each names its key."""
        if not self.watching:
            yield SystemCommand("Undo", "Take back your last move of this turn (u)", self.action_undo)
        if self.confirms is not None:
            said = "on" if self.confirms else "off"
            yield SystemCommand(
                "End turn: ask or not",
                f"Wait for End turn (Enter) after your last move, so it can be taken back (now {said})",
                self.toggle_confirm,
            )
        yield SystemCommand("Inspect", "The card or action behind the highlighted option (i)", self.action_inspect)
        yield SystemCommand(
            "Look at the board", f"A cursor over every card, tile and space; i reads it ({LOOK_KEY})", self.action_look
        )
        if not self.has_class("compact") and not self.watching:
            yield SystemCommand("My cards", "Your objectives and deals in full (b)", self.action_my_cards)
        yield SystemCommand("Log filter", "The log of one player, or of everyone (f)", self.action_filter_log)
        for seat in sorted(self.host.away) if not self.watching else ():  # (a game hosted elsewhere: who left)
            yield self._stand_in_command(seat)

    def _stand_in_command(self, seat: int) -> SystemCommand:
        name = self.public.view["players"][seat]["name"]
        return SystemCommand(
            f"Let a computer play for {name}",
            f"{name} left: once every player here agrees, a computer plays for them until they come back",
            lambda: self._said(self.host.stand_in(seat)),
        )

    def _said(self, words: str) -> None:
        """A toast of what the host answered, if it said anything."""
        if words:
            self.notify(words, markup=False)

    @property
    def hint_keys(self) -> list[tuple[str, str]]:
        """A spectator has no board of their own: b shows them the board of the player to play."""
        if not self.watching:
            return self.HINT_KEYS
        return [(key, "to play" if key == "b" else words) for key, words in self.HINT_KEYS]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.watching and action in self.PLAYERS_ONLY:
            return False
        if action == "unveil":
            return self.veiled  # (shown in the footer only while the player's cards are hidden)
        if action == "back":
            return self._back is not None  # (shown only while there is a step to back out of)
        if action == "hurry":
            return self.turns.may_hurry
        if action == "scores":
            return self.finished  # (Enter picks an option until the game is over)
        return super().check_action(action, parameters)

    def action_my_cards(self) -> None:
        """Wide layout: the seat at the keyboard's objectives and deals in full, in a window."""
        if not self.is_active:
            return  # (a command the palette kept, run once this screen is covered or gone)
        if self.veiled:
            self.action_unveil()  # (the curtain first: others may be looking)
            return
        if self.at_keyboard is None:
            return
        scene = Scene(self.host.scene(self.at_keyboard), self.host.content)
        self.app.push_screen(
            InspectScreen(f"{scene.tag(self.at_keyboard).plain}: your cards", secrets_text(scene, self.at_keyboard))
        )

    def action_look(self) -> None:
        """x: look mode, a cursor over the board as it is drawn now (screens/look.py); Escape comes back."""
        if self.is_active:  # (not a command the palette kept, run once this screen is covered or gone)
            self.app.push_screen(LookScreen(self))

    def action_since(self) -> None:
        """w: what happened since the seat at the keyboard last moved, in everyone's words (the curtain's)."""
        if not self.is_active:
            return  # (a command the palette kept, run once this screen is covered or gone)
        seat = self.at_keyboard if not self.finished else self.holder  # (once over, every hand shows anyway)
        if seat is None:
            self.notify("Nobody has the keyboard now: w tells the player whose turn it is what changed.")
            return
        whose = "your" if seat == self.own else f"{self.public.view['players'][seat]['name']}'s"
        self.app.clear_notifications()  # (the notice that offered this list lay over its lines at 80x24)
        self.app.push_screen(SinceScreen(f"What changed since {whose} last move", self._since(seat), seat))

    def _since(self, seat: int) -> list[str]:
        return [line.text for line in self.host.scene(seat).since]

    def windows_follow(self) -> None:
        """The game changed: the windows over the board follow it. w's window, if open for the seat it was
        opened for, lists what changed now; look mode reads the board as it is drawn now."""
        window = self.app.screen
        if isinstance(window, SinceScreen) and window.seat == (self.at_keyboard if not self.finished else self.holder):
            window.show(self._since(window.seat))
        look_follows(self)

    def action_scores(self) -> None:
        """Enter once the game is over: the end screen, with the final scores."""
        if self.finished:
            self.finished = False
            self.lagoon.game_over(self.host, self.own)

    def action_unveil(self) -> None:
        """v, while the board is shown as everyone sees it: the curtain, then the player's own cards."""
        self._step(UNVEIL)

    @property
    def hurry(self) -> bool:
        """The computers play on at once until a person decides (space)."""
        return self.turns.hurried

    def action_hurry(self) -> None:
        """Space while computers play: they make their moves at once, until a person decides."""
        self.turns.hurry()

    # --- keys -------------------------------------------------------------------------------

    def on_prompt_panel_chosen(self, message: PromptPanel.Chosen) -> None:
        self.choose(message.option_id)

    def choose(self, option_id: str) -> None:
        """Hand a choice to the engine; what came of it is shown when the host's signal arrives.

        A key that comes before the screen has shown the last change names an
        option of a prompt no longer current: it is dropped, as the player
        never saw the prompt it would answer.
        """
        if self.at_keyboard is None or self._shown != self.host.changes:
            return
        refused = self._refused.get(option_id)
        if refused is not None and refused.refused is not None:  # nothing goes to the host: it is told why
            self.query_one(PromptPanel).refuse(option_id, refused.refused)
            return
        if option_id not in self._prompt:
            return
        result = self.host.choose(option_id)
        if self._lost():
            return
        if isinstance(result, NotMade):
            self.notify(result.reason, title=result.title, severity="error", markup=False, timeout=15)
        elif isinstance(result, Rejection):
            self.notify(result.reason, title="Not allowed", severity="warning", markup=False)

    def _lost(self) -> bool:
        """If another window took the game (or it was deleted), say so and offer the title; True then."""
        if self.host.lost is None:
            return False
        self.app.push_screen(
            ConfirmScreen(f"{self.host.lost} Go back to the title?"),
            lambda yes: self.lagoon.back_to_title() if yes else None,
        )
        return True

    def action_pick(self, index: int) -> None:
        option_id = self.query_one(PromptPanel).option_at(index)
        if option_id is not None:
            self.choose(option_id)

    def action_back(self) -> None:
        if self._back is not None:
            self.choose(self._back)

    def action_undo(self) -> None:
        """Take back this seat's last move of the turn, if the engine allows it (saves)."""
        if not self.is_active:
            return  # (a command the palette kept, run once this screen is covered or gone)
        if self.at_keyboard is None:
            return
        point = self.host.undo()
        if self._lost():
            return
        if isinstance(point, NoUndo):
            reason = point.reason[:1].upper() + point.reason[1:] + "."
            self.notify(reason, title="Cannot undo", severity="warning", markup=False)
            return
        # (on the board as everyone sees it, the move is not told: it may name the player's own cards)
        self.notify(
            "Took back your last move." if self.veiled else f"Took back: {point.what}", title="Take back", markup=False
        )

    def action_inspect(self) -> None:
        if not self.is_active:
            return  # (a command the palette kept, run once this screen is covered or gone)
        option = self.query_one(PromptPanel).highlighted_id
        choice = (self._prompt.get(option) or self._refused.get(option)) if option else None
        details = describe_option(self.host.content, choice) if choice else None
        if choice is not None and choice.refused is not None:
            title, text = details or (choice.label, "")
            why = f"Not now: {choice.refused}."
            self.app.push_screen(InspectScreen(title, f"{why}\n\n{text}" if text else why))
            return
        if details is None:
            self.notify(
                "This option has no card to inspect."
                if option
                else "Highlight an option with ↑ ↓ first, then i shows its card."
            )
            return
        self.app.push_screen(InspectScreen(*details))

    def action_filter_log(self) -> None:
        """`f` anywhere on the screen: the log's own filter key (one piece of code for both)."""
        if not self.is_active:
            return  # (a command the palette kept, run once this screen is covered or gone)
        self.query_one(LogPanel).action_cycle_filter()

    def action_log_page(self, step: int) -> None:
        """PgUp, PgDn: the log a page back or on (at 80×24 its page comes up first, as `l` brings it)."""
        log = self.query_one(LogPanel)
        if self.has_class("compact") and log not in self.pages[self.page].panels:
            self.action_goto("log")
            self.call_after_refresh(lambda: self._page_log(log, step))  # (once it has its height on the page)
        else:
            self._page_log(log, step)

    @staticmethod
    def _page_log(log: LogPanel, step: int) -> None:
        lines = max(1, log.scrollable_content_region.height - 1)  # (a line of the last page stays in sight)
        log.scroll_relative(y=step * lines, animate=False)
