"""The app of one seat at its own terminal, its game hosted in a room elsewhere (`lagoon_tui.seat_app`).

Ana plays in the app; Ben and Cleo play through their own links, as other
terminals would. The app is the same game screen as at one keyboard, drawn
for Ana alone: no curtain ever, the others' moves appear as they are made, and
the bell and the title tell her when it is her turn.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from textual.pilot import Pilot

from lagoon_tui.link import Link
from lagoon_tui.screens.curtain import CurtainScreen
from lagoon_tui.screens.end import EndScreen
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.screens.since import SinceScreen
from lagoon_tui.seat_app import SeatApp
from lagoon_tui.widgets import LogPanel
from rules.host import Host, load_content
from tests.helpers.drive import keys_for, offered_ids, prompt_options, screen_text, widget_text
from tests.helpers.marks import check_boards
from tests.helpers.rooms import RoomThread, until, until_shown

CONTENT = load_content()
NAMES, COLOURS = ["Ana", "Ben", "Cleo"], ["red", "yellow", "green"]


def counting_bells(app: SeatApp) -> list[int]:
    """(The bells the app rings, counted as it rings them.)"""
    rung = [0]
    ring = app.bell

    def bell() -> None:
        rung[0] += 1
        ring()

    app.bell = bell
    return rung


def others_play(links, until_seat: int) -> None:
    """Ben and Cleo (`links`, their own links) take their first option until the decision is `until_seat`'s.

    (Ana's link is the app's: its messages are applied on the app's loop, which waits while this runs.)
    """
    watcher = next(iter(links.values()))
    while True:
        turn = watcher.turn()
        if turn.seat in (None, until_seat):
            return
        link = links[turn.seat]
        until(lambda: link.message.prompt is not None, "the decider's options")
        seen = [other.changes for other in links.values()]
        assert link.choose(link.message.prompt.options[0].id)
        until(lambda: all(o.changes > n for o, n in zip(links.values(), seen)), "the move on the others' links")


async def test_a_seat_plays_from_its_own_app_and_sees_the_others_moves():
    room = RoomThread(Host.new(CONTENT, NAMES, COLOURS, seed=4, start_player=1))
    try:
        links = {seat: room.remote(seat) for seat in (1, 2)}
        app = SeatApp(Link(room.socket(0)))
        own = app.remote
        rung = counting_bells(app)
        async with app.run_test(size=(160, 50)) as pilot:
            await until_shown(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
            screen = app.screen
            assert isinstance(screen, GameScreen) and screen.own == 0
            bells = rung[0]
            assert screen.says != "Your turn"
            passed_on = True  # the decision came to Ana from another seat (the bell rings for that)
            for _move in range(8):
                seen = own.changes
                others_play(links, until_seat=0)
                await until_shown(pilot, lambda: own.turn().seat == 0 and screen._shown == own.changes, "Ana's turn")
                if own.changes > seen:
                    # what Ben or Cleo did is on Ana's screen: the newest line of her log ends the log panel
                    # (which tags the names with their letters: "Cleo [G] runs ...")
                    shown = re.sub(r" \[[RYG]\]", "", " ".join(widget_text(screen.query_one(LogPanel)).split()))
                    assert shown.endswith(" ".join(own.message.log[-1].text.split()))
                assert screen.says == "Your turn"
                assert rung[0] == bells + (1 if passed_on else 0)
                bells = rung[0]
                options = prompt_options(screen)
                assert offered_ids(options) == [choice.id for choice in own.message.prompt.options]
                before = own.changes
                for key in keys_for(0, options.option_count):
                    await pilot.press(key)
                await until_shown(pilot, lambda: own.changes > before and screen._shown == own.changes, "Ana's move")
                passed_on = own.turn().seat != 0
                if passed_on:
                    assert screen.says == own.turn().says  # "Ben is choosing an island"
                assert not any(isinstance(s, CurtainScreen) for s in app.screen_stack)
    finally:
        room.stop()


async def test_the_end_of_a_hosted_game_shows_the_ranking_and_leaving_ends_the_app():
    whole = Host.at_random(CONTENT, NAMES, COLOURS, seed=9, moves=None)
    moves = len(whole.engine.marks)
    host = Host.at_random(CONTENT, NAMES, COLOURS, seed=9, moves=moves - 6)
    room = RoomThread(host)
    try:
        links = {seat: room.remote(seat) for seat in (1, 2)}
        app = SeatApp(Link(room.socket(0)))
        own = app.remote
        async with app.run_test(size=(160, 50)) as pilot:
            await until_shown(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
            for _ in range(20):
                others_play(links, until_seat=0)
                if links[1].over:
                    break
                await until_shown(pilot, lambda: own.turn().seat == 0 and app.screen._shown == own.changes)
                before = own.changes
                for key in keys_for(0, prompt_options(app.screen).option_count):
                    await pilot.press(key)
                await until_shown(pilot, lambda: own.changes > before, "Ana's move")
            await until_shown(pilot, lambda: app.screen.finished, "the last board")
            assert "The game is over: Enter for the scores" in screen_text(app)
            await pilot.press("enter")
            await until_shown(pilot, lambda: "Final ranking" in screen_text(app), "the end screen")
            text = screen_text(app)
            assert isinstance(app.screen, EndScreen) and "Leave" in text and "New game" not in text
            await pilot.press("n")  # (not here: a game hosted elsewhere)
            await pilot.press("p")
            assert isinstance(app.screen, EndScreen)
            await pilot.press("b")
            assert app.return_code == 0  # (the app is ending: the session with it)
    finally:
        room.stop()


async def test_w_lists_what_the_others_did_since_the_seats_last_move():
    """At her own terminal, Ana's w lists what Ben and Cleo did since her last move, in the words
    everyone's log has (the room's spectator message), and w closes it again."""
    async with ana_at_her_terminal() as (host, links, pilot):
        app = pilot.app
        own, screen = app.remote, app.screen
        for _move in range(12):  # Ana's moves until the others have moved since one of them
            others_play(links, until_seat=0)
            await until_shown(pilot, lambda: own.turn().seat == 0 and screen._shown == own.changes, "Ana's turn")
            if own.message.since:
                break
            await ana_picks_the_first_option(pilot, screen, own)
        said = [" ".join(line.text.split()) for line in host.scene(None).log]  # (quiet: Ana decides)
        assert own.message.since
        await pilot.press("w")
        await until_shown(pilot, lambda: isinstance(app.screen, SinceScreen), "the window")
        await pilot.pause()
        listed = since_listed(app)
        assert listed == said[len(said) - len(listed) :] and any("Ben" in s or "Cleo" in s for s in listed)
        assert "What changed since your last move" in screen_text(app)
        await pilot.press("w")
        await until_shown(pilot, lambda: app.screen is screen, "the board again")


async def test_a_seats_w_window_follows_the_others_and_its_boards_mark_their_moves():
    """At her own terminal, Ana opens w as her turn ends; Ben and Cleo then play from their terminals:
    their moves show in the open window, and once it is closed the player boards mark what changed
    since her last move (as everyone may see it), until her next move clears them."""
    async with ana_at_her_terminal() as (host, links, pilot):
        app = pilot.app
        own, screen = app.remote, app.screen
        marked = 0
        for _move in range(12):  # Ana's moves until the others change a board since one of them
            await until_shown(pilot, lambda: own.turn().seat == 0 and screen._shown == own.changes, "Ana's turn")
            await ana_picks_the_first_option(pilot, screen, own)
            if own.turn().seat == 0:
                continue
            then = host.scene(None).view  # (quiet: the others have not moved yet)
            await pilot.press("w")
            await until_shown(pilot, lambda: isinstance(app.screen, SinceScreen), "the window")
            await pilot.pause()
            opened = since_listed(app)
            others_play(links, until_seat=0)

            def up_to_date() -> bool:
                said = [" ".join(line.text.split()) for line in own.message.since]
                return own.turn().seat == 0 and since_listed(app) == said and len(said) > len(opened)

            await until_shown(pilot, up_to_date, "the others' moves in the open window")
            await pilot.press("w")
            await until_shown(pilot, lambda: app.screen is screen and screen._shown == own.changes, "the board")
            marked = check_boards(screen, 0, then, host.scene(None).view)
            if marked:
                break
        assert marked
        await ana_picks_the_first_option(pilot, screen, own)
        if own.turn().seat == 0:  # (her move, nobody else's since: nothing marked)
            assert check_boards(screen, 0, host.scene(None).view, host.scene(None).view) == 0


@asynccontextmanager
async def ana_at_her_terminal() -> AsyncIterator[tuple[Host, dict, Pilot]]:
    """Ana's SeatApp at 80x24 on a room's game, her first; Ben and Cleo on links of their own."""
    host = Host.new(CONTENT, NAMES, COLOURS, seed=4, start_player=0)
    room = RoomThread(host)
    try:
        links = {seat: room.remote(seat) for seat in (1, 2)}
        app = SeatApp(Link(room.socket(0)))
        async with app.run_test(size=(80, 24)) as pilot:
            await until_shown(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
            yield host, links, pilot
    finally:
        room.stop()


async def ana_picks_the_first_option(pilot, screen: GameScreen, own) -> None:
    """Ana's first option picked by keys at her terminal, and her move on her screen."""
    before = own.changes
    for key in keys_for(0, prompt_options(screen).option_count):
        await pilot.press(key)
    await until_shown(pilot, lambda: own.changes > before and screen._shown == own.changes, "Ana's move")


def since_listed(app) -> list[str]:
    """The sentences w's open window lists, each whole again however it wrapped."""
    if not isinstance(app.screen, SinceScreen):
        return []
    body = " ".join(widget_text(app.screen.query_one("#since-body"), width=400).split())
    return [s.strip() for s in body.split("• ") if s.strip()]


async def test_a_spectators_page_line_offers_the_board_of_the_player_to_play_not_their_own():
    """A spectator has no board: their page line says b shows the player to play ("b you" was a player's word).
    (At 80x24 the line names the keys alone; a compact screen a little wider names what each shows.)"""
    room = RoomThread(Host.new(load_content(), ["Ana", "Ben"], ["red", "yellow"], seed=7))
    try:
        app = SeatApp(Link(room.socket(None)))
        async with app.run_test(size=(140, 30)) as pilot:
            await until_shown(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
            await until_shown(pilot, lambda: "b to play" in screen_text(app), "the page line")
            assert "b you" not in screen_text(app)
    finally:
        room.stop()


async def test_a_spectators_market_legend_names_no_player_at_the_keyboard():
    """The market's legend on a screen that shows nobody's cards: no "player at the keyboard" (hot-seat's
    words) on a spectator's screen, at 160x50 (the market beside the islands) and 80x24 (its page)."""
    room = RoomThread(Host.new(load_content(), ["Ana", "Ben"], ["red", "yellow"], seed=7))
    try:
        for size in ((160, 50), (80, 24)):
            app = SeatApp(Link(room.socket(None)))
            async with app.run_test(size=size) as pilot:
                await until_shown(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
                if size == (80, 24):
                    await pilot.press("m", *"j" * 12)  # (the market's page, scrolled to its foot)
                await until_shown(pilot, lambda: "pay" in screen_text(app) and "their own cards" in screen_text(app))
                assert "keyboard" not in screen_text(app)
    finally:
        room.stop()


async def test_a_player_in_another_of_their_games_is_said_so_on_the_prompt_not_away():
    """Ana went from this game to another of hers at the server (y): at her turn Ben reads that she is in
    another game and is told, not "Waiting for Ana" alone (the notice that said so went in a moment)."""
    room = RoomThread(Host.new(load_content(), ["Ana", "Ben"], ["red", "yellow"], seed=7, start_player=0))
    try:
        ana = room.remote(0)
        app = SeatApp(Link(room.socket(1)))
        async with app.run_test(size=(160, 50)) as pilot:
            await until_shown(pilot, lambda: isinstance(app.screen, GameScreen), "Ben's game")
            assert ana.link.ask("leave", {"elsewhere": True}) == {"left": True}
            said = "Waiting for Ana [R], who is elsewhere at this server"
            head = app.screen.query_one("#prompt-head")
            await until_shown(pilot, lambda: said in " ".join(widget_text(head).split()), "Ben's prompt")
            assert app.remote.elsewhere == {0} and app.remote.away == frozenset()
    finally:
        room.stop()


async def test_a_spectator_reads_that_a_player_left_without_the_players_command_for_a_stand_in():
    """Ana left: Ben's prompt offers the players' ctrl+p command for a stand-in; a spectator's, who has no such
    command, says only that the game waits for her."""
    room = RoomThread(Host.new(load_content(), ["Ana", "Ben"], ["red", "yellow"], seed=7, start_player=0))
    try:
        ana = room.remote(0)
        left = "Waiting for Ana [R], who left: the game waits for them to return"
        for seat in (1, None):
            app = SeatApp(Link(room.socket(seat)))
            async with app.run_test(size=(160, 50)) as pilot:
                await until_shown(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
                ana.link.close()  # (once: she stays away)
                head = app.screen.query_one("#prompt-head")
                await until_shown(pilot, lambda: left in " ".join(widget_text(head).split()), "the prompt")
                asks = "(ctrl+p: let a computer play for them)" in " ".join(widget_text(head).split())
                assert asks == (seat is not None)
    finally:
        room.stop()
