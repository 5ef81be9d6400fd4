"""Garbage is collected at quiet moments while the app runs, and Python's own collector is back when it stops."""

from __future__ import annotations

import gc
import weakref

import pytest
from textual.strip import Strip

from lagoon_tui.app import LagoonApp
from lagoon_tui.link import Link
from lagoon_tui.quiet_gc import FULL_EVERY, YOUNG_EVERY, QuietCollector
from lagoon_tui.screens.curtain import COLLECT_AFTER, CurtainScreen
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.seat_app import SeatApp
from lagoon_tui.settings import GameSettings
from rules.host import Host, load_content
from tests.helpers.drive import Policy, screen_text, start, step
from tests.helpers.rooms import RoomThread, until, until_shown


@pytest.mark.slow
async def test_during_a_game_only_the_apps_own_collections_run_and_the_collector_is_back_after():
    generations: list[int] = []

    def record(phase: str, info: dict) -> None:
        if phase == "start":
            generations.append(info["generation"])

    app = LagoonApp(settings=GameSettings(("Ana", "Ben"), ("red", "yellow"), 5, 0))
    gc.callbacks.append(record)
    try:
        async with app.run_test(size=(160, 50)) as pilot:
            run = await start(pilot)
            assert not gc.isenabled() and gc.get_freeze_count() > 0
            generations.clear()
            policy = Policy(5)
            while run.accepted < 30:
                if isinstance(app.screen, CurtainScreen):  # a curtain that stays up until its collection comes
                    await full_collection_after(pilot, generations, len(generations))
                await step(pilot, run, policy)
            assert not gc.isenabled()
            during = list(generations)  # (once the app stops, Python's own collections may come at once)
    finally:
        gc.callbacks.remove(record)
    # Python's automatic collections start with the youngest generation (0); the app's start with 1
    assert during and 0 not in during
    assert 2 in during  # full collections came (behind the curtains)
    assert gc.isenabled() and gc.get_freeze_count() == 0


async def full_collection_after(pilot, generations: list[int], since: int, turns: int = 1000) -> None:
    """Wait, the curtain up, for a full collection to start after `generations[since]`: it comes COLLECT_AFTER later.

    Waited for as it happens, not for a time it should take; `turns` (each a
    pause of 10 ms, against COLLECT_AFTER's 0.2 s) only turns a hang into a failure.
    """
    for _ in range(turns):
        if 2 in generations[since:]:
            return
        assert isinstance(pilot.app.screen, CurtainScreen)
        await pilot.pause(0.01)
    raise AssertionError(f"no full collection behind a curtain up for {turns} pauses ({COLLECT_AFTER} s were enough)")


def test_without_curtains_the_young_objects_are_collected_every_few_moves_and_all_every_so_many():
    collected: list[tuple[int, int]] = []  # (the move after which a collection came, its generation)
    move = 0

    def record(phase: str, info: dict) -> None:
        if phase == "start":
            collected.append((move, info["generation"]))

    quiet = QuietCollector()
    gc.callbacks.append(record)
    try:
        quiet.start()
        collected.clear()
        for move in range(1, 2 * FULL_EVERY + 1):
            quiet.after_move()
    finally:
        quiet.stop()
        gc.callbacks.remove(record)
    assert [m for m, generation in collected if generation == 2] == [FULL_EVERY, 2 * FULL_EVERY]
    young = [m % FULL_EVERY for m, generation in collected if generation == 1]
    assert young == 2 * list(range(YOUNG_EVERY, FULL_EVERY, YOUNG_EVERY))
    assert gc.isenabled()


async def test_python_collects_nothing_by_itself_from_the_moment_the_app_mounts(monkeypatch):
    """Python's own collections stop as the app mounts, not after its first frame.

    (A full collection took 25 ms in the middle of the first frame.)
    """
    seen: list = []
    mounted = LagoonApp.on_mount

    def on_mount(self) -> None:
        seen.append("mounted")
        mounted(self)

    def record(phase: str, info: dict) -> None:
        if phase == "start" and gc.isenabled():  # (the app's own collections run with the collector off)
            seen.append(info["generation"])

    monkeypatch.setattr(LagoonApp, "on_mount", on_mount)
    app = LagoonApp(settings=GameSettings(("Ana", "Ben"), ("red", "yellow"), 5, 0))
    gc.callbacks.append(record)
    try:
        async with app.run_test(size=(160, 50)) as pilot:
            await start(pilot)
            assert isinstance(app.screen, CurtainScreen)
            assert gc.get_freeze_count() > 0  # what start-up built is frozen once the first frame is up
            after_mount = seen[seen.index("mounted") + 1 :]
    finally:
        gc.callbacks.remove(record)
    assert after_mount == []


@pytest.mark.turbo
async def test_the_lines_a_seat_no_longer_shows_are_freed_at_once_not_left_to_a_full_collection():
    """A spectator's app at 160x50 watches 20 moves of a 4-player room (no curtain, no full collection
    between): then a full collection finds not one strip (a line of a panel) left as garbage.

    Textual's strips kept themselves in their own caches (extended or cropped to what they already were),
    so every line a panel replaced was a cycle only a full collection could free: some 550 objects a move
    in a served seat, the full collections 12 % of its CPU (lagoon_tui/turbo/strips.py). Without the piece
    this finds hundreds of strips."""
    host = Host.new(load_content(), ["Ana", "Ben", "Cleo", "Dev"], ["red", "yellow", "green", "blue"], seed=7)
    room = RoomThread(host)
    try:
        links = {seat: room.remote(seat) for seat in range(4)}
        app = SeatApp(Link(room.socket(None)))
        async with app.run_test(size=(160, 50)) as pilot:
            await until_shown(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
            assert 20 < FULL_EVERY
            for _move in range(20):
                link = links[links[0].turn().seat]
                until(lambda: link.message.prompt is not None, "the decider's options")
                seen, heard = app.remote.message, [other.message for other in links.values()]
                assert link.choose(link.message.prompt.options[-1].id)
                await until_shown(
                    pilot, lambda: app.remote.message is not seen and app.screen._shown == app.remote.changes
                )
                # (every link has the move before the next decider is read from one of them)
                until(lambda: all(o.message is not m for o, m in zip(links.values(), heard)), "the move")
            gc.set_debug(gc.DEBUG_SAVEALL)
            try:
                gc.collect()
                strips = [o for o in gc.garbage if isinstance(o, Strip)]
            finally:
                gc.set_debug(0)
                gc.garbage.clear()
    finally:
        room.stop()
    assert strips == []


async def test_keys_that_make_no_move_have_their_garbage_collected_too():
    """A session kept in its lobby, the keys list opened and closed again and again, grew without end: the
    app collected only after moves and behind curtains (a review found 209 MB after 300 openings, a
    million objects held by nothing). Keys now collect once enough objects were made (YOUNG_MOST)."""
    from lagoon_tui.screens.help import HelpScreen

    shown: list[weakref.ref] = []
    collections: list[int] = []

    def record(phase: str, info: dict) -> None:
        if phase == "stop":
            collections.append(info["generation"])

    app = LagoonApp()
    gc.callbacks.append(record)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until_shown(pilot, lambda: "New game" in screen_text(app), "the title")
            for _ in range(60):
                await pilot.press("question_mark")
                await until_shown(pilot, lambda: isinstance(app.screen, HelpScreen), "the keys list")
                shown.append(weakref.ref(app.screen))
                await pilot.press("escape")
                await until_shown(pilot, lambda: not isinstance(app.screen, HelpScreen), "the keys list closed")
            assert not gc.isenabled()
            alive = sum(1 for screen in shown if screen() is not None)
    finally:
        gc.callbacks.remove(record)
    assert 1 in collections, "no collection came"
    assert alive < len(shown) // 3, f"{alive} of {len(shown)} keys lists never went"
