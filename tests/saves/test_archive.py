"""Export and import: a game goes out as JSON and comes back identical; a bad file changes nothing.

Each broken file is made from a real export by one edit, and import must
name what is wrong and leave the save file as it was (same games, same bytes
in its tables).
"""

from __future__ import annotations

import json
import random
import re

import pytest

from rules import Engine, load_content
from rules.host import Host
from rules.saves import Store
from rules.saves.archive import FORMAT, VERSION, ArchiveError, export_game, import_game
from rules.saves.recorder import open_game, record_new
from tests.helpers.scenario import play_until

CONTENT = load_content()
COLOURS = ["red", "yellow", "green"]


def played(store: Store, choices: int, seed: int = 3, players: int = 3) -> tuple[int, Engine]:
    engine = Engine.new(CONTENT, ["Ana", "Ben", "Cleo", "Dev"][:players], seed=seed)
    game = record_new(store, engine)
    rng = random.Random(seed)
    for _ in range(choices):
        if engine.state.phase == "over":
            break
        if engine.undo_point() and rng.random() < 0.1:
            engine.undo()
            continue
        ids = engine.legal_ids()
        engine.choose(ids[rng.randrange(len(ids))])
    return game, engine


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "lagoon.db") as s:
        yield s


@pytest.fixture
def exported(store, tmp_path):
    game, engine = played(store, 200)
    path = tmp_path / "game.json"
    export_game(store, game, path)
    return path, engine


def snapshot(store: Store) -> tuple:
    c = store.conn
    return tuple(c.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall() for t in ("games", "events", "moves"))


def test_export_then_import_gives_the_same_game(exported, tmp_path):
    path, engine = exported
    doc = json.loads(path.read_text())
    assert (doc["format"], doc["version"], doc["content_fingerprint"]) == (FORMAT, VERSION, CONTENT.fingerprint)
    assert doc["seed"] == 3 and [s["name"] for s in doc["seats"]] == ["Ana", "Ben", "Cleo"]
    assert len(doc["events"]) == len(engine.events) and len(doc["moves"]) == len(engine.marks)
    with Store(tmp_path / "other.db") as other:  # (in its own save file it is game 1 already)
        game = import_game(other, path, CONTENT)
        again = open_game(other, game, CONTENT)
    assert again.events == engine.events and again.marks == engine.marks and again.state == engine.state


def test_a_finished_game_round_trips(store, tmp_path):
    game, engine = played(store, 10_000, seed=9, players=4)
    assert engine.state.phase == "over"
    export_game(store, game, tmp_path / "done.json")
    with Store(tmp_path / "other.db") as other:
        copy = import_game(other, tmp_path / "done.json", CONTENT)
        assert other.info(copy).status == "over"
        assert open_game(other, copy, CONTENT).state == engine.state


@pytest.fixture
def with_computers(store, tmp_path):
    """A game of Ana with Ben a Hard computer and Cleo an Easy one, exported once both have moved."""
    host = Host.new(CONTENT, ["Ana", "Ben", "Cleo"], COLOURS, seed=6, store=store, computers={1: "hard", 2: "easy"})
    play_until(host, 1)
    play_until(host, 0)  # (Ben's moves, Cleo's, up to Ana's next decision)
    path = tmp_path / "computers.json"
    export_game(store, host.game, path)
    return path, host


def test_the_computers_of_a_game_go_out_with_it_and_come_back_at_their_levels(with_computers, tmp_path):
    path, host = with_computers
    doc = json.loads(path.read_text())
    assert [s.get("computer") for s in doc["seats"]] == [None, "hard", "easy"]
    with Store(tmp_path / "other.db") as other:
        game = import_game(other, path, CONTENT)
        assert other.info(game).computers == ((1, "hard"), (2, "easy"))
        again = Host.resume(other, game, CONTENT)
        assert again.computers == {1: "hard", 2: "easy"} and again.people == (0,)
        assert again.engine.events == host.engine.events
        marks = len(again.engine.marks)
        play_until(again, 1)
        play_until(again, 0)  # (Ana's first option, the computers their own moves)
        assert {m.seat for m in again.engine.marks[marks:]} >= {1}, "the imported game's computers play again"


def test_a_file_from_before_computers_imports_with_every_seat_a_person(with_computers, tmp_path):
    """Version 1 files had no "computer" in a seat (and could not have one): they import as people's games."""
    path, _ = with_computers
    doc = json.loads(path.read_text())
    old = {**doc, "version": 1, "seats": [{"name": s["name"], "colour": s["colour"]} for s in doc["seats"]]}
    path.write_text(json.dumps(old))
    with Store(tmp_path / "other.db") as other:
        game = import_game(other, path, CONTENT)
        assert other.info(game).computers == ()
        assert Host.resume(other, game, CONTENT).people == (0, 1, 2)
    path.write_text(json.dumps({**doc, "version": 1}))
    with (
        Store(tmp_path / "third.db") as third,
        pytest.raises(ArchiveError, match='seat 2 must be an object with a "name" and a "colour"'),
    ):
        import_game(third, path, CONTENT)


@pytest.mark.parametrize(
    ("level", "shown"),
    [("expert", "'expert'"), ("Hard", "'Hard'"), (3, "3"), (None, "None"), (["hard"], r"\['hard'\]")],
)
def test_a_computer_at_no_level_is_refused_naming_the_file_and_the_key(store, with_computers, tmp_path, level, shown):
    path, _ = with_computers
    doc = json.loads(path.read_text())
    doc["seats"][2]["computer"] = level
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(doc))
    before = snapshot(store)
    with pytest.raises(ArchiveError) as caught:
        import_game(store, broken, CONTENT)
    assert re.fullmatch(
        rf'Cannot import {re.escape(str(broken))}: the "computer" of seat 3 must be a level '
        rf'\("easy", "normal", "hard"\), got {shown}\. Nothing was imported\.',
        str(caught.value),
    ), str(caught.value)
    assert snapshot(store) == before


def edit_events(doc, fn):
    fn(doc["events"])
    return doc


def recolour(doc, colours):
    """The seats given `colours`, in the seats and in the first event alike (so only the colour rule can
    refuse them: the log still replays)."""
    for seat, colour in zip(doc["seats"], colours):
        seat["colour"] = colour
    doc["events"][0]["colours"] = list(colours)
    return doc


def nested(depth: int) -> list:
    deep: list = []
    for _ in range(depth - 1):
        deep = [deep]
    return deep


def deep_field(doc, kind: str, field: str, value):
    event = next(e for e in doc["events"] if e["type"] == kind)
    event[field] = value
    return doc


BROKEN = {
    "not JSON": (lambda doc: None, "not valid JSON"),
    "another format": (lambda doc: {**doc, "format": "chess"}, "not a Lagoon game export"),
    "a newer version": (lambda doc: {**doc, "version": VERSION + 1}, "format version"),
    "no seed": (lambda doc: {k: v for k, v in doc.items() if k != "seed"}, "no 'seed'"),
    "an unknown event": (
        lambda doc: edit_events(doc, lambda es: es[5].update(type="Teleported")),
        "event 6 has an unknown type 'Teleported'",
    ),
    "a missing field": (lambda doc: edit_events(doc, lambda es: es[1].pop("card")), "event 2 .* lacks card"),
    "a wrong type": (
        lambda doc: edit_events(doc, lambda es: es[0].update(seed="seven")),
        "'seed' must be a whole number",
    ),
    "other decks": (lambda doc: {**doc, "content_fingerprint": "0" * 64}, "other decks"),
    "a stacked deck": (
        lambda doc: edit_events(doc, lambda es: es[0]["deal_deck"].reverse()),
        r"does not replay under the rules from event 1\. Nothing",  # (by its place only: issue 32)
    ),
    "a forged event": (
        lambda doc: edit_events(
            doc,
            lambda es: es[-1].update(
                {k: 99 for k, v in es[-1].items() if isinstance(v, int) and not isinstance(v, bool) and k != "seat"}
                or {"seat": 1 - es[-1].get("seat", 0)}
            ),
        ),
        "does not replay",
    ),
    "an illegal move": (
        lambda doc: {**doc, "moves": doc["moves"][:3] + [{"seat": 0, "choice": "island:9"}] + doc["moves"][4:]},
        r"does not replay under the rules from event \d+ \(move 4\)\. Nothing",
    ),
    "an extra event": (
        lambda doc: edit_events(doc, lambda es: es.append(dict(es[-1]))),
        r"does not replay under the rules from event \d+\. Nothing",
    ),
    "a wrong seat": (lambda doc: {**doc, "seats": doc["seats"][::-1]}, "seats differ"),
    # issue 32, point 7: every field it is given is checked
    "two players both red": (lambda doc: recolour(doc, ["red", "red", "green"]), "seats 1 and 2 are both red"),
    "purple": (
        lambda doc: recolour(doc, ["red", "purple", "green"]),
        r'the colour of seat 2 must be one of "red", "yellow", "green", "blue", got \'purple\'',
    ),
    "no colour": (lambda doc: recolour(doc, ["red", "yellow", ""]), "the colour of seat 3 .*, got ''"),
    "a colour that is an escape": (
        lambda doc: recolour(doc, ["\x1b[2J", "yellow", "green"]),
        r"the colour of seat 1 .*, got '\\x1b\[2J'",
    ),
    "a colour of 100,000 characters": (
        lambda doc: recolour(doc, ["red", "yellow", "g" * 100_000]),
        "the colour of seat 3 .*, got 'ggg+…\\. Nothing",
    ),
    "a status its log belies": (
        lambda doc: {**doc, "status": "over"},
        "its \"status\" is 'over', but its log is of a game that is not over",
    ),
    "a status of no kind": (lambda doc: {**doc, "status": "won"}, "its \"status\" is 'won'"),
    "no status": (lambda doc: {k: v for k, v in doc.items() if k != "status"}, "no 'status'"),
    "exported not a time": (lambda doc: {**doc, "exported": "yesterday"}, "'exported' must be a time .*'yesterday'"),
    "exported a number": (lambda doc: {**doc, "exported": 5}, "'exported' must be a time, got 5"),
    "exported with no time zone": (
        lambda doc: {**doc, "exported": "2026-11-27T07:00:00"},
        "'exported' must be a time",
    ),
    "an unknown key": (lambda doc: {**doc, "cheat": True}, "a key a game file does not have: 'cheat'"),
    "a list 500 deep in a pick": (
        lambda doc: deep_field(doc, "Picked", "pick", nested(500)),
        "nested more than 32 levels deep",
    ),
    "a list 500 deep in an action's data": (
        lambda doc: deep_field(doc, "ActionStarted", "data", {"k": nested(500)}),
        "nested more than 32 levels deep",
    ),
    "a list 40 deep in a pick": (
        lambda doc: deep_field(doc, "Picked", "pick", nested(40)),
        "nested more than 32 levels deep",
    ),
}


@pytest.mark.parametrize("kind", BROKEN)
def test_a_broken_file_is_refused_with_its_fault_named_and_nothing_written(store, exported, tmp_path, kind):
    path, _ = exported
    edit, message = BROKEN[kind]
    doc = json.loads(path.read_text())
    broken = tmp_path / "broken.json"
    new = edit(doc)
    broken.write_text("{ this is not json" if new is None else json.dumps(new))
    before = snapshot(store)
    with pytest.raises(ArchiveError, match=message) as caught:
        import_game(store, broken, CONTENT)
    assert "Nothing was imported" in str(caught.value) and len(str(caught.value)) < 600
    assert snapshot(store) == before


def test_a_missing_file_is_a_clear_message(store, tmp_path):
    with pytest.raises(ArchiveError, match="cannot read it"):
        import_game(store, tmp_path / "nowhere.json", CONTENT)
