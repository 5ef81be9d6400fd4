"""The round track: rounds 1 to the last, wage rounds marked with $, the current round in brackets."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Group
from rich.text import Text

from ..scene import Scene
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
        wages = set(board.wage_rounds)

        track = Text()
        for r in range(1, board.rounds + 1):
            mark = f"{r}{'$' if r in wages else ''}"
            if r > 1:
                track.append(" ")
            if r == current:
                track.append(f"[{mark}]", style="bold reverse")
                track.append_text(changed_after(new_round, gap=""))
            elif r < current:
                track.append(mark, style="dim strike")
            else:
                track.append(mark, style="bold" if r in wages else "")

        title = f"Round {current} of {board.rounds}" if current else f"Before round 1 of {board.rounds}"
        if current:
            self.set_titles(
                f"Round {current}/{board.rounds} · {PHASE_NAMES.get(phase, phase)}", f"Round {current}/{board.rounds}"
            )
        else:
            self.set_titles(f"Before round 1 · {PHASE_NAMES.get(phase, phase)}", "Before round 1")

        parts = [Text.assemble(label(title), " · ", PHASE_NAMES.get(phase, phase))]
        seat = scene.acting_seat()
        if seat is not None:
            parts.append(Text.assemble("▶ ", scene.tag(seat), " to play"))
        lines: list = [Flow(parts, "   "), track]

        upcoming = [r for r in board.wage_rounds if r >= max(current, 1)]
        pay = f"$1 per {board.workers_per_dollar} workers"
        if upcoming and phase != "over":
            nxt = upcoming[0]
            when = "this round" if nxt == current else f"round {nxt}"
            lines.append(
                Fit(
                    Text.assemble(label("$ = wages"), f" ({pay}, rounded up) · next: end of {when}"),
                    Text.assemble(label("$ = wages"), f" ({pay}) · next: end of {when}"),
                    Text.assemble(label("$ = wages"), f" · next: end of {when}"),
                )
            )
        else:
            lines.append(Text.assemble(label("$ = wages"), f" ({pay}, rounded up)"))

        order = view.get("turn_order") or []
        if phase == "actions" and order:
            players = scene.players

            def entries(tag: Callable[[int], Text]) -> Text:
                out = []
                for s in order:
                    entry = tag(s)
                    if players[s].get("passed"):
                        entry = Text.assemble(entry, (" passed", "dim"), changed_after(s in passed))
                    elif s == view.get("current"):
                        entry = Text.assemble(("▶", "bold"), entry)
                    out.append(entry)
                return join(out, " → ")

            def head(words: str) -> Text:  # "Turn order: ", "Turn order:* " once the order is new
                return Text.assemble(label(f"{words}:"), changed_after(new_order, gap=""), label(" "))

            lines.append(
                Fit(
                    Text.assemble(head("Turn order"), entries(scene.tag)),
                    Text.assemble(head("Order"), entries(scene.tag)),
                    Text.assemble(head("Order"), entries(scene.marker)),
                )
            )
        elif phase == "island_selection":
            # (the line is there in both phases: the panel keeps its height, and the screen its arrangement)
            lines.append(
                Fit(
                    Text.assemble(label("Turn order: "), "by island number, once every ship has an island"),
                    Text.assemble(label("Order: "), "by island number, once all have chosen"),
                    Text.assemble(label("Order: "), "by island"),
                )
            )

        if phase == "over":
            reason = END_REASONS.get(view.get("end_reason") or "", "")
            lines.append(Text.assemble(("Game over", "bold reverse"), f": {reason}." if reason else ""))
        elif view.get("end_triggered"):
            lines.append(Text("Last round: someone reached the VP goal.", style="bold reverse"))
        self.update(Group(*lines))
