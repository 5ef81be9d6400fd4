"""A saved or exported log that the rules do not replay is damage named by its place, never by its cards
(issue 32, points 2 and 9).

A reviewer changed one letter of a card in a saved game: `lagoon resume` and the app's "Cannot resume"
toast then printed the error of the engine, which named a seat's dealt objectives, on the shared
screen; a card changed where the engine did not look (a deck's last card) was resumed, replayed and
exported without a word. Each case here damages a real save file (or an export) with SQLite or a text
edit and runs the real commands and the app: the game is refused with a sentence naming the game, the
file and the event only, and no card id or name of any deck is shown.
"""

from __future__ import annotations

import json
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from rules import Engine, load_content
from rules.host import Host, check_saved_game
from rules.saves import Store, StoreError
from rules.saves.archive import export_game
from rules.saves.recorder import record_new
from tests.helpers.commands import checkpointed, lagoon, no_traceback, tree

CONTENT = load_content()
SEED, NAMES = 1, ["Ana", "Ben"]


def card_words() -> set[str]:
    """Every card's id and name, of every deck (a tile's id with its copy number too)."""
    words: set[str] = set()
    for deck in ("objectives", "deals", "equipment", "corporations", "shipments", "galleries"):
        for card_id, card in getattr(CONTENT, deck).items():
            words.add(card_id)
            name = getattr(card, "name", None)
            if isinstance(name, str) and len(name) > 3:
                words.add(name)
    return words


CARDS = card_words()


def shown_cards(text: str) -> list[str]:
    lowered = text.lower()
    return sorted(w for w in CARDS if w.lower() in lowered)


@pytest.fixture
def db(tmp_path) -> Path:
    path = tmp_path / "lagoon.db"
    with Store(path) as store:
        engine = Engine.new(CONTENT, NAMES, seed=SEED)
        record_new(store, engine)
        for _ in range(40):
            engine.choose(engine.legal_ids()[0])
    checkpointed(path)
    return path


def event_fields(db: Path, pos: int) -> dict:
    with closing(sqlite3.connect(db)) as conn:
        (data,) = conn.execute("SELECT data FROM events WHERE game = 1 AND pos = ?", (pos,)).fetchone()
    return json.loads(data)


def rewrite(db: Path, pos: int, fields: dict) -> None:
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute(
            "UPDATE events SET data = ? WHERE game = 1 AND pos = ?", (json.dumps(fields, separators=(",", ":")), pos)
        )
    checkpointed(db)


def one_letter_changed(card: str) -> str:
    """`card` with its last letter changed to another ASCII letter ('refined_reserves' -> 'refined_reservet')."""
    return card[:-1] + ("t" if card[-1] != "t" else "u")


def dealt_card_changed(db: Path) -> int:
    """A dealt objective spelt otherwise in the deck of the first event (the engine's error named the
    seat's whole deal); where the log parts from the rules."""
    fields = event_fields(db, 0)
    fields["objective_deck"][0] = one_letter_changed(fields["objective_deck"][0])
    rewrite(db, 0, fields)
    return 0


def undealt_card_changed(db: Path) -> int:
    """The deck's last objective, never dealt, spelt otherwise (a stacked deck the engine never looked at)."""
    fields = event_fields(db, 0)
    fields["objective_deck"][-1] = one_letter_changed(fields["objective_deck"][-1])
    rewrite(db, 0, fields)
    return 0


def kept_card_changed(db: Path) -> int:
    """An objective a seat kept, spelt otherwise in its ObjectivesKept event."""
    with closing(sqlite3.connect(db)) as conn:
        (pos,) = conn.execute("SELECT MIN(pos) FROM events WHERE game = 1 AND type = 'ObjectivesKept'").fetchone()
    fields = event_fields(db, pos)
    fields["kept"][0] = one_letter_changed(fields["kept"][0])
    rewrite(db, pos, fields)
    return pos


DAMAGE = {"dealt card": dealt_card_changed, "undealt card": undealt_card_changed, "kept card": kept_card_changed}


@pytest.mark.parametrize("damage", DAMAGE.values(), ids=DAMAGE.keys())
def test_a_card_spelt_otherwise_in_a_saved_log_is_damage_named_by_event_only(db, tmp_path, damage):
    pos = damage(db)
    said = (
        f"Game 1 in {db} is damaged: its log does not replay under these rules from event {pos} "
        "(changed, or saved under an older rule). It was left as it is."
    )
    before = tree(tmp_path)
    for command in (["resume", "1"], ["export", "1", str(tmp_path / "out.json")]):
        result = lagoon("--db", str(db), *command)
        no_traceback(result)
        assert result.returncode == 2 and said in result.stderr, result.stderr
        assert shown_cards(result.stdout + result.stderr) == []
    with Store(db, read_only=True) as store:
        for check in (check_saved_game, Host.replay_saved):
            with pytest.raises(StoreError, match=re.escape(said)) as refused:
                check(store, 1, CONTENT)
            assert shown_cards(str(refused.value)) == []
        with pytest.raises(StoreError, match=re.escape(said)):
            export_game(store, 1, tmp_path / "out.json", CONTENT)
    assert tree(tmp_path) == before  # no file written, no lease taken


async def test_the_apps_cannot_resume_and_cannot_replay_name_no_card(db):
    from lagoon_tui.app import LagoonApp

    pos = dealt_card_changed(db)
    told: list[str] = []
    with Store(db) as store:
        app = LagoonApp(CONTENT, store=store)
        notify = app.notify

        def watched(message, *args, **kwargs) -> None:  # every toast's words, as given to Textual
            told.append(str(message))
            notify(message, *args, **kwargs)

        app.notify = watched
        async with app.run_test(size=(160, 50), notifications=True) as pilot:
            await pilot.pause()
            app.resume_game(1)
            await pilot.pause()
            app.replay_game(1)
            await pilot.pause()
            shown = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
    damaged = [m for m in told if "damaged" in m]
    assert len(damaged) == 2 and all(f"does not replay under these rules from event {pos}" in m for m in damaged), told
    assert shown_cards("\n".join(told)) == [] and shown_cards(shown) == []


def exported(db: Path, folder: Path) -> tuple[Path, dict]:
    path = folder / "game.json"
    assert lagoon("--db", str(db), "export", "1", str(path)).returncode == 0
    return path, json.loads(path.read_text())


def kept_in_file(doc: dict) -> None:
    kept = next(e for e in doc["events"] if e["type"] == "ObjectivesKept")
    kept["kept"][0] = one_letter_changed(kept["kept"][0])


def kept_not_a_list(doc: dict) -> None:
    kept = next(e for e in doc["events"] if e["type"] == "ObjectivesKept")
    kept["kept"] = kept["kept"][0]


def keep_move_changed(doc: dict) -> None:
    doc["moves"][0]["choice"] = one_letter_changed(doc["moves"][0]["choice"])


def dealt_in_file(doc: dict) -> None:
    doc["events"][0]["objective_deck"][0] = one_letter_changed(doc["events"][0]["objective_deck"][0])


FILES = {
    "kept card": kept_in_file,
    "kept not a list": kept_not_a_list,
    "keep move": keep_move_changed,
    "dealt card": dealt_in_file,
}


@pytest.mark.parametrize("edit", FILES.values(), ids=FILES.keys())
def test_an_import_whose_cards_were_changed_is_refused_naming_no_card(db, tmp_path, edit):
    folder = tmp_path / "files"
    folder.mkdir()
    path, doc = exported(db, folder)
    assert shown_cards(path.read_text())  # (the file holds cards: the test would see one shown)
    edit(doc)
    path.write_text(json.dumps(doc))
    other = tmp_path / "other.db"
    result = lagoon("--db", str(other), "import", str(path))
    no_traceback(result)
    assert result.returncode == 2 and f"Cannot import {path}" in result.stderr, result.stderr
    assert "event" in result.stderr and "Nothing was imported." in result.stderr
    assert shown_cards(result.stdout + result.stderr) == [], result.stderr
    assert not other.exists()
