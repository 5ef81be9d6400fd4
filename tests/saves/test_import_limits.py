"""Game files to import: what cannot be one is refused with a sentence naming the file, read no further than
a stated size, never a traceback, a hang or memory exhausted (issue 17, points 5 and 10).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Engine, load_content
from rules.audit import LogError, audit, event_from_json
from rules.saves import Store
from rules.saves.archive import MAX_EVENTS, MAX_IMPORT_BYTES, ArchiveError, export_game, read_archive
from rules.saves.recorder import record_new
from tests.helpers.bounds import memory_bound
from tests.helpers.commands import lagoon, no_traceback

CONTENT = load_content()


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> dict:
    """A short game's export, as a JSON document."""
    folder = tmp_path_factory.mktemp("export")
    with Store(folder / "lagoon.db") as store:
        engine = Engine.new(CONTENT, ["Ana", "Ben"], seed=4)
        game = record_new(store, engine)
        rng = random.Random(4)
        for _ in range(60):
            ids = engine.legal_ids()
            engine.choose(ids[rng.randrange(len(ids))])
        return export_game(store, game, folder / "game.json")


def refused(path: Path) -> str:
    """The sentence the import gives for `path` (run as the command does, in a process of its own)."""
    result = lagoon("--db", str(path.parent / "import.db"), "import", str(path))
    no_traceback(result)
    assert result.returncode == 2 and f"Cannot import {path}" in result.stderr, result.stderr
    return result.stderr


def test_a_device_a_fifo_or_a_folder_is_not_read(tmp_path):
    zero = tmp_path / "zero.json"
    zero.symlink_to("/dev/zero")
    assert "is not a regular file" in refused(zero)
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    assert "is not a regular file" in refused(fifo)  # (opening it would wait for a writer for ever)
    folder = tmp_path / "folder.json"
    folder.mkdir()
    assert "is not a regular file" in refused(folder)


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as file:
        file.truncate(MAX_IMPORT_BYTES + 1)  # (sparse: nothing is written)
    assert f"is larger than the {MAX_IMPORT_BYTES:,} bytes a game file may have" in refused(big)


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000 + "]" * 100_000, '{"seed": ' + "9" * 5000 + "}"],
    ids=["nested deep", "a number of 5000 digits"],
)
def test_what_the_json_parser_cannot_take_is_a_sentence(tmp_path, text):
    path = tmp_path / "game.json"
    path.write_text(text)
    assert "not a game file Lagoon can read" in refused(path)


def test_too_many_events_are_refused_before_they_are_replayed(tmp_path, exported):
    doc = dict(exported, events=exported["events"] * (MAX_EVENTS // len(exported["events"]) + 1))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    assert f"more than the {MAX_EVENTS:,} events" in refused(path)


def test_a_long_value_in_a_bad_event_is_quoted_short(tmp_path, exported):
    events = [dict(exported["events"][0], type="X" * 100_000), *exported["events"][1:]]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(dict(exported, events=events)))
    assert len(refused(path)) < 600


def _paths(doc, prefix=()):
    """Every place in a JSON document: (path of keys and indexes)."""
    yield prefix
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc[:3]):  # the first few of a list stand for the rest
            yield from _paths(value, (*prefix, index))


_GONE = object()


def _at(parent, step):
    """parent[step] if that place is still there, else _GONE."""
    if isinstance(parent, dict) and isinstance(step, str) and step in parent:
        return parent[step]
    if isinstance(parent, list) and isinstance(step, int) and step < len(parent):
        return parent[step]
    return _GONE


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_changed_game_file_imports_or_is_refused_with_a_sentence(tmp_path, exported, data):
    """Hypothesis changes one or two places of a real export (a value replaced, a key dropped, a list cut):
    reading it either gives the game or an ArchiveError, never another exception."""
    doc = json.loads(json.dumps(exported))
    places = list(_paths(doc))[1:]
    for _ in range(data.draw(st.integers(1, 2))):
        path = data.draw(st.sampled_from(places))
        parent = doc
        for step in path[:-1]:
            parent = _at(parent, step)
        last = path[-1]
        if _at(parent, last) is _GONE:  # (an earlier change took this place away)
            continue
        if data.draw(st.booleans()):
            del parent[last if isinstance(parent, dict) else slice(last, None)]  # a key dropped, a list cut
        else:
            parent[last] = data.draw(JSON_VALUES)
    file = tmp_path / "game.json"
    file.write_text(json.dumps(doc))
    with memory_bound(64):  # a game file holds a few MB at most while it is read and replayed
        try:
            read_archive(file, CONTENT)
        except ArchiveError as error:
            assert str(error)


def test_a_game_imported_twice_is_said_to_be_there_already(tmp_path, exported):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(exported))
    db = tmp_path / "import.db"
    first = lagoon("--db", str(db), "import", str(path))
    assert first.returncode == 0, first.stderr
    again = lagoon("--db", str(db), "import", str(path))
    no_traceback(again)
    assert again.returncode == 2 and "it is game 1 already, move for move" in again.stderr
    assert len(Store(db).games()) == 1


def test_an_event_that_differs_from_what_its_move_gives_is_told_field_by_field(tmp_path, exported):
    """A re-import of an edited file said "gives IslandChosen, the log has IslandChosen". The audit names the
    field that differs, never its values (a field may be a card drawn face down); the import says only
    where (issue 32)."""
    doc = json.loads(json.dumps(exported))
    at = next(i for i, e in enumerate(doc["events"]) if e["type"] == "IslandChosen")
    chosen = doc["events"][at]
    chosen["island"] = chosen["island"] % 4 + 1
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ArchiveError, match=rf"does not replay under the rules from event {at + 1} \(move \d+\)$"):
        read_archive(path, CONTENT)
    events = [event_from_json(e, i) for i, e in enumerate(doc["events"])]
    with pytest.raises(
        LogError, match=f"event {at + 1}: move \\d+ gives IslandChosen with another island than the log's"
    ):
        audit(CONTENT, events, [m["choice"] for m in doc["moves"]])
