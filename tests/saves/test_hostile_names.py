"""Names are data, never terminal commands or markup (issue 17, point 2), and numbers the save file cannot hold
are refused with a sentence (point 3).

Every name a tester tried: an OSC title sequence, a clear-screen and cursor
moves, Rich markup ("[/]", "[link=…]", "[bold red]"), emoji, right-to-left text
and marks, zero-width characters, 10,000 characters. New names go through one
rule (`rules.names`) wherever they come in; a name saved before the rule is
listed with what a terminal would act on written as escapes (`rules.names.printable`),
played without it, and never read as markup.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from lagoon_tui.settings import check_settings
from rules import Engine, load_content
from rules.names import NAME_MAX, name_problem, shown_safely
from rules.saves import Store
from rules.saves.recorder import record_new
from tests.helpers.commands import lagoon, no_traceback

CONTENT = load_content()

REFUSED = {
    "osc title": "\x1b]0;PWNED\x07Ana",
    "clear screen": "\x1b[2JAna",
    "cursor moves": "Ana\x1b[10;10H\x1b[A",
    "bell": "Ana\x07",
    "newline": "Ana\nBen",
    "tab": "Ana\tB",
    "right-to-left override": "\u202eanA",
    "left-to-right mark": "Ana\u200e",
    "zero-width space": "A\u200bna",
    "zero-width joiner emoji": "\U0001f469\u200d\U0001f52c",
    "no-break space": "Ana\u00a0B",
    "ten thousand": "A" * 10_000,
    "empty": "",
}
ALLOWED = {
    "markup closing": "[/]",
    "markup link": "[link=x.io]Ana",
    "markup style": "[bold red]Ana",
    "emoji": "Ana \U0001f980",
    "arabic": "\u0645\u0631\u064a\u0645",
    "hebrew": "\u05d3\u05e0\u05d4",
    "accents": "Zoë Ørsted",
    "longest": "N" * NAME_MAX,
}


@pytest.mark.slow
@pytest.mark.parametrize("name", REFUSED.values(), ids=REFUSED.keys())
def test_a_name_a_terminal_would_act_on_or_cannot_show_is_refused_everywhere(name, tmp_path):
    assert name_problem(name) is not None
    settings, problems = check_settings([name, "Ben"], ["red", "yellow"], "", None)  # the New game form
    assert settings is None and "name-0" in problems
    db = tmp_path / "lagoon.db"
    result = lagoon("--db", str(db), "play", name or " ", "Ben")  # `lagoon play`: refused before the app starts
    no_traceback(result)
    assert result.returncode == 2 and "player 1:" in result.stderr and "\x1b" not in result.stderr
    assert not db.exists() or not Store(db).games()


@pytest.mark.parametrize("name", ALLOWED.values(), ids=ALLOWED.keys())
def test_a_printable_name_is_a_name(name):
    assert name_problem(name) is None
    settings, problems = check_settings([name, "Ben"], ["red", "yellow"], "", None)
    assert problems == {} and settings.names == (name, "Ben")


def test_names_are_trimmed_and_unique_ignoring_case():
    _, problems = check_settings(["  Ana ", "ANA"], ["red", "yellow"], "", None)
    assert problems == {"name-1": "Seat 1 is already called Ana, too like ANA to tell apart."}


LEGACY = [REFUSED["osc title"], "[/]", "[bold red]Cy"]


@pytest.fixture
def legacy_db(tmp_path):
    """A save file holding a game whose names were saved before names were checked (in its log and in its
    row of the games table, as the Lagoon of then wrote them)."""
    path = tmp_path / "lagoon.db"
    with Store(path) as store:
        engine = Engine.new(CONTENT, LEGACY, seed=3)
        record_new(store, engine)
        for _ in range(10):
            engine.choose(engine.legal_ids()[0])
    with sqlite3.connect(path) as db:
        db.execute(
            "UPDATE games SET seats = ?",
            (json.dumps([{"name": n, "colour": c} for n, c in zip(LEGACY, ("red", "yellow", "green"))]),),
        )
    return path


def test_list_shows_old_hostile_names_as_text(legacy_db):
    result = lagoon("--db", str(legacy_db), "list", env={"COLUMNS": "200"})
    no_traceback(result)
    assert result.returncode == 0
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "\\u001B]0;PWNED\\u0007Ana" in result.stdout and "[/]" in result.stdout and "[bold red]Cy" in result.stdout


async def test_the_load_screen_shows_old_hostile_names_as_text(legacy_db):
    from lagoon_tui.app import LagoonApp
    from lagoon_tui.screens.load import LoadScreen

    with Store(legacy_db) as store:
        app = LagoonApp(CONTENT, store=store)
        async with app.run_test(size=(160, 50)) as pilot:
            await pilot.pause()
            await app.push_screen(LoadScreen(store))
            await pilot.pause()
            shown = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
    assert "\\u001B]0;PWNED\\u0007Ana" in shown and "[/]" in shown and "[bold red]Cy" in shown


def test_an_old_hostile_name_reaches_the_game_without_its_control_characters(legacy_db):
    with Store(legacy_db) as store:
        (info,) = store.games()
        saved = store.load(info.id)
    engine = Engine(CONTENT, saved.events, saved.marks)
    names = [p.name for p in engine.state.players]
    assert names == [shown_safely(LEGACY[0]), "[/]", "[bold red]Cy"]
    assert not any("\x1b" in n or "\x07" in n for n in names)


def test_an_import_with_a_hostile_name_or_a_seed_out_of_range_is_refused(legacy_db, tmp_path):
    export = tmp_path / "game.json"
    result = lagoon("--db", str(legacy_db), "export", "1", str(export))
    assert result.returncode == 0, result.stderr
    result = lagoon("--db", str(tmp_path / "other.db"), "import", str(export))
    no_traceback(result)
    assert result.returncode == 2 and "the name of seat 1 is refused" in result.stderr and "\x1b" not in result.stderr

    doc = json.loads(export.read_text())
    doc["seats"][0]["name"] = "Ana"
    doc["seed"] = 2**63
    export.write_text(json.dumps(doc))
    result = lagoon("--db", str(tmp_path / "other.db"), "import", str(export))
    no_traceback(result)
    assert result.returncode == 2 and "refused" in result.stderr


@pytest.mark.parametrize(
    "command",
    [
        ["resume", "99999999999999999999"],
        ["delete", "99999999999999999999", "--yes"],
        ["export", "99999999999999999999", "out.json"],
        ["resume", "-1"],
    ],
)
def test_a_game_number_the_save_file_cannot_hold_is_a_sentence(command, tmp_path):
    result = lagoon("--db", str(tmp_path / "lagoon.db"), *command)
    no_traceback(result)
    assert result.returncode == 2 and "a game's number is a whole number from 1 to" in result.stderr


@pytest.mark.parametrize("seed", ["99999999999999999999", "9" * 5000])
def test_a_seed_the_save_file_cannot_hold_is_a_sentence(seed, tmp_path):
    db = tmp_path / "lagoon.db"
    result = lagoon("--db", str(db), "play", "Ana", "Ben", "--seed", seed)
    no_traceback(result)
    assert result.returncode == 2 and "seed" in result.stderr
    assert not db.exists() or not Store(db).games()
    _, problems = check_settings(["Ana", "Ben"], ["red", "yellow"], seed, None)  # the New game form
    assert "from 0 to 9223372036854775807" in problems["seed"]
