"""Playing the real app through key presses only, for the Pilot tests.

`play_game(pilot, seed)` plays a whole game of a running `LagoonApp`: on a
curtain it presses Enter; on the game screen it reads the engine's pending
decision (only to *choose*: the engine's options are what the prompt lists),
picks one option with a small seeded policy and presses the key that picks it
on screen: the option's digit for the first nine, else Home, Down... and
Enter on the prompt's option list. It never calls the app or the engine to
make a move.

After every key press the helpers wait until the app has caught up (the
screen on top is a curtain, the end screen, or a game screen whose prompt
lists exactly the engine's pending options for the seat at the keyboard) and
then call the test's `after_key(key)` hook, so a test can look at every
screen the players would see.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Awaitable, Callable

from textual.app import App
from textual.pilot import Pilot
from textual.widgets import OptionList

from lagoon_tui.screens.curtain import CurtainScreen
from lagoon_tui.screens.end import EndScreen
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.widgets.prompt import PromptPanel
from rules import Engine
from rules.decision import Option

DIGITS = "123456789"
STALLING = ("back", "pass")
"""Option ids (or their first part) that undo or skip: taken only now and then, so games move on."""

AfterKey = Callable[[str], Awaitable[None] | None]


def keys_for(index: int) -> list[str]:
    """The keys that pick the option at `index` of the prompt (0-based)."""
    if index < len(DIGITS):
        return [DIGITS[index]]
    return ["home", *["down"] * index, "enter"]


@dataclass
class Policy:
    """Random legal choices, avoiding "back" and "pass" `avoid` of the time when something else is legal."""

    seed: int
    avoid: float = 0.8
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def pick(self, options: tuple[Option, ...]) -> int:
        moving = [i for i, o in enumerate(options) if o.id.split(":", 1)[0] not in STALLING]
        if moving and self.rng.random() < self.avoid:
            return self.rng.choice(moving)
        return self.rng.randrange(len(options))


@dataclass
class Run:
    """What the driver saw of one game."""

    engine: Engine | None = None
    keys: int = 0  # key presses sent
    decisions: int = 0  # options picked
    curtains: int = 0  # curtains passed
    keyboard: int | None = None  # the seat the driver handed the keyboard to (None: behind a curtain)


def game_screen(app: App) -> GameScreen | None:
    """The game screen, wherever it is in the screen stack."""
    return next((s for s in app.screen_stack if isinstance(s, GameScreen)), None)


def settled(app: App) -> bool:
    """True when the app has finished reacting to the last key press."""
    screen = app.screen
    if isinstance(screen, (CurtainScreen, EndScreen)):
        return True
    if not isinstance(screen, GameScreen):
        return False
    engine = screen.bridge.engine
    if engine.state.phase == "over":
        return False  # the end screen is on its way
    pending = engine.pending
    if screen.at_keyboard != pending.seat:
        return False  # a curtain is on its way
    options = screen.query_one(PromptPanel).query_one(OptionList)
    shown = [options.get_option_at_index(i).id for i in range(options.option_count)]
    return shown == list(pending.ids())


async def settle(pilot: Pilot, tries: int = 50) -> None:
    await pilot.pause()
    for _ in range(tries):
        if settled(pilot.app):
            return
        await pilot.pause()
    raise AssertionError(f"the app did not settle; on {pilot.app.screen!r}")


async def press(pilot: Pilot, run: Run, key: str, after_key: AfterKey | None = None) -> None:
    await pilot.press(key)
    run.keys += 1
    await settle(pilot)
    if after_key is not None:
        result = after_key(key)
        if result is not None:
            await result


async def step(pilot: Pilot, run: Run, policy: Policy, after_key: AfterKey | None = None) -> None:
    """One move by key presses: pass a curtain, or pick one option of the pending decision."""
    app = pilot.app
    screen = app.screen
    if isinstance(screen, CurtainScreen):
        run.curtains += 1
        await press(pilot, run, "enter", after_key)
        run.keyboard = game_screen(app).bridge.engine.pending.seat
        return
    assert isinstance(screen, GameScreen), f"unexpected screen {screen!r}"
    run.engine = screen.bridge.engine
    decision = run.engine.pending
    assert decision.seat == run.keyboard, (
        f"{decision.seat=} decides but the keyboard was handed to {run.keyboard} (no curtain in between)")
    index = policy.pick(decision.options)
    run.decisions += 1
    for key in keys_for(index):
        await press(pilot, run, key, after_key)


async def start(pilot: Pilot, after_key: AfterKey | None = None) -> Run:
    """Wait for the first curtain of a game started with settings; the Run to play it with."""
    await settle(pilot)
    run = Run(engine=game_screen(pilot.app).bridge.engine)
    if after_key is not None:
        result = after_key("")
        if result is not None:
            await result
    return run


async def play_game(pilot: Pilot, seed: int, *, after_key: AfterKey | None = None,
                    until: Callable[[Run], bool] | None = None, max_keys: int = 20_000,
                    run: Run | None = None) -> Engine:
    """Play the app's game by key presses until the end screen (or until `until(run)`); the engine."""
    run = run or await start(pilot, after_key)
    policy = Policy(seed)
    while not isinstance(pilot.app.screen, EndScreen):
        if until is not None and until(run):
            break
        assert run.keys < max_keys, f"no end after {run.keys} key presses"
        await step(pilot, run, policy, after_key)
    return run.engine
