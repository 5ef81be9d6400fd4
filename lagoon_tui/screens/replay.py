"""Replays: step through a saved or just-finished game with the board as it was.

← / → move one event (one sentence of the log), shift+← / shift+→ (or p / n)
one turn, Home / End to the start and the end, g jumps to a round. The board
panels are the game's own, drawn from the state at that point; the log
highlights the event. A finished game shows everything, including each
player's objectives and hand; an unfinished one only what any onlooker sees.
"""
from __future__ import annotations

from typing import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Input, Label, Static

from rules.cards import Content
from rules.state import GameState

from ..replay import Replay
from ..widgets.replay_log import ReplayLog
from .board_layout import compose_board
from .help import show_help


class RoundScreen(ModalScreen[int | None]):
    """Asks for a round number to jump to."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, rounds: Sequence[int]) -> None:
        super().__init__()
        self.rounds = list(rounds)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="round-dialog"):
            yield Label(f"Jump to round ({self.rounds[0]}–{self.rounds[-1]})", classes="dialog-title")
            yield Input(placeholder="round number", id="round-input", type="integer")
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


def secrets_text(state: GameState, content: Content) -> Text:
    """Every hand and hidden tile, for the replay of a finished game (nothing is secret any more)."""
    out = Text()
    for p in state.players:
        objectives = ", ".join(content.objectives[o].name for o in p.objectives or p.objective_offer) or "none"
        deals = ", ".join(f"{content.deals[d].vp} VP ({' + '.join(f'{lv}′ {m}' for m, lv in content.deals[d].requires.items())})"
                          for d in p.deals) or "none"
        out.append(f"{p.name}: ", style="bold")
        out.append(f"objectives {objectives}; deals in hand {deals}\n")
    hidden = [f"island {isl} column {c + 1} level {lv + 1}: {content.gallery(g.tile).metal or 'empty'}"
              for isl, site in state.sites.items() for c, col in enumerate(site.columns)
              for lv, g in enumerate(col) if g is not None and not g.face_up]
    if hidden:
        out.append("Face-down galleries: ", style="bold")
        out.append("; ".join(hidden))
    return out


class ReplayScreen(Screen[None]):
    CSS_PATH = "game.tcss"
    HELP_TITLE = "Replay"
    BINDINGS = [
        Binding("right", "step(1)", "Next event", priority=True),
        Binding("left", "step(-1)", "Prev event", priority=True),
        Binding("shift+right,n", "turn(1)", "Next turn"),
        Binding("shift+left,p", "turn(-1)", "Prev turn"),
        Binding("home", "go('first')", "Start", priority=True),
        Binding("end", "go('last')", "End", priority=True),
        Binding("g", "round", "Go to round"),
        Binding("escape,b", "back", "Back"),
        Binding("question_mark", "help", "Keys", key_display="?"),
    ]
    DEFAULT_CSS = """
    ReplayScreen #replay-side { width: 60; height: 100%; }
    ReplayScreen #replay-status { height: auto; padding: 0 1; border: round $accent; }
    ReplayScreen #replay-secrets { height: auto; padding: 0 1; border: round $warning; }
    ReplayScreen.narrow #replay-main { layout: vertical; }
    ReplayScreen.narrow #replay-side { width: 100%; height: 45%; }
    """

    def __init__(self, content: Content, events: Sequence) -> None:
        super().__init__()
        self.replay = Replay(content, events)
        self.pos = self.replay.first

    def compose(self) -> ComposeResult:
        seats = len(self.replay.events[0].names) if self.replay.events else 0
        with Horizontal(id="replay-main"):
            yield from compose_board(self.replay.content, seats)
            with Vertical(id="replay-side"):
                yield Static(id="replay-status")
                yield Static(id="replay-secrets")
                yield ReplayLog(id="replay-log")
        yield Footer()

    def on_mount(self) -> None:
        scene, _ = self.replay.scene_at(self.replay.last)
        self.query_one(ReplayLog).write_lines([ln.line for ln in self.replay.lines], scene.players)
        self.query_one("#replay-secrets").display = self.replay.reveal
        self.on_resize()
        self.show_position()

    def on_resize(self, event=None) -> None:
        self.set_class(self.app.size.width < 150, "narrow")

    def show_position(self) -> None:
        scene, state = self.replay.scene_at(self.pos)
        for panel in self.query(".panel"):
            panel.show(scene)
        self.query_one(ReplayLog).mark(self.replay.line_at(self.pos))
        what = "finished game: everything is shown" if self.replay.reveal else "unfinished game: secrets stay hidden"
        where = f"Round {state.round}" if state.round else "Setup"
        self.query_one("#replay-status", Static).update(Text.assemble(
            ("Replay ", "bold"), f"· {where} · event {self.pos} of {self.replay.last}\n",
            (f"{what}\n← → event · ⇧← ⇧→ or p n turn · Home End · g round · Esc back", "dim")))
        if self.replay.reveal:
            self.query_one("#replay-secrets", Static).update(secrets_text(state, self.replay.content))

    # --- keys ------------------------------------------------------------------------

    def _go(self, pos: int) -> None:
        self.pos = self.replay.clamp(pos)
        self.show_position()

    def action_step(self, delta: int) -> None:
        self._go(self.replay.step(self.pos, delta))

    def action_turn(self, delta: int) -> None:
        self._go(self.replay.turn(self.pos, delta))

    def action_go(self, where: str) -> None:
        self._go(self.replay.first if where == "first" else self.replay.last)

    def action_round(self) -> None:
        rounds = sorted(self.replay.rounds)
        if not rounds:
            self.notify("This game has not reached round 1 yet.")
            return

        def chosen(number: int | None) -> None:
            if number is not None:
                self._go(self.replay.round_start(number))

        self.app.push_screen(RoundScreen(rounds), chosen)

    def action_back(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        show_help(self)
