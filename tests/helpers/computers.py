"""Computer players in the app's tests: a small Hard budget, and waiting while the game moves on."""

from __future__ import annotations

from lagoon_tui.screens.game import GameScreen
from tests.helpers.drive import screen_text

QUICK_HARD = {"hard": {"rollouts": 2, "candidates": 1, "time_cap": 600.0}}
"""Hard with a small budget of play-outs (still a search from its seat's message), and a time cap
no test run reaches, so the budget alone decides."""


PATIENCE = 20_000
"""Pauses of the event loop a test waits, at most, for the game to move on (a computer thinks in a
thread meanwhile)."""


async def moving(pilot):
    """Pause after pause while the game moves on (Enter on a finished game's last board); fails after PATIENCE
    pauses with no change."""
    still, last = 0, None
    while still < PATIENCE:
        await pilot.pause(0.002)
        screen = next((s for s in pilot.app.screen_stack if isinstance(s, GameScreen)), None)
        if screen is not None and screen.finished and pilot.app.screen is screen:
            await pilot.press("enter")  # the game is over, its last board on screen: the end screen
        changes = None if screen is None else (screen.host.changes, type(pilot.app.screen))
        still = still + 1 if changes == last else 0
        last = changes
        yield
    raise AssertionError("the game stopped moving:\n" + screen_text(pilot.app))
