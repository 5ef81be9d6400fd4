"""Hot-seat privacy: at no moment of a whole game does a seat see another seat's secrets.

Whole 2- and 4-player games at 160x50, and the first rounds of a 3-player game
at 80x24, are played through key presses (tests/helpers/drive.py).
After every key press, and before the first, `Watch` looks at two texts:

- the frame on the terminal (the composed top screen), and
- the whole content of every widget of every screen in the stack, rendered
  at the widget's own width (a panel says things more briefly where room is
  scarce) and again wide enough that nothing wraps: the panels hidden in the
  compact layout, the lines scrolled out of view, and the screens under a
  dialog, since any of them is one key away from the screen. Not the board
  under a curtain: the one way past a curtain is Enter, which draws the board
  for the next player before the curtain goes (tested in test_redraw.py).

Toasts are widgets like any other (notifications are on, as in the real app),
and the players press `u` now and then, so the toasts that say what was taken
back are checked too; so are the app's and every screen's titles.

The seat at the keyboard is the one the driver handed it to by passing a
curtain; behind a curtain it is nobody, and so it is while a player makes an
open decision (choosing an island) on the board as everyone sees it. The secrets are worked out from the
engine's state, never from what the app shows:

- objective names: every objective ever offered to another seat;
- deals: every deal ever in another seat's hand and not closed (a closed deal
  is public), as the player board writes its requirements ("copper 1'+,
  iron 3'+", at every width) and as the engine's options do ("1' copper +
  3' iron for 5 VP");
- corporations offered to another seat and chosen by nobody;
- face-down galleries: a face-down tile's metal and cubes ("gold 3"), except
  to the seat that placed it, and the tiles another seat has drawn but not
  yet placed.

Matching is exact, so that public text cannot set it off: names as whole
words; a deal's requirements not as part of a longer deal's ("gold 2'+" is
not found in "copper 1'+, gold 2'+"); gallery contents by where they may
be shown: on a mining site no more "gold 3"s (or "? empty"s) than the viewer
placed face down there; in the log no "X placed a gold 3 gallery face down"
or "X drew a gold 3 gallery" but by the viewer, and no removed gallery named
unless it was face up; anywhere else no metal-and-cubes of a secret tile at
all (the prompt may name the tiles its seat has just drawn). And to be sure
the matching sees anything at all, each game must also show the seat at the
keyboard its own objectives, its deals and its own face-down galleries; the
last tests check the patterns against the texts the app and the narration
write, and that they do not fire on look-alike public text.
"""

from __future__ import annotations

import dataclasses

import pytest

from lagoon_tui.app import LagoonApp
from lagoon_tui.screens.end import EndScreen
from lagoon_tui.settings import GameSettings
from lagoon_tui.widgets.mining_site import FACE_DOWN
from rules import Engine, load_content
from rules import events as ev
from rules.cards import Deal
from rules.narrate import narrate
from rules.view import redact
from tests.helpers.drive import play_game, start
from tests.helpers.privacy import (
    COLOURS,
    DREW,
    EMPTY_FACE_DOWN,
    NAMES,
    PLACED_DOWN,
    REMOVED,
    Watch,
    deal_patterns,
    tile_pattern,
)

GAMES = [
    pytest.param(2, 21, (160, 50), id="2-players", marks=pytest.mark.slow),
    pytest.param(4, 22, (160, 50), id="4-players", marks=pytest.mark.slow),
]


UNDO = 0.15
"""How often the players press `u` where undo is possible: its toast says in words what was taken back."""


def flat(text: str) -> str:
    """Lines joined, runs of spaces made one: a phrase wrapped over two lines is whole again."""
    return " ".join(text.split())


@pytest.mark.parametrize("players, seed, size", GAMES)
async def test_no_seat_ever_sees_another_seats_secrets(players, seed, size):
    """A whole game on a big terminal, where the whole board is on screen at once."""
    app = LagoonApp(settings=GameSettings(NAMES[:players], COLOURS[:players], seed, 0))
    watch = Watch(app)
    async with app.run_test(size=size, notifications=True) as pilot:
        run = await start(pilot)
        watch.run = run
        watch("")
        engine = await play_game(pilot, seed, run=run, after_key=watch, undo=UNDO)
        assert isinstance(app.screen, EndScreen)
    assert engine.state.phase == "over"
    # (the last move and Enter on its board are not checked: once the game is over every hand shows)
    assert watch.calls == run.keys + 1 and watch.checks == run.keys - 1
    check_the_matching_saw_something(watch, engine)


@pytest.mark.slow
async def test_no_seat_sees_another_seats_secrets_in_the_compact_layout():
    """The first rounds at 80x24, where panels say things more briefly and most are off screen."""
    app = LagoonApp(settings=GameSettings(NAMES[:3], COLOURS[:3], 23, 1))
    watch = Watch(app)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        run = await start(pilot)
        watch.run = run
        watch("")
        engine = await play_game(
            pilot, 23, run=run, after_key=watch, until=lambda r: r.engine.state.round > 3, undo=UNDO
        )
    assert watch.checks == run.keys + 1
    check_the_matching_saw_something(watch, engine)


def check_the_matching_saw_something(watch: Watch, engine) -> None:
    """The seats at the keyboard were shown their own secrets and the matching found them,
    so it would have found another seat's."""
    assert watch.own_seen["objective"] > 0
    assert watch.own_seen["undo toast"] > 0  # the players took moves back, and the toasts were looked at
    if any(watch.deals.values()):
        assert watch.own_seen["deal"] > 0
    placed_down = [e for e in engine.events if isinstance(e, ev.GalleryPlaced) and not e.face_up and e.seat is not None]
    if placed_down:
        assert watch.own_seen["face-down gallery"] > 0


# -- the matching itself: exact, and in step with what the app writes ------------------------------


def test_a_deal_is_not_found_inside_a_longer_deal():
    short, long = Deal("a", {"gold": 2}, 3), Deal("b", {"copper": 1, "gold": 2}, 3)
    board = "Deals in hand (1):\n  • copper 1'+, gold 2'+ → 3 VP"
    option = "1. Close deal: 1' copper + 2' gold for 3 VP"
    for text in (board, option):
        assert not any(p.search(text) for p in deal_patterns(short))
        assert any(p.search(text) for p in deal_patterns(long))
    assert any(p.search("  • gold 2'+ → 3 VP") for p in deal_patterns(short))
    assert any(p.search("2. Discard deal 2' gold for 3 VP for $2") for p in deal_patterns(short))
    # nor at the head of a longer deal
    assert not any(p.search("  • gold 2'+, copper 1'+ → 3 VP") for p in deal_patterns(short))
    # the log says what was paid for a closed deal in other words
    assert not any(p.search("Ana [R] closed a deal worth 3 VP, paying 2' gold.") for p in deal_patterns(short))


def test_a_gallery_content_is_not_found_in_an_enriched_level_or_a_bigger_number():
    pattern = tile_pattern("gold 3")
    assert pattern.search(f"L1 {FACE_DOWN} gold 3 (yours)")
    assert not pattern.search("• gold 3'+ → 4 VP")
    assert not pattern.search("gold 30")
    assert not pattern.search("gold ●●○")  # a face-up gallery with its cubes
    assert EMPTY_FACE_DOWN.search(f"L1 {FACE_DOWN} empty (yours)")
    assert not EMPTY_FACE_DOWN.search("L1 empty")


def test_the_log_patterns_match_the_narration_exactly_when_it_tells_a_secret():
    """The patterns follow rules.narrate: they find the sentence with the tile and not the redacted one."""
    engine = Engine.new(load_content(), ["Ana", "Ben"], seed=1, start_player=0)
    state, tile = engine.state, "gold_3#1"
    placed = ev.GalleryPlaced(1, tile, 1, 0, False, 0)
    told = narrate(placed, state)
    assert (m := PLACED_DOWN.search(told)) and m["who"] == "Ben" and m["tile"] == "gold 3"
    assert PLACED_DOWN.search(told.replace("Ben", "Ben [Y]", 1))["who"] == "Ben"  # as the log panel writes it
    assert not PLACED_DOWN.search(narrate(redact(placed, 0), state))
    assert not PLACED_DOWN.search(narrate(dataclasses.replace(placed, face_up=True), state))

    drawn = ev.GalleriesDrawn(1, (tile, "iron_2#1"))
    assert (m := DREW.search(narrate(drawn, state))) and m["who"] == "Ben"
    assert not DREW.search(narrate(redact(drawn, 0), state))

    removed = ev.GalleryRemoved(1, 2, 2, tile, 0, "pushed_off", False)
    assert REMOVED.search(narrate(removed, state))
    assert not REMOVED.search(narrate(redact(removed, 0), state))
