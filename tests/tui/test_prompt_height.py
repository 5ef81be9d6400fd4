"""At 160×50 the prompt grows to its options, and within one player's decisions it never shrinks.

So the market and the log below it stay where they are from one decision to
the next of a turn and move down at most when a longer list comes; when the
decisions become another player's at this keyboard (behind the curtain) the
prompt is as tall as their options need again. (Waiting for a computer or a
player at another terminal, it keeps its height: a seat at its own terminal
is checked in tests/tui/test_redraw.py, whose screen is seldom arranged anew.)
"""

from __future__ import annotations

from lagoon_tui.app import LagoonApp
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.settings import GameSettings
from lagoon_tui.widgets import LogPanel, MarketPanel
from lagoon_tui.widgets.options import Options
from lagoon_tui.widgets.prompt import WIDE_ROWS, PromptPanel
from tests.helpers.drive import Policy, settle, start, step


async def test_the_wide_prompt_grows_within_a_players_decisions_and_never_shrinks_until_they_end():
    """Two players at one keyboard, 160×50: for each decision on screen, whose it is, the prompt's height
    and the tops of the market and the log."""
    app = LagoonApp(settings=GameSettings(("Ana", "Ben"), ("red", "yellow"), 8, 0))
    seen: list[tuple[int, int, int, int]] = []  # (seat, prompt height, market top, log top)
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        policy = Policy(8)
        while len(seen) < 70:
            await step(pilot, run, policy)
            await settle(pilot)
            game = app.screen
            if not isinstance(game, GameScreen) or game.at_keyboard is None:
                continue
            prompt = game.query_one(PromptPanel)
            if not prompt.query_one(Options).option_count:
                continue
            market, log = game.query_one(MarketPanel), game.query_one(LogPanel)
            seen.append((game.at_keyboard, prompt.outer_size.height, market.region.y, log.region.y))
    runs: list[list[tuple[int, int, int, int]]] = []
    for decision in seen:
        if runs and runs[-1][-1][0] == decision[0]:
            runs[-1].append(decision)
        else:
            runs.append([decision])
    grew = shrank_between = 0
    for decisions in runs:
        heights = [height for _, height, _, _ in decisions]
        assert heights == sorted(heights), f"the prompt shrank within one player's decisions: {heights}"
        tops = [(market, log) for _, _, market, log in decisions]
        assert tops == sorted(tops), f"the market or the log moved up within one player's decisions: {tops}"
        grew += heights[-1] > heights[0]
        assert min(heights) >= WIDE_ROWS
    for before, after in zip(runs, runs[1:]):
        shrank_between += after[0][1] < before[-1][1]
    # (the game shows both: a turn whose prompt grew, and a prompt back to a smaller height at the next player)
    assert grew and shrank_between, f"heights by run: {[[h for _, h, _, _ in r] for r in runs]}"
