"""Issue 34, point 5, on screen: a turn that ended with a move that can still be taken back waits for
End turn (Enter), so `u` reaches it; the curtain comes only after End turn; `--no-confirm` (the app's
`confirm` off) and the command palette's setting hand over at once; the take-back names the move."""

from __future__ import annotations

import json
import random

import pytest

from lagoon_tui.app import LagoonApp
from lagoon_tui.cli import build_parser
from lagoon_tui.cli_start import end_turn_asked
from lagoon_tui.screens.curtain import CurtainScreen
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.settings import GameSettings, save_end_turn
from rules import load_content
from rules.host import END_TURN, Host
from tests.helpers.drive import offered_ids, prompt_options, screen_text, until, widget_texts

SIZES = [(80, 24), (160, 50)]
MINED = "Ana mined 1 silver at island 1, column 2, level 1."
"""Seed 9 after 25 moves of purposeful random play: Ana's first option mines, and her turn ends with it."""
FORCED = ": nothing else was possible."


def ana_about_to_mine() -> Host:
    host = Host.at_random(load_content(), ("Ana", "Ben"), ("red", "yellow"), 9, 25)
    assert host.turn().seat == 0 and not host.turn().open
    return host


async def game_of(pilot, host: Host) -> GameScreen:
    """`host`'s game on a new game screen, its first curtain passed: Ana's board."""
    app = pilot.app
    await pilot.pause()
    await app.push_screen(GameScreen(host))
    await until(pilot, lambda: isinstance(app.screen, CurtainScreen), 200)
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.at_keyboard == 0, 200)
    return app.screen


def on_board(pilot) -> str:
    """Every widget's text, unwrapped (the toasts among them), its spaces made single."""
    return " ".join(" ".join(seen.wide for seen in widget_texts(pilot.app)).split())


@pytest.mark.parametrize("size", SIZES)
async def test_a_turn_ended_by_a_move_waits_for_end_turn_and_u_takes_the_move_back(size):
    host = ana_about_to_mine()
    async with LagoonApp(load_content(), confirm=True).run_test(size=size, notifications=True) as pilot:
        game = await game_of(pilot, host)
        before = len(host.engine.events)
        await pilot.press("1")
        await until(pilot, lambda: host.held is not None and game.shows_end_turn(), 200)
        shown = on_board(pilot)
        assert not game.covered and game.at_keyboard == 0, "no curtain yet: the turn waits for End turn"
        assert "End turn" in shown and f"u: Take back: {MINED}" in shown
        assert host.engine.pending.seat == 1  # (the engine has handed the turn on; the host holds it)
        await pilot.press("u")
        await until(pilot, lambda: host.held is None and f"Took back: {MINED}" in on_board(pilot), 200)
        assert len(host.engine.events) == before and host.turn().seat == 0
        assert not game.shows_end_turn() and not game.covered
        await pilot.press("1")  # the same move again
        await until(pilot, lambda: game.shows_end_turn(), 200)
        await pilot.press("enter")  # End turn: now the keyboard goes to Ben
        await until(pilot, lambda: game.covered, 200)
        assert "Ben" in screen_text(pilot.app) and host.held is None and host.turn().seat == 1


@pytest.mark.parametrize("size", SIZES)
async def test_without_confirming_the_turn_ends_at_its_last_move(size):
    host = ana_about_to_mine()
    async with LagoonApp(load_content(), confirm=False).run_test(size=size) as pilot:
        game = await game_of(pilot, host)
        await pilot.press("1")
        await until(pilot, lambda: game.covered, 200)  # the curtain at once, calling Ben
        assert host.held is None and host.turn().seat == 1 and host.confirming == set()


async def test_the_command_palettes_setting_ends_a_waiting_turn_and_asks_no_more():
    host = ana_about_to_mine()
    async with LagoonApp(load_content(), confirm=True).run_test(size=(160, 50), notifications=True) as pilot:
        game = await game_of(pilot, host)
        await pilot.press("1")
        await until(pilot, lambda: game.shows_end_turn(), 200)
        assert game.confirms is True
        game.toggle_confirm()  # (what the palette's "End turn: ask or not" runs)
        await until(pilot, lambda: game.covered, 200)
        assert game.confirms is False and pilot.app.confirm_turns is False and host.turn().seat == 1


async def test_an_end_turn_key_meant_for_nobody_changes_nothing():
    """The End turn option is the held seat's only: another option id is refused by the host."""
    host = ana_about_to_mine()
    host.confirming = {0, 1}
    host.choose(host.scene(0).prompt.options[0].id)
    assert host.held is not None
    before = len(host.engine.events)
    refused = host.choose("pass")
    assert not refused and len(host.engine.events) == before and host.held is not None
    assert host.choose(END_TURN) is not None and host.held is None


async def test_against_a_computer_it_waits_for_end_turn_then_plays_with_no_curtain():
    """One person against a computer: the computer does not move while Ana's turn waits for End turn."""
    host = Host(ana_about_to_mine().engine, {1: "easy"})
    async with LagoonApp(load_content(), pace=0, confirm=True).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.app.push_screen(GameScreen(host))
        await until(pilot, lambda: isinstance(pilot.app.screen, GameScreen) and host.changes == 0, 200)
        game = pilot.app.screen
        await until(pilot, lambda: game.at_keyboard == 0 and "1" in screen_text(pilot.app), 200)
        await pilot.press("1")
        await until(pilot, lambda: game.shows_end_turn(), 200)
        held_at = len(host.engine.events)
        for _ in range(20):
            await pilot.pause()
        assert len(host.engine.events) == held_at and host.held is not None, "the computer waited"
        await pilot.press("enter")
        await until(pilot, lambda: len(host.engine.events) > held_at and host.held is None, 400)
        assert not game.covered


# -- the setting kept between runs -------------------------------------------------------------------


def asked(kept, *argv: str) -> bool:
    """Whether `lagoon play` with `argv` would ask for End turn, its settings kept in `kept`."""
    return end_turn_asked(build_parser().parse_args(["play", *argv]), kept)


async def test_the_end_turn_setting_is_kept_for_the_next_run_and_no_confirm_still_wins(tmp_path):
    kept = tmp_path / "settings.json"
    assert asked(kept) is True and asked(kept, "--no-confirm") is False  # (nothing kept yet: it asks)
    host = ana_about_to_mine()
    async with LagoonApp(load_content(), confirm=True, kept=kept).run_test(size=(160, 50)) as pilot:
        game = await game_of(pilot, host)
        game.toggle_confirm()  # (what the palette's "End turn: ask or not" runs)
        await until(pilot, lambda: kept.exists(), 200)
    assert json.loads(kept.read_text(encoding="utf-8")) == {"end_turn": False}
    assert asked(kept) is False  # the next run
    async with LagoonApp(load_content(), confirm=False, kept=kept).run_test(size=(160, 50)) as pilot:
        game = await game_of(pilot, ana_about_to_mine())
        game.toggle_confirm()
        await until(pilot, lambda: game.confirms is True, 200)
    assert asked(kept) is True and asked(kept, "--no-confirm") is False  # (--no-confirm wins for its run)
    assert json.loads(kept.read_text(encoding="utf-8")) == {"end_turn": True}


@pytest.mark.parametrize(("text", "named"), [("{not json", "not JSON"), ('{"end_turn": "no"}', '"end_turn"')])
def test_a_settings_file_that_cannot_be_read_is_said_and_left_as_it_is(tmp_path, capsys, text, named):
    kept = tmp_path / "settings.json"
    kept.write_text(text, encoding="utf-8")
    assert asked(kept) is True  # (End turn asked for, as when nothing is kept)
    said = capsys.readouterr().err
    assert str(kept) in said and named in said and "left as it is" in said
    if named == "not JSON":
        assert str(kept) in (save_end_turn(kept, False) or "")
    assert kept.read_text(encoding="utf-8") == text


async def test_after_a_done_that_closes_an_action_undo_names_the_move_it_closed():
    """Seed 2 after 17 moves: Ana has traded and closes the Trade with Done, which tells nothing by itself;
    her turn goes on. The note under the prompt and the toast of `u` name that step after her trade, in
    the log's words, and `u` takes back the Done alone: her trade stays."""
    host = Host.at_random(load_content(), ("Ana", "Ben"), ("red", "yellow"), 2, 17)
    traded = "your last step, after Ana traded 1 iron and 1 silver for 1 gold"
    async with LagoonApp(load_content(), confirm=True).run_test(size=(160, 50), notifications=True) as pilot:
        game = await game_of(pilot, host)
        ids = [option.id for option in host.scene(0).prompt.options]
        before = len(host.engine.events)
        await pilot.press(str(ids.index("done") + 1))
        await until(
            pilot, lambda: len(host.engine.events) > before and f"u: Take back: {traded}" in on_board(pilot), 200
        )
        assert host.turn().seat == 0 and not game.shows_end_turn()  # (her turn goes on)
        await pilot.press("u")
        await until(pilot, lambda: f"Took back: {traded}" in on_board(pilot), 200)
        assert len(host.engine.events) == before


@pytest.mark.slow
async def test_in_solo_play_a_lone_pass_is_passed_for_the_person_and_the_log_says_so():
    """Ana by keys against two easy computers, End turn asked for (as `lagoon play` does): she is never left
    with Pass alone, and a pass made for her is told with "nothing else was possible"."""
    app = LagoonApp(
        load_content(),
        settings=GameSettings(("Ana", "Ben", "Cleo"), ("red", "yellow", "green"), 23, 0, {1: "easy", 2: "easy"}),
        pace=0,
        confirm=True,
    )
    rng = random.Random(23)
    async with app.run_test(size=(160, 50)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen), 400)
        game = app.screen
        host = game.host

        def ready() -> bool:  # Ana's decision on screen, as her message has it (or the game over)
            if host.over:
                return True
            prompt = host.scene(0).prompt
            return (
                host.turn().seat == 0
                and prompt is not None
                and offered_ids(prompt_options(game)) == [o.id for o in prompt.options]
            )

        def passed_for_ana() -> bool:
            return any(line.text.startswith("Ana passed") and line.text.endswith(FORCED) for line in host.scene(0).log)

        for _ in range(600):
            await until(pilot, ready, 2000)
            if host.over or passed_for_ana() or host.engine.state.round > 12:
                break
            ids = [option.id for option in host.scene(0).prompt.options]
            assert ids != ["pass"], "Ana was left with Pass alone"
            useful = [n for n, i in enumerate(ids[:9]) if i not in ("pass", "back")] or [0]
            changes = host.changes
            await pilot.press(str(rng.choice(useful) + 1))
            await until(pilot, lambda: host.changes > changes, 400)
        assert passed_for_ana()
