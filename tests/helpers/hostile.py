"""What the hostile-terminal tests share: the seed, the first prompt, quitting with the game saved."""

from __future__ import annotations

from pathlib import Path

from rules.saves.store import Store
from tests.helpers.terminal import CURTAIN, OPTION_1, Tmux

SEED = 5


def hexes(data: bytes) -> list[str]:
    return [f"{byte:02x}" for byte in data]


def first_prompt(tmux: Tmux) -> str:
    """Pass the first curtain (Enter): the first setup prompt, with its options."""
    screen = tmux.settle(lambda t: CURTAIN in t, "the first curtain")
    return tmux.press("Enter", screen, lambda t: CURTAIN not in t and bool(OPTION_1.search(t)), "the first prompt")


def quits_saved(tmux: Tmux, db: Path) -> None:
    """ctrl+q ends the app with status 0, and the game is in the save file, not over."""
    status = tmux.quit()
    seen = tmux.capture(history=True)
    assert status == 0, f"ctrl+q did not end the app with status 0 (status {status}):\n{seen}"
    assert "Traceback" not in seen, seen
    with Store(db) as store:
        games = store.games()
    assert len(games) == 1 and not games[0].over and games[0].length > 0, games
