"""Look mode: x moves a cursor over everything on the board, i reads it (issue 34, point 6).

Played by keys on the real app, at 80×24 (where the page must turn to the
item) and 160×50: an opponent's equipment, a shipment on display, a gallery
on a mining site, a face-down gallery another player placed (it reads as face
down, nothing more), Escape changing nothing, `?` listing the keys, the
command palette finding an item by name, and a seat at its own terminal (the
SSH seat app) reading an opponent's card. The words the tests expect come from
the content (`content/*.toml`), not from the code under test.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import asynccontextmanager

import pytest
from textual.command import CommandPalette
from textual.widget import Widget
from textual.widgets import DataTable

from lagoon_tui.app import LagoonApp
from lagoon_tui.board_items import Item
from lagoon_tui.link import Link
from lagoon_tui.scene import COLOUR_LETTERS
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.screens.help import HelpScreen
from lagoon_tui.screens.inspect import InspectScreen
from lagoon_tui.screens.look import LOOKED, LookScreen, items_on, shown_scene
from lagoon_tui.screens.replay import ReplayScreen
from lagoon_tui.seat_app import SeatApp
from lagoon_tui.widgets import MarketPanel, MiningSitePanel, PlayerBoard
from rules.host import Host, Replay
from tests.helpers.drive import offered_ids, open_game, prompt_options, screen_text, until, widget_text
from tests.helpers.rooms import RoomThread, until_shown
from tests.helpers.scenes import engine_at

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 50), id="160x50")]


def game(computers: dict[int, str] | None = None) -> Host:
    """Three players in round 1, Ana (seat 0) to decide: Cleo owns an Elevator, island 1's mining site
    has a face-down gallery nobody placed (laid out at the start) and a face-up silver gallery."""
    engine = engine_at(3, 0, 15)
    state = engine.state
    assert engine.pending.seat == 0 and state.players[2].equipment == ["elevator"]
    hidden, shown = state.sites[1].columns[0][0], state.sites[1].columns[1][0]
    assert hidden is not None and not hidden.face_up and shown is not None and shown.face_up
    return Host(engine, computers)


def tag(host: Host, seat: int) -> str:
    player = host.engine.state.players[seat]
    return f"{player.name} [{COLOUR_LETTERS[player.colour]}]"


@asynccontextmanager
async def game_on_screen(size: tuple[int, int], host: Host | None = None):
    """The app at `size` with the game screen of `host` (`game()` if None) open, its curtain passed."""
    app = LagoonApp()
    async with app.run_test(size=size) as pilot:
        host = host or game()
        yield pilot, host, await open_game(pilot, host)


async def look(pilot) -> LookScreen:
    await pilot.press("x")
    await until(pilot, lambda: isinstance(pilot.app.screen, LookScreen))
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, LookScreen)
    return screen


async def cursor_to(pilot, looking: LookScreen, wanted: Callable[[Item], bool]) -> Item:
    """→ until the cursor is on an item `wanted` says is the one (at most once round the board)."""
    for _ in range(len(looking.items) + 1):
        item = looking.item
        if item is not None and wanted(item):
            await pilot.pause()
            assert item.name in flat(screen_text(pilot.app)), "the look line names the item under the cursor"
            return item
        await pilot.press("right")
    raise AssertionError("the cursor never reached the item")


async def read(pilot) -> tuple[str, str]:
    """i: the item under the cursor in full; (its title, its text) as the window shows them."""
    await pilot.press("i")
    await until(pilot, lambda: isinstance(pilot.app.screen, InspectScreen))
    window = pilot.app.screen
    title = widget_text(window.query_one("#inspect-title"), width=400)
    body = widget_text(window.query_one("#inspect-body"), width=400)
    await pilot.press("escape")
    await until(pilot, lambda: isinstance(pilot.app.screen, LookScreen))
    return title, flat(body)


def flat(text: str) -> str:
    return " ".join(text.split())


def in_sight(panel: Widget) -> bool:
    """The panel is drawn, outlined as the cursor's, on the page shown (at 80×24) or on the board (160×50)."""
    return panel.has_class(LOOKED) and panel.display and panel.region.height > 0


def lit(panel: Widget) -> str:
    """The words the panel paints now in reverse (or, reversed already, underlined) for the item looked at."""
    key = panel.looked
    words = []
    for y in range(panel.content_size.height):
        line = panel.render_line(y)
        words.append(
            "".join(
                s.text
                for s in line
                if s.style is not None and s.style.meta.get("look") == key and (s.style.reverse or s.style.underline)
            )
        )
    return " ".join(word for word in words if word)


@pytest.mark.parametrize("size", SIZES)
async def test_the_cursor_reaches_an_opponents_equipment_and_reads_it(size):
    async with game_on_screen(size) as (pilot, host, board):
        looking = await look(pilot)
        elevator = host.content.equipment["elevator"]
        cleo = tag(host, 2)
        await cursor_to(pilot, looking, lambda item: item.name == f"{cleo} · {elevator.name}")
        panel = next(p for p in board.query(PlayerBoard) if p.seat == 2)
        assert in_sight(panel) and lit(panel) == elevator.name
        title, body = await read(pilot)
        assert elevator.name in title
        assert f"Equipment of {cleo}" in body and flat(elevator.text) in body and f"Cost ${elevator.cost}" in body


@pytest.mark.parametrize("size", SIZES)
async def test_the_cursor_reads_a_shipment_on_display(size):
    async with game_on_screen(size) as (pilot, host, board):
        looking = await look(pilot)
        tile = host.content.shipments[host.engine.state.shipment_display[0]]
        await cursor_to(pilot, looking, lambda item: item.name.startswith("Shipment on display"))
        market = board.query_one(MarketPanel)
        needs = [f"{n} {metal}" for metal, n in tile.resources.items()]
        assert in_sight(market) and " ".join(lit(market).replace("+", " ").split()) == " ".join(needs)
        _, body = await read(pilot)
        assert f"Gives {tile.vp} VP and ${tile.money}" in body
        for metal, n in tile.resources.items():
            assert f"{n} raw {metal}" in body


@pytest.mark.parametrize("size", SIZES)
async def test_a_gallery_reads_its_metal_and_a_face_down_one_reads_as_face_down(size):
    async with game_on_screen(size) as (pilot, host, board):
        looking = await look(pilot)
        site = next(p for p in board.query(MiningSitePanel) if p.island == 1)
        shown = host.engine.state.sites[1].columns[1][0]
        tile = host.content.gallery(shown.tile)
        await cursor_to(pilot, looking, lambda item: item.name == "Island 1 mines · column 2, level 1")
        assert in_sight(site) and lit(site).replace(" ", "").startswith(tile.metal)
        _, body = await read(pilot)
        assert f"face-up {tile.metal} gallery" in body and f"{shown.cubes} of its" in body

        hidden = host.content.gallery(host.engine.state.sites[1].columns[0][0].tile)
        await cursor_to(pilot, looking, lambda item: item.name == "Island 1 mines · column 1, level 1")
        assert in_sight(site) and lit(site) == "?"  # (the face-down mark, underlined: it is in reverse already)
        _, body = await read(pilot)
        assert "face-down gallery" in body and "not known to you" in body
        assert hidden.metal not in body and str(hidden.cubes) not in body  # (nothing of what is under it)


@pytest.mark.parametrize("size", SIZES)
async def test_escape_leaves_look_mode_changing_nothing(size):
    async with game_on_screen(size) as (pilot, host, board):
        app = pilot.app
        await pilot.press("down", "down")  # (an option highlighted: it stays so)
        highlighted = prompt_options(board).highlighted
        events, options, page = len(host.engine.events), offered_ids(prompt_options(board)), board.page
        await look(pilot)
        for key in ("down", "down", "down", "right", "1", "enter", "escape", "up", "u", "2"):
            await pilot.press(key)  # (digits, u: look mode has no key that answers the decision)
            await pilot.pause()
        assert isinstance(app.screen, LookScreen)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is board)
        assert len(host.engine.events) == events and offered_ids(prompt_options(board)) == options
        assert board.page == page  # the page the player had turned to
        assert highlighted is not None and prompt_options(board).highlighted == highlighted
        assert board.focused is prompt_options(board)  # (the keys answer the decision again)
        assert not board.query(f".{LOOKED}") and all(getattr(p, "looked", None) is None for p in board.query(".panel"))


async def test_the_keys_list_names_look_mode_and_its_keys():
    async with game_on_screen((80, 24)) as (pilot, _, _):
        app = pilot.app
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        listed = keys_listed(app)
        assert ("x", "Look at the board") in listed
        await pilot.press("escape")
        await look(pilot)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        described = {what for _, what in keys_listed(app)}
        assert {"Next item", "Next panel", "Read it in full", "Back to the game"} <= described


def keys_listed(app) -> list[tuple[str, str]]:
    table = app.screen.query_one(DataTable)
    return [tuple(str(cell) for cell in table.get_row_at(n)) for n in range(table.row_count)]


async def test_the_palette_finds_an_opponents_equipment_by_name_and_reads_it():
    async with game_on_screen((160, 50)) as (pilot, host, _):
        app = pilot.app
        elevator = host.content.equipment["elevator"]
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*elevator.name)
        # the palette gathers its commands in a worker; they are listed whole, "[G]" with them
        # (Textual read names as markup, and "Cleo [G]" came out as "Cleo ")
        listed = (f"{tag(host, 2)} · {elevator.name}", f"Equipment of {tag(host, 2)}, not used")
        for _ in range(1000):
            await pilot.pause(0.01)
            if all(words in screen_text(app) for words in listed):
                break
        else:
            raise AssertionError(f"the palette does not list {listed}; it shows:\n{screen_text(app)}")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, InspectScreen))
        assert flat(elevator.text) in flat(widget_text(app.screen.query_one("#inspect-body"), width=400))


async def test_another_players_secret_cards_are_counted_never_read():
    # (every seat a person at one keyboard: Ana's board, her secrets and no one else's)
    async with game_on_screen((80, 24)) as (pilot, host, _):
        app = pilot.app
        looking = await look(pilot)
        state = host.engine.state
        theirs = [host.content.objectives[o].name for p in state.players[1:] for o in p.objectives]
        mine = [host.content.objectives[o].name for o in state.players[0].objectives]
        seen = []
        for _ in range(len(looking.items)):  # every item, as the look line shows it and as i reads it
            seen.append(flat(screen_text(app)))
            seen.append(" ".join(await read(pilot)))
            await pilot.press("right")
        words = " ".join(seen)
        assert all(name not in words for name in theirs)
        assert all(name in words for name in mine)
        assert f"{tag(host, 1)} · secret cards" in words and "Secret: 2 objectives and 1 deal in hand" in words


async def test_solo_look_mode_reads_a_computers_equipment():
    async with game_on_screen((80, 24), game(computers={1: "easy", 2: "easy"})) as (pilot, host, _):
        looking = await look(pilot)
        elevator = host.content.equipment["elevator"]
        await cursor_to(pilot, looking, lambda item: item.name.endswith(elevator.name))
        _, body = await read(pilot)
        assert flat(elevator.text) in body


async def test_a_seat_at_its_own_terminal_looks_at_an_opponents_equipment():
    room = RoomThread(game())
    try:
        app = SeatApp(Link(room.socket(0)))
        async with app.run_test(size=(80, 24)) as pilot:
            await until_shown(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
            screen = app.screen
            await until_shown(pilot, lambda: screen._shown == app.remote.changes, "Ana's board")
            looking = await look(pilot)
            elevator = CONTENT_EQUIPMENT["elevator"]
            await cursor_to(pilot, looking, lambda item: item.name.endswith(elevator.name))
            assert in_sight(next(p for p in screen.query(PlayerBoard) if p.seat == 2))
            _, body = await read(pilot)
            assert flat(elevator.text) in body
            hidden = await cursor_to(pilot, looking, lambda item: item.name.endswith("secret cards"))
            assert hidden.spot.number in (1, 2)
    finally:
        room.stop()


async def test_the_replay_looks_at_its_board_too_and_its_arrows_move_the_cursor_not_the_replay():
    engine = game().engine
    app = LagoonApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.push_screen(ReplayScreen(Replay(engine.content, engine.events, engine.marks)))
        await pilot.press("end")
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        at = replay.pos
        looking = await look(pilot)
        elevator = engine.content.equipment["elevator"]
        await cursor_to(pilot, looking, lambda item: item.name.endswith(elevator.name))
        assert in_sight(next(p for p in replay.query(PlayerBoard) if p.seat == 2))
        _, body = await read(pilot)
        assert flat(elevator.text) in body
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is replay)
        assert replay.pos == at


CONTENT_EQUIPMENT = engine_at(3, 0, 15).content.equipment


async def test_look_mode_follows_the_computers_moves_as_the_board_shows_them():
    """Ana's turn ends and x is pressed while the computers play: at each of their moves the look line
    reads the board drawn now (Ben's supplies as they are), not the board as it was when x was pressed,
    with no key pressed meanwhile."""
    async with game_on_screen((80, 24), game(computers={1: "easy", 2: "easy"})) as (pilot, host, screen):
        for _ in range(20):  # Ana's moves (End turn too) until the computers have the game
            if host.turn().seat != 0:
                break
            before = host.changes
            await pilot.press("1")
            await until(pilot, lambda: host.changes > before and screen._shown == host.changes, tries=400)
        assert host.turn().seat != 0
        looking = await look(pilot)
        supplies = await cursor_to(pilot, looking, lambda item: item.name == f"{tag(host, 1)} · supplies")
        line = looking.query_one("#look-line")
        followed = 0
        for _ in range(4000):  # (bounded: the computers' moves, each at the app's pace)
            await pilot.pause(0.01)
            if screen._shown != host.changes or looking.scene is None:
                continue
            if looking.scene is not shown_scene(screen):
                raise AssertionError("look mode still reads the board as it was before the last move")
            if host.changes > followed:
                followed = host.changes
                now = next(item for item in items_on(screen, shown_scene(screen)) if item.name == supplies.name)
                assert flat(now.summary) in flat(widget_text(line, width=400))
            if host.turn().seat == 0:
                break
        assert host.turn().seat == 0, "the computers never handed the game back to Ana"


@pytest.mark.parametrize("size", SIZES)
async def test_down_and_up_move_row_by_row_inside_a_mining_site(size):
    """In a mining site's grid, ↓ goes to the slot drawn below in the same column and ↑ back up; ↓ from
    the lowest row goes on to the next panel."""
    async with game_on_screen(size) as (pilot, _, _):
        looking = await look(pilot)
        top = await cursor_to(pilot, looking, lambda item: item.name == "Island 1 mines · column 2, level 2")
        await pilot.press("down")
        await pilot.pause()
        assert looking.item is not None and looking.item.name == "Island 1 mines · column 2, level 1"
        assert looking.item.name in flat(screen_text(pilot.app))
        await pilot.press("up")
        await pilot.pause()
        assert looking.item == top
        await pilot.press("down", "down")
        await pilot.pause()
        assert looking.item is not None and looking.item.spot != top.spot
