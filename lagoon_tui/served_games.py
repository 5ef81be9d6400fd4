"""A finished game of `lagoon serve` shown in a session from the log the server sends (`finished_screen`).

The server sends a finished game's whole log, the cards it was played with and
its computers' levels (`serve.records.log_answer`); the session replays it
here, every event checked as an imported one is, and shows its replay or its
score sheet.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

from rules.host import replay_from_json
from rules.seat import catalogue_from_json

from .screens.replay import ReplayScreen
from .screens.sheet import SheetScreen

UNREADABLE = "The server sent a log this app cannot read."


def finished_screen(answer: dict[str, Any], code: str, *, sheet: bool = False) -> Screen[None] | str:
    """The replay (or the score sheet) of the finished game of room `code`; what to say if there is none."""
    try:
        replay = replay_from_json(catalogue_from_json(str(answer["content"])), str(answer["log"]))
        levels = {int(seat): str(level) for seat, level in dict(answer.get("levels", {})).items()}
    except (KeyError, TypeError, ValueError):
        return UNREADABLE
    if not sheet:
        return ReplayScreen(replay, levels)
    if replay.results is None:
        return UNREADABLE
    return SheetScreen(replay.results, f"Final ranking of room {code}", levels)
