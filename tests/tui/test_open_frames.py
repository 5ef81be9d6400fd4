"""What is decided in the open is drawn in the open (issue 32): hot-seat games of people and computers.

Two people and one computer, and two people and two computers, play whole
games at 80x24 and 160x50: the people by keys (Enter on every curtain, a
digit for an option), the computers from the screen itself at no pace. Every
frame is looked at: each time the game screen draws its panels (so no
computer's move goes by unseen, however fast the next comes), and each time
the app is quiet after a key or a computer's move (the frame on the terminal
too). While the pending decision is open (choosing an island) or a computer's,
no private card of any seat may be anywhere on screen or in any widget: no
objective or corporation offered, no deal in hand, no face-down tile's
content, the chooser's own included. A person deciding in private is checked
as in test_privacy.py (their own cards, nobody else's), which also shows the
matching finds a person's own cards where they are drawn.

Before the game screen followed lagoon_tui/hand_over.py, a person's board stayed
on screen while the computers moved after them, and the island choice of the
person who had last moved in private was drawn with their own cards.
"""

from __future__ import annotations

import random

import pytest

from lagoon_tui.app import LagoonApp
from lagoon_tui.screens.curtain import CurtainScreen
from lagoon_tui.screens.end import EndScreen
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.settings import GameSettings
from lagoon_tui.widgets.prompt import PromptPanel
from rules import events as ev
from rules.decision import OPEN_KINDS
from tests.helpers.computers import QUICK_HARD, moving
from tests.helpers.drive import Run, game_screen, offered_ids, prompt_options, quiet, widget_text
from tests.helpers.privacy import COLOURS, NAMES, Watch

PACE = 3600.0
"""Seconds a computer's move waits for (none goes by itself: the test presses space, after looking at the frame)."""


class Frames:
    """Looks at every frame of a game of people and computers; counts what it looked at."""

    def __init__(self, app: LagoonApp) -> None:
        self.app = app
        self.watch = Watch(app)
        self.seen = {"open": 0, "computer": 0, "private": 0, "curtain": 0, "drawn in the open": 0}

    def public_now(self, game: GameScreen) -> bool:
        """The pending decision is open or a computer's: nothing private of anyone may show."""
        pending = game.host.engine.pending
        return pending.kind in OPEN_KINDS or pending.seat in game.computers

    def drawn(self, game: GameScreen) -> None:
        """The game screen has just drawn every panel (the terminal shows it at the next paint)."""
        if game.host.engine.state.phase == "over" or not self.public_now(game):
            return
        if isinstance(self.app.screen, CurtainScreen):  # (the board under a curtain is never shown)
            return
        self.seen["drawn in the open"] += 1
        self.watch.check(None, "as the panels were drawn", frame_too=False)

    def look(self, when: str) -> None:
        """The app is quiet and shows the game as it is: the frame and every widget."""
        app = self.app
        game = game_screen(app)
        if game is None or isinstance(app.screen, EndScreen) or game.host.engine.state.phase == "over":
            return
        pending = game.host.engine.pending
        if isinstance(app.screen, CurtainScreen):
            self.seen["curtain"] += 1
            self.watch.check(None, when)
        elif app.screen is not game or not shows_now(game):
            return  # (the screen is still on its way to the game as it is)
        elif self.public_now(game):
            self.seen["computer" if pending.seat in game.computers else "open"] += 1
            self.watch.check(None, when)
        else:
            assert game.at_keyboard == pending.seat and not game.veiled
            self.seen["private"] += 1
            self.watch.check(pending.seat, when)


def shows_now(game: GameScreen) -> bool:
    """The prompt is the pending decision's: its options for a person, "Waiting for" a computer."""
    engine = game.host.engine
    pending = engine.pending
    if pending.seat in game.computers:
        name = engine.state.players[pending.seat].name
        return f"Waiting for {name}" in widget_text(game.query_one(PromptPanel).query_one("#prompt-head"))
    return offered_ids(prompt_options(game)) == list(pending.ids())


async def play(pilot, frames: Frames, seed: int, until=None) -> bool:
    """The people's keys until the end screen (True) or `until(engine)`, every frame looked at on the way."""
    app, rng = pilot.app, random.Random(seed)
    looked = None
    keys = 0
    async for _ in moving(pilot):
        if isinstance(app.screen, EndScreen):
            return True
        game = game_screen(app)
        if game is None or not quiet(app):
            continue
        engine = game.host.engine
        if until is not None and until(engine):
            return False
        now = (game.host.changes, type(app.screen), keys)
        if now != looked:
            frames.look(f"after {keys} keys, {game.host.changes} changes")
            looked = now
        if isinstance(app.screen, CurtainScreen):
            await pilot.press("enter")
            keys += 1
        elif app.screen is not game or engine.state.phase == "over" or not shows_now(game):
            continue
        elif engine.pending.seat in game.computers:
            if not game.hurry:  # space: the computers move at once, until a person decides
                await pilot.press("space")
                keys += 1
        elif game.at_keyboard == engine.pending.seat:
            await pilot.press(str(rng.randrange(min(9, len(engine.pending.ids()))) + 1))
            keys += 1


async def check_a_game(seats: int, computers: dict[int, str], seed: int, size: tuple[int, int], until=None) -> bool:
    """Plays the game, looking at every frame; True if it reached the end screen."""
    settings = GameSettings(NAMES[:seats], COLOURS[:seats], seed, 0, computers)
    app = LagoonApp(settings=settings, pace=PACE, computer_options=QUICK_HARD)
    frames = Frames(app)
    draw = GameScreen._draw

    def drawn(screen: GameScreen, how) -> None:
        draw(screen, how)
        frames.drawn(screen)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(GameScreen, "_draw", drawn)  # (the real drawing, looked at after it)
        async with app.run_test(size=size) as pilot:
            for _ in range(200):
                await pilot.pause()
                if game_screen(app) is not None:
                    break
            engine = game_screen(app).host.engine
            frames.watch.run = Run(engine)
            ended = await play(pilot, frames, seed, until)
    seen = frames.seen
    assert seen["open"] and seen["computer"] and seen["private"] and seen["curtain"], seen
    assert seen["drawn in the open"] >= seen["open"], seen
    own = frames.watch.own_seen
    assert own["objective"] > 0, "the matching never found a person's own objectives where they are drawn"
    if not ended:  # (a few rounds: a person's deal or face-down tile may not have come before their next turn)
        return ended
    if any(frames.watch.deals[s] for s in range(seats) if s not in computers):
        assert own["deal"] > 0
    if any(isinstance(e, ev.GalleryPlaced) and not e.face_up and e.seat not in computers for e in engine.events):
        assert own["face-down gallery"] > 0
    return ended


async def test_the_first_rounds_of_two_people_and_a_computer_are_drawn_in_the_open():
    """The quick version: setup and the first island choices, at 80x24."""
    await check_a_game(3, {1: "normal"}, 31, (80, 24), until=lambda engine: engine.state.round > 2)


GAMES = [
    pytest.param(3, {1: "normal"}, 32, (80, 24), id="2-people-1-computer-80x24"),
    pytest.param(3, {2: "easy"}, 33, (160, 50), id="2-people-1-computer-160x50"),
    pytest.param(4, {1: "normal", 3: "hard"}, 34, (80, 24), id="2-people-2-computers-80x24"),
    pytest.param(4, {1: "easy", 2: "normal"}, 35, (160, 50), id="2-people-2-computers-160x50"),
]


@pytest.mark.slow
@pytest.mark.parametrize("seats, computers, seed, size", GAMES)
async def test_whole_games_of_people_and_computers_are_drawn_in_the_open(seats, computers, seed, size):
    assert await check_a_game(seats, computers, seed, size), "the game did not reach its end screen"
