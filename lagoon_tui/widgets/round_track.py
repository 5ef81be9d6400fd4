"""The round track: rounds 1 to the last, wage rounds marked with $, the current round in brackets."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Group
from rich.text import Text

from ..scene import Scene, colour_marker, player_tag
from .note import Panel
from .renderables import Fit, Flow
from .words import PHASE_NAMES, changed_after, join, label

END_REASONS = {
    "vp_goal": "a player reached the VP goal",
    "last_round": "the last round was played",
}


class RoundTrackPanel(Panel):
    """Which round it is, which rounds end with wages, the phase and the turn order."""

    DEFAULT_CSS = """
    RoundTrackPanel {
        border: round $panel-lighten-2;
    }
    """

    def __init__(self, **kwargs: str | None) -> None:
        super().__init__(**kwargs)
        self.set_border_title("Rounds")

    def show(self, scene: Scene) -> None:
        view, board = scene.view, scene.content.board
        # since the reader's last move: a new round, a new turn order, players who passed
        new_round, new_order = scene.changed("round"), scene.changed("turn_order")
        passed = [p["seat"] for p in scene.players if p.get("passed") and scene.changed("players", p["seat"], "passed")]
        key = (
            new_round,
            new_order,
            passed,
            view.get("round"),
            view.get("phase"),
            scene.acting_seat(),
            view.get("turn_order"),
            view.get("current"),
            view.get("end_triggered"),
            view.get("end_reason"),
            [(p["name"], p["colour"], p.get("passed")) for p in scene.players],
        )
        if self.unchanged(scene, key):
            return
        current, phase = view.get("round", 0), view.get("phase", "created")
        if current:
            self.set_titles(
                f"Round {current}/{board.rounds} · {PHASE_NAMES.get(phase, phase)}", f"Round {current}/{board.rounds}"
            )
        else:
            self.set_titles(f"Before round 1 · {PHASE_NAMES.get(phase, phase)}", "Before round 1")
        people = tuple((p["name"], p["colour"]) for p in scene.players)
        seat = scene.acting_seat()
        lines: list = [
            self.made(heading, current, board.rounds, phase, people[seat] if seat is not None else None),
            self.made(track, board.rounds, tuple(board.wage_rounds), current, new_round),
        ]
        upcoming = [r for r in board.wage_rounds if r >= max(current, 1)]
        pay = f"$1 per {board.workers_per_dollar} workers"
        lines.append(self.made(wages, pay, upcoming[0] if upcoming and phase != "over" else None, current))
        order = view.get("turn_order") or []
        if phase == "actions" and order:
            turns = tuple((s, bool(scene.players[s].get("passed")), s in passed) for s in order)
            lines.append(self.made(turn_order, people, turns, view.get("current"), new_order))
        elif phase == "island_selection":
            # (the line is there in both phases: the panel keeps its height, and the screen its arrangement)
            lines.append(self.made(order_by_islands))
        if phase == "over":
            reason = END_REASONS.get(view.get("end_reason") or "", "")
            lines.append(Text.assemble(("Game over", "bold reverse"), f": {reason}." if reason else ""))
        elif view.get("end_triggered"):
            lines.append(Text("Last round: someone reached the VP goal.", style="bold reverse"))
        self.update(Group(*lines))


def _tag(person: tuple[str, str]) -> Text:
    return player_tag({"name": person[0], "colour": person[1]})


def heading(current: int, rounds: int, phase: str, acting: tuple[str, str] | None) -> Flow:
    """ "Round 3 of 8 · Actions   ▶ Ana [R] to play"."""
    title = f"Round {current} of {rounds}" if current else f"Before round 1 of {rounds}"
    parts = [Text.assemble(label(title), " · ", PHASE_NAMES.get(phase, phase))]
    if acting is not None:
        parts.append(Text.assemble("▶ ", _tag(acting), " to play"))
    return Flow(parts, "   ")


def track(rounds: int, wage_rounds: tuple[int, ...], current: int, new_round: bool) -> Text:
    """The rounds, "1 2$ [3] 4 5$...": wage rounds with $, those played struck through, the current in brackets."""
    line = Text()
    for r in range(1, rounds + 1):
        mark = f"{r}{'$' if r in wage_rounds else ''}"
        if r > 1:
            line.append(" ")
        if r == current:
            line.append(f"[{mark}]", style="bold reverse")
            line.append_text(changed_after(new_round, gap=""))
        elif r < current:
            line.append(mark, style="dim strike")
        else:
            line.append(mark, style="bold" if r in wage_rounds else "")
    return line


def wages(pay: str, next_round: int | None, current: int) -> Text | Fit:
    """What "$" means and when wages are paid next (None: no more wages)."""
    if next_round is None:
        return Text.assemble(label("$ = wages"), f" ({pay}, rounded up)")
    when = "this round" if next_round == current else f"round {next_round}"
    return Fit(
        Text.assemble(label("$ = wages"), f" ({pay}, rounded up) · next: end of {when}"),
        Text.assemble(label("$ = wages"), f" ({pay}) · next: end of {when}"),
        Text.assemble(label("$ = wages"), f" · next: end of {when}"),
    )


def turn_order(
    people: tuple[tuple[str, str], ...], turns: tuple[tuple[int, bool, bool], ...], current: int | None, new: bool
) -> Fit:
    """The turn order (each seat, whether they passed, whether that is new), the player to play marked."""

    def entries(tag: Callable[[tuple[str, str]], Text]) -> Text:
        out = []
        for seat, passed, newly in turns:
            entry = tag(people[seat])
            if passed:
                entry = Text.assemble(entry, (" passed", "dim"), changed_after(newly))
            elif seat == current:
                entry = Text.assemble(("▶", "bold"), entry)
            out.append(entry)
        return join(out, " → ")

    def head(words: str) -> Text:  # "Turn order: ", "Turn order:* " once the order is new
        return Text.assemble(label(f"{words}:"), changed_after(new, gap=""), label(" "))

    return Fit(
        Text.assemble(head("Turn order"), entries(_tag)),
        Text.assemble(head("Order"), entries(_tag)),
        Text.assemble(head("Order"), entries(lambda person: colour_marker(person[1]))),
    )


def order_by_islands() -> Fit:
    """While islands are chosen: how the turn order will be made."""
    return Fit(
        Text.assemble(label("Turn order: "), "by island number, once every ship has an island"),
        Text.assemble(label("Order: "), "by island number, once all have chosen"),
        Text.assemble(label("Order: "), "by island"),
    )
