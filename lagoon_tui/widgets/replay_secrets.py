"""The hands and face-down galleries of a finished game, at the position its replay shows.

Only the replay of a finished game has this panel: once the game is over
nothing is secret any more, and seeing what each player held explains the
moves. An unfinished game's replay never composes it.
"""
from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from rules.cards import Content
from rules.state import GameState


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


class ReplaySecrets(Static):
    """What was hidden during play, drawn from the replay's state (a log-like page of its own when small)."""

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

    def show(self, state: GameState, content: Content) -> None:
        self.update(secrets_text(state, content))
