"""The hands and face-down galleries of a finished game, at the position its replay shows.

Only the replay of a finished game has this panel: once the game is over
nothing is secret any more, and seeing what each player held explains the
moves. An unfinished game's replay never composes it.
"""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.widgets import Static

from ..scene import Scene
from .renderables import Flow


def _listed(items: list[str], end: str = "", sep: str = ",") -> list[Text]:
    """`items` as the parts of a list: `sep` after each but the last, `end` after the last."""
    return [Text(item + (sep if n < len(items) - 1 else end)) for n, item in enumerate(items)]


def secrets_text(scene: Scene) -> Group:
    """Every hand and hidden tile, for the replay of a finished game (nothing is secret any more).

    A paragraph a player, and one of the face-down galleries, that wrap
    between the things they list, never inside one: "4 VP (2′ silver + 1′
    iron + 1′ copper)" stays on one line where the panel has room for it.
    """
    content = scene.content
    paragraphs = []
    for p in scene.players:
        objectives = [content.objectives[o].name for o in p["objectives"] or p["objective_offer"]] or ["none"]
        deals = [
            f"{content.deals[d].vp} VP ({' + '.join(f'{lv}′ {m}' for m, lv in content.deals[d].requires.items())})"
            for d in p["deals"]
        ] or ["none"]
        paragraphs.append(
            Flow(
                [
                    Text.assemble((f"{p['name']}:", "bold"), " objectives"),
                    *_listed(objectives, ";"),
                    Text("deals in hand"),
                    *_listed(deals),
                ],
                " ",
            )
        )
    hidden = [
        f"island {isl} column {c + 1} level {lv + 1}: {content.gallery(g['tile']).metal or 'empty'}"
        for isl, site in scene.view["sites"].items()
        for c, col in enumerate(site["columns"])
        for lv, g in enumerate(col)
        if g is not None and not g["face_up"]
    ]
    if hidden:
        paragraphs.append(Flow([Text("Face-down galleries:", style="bold"), *_listed(hidden, sep=";")], " "))
    return Group(*paragraphs)


class ReplaySecrets(Static):
    """What was hidden during play, drawn from the replay's message (a log-like page of its own when small)."""

    DEFAULT_CSS = """
    ReplaySecrets {
        height: auto;
        padding: 0 1;
        border: round $warning;
        border-title-color: $warning;
        border-title-style: bold;
    }
    """

    def on_mount(self) -> None:
        self.border_title = "Hands and hidden tiles"

    def show(self, scene: Scene) -> None:
        self.update(secrets_text(scene))
