"""How the game screen redraws: the keys footer, the log's scroll note, moves that leave the layout alone.

The speed of the app is measured by bench/tui_bench.py, never by a test. What
is tested here is what the speed work changed on screen, and, without any
clock, what it relies on: an ordinary move in the wide layout
repaints the panels it changed instead of arranging the whole screen anew
(`SteadyLayout`); a changed content repaints only its changed lines (`Note`);
and the board under a curtain is arranged and rendered before the curtain goes.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager, contextmanager

import pytest
from rich.console import Group
from rich.segment import Segment
from rich.text import Text
from textual import events
from textual._styles_cache import StylesCache
from textual.app import App
from textual.containers import Horizontal
from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from lagoon_tui.app import WRITER_SWITCH_INTERVAL, LagoonApp
from lagoon_tui.hand_over import Draw
from lagoon_tui.screens.curtain import CurtainScreen
from lagoon_tui.screens.game import FRAME_OUT, GameScreen
from lagoon_tui.screens.help import HelpScreen
from lagoon_tui.settings import GameSettings
from lagoon_tui.turbo.compositor import paint_spots
from lagoon_tui.turbo.framing import FramedLines
from lagoon_tui.widgets import LogPanel
from lagoon_tui.widgets.keys_footer import KeysFooter, KeysLine
from lagoon_tui.widgets.note import Note, changed_rows
from lagoon_tui.widgets.player_board import PlayerBoard
from lagoon_tui.widgets.prompt import PromptPanel
from lagoon_tui.widgets.renderables import Bullets, Flow, Made, render_key
from tests.helpers.drive import (
    Policy,
    game_screen,
    offered_ids,
    prompt_options,
    quiet,
    screen_text,
    settle,
    start,
    step,
)
from tests.helpers.rooms import play_in_a_room_of_four
from tests.helpers.stills import STILLS


def two_players(seed: int = 5) -> GameSettings:
    return GameSettings(("Ana", "Ben"), ("red", "yellow"), seed, 0)


def text_of(widget) -> str:
    return "\n".join(strip.text for strip in widget.render_lines(widget.size.region))


def footer_text(screen: Screen) -> str:
    return text_of(screen.query_one(KeysFooter).query_one(KeysLine))


async def pass_first_curtain(pilot) -> None:
    await start(pilot)
    await pilot.press("enter")
    await settle(pilot)


@pytest.mark.parametrize("size", [(160, 50), (80, 24)])
async def test_the_footer_lists_the_keys_of_the_screen_shown(size):
    app = LagoonApp(settings=two_players())
    async with app.run_test(size=size) as pilot:
        await start(pilot)
        assert "I am ready" in footer_text(app.screen)  # the curtain's own key
        await pilot.press("enter")
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen)
        keys = footer_text(game)
        for shown in ("i Inspect", "u Undo", "? Keys", "f1 Rules"):
            assert shown in keys, f"{shown!r} missing from the footer: {keys!r}"
        # the page keys exist only in the compact layout, where they are listed; the
        # palette's key (ctrl+p) is shown where there is room for it
        assert ("] Next panel" in keys) == (size == (80, 24)), keys
        assert ("^p Commands" in keys) == (size == (160, 50)), keys


@pytest.mark.parametrize("size", [(160, 50), (80, 24)], ids=["160x50", "80x24"])
async def test_the_footer_offers_esc_only_while_a_step_can_be_backed_out_of(size):
    """Esc backs out of a step of a decision (the prompt's border says "Esc: back"); elsewhere it does nothing,
    and the footer does not offer it."""
    app = LagoonApp(settings=two_players())
    async with app.run_test(size=size) as pilot:
        run = await start(pilot)
        policy = Policy(3)
        seen = set()
        while len(seen) < 2 and run.accepted < 120:
            await step(pilot, run, policy)
            if not isinstance(app.screen, GameScreen):
                continue
            backs = "Esc: back" in screen_text(app) or "Esc: back" in app.screen.query_one(PromptPanel).border_words(
                "subtitle"
            )
            assert ("esc Back" in footer_text(app.screen)) == backs, (backs, footer_text(app.screen))
            seen.add(backs)
        assert seen == {True, False}


async def test_the_footer_follows_the_layout_when_the_terminal_is_resized():
    app = LagoonApp(settings=two_players())
    async with app.run_test(size=(160, 50)) as pilot:
        await pass_first_curtain(pilot)
        assert "Next panel" not in footer_text(app.screen)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert "] Next panel" in footer_text(app.screen)


async def test_a_click_on_a_key_in_the_footer_presses_it():
    app = LagoonApp(settings=two_players())
    async with app.run_test(size=(160, 50)) as pilot:
        await pass_first_curtain(pilot)
        line = app.screen.query_one(KeysLine)
        text = footer_text(app.screen)
        await pilot.click(KeysLine, offset=(text.index("Keys"), 0))
        await still(pilot)
        assert isinstance(app.screen, HelpScreen)
        assert line.keys  # (the game screen's footer is untouched underneath)


async def test_the_curtain_is_one_screen_for_the_whole_game():
    app = LagoonApp(settings=two_players())
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        first = app.screen
        assert isinstance(first, CurtainScreen)
        policy = Policy(3)
        while run.curtains < 3 or not isinstance(app.screen, CurtainScreen):
            await step(pilot, run, policy)
        assert isinstance(app.screen, CurtainScreen) and app.screen is first
        name = run.engine.state.players[run.engine.pending.seat].name
        assert f"Pass the keyboard to {name}" in text_of(app.screen.query_one("#curtain-card"))


async def test_the_curtain_card_fits_each_name():
    """The card is as wide as its words: a longer name widens it, a shorter one narrows it."""
    app = LagoonApp(settings=GameSettings(("Ana", "Bartholomew", "Cleo"), ("red", "yellow", "green"), 5, 0))
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        widths: dict[str, int] = {}
        while len(widths) < 3:
            if isinstance(app.screen, CurtainScreen):
                name = run.engine.state.players[run.engine.pending.seat].name
                card = app.screen.query_one("#curtain-card")
                text = "\n".join(strip.text for strip in card.render_lines(Region(0, 0, *card.outer_size)))
                assert f"Press Enter when only {name} can see the screen." in text, text
                widths[name] = card.outer_size.width
            await step(pilot, run, Policy(4))
        assert widths["Ana"] < widths["Cleo"] < widths["Bartholomew"]


async def test_a_curtain_for_a_name_as_long_as_the_last_arranges_nothing():
    """Ana and Ben: the card keeps its size, so the curtain comes up without a new arrangement, in one paint."""
    app = LagoonApp(settings=two_players())
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        layouts = []
        with watching(CurtainScreen, "_refresh_layout", lambda self, *_, **__: layouts.append(self)):
            while run.curtains < 6:
                await step(pilot, run, Policy(4))
        assert layouts == []


@pytest.mark.turbo
@pytest.mark.slow
@pytest.mark.parametrize("size", [(160, 50), (80, 24)])
async def test_most_moves_repaint_without_arranging_the_screen_anew(size):
    """Counted, not timed: how often the screen is laid out again and painted over 40 moves of one player.

    Before `SteadyLayout` every move arranged the whole screen two or three
    times (a new log line, a new option list, a question of another length).
    Now only moves that change a panel's height do, and they do it once: the
    player boards are fitted to the rows above them before the arrangement,
    not after it, and a row that changed height asks for no second one; at
    80x24 the page turned to the decision's panel comes in that arrangement,
    the board's scrollbar neither comes nor goes with it and its new height
    asks for none; the wide prompt grown to its options holds its height
    through a player's decisions, and its question is measured again only at
    a new width.
    A move of one key is one paint, arranged or not (a taller question was
    painted a second time, a frame later, for its new scrollable size; the
    options out of sight, the market's and the log's end are set before the
    arrangement's paint).
    A curtain that has been up a moment goes without an arrangement.

    Each move's counts run from its first key until the app is `still`; what
    comes after the choice's handler is told apart from what came in it, so
    no verdict depends on when Textual's paint timer ticks meanwhile.
    """
    app = LagoonApp(settings=two_players(8))
    async with app.run_test(size=size) as pilot:
        run = await start(pilot)
        policy = Policy(8)
        moves, arranged, painted, keys, hand_overs, in_the_open = 0, [], [], [], [], []
        with counted_on_screen("_refresh_layout", "_compositor_refresh") as counts:
            await still(pilot, counts)
            while moves < 40:
                before, keys_before = dict(counts), run.keys
                was_curtain, keyboard_before = isinstance(app.screen, CurtainScreen), run.keyboard
                await step(pilot, run, policy)
                await still(pilot, counts)  # all the move set off is counted for it (a curtain: the board under it)
                done = {name: counts[name] - before[name] for name in counts}
                if was_curtain:
                    hand_overs.append(done["_refresh_layout"])
                elif run.keyboard != keyboard_before:  # a hand-over in the open (an island to choose): 80x24
                    in_the_open.append(done["_compositor_refresh"])  # turns to the islands, fitted a paint later
                elif isinstance(app.screen, GameScreen):  # a move that kept the keyboard
                    moves += 1
                    arranged.append(done["_refresh_layout"])
                    painted.append(done["_compositor_refresh"])
                    keys.append(run.keys - keys_before)
    assert hand_overs and not any(hand_overs), f"layouts at each hand-over: {hand_overs}"
    assert in_the_open and max(in_the_open) <= 2, f"paints at each hand-over in the open: {in_the_open}"
    if size == (160, 50):
        assert max(arranged) <= 1, f"layouts at each move: {arranged}"
        assert sum(arranged) <= moves // 2, f"{sum(arranged)} layouts in {moves} moves"
        assert any(arranged), "no move changed a panel's height: the test shows nothing about arranged moves"
    else:
        # the compact prompt is as tall as its options, so most moves arrange the screen, once; a second
        # time only when the board gets or loses its scrollbar (the prompt took or gave room)
        # (before, every move was arranged two or three times and painted twice)
        assert max(arranged) <= 2 and sum(n > 1 for n in arranged) <= 3, f"layouts at each move: {arranged}"
    one_key = [
        paints for paints, pressed, layouts in zip(painted, keys, arranged) if pressed == 1 and layouts <= 1
    ]  # (the others move the highlight, or the scrollbar came)
    assert len(one_key) > moves // 2 and one_key == [1] * len(one_key), f"paints at each move: {painted}"


async def test_the_player_boards_reach_down_to_the_footer_and_no_further():
    """Wide layout mid-game: no empty band below the boards, and no scrolling when everything fits."""
    app, steps = STILLS["board"]()
    async with app.run_test(size=(160, 50)) as pilot:
        await steps(pilot)
        board = app.screen.query_one("#board")
        rows = [row.outer_size.height for row in board.query(".row")]
        assert sum(rows) == board.scrollable_content_region.height, rows
        assert board.max_scroll_y == 0


async def keep_two_objectives(pilot) -> tuple[list[Region], list[Region], int]:
    """Wide layout, the setup still: Ana keeps two of her three objectives, whose texts made her board
    taller than the screen. The board's panels before and after, and how often the screen was arranged."""
    board = pilot.app.screen.query_one("#board")
    before = [panel.region for panel in board.query(".panel")]
    assert board.max_scroll_y > 0 and board.show_vertical_scrollbar  # (the objectives' texts overflow)
    with counted_on_screen("_refresh_layout") as counts:
        await still(pilot, counts)
        counts["_refresh_layout"] = 0
        await pilot.press("1")
        await still(pilot, counts)
    assert board.max_scroll_y == 0  # (it fits)
    return before, [panel.region for panel in board.query(".panel")], counts["_refresh_layout"]


async def test_a_board_taller_than_the_screen_keeps_its_width_when_it_fits_again():
    """Wide layout: the board's scrollbar is always there (only its thumb comes and goes), so no panel moves.

    (When the scrollbar itself came and went, every panel of the board moved
    a column sideways and the whole board was painted three times.)
    """
    app, steps = STILLS["setup-choice"]()
    async with app.run_test(size=(160, 50)) as pilot:
        await steps(pilot)
        before, after, _ = await keep_two_objectives(pilot)
        assert [(r.x, r.width) for r in after] == [(r.x, r.width) for r in before]


@pytest.mark.turbo
async def test_a_board_that_fits_again_arranges_the_screen_once():
    """(Stock Textual arranges it a second time for the board's new scrollable size.)"""
    app, steps = STILLS["setup-choice"]()
    async with app.run_test(size=(160, 50)) as pilot:
        await steps(pilot)
        _, _, arranged = await keep_two_objectives(pilot)
        assert arranged == 1


async def test_the_log_says_how_many_newer_lines_are_below_when_scrolled_up():
    app = LagoonApp(settings=two_players())
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        policy = Policy(4)
        log = None
        while log is None or log.max_scroll_y < 4:
            await step(pilot, run, policy)
            if isinstance(app.screen, GameScreen):
                log = app.screen.query_one(LogPanel)
        assert str(log.border_subtitle) == "f: filter"
        assert not log.show_vertical_scrollbar
        log.scroll_relative(y=-3, animate=False)
        await still(pilot)
        assert str(log.border_subtitle) == "↓ 3 newer · f: filter"
        log.scroll_end(animate=False)
        await still(pilot)
        assert str(log.border_subtitle) == "f: filter"
        # no scrollbar, yet the keys and the mouse wheel scroll it
        log.focus()
        await pilot.press("up", "up")
        assert str(log.border_subtitle) == "↓ 2 newer · f: filter"
        log.post_message(events.MouseScrollDown(log, 2, 2, 0, 1, 0, False, False, False))
        await still(pilot)
        assert round(log.scroll_y) > log.max_scroll_y - 2


async def test_passing_the_curtain_draws_the_board_for_the_next_player_before_it_goes():
    """What was left under the curtain is never shown: the board is the next player's before the curtain goes."""
    app = LagoonApp(settings=two_players())
    seen: list[tuple[int | None, int | None, bool]] = []
    original = CurtainScreen.dismiss

    def dismiss(curtain, result=None):
        game = game_screen(app)
        shown = offered_ids(prompt_options(game))
        engine = game.host.engine
        seen.append((game.at_keyboard, engine.pending.seat, shown == list(engine.pending.ids())))
        return original(curtain, result)

    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(CurtainScreen, "dismiss", dismiss)
            policy = Policy(6)
            while run.curtains < 4:
                await step(pilot, run, policy)
    assert len(seen) == 4
    for at_keyboard, deciding, prompt_is_theirs in seen:
        assert at_keyboard == deciding is not None and prompt_is_theirs


class OneNote(App):
    def compose(self):
        yield Note(Text("\n".join(f"line {n}" for n in range(6))), id="note")


@contextmanager
def watching(cls: type, name: str, seen: Callable[..., None]):
    """While in the block, every call of `cls.name` is first shown to `seen` (with the same arguments)."""
    original = getattr(cls, name)

    def watched(self, *args, **kwargs):
        seen(self, *args, **kwargs)
        return original(self, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cls, name, watched)
        yield


@contextmanager
def counted_on_screen(*names: str):
    """While in the block, count the calls of these GameScreen methods made while the game screen is shown."""
    counts = dict.fromkeys(names, 0)
    originals = {name: getattr(GameScreen, name) for name in names}

    def counting(name):
        def counted(self, *args, **kwargs):
            if self.is_current:
                counts[name] += 1
            return originals[name](self, *args, **kwargs)

        return counted

    with pytest.MonkeyPatch.context() as patch:
        for name in names:
            patch.setattr(GameScreen, name, counting(name))
        yield counts


async def test_a_new_content_repaints_only_the_lines_that_changed():
    """A choice changes a line or two of a panel: only those lines are drawn again, the rest are kept."""
    app = OneNote()
    async with app.run_test(size=(40, 10)) as pilot:
        note = app.query_one(Note)
        drawn: list[int] = []
        with watching(Note, "render_line", lambda self, y: drawn.append(y)):
            note.update(Text("\n".join("line 3 is new" if n == 3 else f"line {n}" for n in range(6))))
            await still(pilot)
            assert drawn == [3]
            drawn.clear()
            note.update(Text("\n".join(f"line {n}" for n in range(7))))  # one line more: a new arrangement
            await still(pilot)
            assert sorted(set(drawn)) == list(range(7))
        assert "line 6" in text_of(note)


def test_the_rows_a_new_content_changed_are_told_to_the_compositor_as_runs_of_rows():
    """Three rows in a row that changed are one spot to paint, not three (the compositor visits every spot for
    every widget); a row the new content has and the old had not is a changed row too."""
    old = [Strip([Segment(f"line {n}")], 8) for n in range(8)]
    new = [*old[:1], *(Strip([Segment(f"new {n}")], 8) for n in (1, 2, 3)), *old[4:6], Strip([Segment("new")], 8)]
    new += [old[7], Strip([Segment("more")], 8)]
    assert changed_rows(old, new, 8) == [Region(0, 1, 8, 3), Region(0, 6, 8, 1), Region(0, 8, 8, 1)]
    assert changed_rows(old, old, 8) == []
    assert changed_rows(old, old[:6], 8) == [Region(0, 6, 8, 2)]


class SideBySide(Screen):
    """Two notes side by side in a row, on a screen that paints the changed spots (as the board's screens do)."""

    def __init__(self) -> None:
        super().__init__()
        paint_spots(self)

    def compose(self):
        with Horizontal(id="row"):
            yield Note(Text("\n".join(f"left {n}" for n in range(6))), id="left")
            yield Note(Text("\n".join(f"right {n}" for n in range(6))), id="right")


class SideBySideApp(App):
    CSS = "#row { background: $panel; } Note { width: 1fr; height: auto; margin: 0 1; }"

    def get_default_screen(self) -> Screen:
        # (its only screen: a screen pushed over the default one had the one below, never painted, ask for a
        # whole paint of the top one whenever its timer came, within the watched window on a busy machine)
        return SideBySide()


@pytest.mark.turbo
async def test_a_changed_line_of_one_panel_paints_nothing_of_what_is_behind_the_panels():
    """A line of the left note changes: the row behind the notes is painted nowhere, although its line is
    painted (before, the rest of that line, behind and beside the notes, was painted and never written)."""
    app = SideBySideApp()
    async with app.run_test(size=(60, 10)) as pilot:
        await still(pilot)
        left, row = app.screen.query_one("#left", Note), app.screen.query_one("#row")
        behind: list[Region] = []
        with watching(Horizontal, "render_lines", lambda self, crop: behind.append(crop) if self is row else None):
            left.update(Text("\n".join("left 3 is new" if n == 3 else f"left {n}" for n in range(6))))
            await still(pilot)
        assert behind == []
        lines = screen_text(app).splitlines()
        assert "left 3 is new" in lines[3] and "right 3" in lines[3], lines[3]


class FramedNote(App):
    CSS = "Note { border: round $accent; height: auto; }"

    def compose(self):
        yield Note(Text("\n".join(f"line {n}" for n in range(6))), id="note")


async def test_a_new_border_title_or_subtitle_repaints_its_own_row_only():
    """A player board's title says whose turn it is and its foot "* changed": at each turn two or three boards
    got a new title or foot, and Textual painted (and sent) every line of each. Now only that row is painted."""
    app = FramedNote()
    async with app.run_test(size=(40, 10)) as pilot:
        note = app.query_one(Note)
        note.set_border_title("Ana")
        note.set_border_subtitle("f: filter")
        await still(pilot)
        rows: list[int] = []  # the rows of the note framed anew (border rows and lines of content)
        with watching(type(note._styles_cache), "render_line", lambda self, styles, y, *rest: rows.append(y)):
            note.set_border_title("Ben ▶ to play")
            await still(pilot)
            assert set(rows) == {0}, rows
            assert "Ben ▶ to play" in screen_text(app).splitlines()[0]
            rows.clear()
            note.set_border_subtitle("* changed")
            await still(pilot)
            bottom = note.outer_size.height - 1
            assert set(rows) == {bottom}, rows
            assert "* changed" in screen_text(app).splitlines()[bottom]


def textuals_framing(widget: Widget) -> list[list[Segment]]:
    """The widget's lines as Textual's own styles cache frames them (from scratch)."""
    ours = widget._styles_cache
    widget._styles_cache = StylesCache()
    try:
        return [list(strip) for strip in widget.render_lines(widget.region.size.region)]
    finally:
        widget._styles_cache = ours


@pytest.mark.turbo
async def test_a_note_that_grows_keeps_the_lines_it_framed():
    """A board whose row grows by a line (a deal in hand) is painted again whole; its lines of content were
    framed again too, although only its height had changed. Now they keep their framed strips (and so the
    strips' own caches), and what is painted is still what Textual frames."""
    app = FramedNote()
    async with app.run_test(size=(40, 12)) as pilot:
        note = app.query_one(Note)
        note.update(Group(*(Text(f"part {n}") for n in range(6))))  # (a part a line, as on a board)
        await still(pilot)
        before = note.render_lines(note.region.size.region)
        note.update(Group(*(Text(f"part {n}") for n in range(7))))
        await still(pilot)
        assert note.region.height == len(before) + 1
        after = note.render_lines(note.region.size.region)
        assert all(old is new for old, new in zip(before[1:-1], after[1:-2])), "lines of content framed again"
        assert [list(strip) for strip in after] == textuals_framing(note)


class OutlinedNote(App):
    CSS = "Note { outline: solid red; height: auto; }"

    def compose(self):
        yield Note(Text("\n".join(f"line {n}" for n in range(4))), id="note")


async def test_a_line_under_an_outline_is_framed_where_it_is_now():
    """An outline draws over the content's first and last lines; a line that moves keeps no frame of the row
    it was on (such frames are Textual's, line by line)."""
    app = OutlinedNote()
    async with app.run_test(size=(40, 10)) as pilot:
        note = app.query_one(Note)
        note.update(Group(*(Text(f"part {n}") for n in range(4))))
        await still(pilot)
        note.update(Group(*(Text(f"part {n}") for n in range(-1, 3))))  # (the same lines, each a row lower)
        await still(pilot)
        assert [list(strip) for strip in note.render_lines(note.region.size.region)] == textuals_framing(note)


async def test_a_part_of_a_content_that_did_not_change_is_not_laid_out_again():
    """A panel is a Group of parts: Rich lays out again only the parts that changed (and all of them at a new width)."""
    app = OneNote()
    async with app.run_test(size=(40, 10)) as pilot:
        note = app.query_one(Note)
        laid_out: list[str] = []

        def board(money: int) -> Group:
            return Group(
                Text(f"Money ${money}"),
                Flow([Text("Merchants 2/3"), Text("Miners 1/2")]),
                Bullets([Text("Relic Hunter: artifacts at the end earn VP")]),
            )

        note.update(board(3))
        await still(pilot)
        with watching(
            Note,
            "_draw_part",
            lambda self, part, *_: laid_out.append(part.plain if isinstance(part, Text) else type(part).__name__),
        ):
            note.update(board(5))
            await still(pilot)
            assert laid_out == ["Money $5"]
            assert text_of(note).splitlines()[0].strip() == "Money $5"
            assert "Merchants 2/3" in text_of(note) and "Relic Hunter" in text_of(note)
            laid_out.clear()
            note.styles.width = 30  # another width: every part again
            await still(pilot)
            assert laid_out == ["Money $5", "Flow", "Bullets"]


async def test_every_part_of_every_board_panel_keeps_its_lines_while_it_does_not_change():
    """Each part of a board panel has a render key, so a move that leaves a part as it was costs it no Rich layout.

    (The action rows of an island, a player board's groups, the score track
    and the centre's grid had none and were laid out again at every move.)
    Checked on every panel after every move of the opening of a game.
    """
    app = LagoonApp(settings=two_players())
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        policy = Policy(4)
        kinds = set()
        for _ in range(40):
            await step(pilot, run, policy)
            for panel in game_screen(app).query(Note):
                content = panel._content
                for part in content.renderables if isinstance(content, Group) else (content,):
                    kinds.add(type(part).__name__)
                    assert render_key(part) is not None, f"{panel!r}: a {type(part).__name__} has no render key"
                    if isinstance(part, Made):  # (and what it holds)
                        kinds.add(type(part.renderable).__name__)
        assert {"ActionRows", "Group", "ByWidth", "Track", "CentreGrid", "SiteGrid", "CubeGrid", "Made"} <= kinds, kinds


@pytest.mark.turbo
async def test_the_board_is_rendered_while_the_curtain_is_up():
    """Passing a curtain puts the board's lines together: those of panels that kept their size are not drawn again."""
    app = LagoonApp(settings=two_players())
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        policy = Policy(6)
        checked = 0
        drawn: list[Note] = []
        original = Note.render_line

        def counted(self, y):
            drawn.append(self)
            return original(self, y)

        while checked < 3:
            await step(pilot, run, policy)
            if not isinstance(app.screen, CurtainScreen) or run.curtains < 2:
                continue
            game = game_screen(app)
            await still(pilot)
            sizes = {note: note.size for note in game.query(Note)}
            drawn.clear()
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(Note, "render_line", counted)
                await step(pilot, run, policy)  # Enter: the curtain goes
            assert app.screen is game
            redrawn = {note for note in drawn if note.size == sizes[note]}
            assert not redrawn, f"drawn again on passing the curtain: {sorted(type(n).__name__ for n in redrawn)}"
            checked += 1


async def messages_handled(app: App) -> None:
    """Every message queued so far to the app, to the screen on top and, under a curtain, to the board has been handled.

    (Pilot waits so for the screen on top only; the board under a curtain is
    drawn and arranged by messages of its own. The screens below are left
    alone: a message to one would wake it to paint what it had put off.)
    """
    screens = [app.screen]
    if isinstance(app.screen, CurtainScreen) and game_screen(app) is not None:
        screens.append(game_screen(app))
    left = 0
    handled = asyncio.Event()

    def one_handled() -> None:
        nonlocal left
        left -= 1
        if not left:
            handled.set()

    for node in (app, *(node for screen in screens for node in screen.walk_children(with_self=True))):
        if node.call_later(one_handled):
            left += 1
    if left:
        await asyncio.wait_for(handled.wait(), 30)  # (only turns a hang into a failure)


def nothing_to_do(app: App) -> bool:
    """The screen on top has nothing left to arrange, paint or call back; under a curtain, the board is ready.

    Ready: drawn for the player the curtain names, with nothing left to call
    back (its arrangement is one). Whether it was arranged is left for the
    tests to see: a board left unarranged is arranged when the curtain goes.
    """
    if not quiet(app):
        return False
    curtain, game = app.screen, game_screen(app)
    if not isinstance(curtain, CurtainScreen) or game is None:
        return True
    engine = game.host.engine
    return (
        curtain.prepare is None
        and game.shows(Draw(engine.pending.seat))  # (drawn for the seat the curtain calls)
        and not game._callbacks
    )


async def still(pilot, counts: dict[str, int] | None = None, turns: int = 20_000) -> None:
    """Wait until the app has done all it was set to do: told by what it did, never by a clock.

    A turn handles every message queued so far (`messages_handled`) and lets
    the screen on top paint what it has to (as Pilot's pause does). The app is
    still after two turns in a row that left `nothing_to_do` and changed no
    count in `counts`. Under a curtain that waits for the board to be drawn,
    which the curtain puts off by a timer (`FRAME_OUT`): so a turn pauses for
    a millisecond rather than spinning. `turns` (20 s at least) only turns a hang into a failure.
    """
    app, calm = pilot.app, 0
    for _ in range(turns):
        before = dict(counts or {})
        await messages_handled(app)
        await pilot.pause(0.001)
        calm = calm + 1 if nothing_to_do(app) and before == (counts or {}) else 0
        if calm == 2:
            return
    raise AssertionError(f"the app never came to rest; on {app.screen!r}")


async def test_the_board_is_drawn_under_a_curtain_once_the_curtain_has_had_time_to_reach_the_terminal():
    """Mid-game, the board for the next player is drawn FRAME_OUT after the curtain's paint, not at once.

    (Textual's writer thread takes the interpreter back after each piece of
    the frame the terminal accepts: a board drawn at once held the curtain's
    frame back by up to 6 ms.) Told by the order of things, not by a clock:
    the board is drawn when a timer of FRAME_OUT fires, started after the
    curtain was painted (and a timer never fires before its time).
    """
    app = LagoonApp(settings=two_players())
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        seen: list[str] = []  # what happened, in order: "up", "painted", "timer", "fired", "drawn"
        resume, paint = CurtainScreen.on_screen_resume, CurtainScreen._compositor_refresh
        draw, set_timer = GameScreen._draw, GameScreen.set_timer

        def curtain_up(self):
            seen.append("up")
            resume(self)

        def curtain_painted(self):
            seen.append("painted")
            paint(self)

        def board_drawn(self, how):
            if isinstance(self.app.screen, CurtainScreen):
                seen.append("drawn")
            draw(self, how)

        def timer(self, delay, callback=None, **kwargs):
            if delay == FRAME_OUT and callback is not None:
                seen.append("timer")
                fire = callback

                def callback():
                    seen.append("fired")
                    return fire()

            return set_timer(self, delay, callback, **kwargs)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(CurtainScreen, "on_screen_resume", curtain_up)
            patch.setattr(CurtainScreen, "_compositor_refresh", curtain_painted)
            patch.setattr(GameScreen, "_draw", board_drawn)
            patch.setattr(GameScreen, "set_timer", timer)
            policy = Policy(6)
            while seen.count("drawn") < 4:
                await step(pilot, run, policy)
                if isinstance(app.screen, CurtainScreen):
                    await still(pilot)
    shown: list[list[str]] = []  # what happened while each curtain was up
    for what in seen:
        if what == "up":
            shown.append([])
        elif shown:
            shown[-1].append(what)
    under = [curtain for curtain in shown if "drawn" in curtain]
    assert len(under) >= 4, seen
    for curtain in under:  # painted, a timer of FRAME_OUT started, and the board drawn when it fired
        assert "painted" in curtain and "timer" in curtain, f"the board was drawn at once: {curtain}"
        assert curtain.index("painted") < curtain.index("timer"), f"the timer started before the paint: {curtain}"
        assert curtain.index("drawn") - 1 == curtain.index("fired"), f"not drawn by the timer: {curtain}"


@pytest.mark.turbo
async def test_a_curtain_that_has_been_up_a_moment_goes_in_one_paint():
    """Under the curtain the screen is arranged for the next player's board: passing it arranges nothing, paints once.

    (Before, Textual arranged the screen when the curtain went and then
    painted it twice: for the new arrangement and because the screen came
    back. Counted, not timed.)
    """
    app = LagoonApp(settings=two_players())
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        policy = Policy(6)
        passed = []
        while len(passed) < 4:
            await step(pilot, run, policy)
            if not isinstance(app.screen, CurtainScreen):
                continue
            await still(pilot)
            with counted_on_screen("_refresh_layout", "_compositor_refresh") as counts:
                await step(pilot, run, policy)  # Enter: the curtain goes
                await still(pilot, counts)
            passed.append(counts)
    assert passed == [{"_refresh_layout": 0, "_compositor_refresh": 1}] * 4, passed


@pytest.mark.turbo
async def test_a_choice_that_raises_the_curtain_paints_it_once_though_the_board_is_drawn_under_it():
    """The board drawn under the curtain is not painted: the curtain is written once, not again over it.

    (Textual counts the screen under the curtain as shown: each change of the
    board drawn there made it paint the curtain again, the same cells, two
    more frames 40–170 ms after the key. Counted, not timed: the paints of the
    curtain as a whole, which is how the board under it repaints it. On a busy
    machine the new words of the card may be painted a second time, a frame
    after the whole: those lines alone, not counted here.)
    """
    app = LagoonApp(settings=two_players())
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        policy = Policy(6)
        paints: list[int] = []
        while len(paints) < 4:
            if isinstance(app.screen, CurtainScreen):
                await step(pilot, run, policy)
                await still(pilot)
                continue
            counts = {"curtain": 0}

            def painted(curtain: CurtainScreen) -> None:
                if curtain in curtain._dirty_widgets:  # (the whole of it: the words' own lines are not counted)
                    counts["curtain"] += 1

            with watching(CurtainScreen, "_compositor_refresh", painted):
                await step(pilot, run, policy)
                await still(pilot, counts)
            if isinstance(app.screen, CurtainScreen):
                assert game_screen(app).shows(Draw(run.engine.pending.seat))  # (the board was drawn under it)
                paints.append(counts["curtain"])
    assert paints == [1] * 4, paints


async def test_ctrl_l_paints_every_line_of_the_board_anew_and_the_help_says_so():
    """ctrl+l is the terminal's "redraw": every line of every panel is drawn again, not taken from a cache."""
    app = LagoonApp(settings=two_players())
    async with app.run_test(size=(160, 50)) as pilot:
        await pass_first_curtain(pilot)
        game = game_screen(app)
        shown = [note for note in game.query(Note) if note.region and note.display]
        drawn: dict[Note, set[int]] = {}
        with watching(Note, "render_line", lambda self, y: drawn.setdefault(self, set()).add(y)):
            await still(pilot)
            assert not drawn  # a still screen draws nothing
            await pilot.press("ctrl+l")
            await still(pilot)
        for note in shown:
            assert drawn.get(note) == set(range(note.content_size.height)), f"{note!r} was not drawn whole"
        await pilot.press("question_mark")
        await still(pilot)
        assert isinstance(app.screen, HelpScreen)
        assert ("^l", "Redraw the screen") in app.screen.keys


async def test_while_the_app_runs_the_thread_writing_frames_waits_at_most_half_a_millisecond():
    """Textual writes frames from a thread that must wait for the interpreter lock: the app shortens that wait.

    (With Python's 5 ms, the frame that puts up a curtain reached the terminal
    only once the board under it was drawn.) Put back when the app ends.
    """
    before = sys.getswitchinterval()
    app = LagoonApp(settings=two_players())
    async with app.run_test(size=(160, 50)) as pilot:
        await start(pilot)
        assert sys.getswitchinterval() == pytest.approx(WRITER_SWITCH_INTERVAL) and WRITER_SWITCH_INTERVAL <= 0.0005
    assert sys.getswitchinterval() == pytest.approx(before)


async def test_a_new_game_screen_is_drawn_for_its_first_player_before_it_is_first_arranged():
    """The board under the first curtain is drawn for the player it names before Textual arranges the screen.

    (Drawn under the curtain, it was arranged empty first, and arranged again
    with its content after Enter: 2 % of the start-up instructions.)
    """
    seen: list[str] = []
    app = LagoonApp(settings=two_players())
    with (
        watching(GameScreen, "_draw", lambda self, draw: seen.append(f"draw for {draw.seat}")),
        watching(GameScreen, "_refresh_layout", lambda self, *_, **__: seen.append("arrange")),
    ):
        async with app.run_test(size=(160, 50)) as pilot:
            await start(pilot)
            assert isinstance(app.screen, CurtainScreen)
    assert seen[:2] == ["draw for 0", "arrange"], seen


@pytest.mark.turbo  # (on stock Textual a paint timer's tick may come between: one paint or two)
@pytest.mark.parametrize("size", [(160, 50), (80, 24)])
async def test_the_first_curtain_of_a_game_goes_in_one_paint_too(size):
    """The first board of a game, like every later one, is arranged under its curtain: Enter arranges nothing.

    (Textual showed each screen's notification rack the first time the screen
    came up, and that arranged the whole board again, 20-30 ms at 160x50; the
    Resize events of a start each asked for one more arrangement as well.)
    """
    app = LagoonApp(settings=two_players())
    async with app.run_test(size=size, notifications=True) as pilot:  # (as `lagoon` runs: with notifications)
        run = await start(pilot)
        curtain = app.screen
        assert isinstance(curtain, CurtainScreen)
        await pilot.resize_terminal(*size)  # as a terminal does at a start: a Resize to the size it has
        await still(pilot)
        with counted_on_screen("_refresh_layout", "_compositor_refresh") as counts:
            await step(pilot, run, Policy(6))  # Enter: the curtain goes
            await still(pilot, counts)
        assert isinstance(app.screen, GameScreen)
    assert counts == {"_refresh_layout": 0, "_compositor_refresh": 1}, counts


@pytest.mark.turbo
async def test_a_resize_to_the_size_the_curtain_has_already_arranges_nothing():
    """A start brought three Resize events to the size the terminal had: each arranged and painted the curtain again.

    A real change of size still arranges it, and the card stays in the middle.
    """
    app = LagoonApp(settings=two_players())
    async with app.run_test(size=(160, 50)) as pilot:
        await start(pilot)
        curtain = app.screen
        assert isinstance(curtain, CurtainScreen)
        await settle(pilot)
        arranged: list[object] = []
        with watching(CurtainScreen, "_refresh_layout", lambda self, *_, **__: arranged.append(self)):
            for _ in range(3):
                await pilot.resize_terminal(160, 50)
            await still(pilot)
            assert arranged == []
            await pilot.resize_terminal(120, 40)
            await still(pilot)
            assert arranged
        card = curtain.query_one("#curtain-card")
        assert curtain.size == (120, 40)
        middle = card.region.x + card.region.width // 2
        assert abs(middle - 60) <= 1, card.region


async def test_the_compact_board_is_not_paged_again_for_a_resize_to_the_size_it_has():
    """A start's Resize events of the terminal's own size each showed the page and its hint again.

    A real change of size still fits the page (the hint line is rewritten for it).
    """
    from lagoon_tui.screens.paging import PagedScreen

    app = LagoonApp(settings=two_players())
    async with app.run_test(size=(80, 24)) as pilot:
        run = await start(pilot)
        await step(pilot, run, Policy(3))  # the curtain passed: the compact board
        await settle(pilot)
        game = game_screen(app)
        assert app.screen is game and game.has_class("compact")
        paged: list[object] = []
        with watching(PagedScreen, "_show_page", lambda self: paged.append(self)):
            for _ in range(3):
                await pilot.resize_terminal(80, 24)
            await still(pilot)
            assert paged == []
            await pilot.resize_terminal(90, 30)
            await still(pilot)
            assert paged == [game]


@pytest.mark.turbo
async def test_a_line_of_the_log_is_framed_once_however_often_it_moves_up():
    """A new log line moves every line of a full log up a row: they are painted as already framed, not framed again.

    (Textual framed each line of a widget, padding, border and colours, each
    time it painted it: the log's whole height at every move, for a line or
    two of news. See `FramedLines`.) The log still shows the newest line.
    """
    app = LagoonApp(settings=two_players())
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        policy = Policy(4)
        log = game_screen(app).query_one(LogPanel)
        while len(log.lines) <= log.scrollable_content_region.height:  # until the log is full and scrolls
            await step(pilot, run, policy)
        checked = 0
        for _ in range(30):
            reader, before = log.scene.seat, len(log.lines)
            framed: list[int] = []
            with watching(
                StylesCache,
                "render_line",
                lambda cache, styles, y, *rest: framed.append(y) if cache is log._styles_cache else None,
            ):
                await step(pilot, run, policy)
                await still(pilot)
            new = len(log.lines) - before
            if app.screen is not game_screen(app) or log.scene.seat != reader or new <= 0:
                continue  # another reader's log is written anew; a move that wrote nothing moves nothing
            content_rows = [y for y in framed if 0 < y < log.outer_size.height - 1]  # not the border's rows
            assert len(content_rows) <= new, (new, sorted(framed))
            shown = [strip.text for strip in log.render_lines(log.outer_size.region)]
            assert log.scene.log[-1].text.split()[-1] in " ".join(shown[-3:-1]), shown
            checked += 1
        assert checked >= 5, checked


@pytest.mark.turbo
@pytest.mark.parametrize("size", [(160, 50), (80, 24)])
async def test_every_line_we_frame_is_what_textual_would_have_painted(size):
    """Our widgets frame their lines once, from sides worked out once (`FramedLines`): the strips are Textual's own.

    Every widget so framed on the screens of a game's opening is painted
    both ways and compared segment by segment (text and style).
    """
    app = LagoonApp(settings=two_players())
    async with app.run_test(size=size) as pilot:
        run = await start(pilot)
        policy = Policy(4)
        compared: set[str] = set()
        for n in range(16):
            await step(pilot, run, policy)
            for widget in app.screen.query("*"):
                if not isinstance(widget._styles_cache, FramedLines) or not widget.region:
                    continue
                whole = widget.region.size.region
                ours = widget.render_lines(whole)
                widget._styles_cache = StylesCache()
                try:
                    textuals = widget.render_lines(whole)
                finally:
                    widget._styles_cache = FramedLines()
                assert [list(strip) for strip in ours] == [list(strip) for strip in textuals], widget
                compared.add(type(widget).__name__)
        assert {"PromptPanel", "PromptOptions", "PlayerBoard", "Card"} <= compared, compared
        if size == (160, 50):
            assert {
                "LogPanel",
                "IslandPanel",
                "MarketPanel",
                "MiningSitePanel",
                "EnrichmentCenterPanel",
                "ScoreTrackPanel",
                "RoundTrackPanel",
            } <= compared, compared


async def test_a_digit_or_an_arrow_is_acted_on_as_it_comes_in_not_passed_up_the_screen():
    """The prompt's keys are priority bindings: Textual acts on them when the key arrives.

    Any other key goes to the focused widget and then up through every
    container to the app, a message each, before its binding is looked for.
    Other keys still work as before (f: the log filter).
    """
    app = LagoonApp(settings=two_players())
    async with app.run_test(size=(160, 50)) as pilot:
        await pass_first_curtain(pilot)
        game = game_screen(app)
        options = prompt_options(game)
        passed_on: list[str] = []
        with watching(
            Widget,
            "_forward_event",
            lambda widget, event: passed_on.append(event.key) if isinstance(event, events.Key) else None,
        ):
            before, events_before = options.highlighted, len(game.host.engine.events)
            await pilot.press("down")
            await settle(pilot)
            assert options.highlighted == (0 if before is None else before + 1)
            await pilot.press("1")
            await settle(pilot)
            assert len(game.host.engine.events) > events_before  # the first option was chosen
            assert passed_on == []
            await pilot.press("f")
            await settle(pilot)
        assert passed_on == ["f"] and game.query_one(LogPanel).filter_seat == 0


@pytest.mark.turbo
async def test_a_resize_to_the_size_the_board_has_already_arranges_nothing():
    """Terminals send Resize events with the size they have (three came at a start): the board is not arranged for them.

    A board waiting for an arrangement when they come is arranged once, and a
    real change of size still arranges it.
    """
    app = LagoonApp(settings=two_players())
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        await step(pilot, run, Policy(6))  # the first curtain goes
        await settle(pilot)
        with counted_on_screen("_refresh_layout") as same:
            for _ in range(3):
                await pilot.resize_terminal(160, 50)
            await still(pilot, same)
        with counted_on_screen("_refresh_layout") as waiting:  # a panel asked for an arrangement as they came
            game_screen(app).query_one("#board").refresh(layout=True)
            for _ in range(3):
                await pilot.resize_terminal(160, 50)
            await still(pilot, waiting)
        with counted_on_screen("_refresh_layout") as wider:
            await pilot.resize_terminal(170, 50)
            await still(pilot, wider)
        assert game_screen(app).size == (170, 50)
    assert same == {"_refresh_layout": 0}, same
    assert waiting == {"_refresh_layout": 1}, waiting
    assert wider["_refresh_layout"] >= 1, wider


@pytest.mark.turbo
@pytest.mark.parametrize("size", [(160, 50), (80, 24)])
async def test_no_screen_is_restyled_as_a_whole_when_first_shown(size):
    """Widgets are styled as they mount; Textual restyled them all again when their screen was first shown.

    (About 10 ms of the start for the game screen, 2 ms for the empty one
    under it.) In a small terminal the game screen's layout class ("compact")
    is given before its widgets mount: given after, it restyled them all
    (about 9 ms). A screen's styles updated before it has children restyle
    nothing else.
    """
    restyled: list[Screen] = []

    def whole(screen, *_, **__):
        if screen.children:
            restyled.append(screen)

    app = LagoonApp(settings=two_players())
    with watching(Screen, "update_node_styles", whole):
        async with app.run_test(size=size) as pilot:
            await start(pilot)
            assert isinstance(app.screen, CurtainScreen) and restyled == []


@pytest.mark.turbo
async def test_the_curtain_is_restyled_when_it_comes_up_only_after_the_app_changed_its_styles():
    """Textual restyled every widget of the curtain each time it came up (about 3 ms a hand-over).

    A new theme chosen meanwhile still restyles it: the card shows the new theme's colours.
    """
    restyled: list[Screen] = []
    app = LagoonApp(settings=two_players())
    async with app.run_test(size=(160, 50)) as pilot:
        run = await start(pilot)
        policy = Policy(4)
        with watching(CurtainScreen, "update_node_styles", lambda self, *_, **__: restyled.append(self)):
            curtains = 0
            while curtains < 3:
                await step(pilot, run, policy)
                curtains += isinstance(app.screen, CurtainScreen)
            assert restyled == []
            while isinstance(app.screen, CurtainScreen):
                await step(pilot, run, policy)
            app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
            await settle(pilot)
            while not isinstance(app.screen, CurtainScreen):
                await step(pilot, run, policy)
            assert len(restyled) == 1
            theme = app.current_theme
            assert app.screen.styles.background.hex.lower() == theme.background.lower(), (
                app.screen.styles.background,
                theme.background,
            )


@pytest.mark.turbo
@pytest.mark.parametrize("seat", [0, None], ids=["player", "spectator"])
async def test_a_seat_at_its_own_terminal_is_seldom_arranged_anew_as_the_game_goes_on(seat):
    """A 4-player room at 160x50: the app of Ana's seat (she answers with digit keys) or of a spectator, over
    120 moves. A panel that grows by a line beside a taller one (the round track, a mining site), a market a
    line shorter or longer, the score track's markers stacking and parting, the prompt as the turn comes and
    goes: none of them arranges the screen, which would paint every panel below anew.

    Before, over the same moves: 22 arrangements for Ana's seat (the prompt shrinking to wait and growing
    at her next turn, the others' panels), 6 for the spectator. Now 6 and none."""
    counts: dict[str, int] = {}

    @contextmanager
    def watch(app: App):
        with counted_on_screen("_refresh_layout") as counted:
            yield
        counts.update(counted)

    await play_in_a_room_of_four(seat, watch)
    assert counts["_refresh_layout"] <= (12 if seat == 0 else 3), counts


@pytest.mark.parametrize("seat", [0, None], ids=["player", "spectator"])
async def test_a_turn_passing_paints_the_title_rows_of_the_boards_not_the_boards(seat):
    """The same room: a move changes a line or two of a board or two, and passes the turn, which the boards
    tell in their titles (and "* changed" at their feet). Marked by a heavy frame, each turn painted the
    boards of the player it left and of the one it came to whole, every line sent to the terminal again:
    23 rows of the boards framed anew a move for Ana, 15 for the spectator (over these 120 moves). Now 5.5
    and 4."""
    rows: list[int] = []

    def framed(cache, styles, y, size, content_size, padding, base, background, render_content_line, *rest):
        if isinstance(getattr(render_content_line, "__self__", None), PlayerBoard):
            rows.append(y)

    def watch(app: App) -> AbstractContextManager:  # (the class that frames the boards' rows: ours, or Textual's)
        return watching(type(app.screen.query_one(PlayerBoard)._styles_cache), "render_line", framed)

    moves = 120
    await play_in_a_room_of_four(seat, watch, moves)
    assert len(rows) <= 7 * moves, len(rows) / moves
