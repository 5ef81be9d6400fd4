"""The title screen: the game's name and the first choice (new game, resume, load, rules, quit).

The screen only asks the app to act (`action_new_game`, `action_rules`,
`exit`); what a new game or the rules look like is the app's business.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from lagoon_tui.screens.help import show_help
from lagoon_tui.widgets.keys_footer import KeysFooter

if TYPE_CHECKING:
    from rules.host import Content, GameInfo

LOGO = """\
╦  ╔═╗╔═╗╔═╗╔═╗╔╗╔
║  ╠═╣║ ╦║ ║║ ║║║║
╩═╝╩ ╩╚═╝╚═╝╚═╝╝╚╝"""

TAGLINE = (
    "Miner's Lagoon, the board game, for 2 to 4 players:\n"
    "solo against computers, hot-seat at one keyboard, or over SSH (lagoon serve)"
)
WAVES = "~ ≈ ~ ≈ ~ ≈ ~"
ABOUT = (
    "Hire merchants and miners, dig metal out of the galleries on the mining islands,\n"
    "refine it in the Enrichment Center, and turn it into shipments, deals and machinery.\n"
    "The game ends after round {rounds}, or in the round someone reaches {vp_goal} VP;\n"
    "then secret objectives and artifacts are counted, and the most VP wins."
)
ABOUT_MIN_HEIGHT = 34  # the blurb only shows where it leaves the menu room to breathe

CHOICES = (
    ("new", "n", "New game"),
    ("rules", "r", "Rules"),
    ("quit", "q", "Quit"),
)
SAVED_CHOICES = (("resume", "c", "Resume"), ("load", "l", "Load"))
"""Offered when the app saves games: Resume (the latest unfinished game) and Load."""


class SavesGames(Protocol):
    """What the title screen asks of an app that saves games (`LagoonApp` with a save file)."""

    def latest_unfinished(self) -> GameInfo | None: ...


def choice_prompt(key: str, label: str) -> Text:
    return Text.assemble((f" {key} ", "bold reverse"), "  ", label)


class TitleScreen(Screen):
    """New game, Rules or Quit, picked with the arrows and Enter or with n, r, q."""

    HELP_TITLE = "Title screen"
    HELP_EXTRA = [("↑ / ↓", "Move in the menu"), ("enter", "Choose the highlighted entry")]
    BINDINGS = [
        Binding("n", "new_game", "New game"),
        Binding("c", "resume", "Resume", show=False),
        Binding("l", "load", "Load", show=False),
        Binding("r", "rules", "Rules"),
        Binding("q", "quit", "Quit"),
        Binding("question_mark", "help", "Keys", key_display="?"),
    ]

    def __init__(self, content: Content, saves: SavesGames | None = None) -> None:
        """The title of a game of `content`; with `saves`, Load is offered too, and Resume when a game is unfinished."""
        super().__init__()
        self.content, self.saves = content, saves
        self.resumable = False  # a game to resume (the menu's Resume), as of the menu's last making

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Resume's key (c) only with a game to resume, Load's (l) only where games are saved: so the keys list says."""
        if action == "resume":
            return self.resumable
        if action == "load":
            return self.saves is not None
        return super().check_action(action, parameters)

    def compose(self) -> ComposeResult:
        with Vertical(id="title-box"):
            yield Static(LOGO, id="title-logo")
            yield Static(TAGLINE, id="title-tagline")
            yield Static(WAVES, id="title-waves")
            board = self.content.board
            yield Static(ABOUT.format(rounds=board.rounds, vp_goal=board.vp_goal), id="title-about")
            with Center():
                yield OptionList(*self._choices(), id="title-menu")
            yield Static("↑ ↓ to move, Enter to choose, ? for the keys", classes="hint", id="title-hint")
        yield KeysFooter()

    def on_resize(self) -> None:
        self.query_one("#title-about").display = self.size.height >= ABOUT_MIN_HEIGHT

    def _choices(self) -> list[Option]:
        """The menu; with saved games, Resume (naming the game) and Load come after New game."""
        choices = [Option(choice_prompt(key, label), id=cid) for cid, key, label in CHOICES]
        if self.saves is None:
            return choices
        extra = []
        latest = self.saves.latest_unfinished()
        self.resumable = latest is not None
        self.refresh_bindings()
        if latest is not None:
            when = f"round {latest.round}" if latest.round else "setup"
            extra.append(Option(choice_prompt("c", f"Resume ({when})"), id="resume"))
        extra.append(Option(choice_prompt("l", "Load a game"), id="load"))
        return choices[:1] + extra + choices[1:]

    def on_mount(self) -> None:
        self.on_resize()
        menu = self.query_one("#title-menu", OptionList)
        menu.highlighted = 0
        menu.focus()

    def on_screen_resume(self) -> None:
        """Back from a game or the Load list: the game to resume may have changed."""
        if self.saves is None:
            return
        menu = self.query_one("#title-menu", OptionList)
        menu.clear_options()
        menu.add_options(self._choices())
        menu.highlighted = 0

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        await self.run_action(
            {"new": "new_game", "rules": "rules", "quit": "quit", "resume": "resume", "load": "load"}[
                event.option.id or ""
            ]
        )

    async def action_resume(self) -> None:
        if self.saves is not None:
            await self.app.run_action("resume")

    async def action_load(self) -> None:
        if self.saves is not None:
            await self.app.run_action("load")

    async def action_new_game(self) -> None:
        await self.app.run_action("new_game")

    async def action_rules(self) -> None:
        await self.app.run_action("rules")

    def action_quit(self) -> None:
        self.app.exit()

    def action_help(self) -> None:
        show_help(self)
