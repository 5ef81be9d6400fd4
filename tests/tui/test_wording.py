"""Words a new player tripped over: counts, names with their letter tags, window titles."""

from __future__ import annotations

from lagoon_tui.cards_text import corporation_text
from lagoon_tui.screens.help import HelpScreen
from lagoon_tui.screens.inspect import InspectScreen
from lagoon_tui.widgets import PlayerBoard
from rules import load_content
from rules.seat import objective_words
from tests.helpers.drive import ana_and_ben, pass_curtain, screen_text, start, widget_text


def test_a_corporation_counts_its_workers_in_the_singular_and_the_plural():
    content = load_content()
    texts = {c.id: corporation_text(content, c.id)[1] for c in content.corporations.values()}
    for c in content.corporations.values():
        text = texts[c.id]
        assert (f"{c.miners} miner," if c.miners == 1 else f"{c.miners} miners,") in text
        assert (f"{c.merchants} merchant," if c.merchants == 1 else f"{c.merchants} merchants,") in text
    assert any(c.miners == 1 for c in content.corporations.values())  # the case that read "1 miners"
    assert not any(" 1 miners" in t or " 1 merchants" in t or " 1 deals" in t for t in texts.values())


async def test_the_game_screens_windows_are_titled_in_plain_words():
    """`?` on the board: "Keys — Game"; `b` (my cards, wide layout): the player's name and letter."""
    app = ana_and_ben(start_player=1)
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        await pass_curtain(pilot, run)
        game = app.screen
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "Keys — Game" in screen_text(app) and "Keys: " not in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game
        await pilot.press("b")
        await pilot.pause()
        assert isinstance(app.screen, InspectScreen)
        assert "Ben [Y]: your cards" in screen_text(app)


def test_every_objective_says_what_it_pays():
    """Its text, or the words the rules add to it ("(3 VP)"), names its VP: none is offered without it."""
    for objective in load_content().objectives.values():
        assert "VP" in objective_words(objective), objective.name


async def test_the_objectives_offered_at_setup_each_show_their_vp():
    app = ana_and_ben()
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        await pass_curtain(pilot, run)
        boards = [widget_text(board) for board in app.screen.query(PlayerBoard)]
        shown = " ".join(next(text for text in boards if "Objectives offered" in text).split())
        offer = [app.content.objectives[o] for o in run.engine.state.players[0].objective_offer]
        assert offer
        for objective in offer:
            text = " ".join(f"{objective.name} — {objective_words(objective)}".split())
            assert text in shown, text
            assert "VP" in text
