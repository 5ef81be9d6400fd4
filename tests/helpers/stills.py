"""Fixed moments of the app, for snapshot tests and `make screenshots` (never shipped in the wheel).

Each still is a fresh `LagoonApp` plus the steps that bring it to one screen
(title, new-game form, setup curtain and choice, the board mid-game, a curtain
mid-game, look mode on the board, the end),
always from the same seed, with animations and cursor blinking off so that two
runs give the same picture.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from textual.pilot import Pilot
from textual.widgets import Input

from lagoon_tui.app import LagoonApp
from lagoon_tui.scene import Scene
from lagoon_tui.screens.curtain import CurtainScreen
from lagoon_tui.screens.end import EndScreen
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.widgets import svg
from rules.host import Host, load_content

NAMES = ("Ana", "Ben", "Cleo", "Dev")
COLOURS = ("red", "yellow", "green", "blue")
SEED = 7

Still = tuple[LagoonApp, Callable[[Pilot], Awaitable[None]]]


def played(players: int, decisions: int | None, seed: int = SEED) -> Host:
    """A game after `decisions` choices (None: to the end) of purposeful random play."""
    return Host.at_random(load_content(), NAMES[:players], COLOURS[:players], seed, decisions)


async def _settle(pilot: Pilot) -> None:
    pilot.app.animation_level = "none"
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.pause()


def _app() -> LagoonApp:
    svg.SVG_SPACES = True  # these apps are drawn as SVG pictures
    app = LagoonApp(load_content())
    app.animation_level = "none"
    return app


def title() -> Still:
    return _app(), _settle


def new_game() -> Still:
    async def steps(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("n")
        await _settle(pilot)

    return _app(), steps


def _game(host: Host, through_curtain: bool) -> Still:
    async def steps(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.app.push_screen(GameScreen(host))
        await pilot.pause()
        if through_curtain and isinstance(pilot.app.screen, CurtainScreen):
            await pilot.press("enter")
        await _settle(pilot)

    return _app(), steps


def setup_curtain() -> Still:
    return _game(played(3, 0), through_curtain=False)


def setup_choice() -> Still:
    return _game(played(3, 0), through_curtain=True)


def board(players: int = 4, decisions: int = 160) -> Still:
    return _game(played(players, decisions), through_curtain=True)


def hand_over(players: int = 4, decisions: int = 186) -> Still:
    """The curtain mid-game, with what the others did since that player last moved."""
    return _game(played(players, decisions), through_curtain=False)


def look(players: int = 4, decisions: int = 160) -> Still:
    """The board mid-game in look mode (x), the cursor moved by panels and items onto a mining site."""
    app, to_board = _game(played(players, decisions), through_curtain=True)

    async def steps(pilot: Pilot) -> None:
        await to_board(pilot)
        # (below the wide layout the cursor starts on the page shown, and ↓ passes the mining sites' rows)
        downs = 6 if pilot.app.size.width >= 150 else 8
        await pilot.press("x", *["down"] * downs, "right", "right")
        await _settle(pilot)

    return app, steps


def end() -> Still:
    host = played(4, None)

    async def steps(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.app.push_screen(EndScreen(Scene(host.scene(None), host.content)))
        await _settle(pilot)

    return _app(), steps


STILLS: dict[str, Callable[[], Still]] = {
    "title": title,
    "new-game": new_game,
    "setup-curtain": setup_curtain,
    "setup-choice": setup_choice,
    "board": board,
    "hand-over": hand_over,
    "look": look,
    "end": end,
}
