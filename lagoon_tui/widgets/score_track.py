"""The score track: every player's VP on a line that runs below zero and past the goal."""

from __future__ import annotations

import math

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.text import Text

from ..scene import Scene
from .note import Panel
from .renderables import Flow, WideOnly, render_keys
from .words import CHANGED_NOTE, gain_mark, muted

TRACK_LOW = -5  # the printed track starts below zero: a score can go negative


class Track:
    """A Rich renderable drawing the track at whatever width it is given.

    `marks` are (marker, vp) pairs; markers on the same spot stack downwards.
    """

    def __init__(self, marks: list[tuple[Text, int]], goal: int):
        self.marks = marks
        self.goal = goal
        vps = [vp for _, vp in marks] or [0]
        self.low = min(TRACK_LOW, 5 * math.floor(min(vps) / 5))
        self.high = max(goal, 5 * math.ceil(max(vps) / 5))

    def key(self) -> tuple | None:
        return render_keys(("Track", self.goal), *(part for marker, vp in self.marks for part in (marker, str(vp))))

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(20, options.max_width)

    def _x(self, vp: int, reach: int) -> int:
        return round((vp - self.low) * (reach - 1) / (self.high - self.low))

    def _scale(self, width: int) -> tuple[int, list[int], str]:
        """The length of the track, its ticks, and the line of their labels: every tick has its label.

        Ticks are 5 VP apart from the low end, or 10, 15 ... when their labels
        would crowd, and the goal is one. The goal's label, "30 goal", starts
        at its tick as the others do: at the right end of the track, the track
        stops short of the edge to leave it room. Only where the ticks cannot
        all be labelled so is it just "30" (the panel's title names the goal).
        """
        span = self.high - self.low
        first = 5
        while span / first * 4 > width:  # keep tick labels at least 4 cells apart
            first += 5
        for goal_label in (f"{self.goal} goal", f"{self.goal}"):
            reach = width - (len(goal_label) - 1 if self.goal == self.high else 0)
            for step in range(first, span + 5, 5):
                ticks = sorted(set(range(self.low, self.high + 1, step)) | {self.goal})
                scale, labelled = self._labels(ticks, goal_label, reach, width)
                if labelled:
                    return reach, ticks, scale
        return reach, ticks, scale  # (not reached: the two ends alone always fit the 20 cells the track has)

    def _labels(self, ticks: list[int], goal_label: str, reach: int, width: int) -> tuple[str, bool]:
        """The labels' line, and whether every tick got its label (the goal's and 0's first)."""
        scale = [" "] * width
        labelled = 0
        for vp in sorted(ticks, key=lambda v: (v != self.goal, v != 0)):
            label = goal_label if vp == self.goal else f"{vp}"
            x = max(0, min(self._x(vp, reach), width - len(label)))
            if all(c == " " for c in scale[max(0, x - 1) : x + len(label) + 1]):
                scale[x : x + len(label)] = list(label)
                labelled += 1
        return "".join(scale), labelled == len(ticks)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(20, options.max_width)
        reach, ticks, scale = self._scale(width)
        yield Text(scale, style="dim")

        cells: list[Text] = [Text("─", style="dim")] * reach + [Text(" ")] * (width - reach)
        for vp in ticks:
            cell = Text("┼", style="dim")
            if vp == 0:
                cell = Text("0", style="bold")
            if vp == self.goal:
                cell = Text("▐", style="bold")
            cells[self._x(vp, reach)] = cell
        # each player's letter sits on the track at its score; a second one on the
        # same spot goes on a row below (nearest free spot there, if need be)
        below: list[Text | None] = [None] * width
        taken: set[int] = set()
        for marker, vp in self.marks:
            x = self._x(vp, reach)
            if x not in taken:
                cells[x] = marker
                taken.add(x)
                continue
            for dx in sorted(range(-reach, reach), key=abs):
                if 0 <= x + dx < reach and below[x + dx] is None:
                    below[x + dx] = marker
                    break
        line = Text()
        for cell in cells:
            line.append_text(cell)
        yield line
        if any(below):
            extra = Text()
            for spot in below:
                extra.append_text(spot if spot is not None else Text(" "))
            yield extra


class ScoreTrackPanel(Panel):
    """VP of every player: a track with negative scores and the goal, then "Ana [R] 12 VP" per player."""

    DEFAULT_CSS = """
    ScoreTrackPanel {
        border: round $panel-lighten-2;
    }
    """

    def __init__(self, **kwargs: str | None) -> None:
        super().__init__(**kwargs)
        self.set_border_title("Score track")

    def show(self, scene: Scene) -> None:
        view = scene.view
        key = (
            [(p["name"], p["colour"], p["vp"]) for p in scene.players],
            view.get("standings"),
            view.get("end_triggered"),
            view.get("phase"),
            [scene.vp_since(p["seat"]) for p in scene.players],
        )
        if self.unchanged(scene, key):
            return
        goal = scene.content.board.vp_goal
        players = scene.players
        self.set_titles(f"Score · goal {goal} VP", "Score")
        marks = [(scene.marker(p["seat"]), p["vp"]) for p in players]
        places = {st["seat"]: st["place"] for st in view.get("standings") or []}
        order = sorted(players, key=lambda p: (places.get(p["seat"], 0), -p["vp"], p["seat"]))
        rows = []
        for p in order:
            vp = p["vp"]
            row = scene.tag(p["seat"])
            row.append(" ")
            row.append(f"{vp} VP", style="bold")
            row.append_text(gain_mark(scene.vp_since(p["seat"])))
            if p["seat"] in places:
                row.append(f" (place {places[p['seat']]})", style="bold")
            elif vp >= goal:
                row.append(" (goal!)", style="bold")
            rows.append(row)
        parts: list[RenderableType] = [Track(marks, goal), Flow(rows, "   ")]
        if any(scene.vp_since(p["seat"]) for p in players):
            parts.append(CHANGED_NOTE)
        if view.get("phase") == "over":
            parts.append(muted("Final scores, objectives included."))
        elif view.get("end_triggered"):
            parts.append(Text("Someone reached the goal: this round is the last.", style="bold reverse"))
        else:
            parts.append(
                WideOnly(
                    muted(
                        f"The game ends in the round someone reaches {goal} VP "
                        f"or after round {scene.content.board.rounds}."
                    ),
                    60,
                )
            )
        self.update(Group(*parts))
