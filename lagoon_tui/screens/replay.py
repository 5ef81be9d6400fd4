"""Replays: step through a saved or just-finished game with the board as it was.

← / → move one event (one sentence of the log), shift+← / shift+→ (or p / n)
one turn, Home / End to the start and the end, g jumps to a round, v opens a
finished game's score sheet (`sheet.py`). The board panels are the game's
own, drawn from the state at that point, and below WIDE they are paged as in
the game ([ ] and a letter a page); the log highlights the event. A finished game shows everything, including each
player's objectives and hand; an unfinished one only what any onlooker sees.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Group
from rich.styled import Styled
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from rules.host import Replay

from ..scene import Scene
from ..widgets import EnrichmentCenterPanel, IslandPanel, MiningSitePanel, PlayerBoard, ScoreTrackPanel
from ..widgets.field import ROUND_FIELD, Field
from ..widgets.keys_footer import KeysFooter
from ..widgets.note import Note, Panel
from ..widgets.renderables import Fit, Flow
from ..widgets.replay_log import ReplayLog
from ..widgets.replay_secrets import ReplaySecrets
from .board_layout import Side, compose_board
from .help import show_help
from .look import LOOK_KEY, BoardItemsCommands, LookScreen, look_follows
from .paging import SCROLL_KEYS, STEP_KEYS, Page, PagedScreen, board_pages, goto_key
from .sheet import NOT_OVER, SheetScreen


class RoundScreen(ModalScreen[int | None]):
    """Asks for a round number to jump to."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, rounds: Sequence[int]) -> None:
        super().__init__()
        self.rounds = list(rounds)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="round-dialog"):
            yield Label(f"Jump to round ({self.rounds[0]}–{self.rounds[-1]})", classes="dialog-title")
            yield Field(placeholder="round number", id="round-input", type="integer", max_length=ROUND_FIELD)
            yield Static("Enter: go · Esc: cancel", classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            number = int(event.value)
        except ValueError:
            number = -1
        if number not in self.rounds:
            self.notify(f"Choose a round from {self.rounds[0]} to {self.rounds[-1]}.", severity="warning")
            return
        self.dismiss(number)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ReplayScreen(PagedScreen):
    """The board at a point of a game, its log, and (a finished game) every hand.

    Wide terminals show it all at once. Below WIDE the replay pages its panels
    as the game screen does (paging.py), with the status always on a line of
    its own: [ and ], or o islands, s mining sites, e the centre, t the
    tracks, b the players' boards, l the log, h the hands (finished games).
    The replay's own keys keep their letters: p is the previous turn and g a
    round here, so the mining sites are s, and b (not a way back: Esc is)
    goes through the boards.
    """

    CSS_PATH = ["game.tcss", "replay.tcss"]
    HELP_TITLE = "Replay"
    BINDINGS = [
        # the Footer shows the keys forward (80 columns hold no more); ? and the wide status list them all
        Binding("right", "step(1)", "Next event", priority=True),
        Binding("left", "step(-1)", "Prev event", priority=True, show=False),
        Binding("n,shift+right", "turn(1)", "Next turn"),
        Binding("p,shift+left", "turn(-1)", "Prev turn", show=False),
        Binding("home", "go('first')", "Start", priority=True, show=False),
        Binding("end", "go('last')", "End", priority=True, show=False),
        Binding("g", "round", "Go to round"),
        Binding("v", "sheet", "Scores", show=False),  # (a finished game: listed in the status line)
        Binding("escape", "back", "Back"),
        *STEP_KEYS,
        goto_key("o", "islands", "islands"),
        goto_key("s", "sites", "mining sites"),
        goto_key("e", "centre", "Enrichment Center"),
        goto_key("t", "tracks", "score and rounds"),
        goto_key("b", "boards", "players' boards"),
        goto_key("l", "log", "log"),
        goto_key("h", "hands", "hands and hidden tiles"),
        *SCROLL_KEYS,
        Binding(LOOK_KEY, "look", "Look at the board", show=False),  # (screens/look.py)
        Binding("question_mark", "help", "Keys", key_display="?"),
    ]
    COMMANDS = {BoardItemsCommands}  # (ctrl+p: everything on the board, by name, as it is typed)
    PAGE_KINDS = {
        "islands": IslandPanel,
        "sites": MiningSitePanel,
        "centre": EnrichmentCenterPanel,
        "tracks": ScoreTrackPanel,
        "boards": PlayerBoard,
        "log": ReplayLog,
        "hands": ReplaySecrets,
    }
    SCROLLERS = (ReplayLog, ReplaySecrets)
    HINT_KEYS = [
        ("[ ]", "panels"),
        ("o", "islands"),
        ("s", "mines"),
        ("e", "centre"),
        ("t", "tracks"),
        ("b", "boards"),
        ("l", "log"),
        ("h", "hands"),
    ]

    def __init__(self, replay: Replay, levels: Mapping[int, str] | None = None) -> None:
        """`levels`: the seats computers played, by level (from the save file): their boards say so."""
        super().__init__()
        self.replay = replay
        self.levels = dict(levels or {})
        self.pos = self.replay.first
        self._final: Scene | None = None  # the last scene: the players' names and colours

    def compose(self) -> ComposeResult:
        self.set_layout_class()
        with Horizontal(id="main"):
            yield from compose_board(self.replay.content, self.replay.seats)
            with Side(id="side"):
                yield Static(id="replay-status")
                if self.replay.reveal:  # nothing secret is ever on an unfinished game's screen
                    yield ReplaySecrets(classes="panel")
                yield ReplayLog(id="replay-log", classes="panel")
                yield Note(id="page-hint")
        yield KeysFooter(compact=True)  # so that 80 columns hold every key it shows

    def on_mount(self) -> None:
        self._final = scene = self.scene_at(self.replay.last)
        self.query_one(ReplayLog).write_lines([ln.line for ln in self.replay.lines], scene.players)
        self._fit(self.app.size)
        self.show_position()

    # --- the compact layout (paging.py) -------------------------------------------------

    @property
    def pages(self) -> list[Page]:
        """The board's pages, then the log, then (a finished game) the hands."""
        pages = board_pages(self, lambda seat: self._final.tag(seat).plain if self._final else f"seat {seat + 1}")
        pages.append(Page("Log", (self.query_one(ReplayLog),)))
        pages += [Page("Hands and hidden tiles", (secrets,)) for secrets in self.query(ReplaySecrets)]
        return pages

    @property
    def hint_keys(self) -> list[tuple[str, str]]:
        return [(key, what) for key, what in self.HINT_KEYS if key != "h" or self.replay.reveal]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "goto" and parameters == ("hands",) and not self.replay.reveal:
            return False
        return super().check_action(action, parameters)

    def _fit(self, size: Size) -> None:
        super()._fit(size)
        if self.is_mounted and self._final is not None:
            self._show_status()

    # --- the position ---------------------------------------------------------------------

    def scene_at(self, pos: int) -> Scene:
        return Scene(self.replay.scene_at(pos), self.replay.content, computers=self.levels)

    def show_position(self) -> None:
        scene = self.scene_at(self.pos)
        for panel in self.query("#board .panel").results(Panel):
            panel.show(scene)
        self.query_one(ReplayLog).mark(self.replay.line_at(self.pos))
        self._show_status(scene)
        for secrets in self.query(ReplaySecrets):
            secrets.show(scene)
        look_follows(self)  # (look mode, if open, reads the board of this position)

    def _show_status(self, scene: Scene | None = None) -> None:
        """Where the replay is: three lines when wide, one when compact (the keys are in the hint and Footer)."""
        if scene is None:
            scene = self.scene_at(self.pos)
        round_ = scene.view["round"]
        where = f"Round {round_}" if round_ else "Setup"
        what = "finished game: everything is shown" if self.replay.reveal else "unfinished game: secrets stay hidden"
        at = f"event {self.pos} of {self.replay.last}"
        status = self.query_one("#replay-status", Static)
        sheet = " · v score sheet" if self.replay.reveal else ""  # (the score sheet is a finished game's)
        if self.has_class("compact"):
            brief = "everything shown" if self.replay.reveal else "secrets hidden"
            status.update(
                Fit(
                    Text.assemble(("Replay ", "bold"), f"· {where} · {at} · {what}{sheet}"),
                    Text.assemble(("Replay ", "bold"), f"· {where} · {at} · {brief}{sheet}"),
                    Text.assemble((where, "bold"), f" · {self.pos}/{self.replay.last} · {brief}{sheet}"),
                    Text.assemble((where, "bold"), f" · {self.pos}/{self.replay.last} · {brief}"),
                )
            )
            return
        words = (
            ["← → event", "⇧← ⇧→ or p n turn", "Home End", "g round"]
            + (["v score sheet"] if sheet else [])
            + ["Esc back"]
        )
        keys = Flow([Text(k) for k in words], " · ")
        status.update(
            Group(Text.assemble(("Replay ", "bold"), f"· {where} · {at}"), Text(what, style="dim"), Styled(keys, "dim"))
        )  # (the keys wrap between keys, never inside one)

    # --- keys ------------------------------------------------------------------------

    def _move_to(self, pos: int) -> None:
        self.pos = self.replay.clamp(pos)
        self.show_position()

    def action_step(self, delta: int) -> None:
        self._move_to(self.replay.step(self.pos, delta))

    def action_turn(self, delta: int) -> None:
        self._move_to(self.replay.turn(self.pos, delta))

    def action_go(self, where: str) -> None:
        self._move_to(self.replay.first if where == "first" else self.replay.last)

    def action_round(self) -> None:
        rounds = sorted(self.replay.rounds)
        if not rounds:
            self.notify("This game has not reached round 1 yet.")
            return

        def chosen(number: int | None) -> None:
            start = self.replay.round_start(number) if number is not None else None
            if start is not None:  # (the screen gives only a round the game has reached)
                self._move_to(start)

        self.app.push_screen(RoundScreen(rounds), chosen)

    def action_sheet(self) -> None:
        """A finished game's score sheet, from any position: once the game is over it hides nothing the
        replay does not show already, and it is the key to reading back how the points came."""
        if self.replay.results is None:
            self.notify(NOT_OVER, title="Score sheet")
            return
        self.app.push_screen(SheetScreen(self.replay.results, levels=self.levels))

    def action_back(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        show_help(self)

    def action_look(self) -> None:
        """x: look mode over the board at this point of the replay (screens/look.py); Escape comes back."""
        if self.is_active:
            self.app.push_screen(LookScreen(self))
