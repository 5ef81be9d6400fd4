"""Records (rules.record): the engine's dataclasses compare, hash and print as dataclass's own would."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, field

import pytest

from rules import load_content
from rules.events import EVENT_TYPES
from rules.record import FrozenRecord, Record, frozen_record, record


@record
class Pile(Record):
    metal: str
    cubes: int
    note: str = field(default="", compare=False, repr=False)


@frozen_record
class Tile(FrozenRecord):
    metal: str
    cubes: int


def test_records_are_equal_when_their_compared_fields_are():
    assert Pile("gold", 2, note="a") == Pile("gold", 2, note="b")
    assert Pile("gold", 2) != Pile("gold", 3)
    assert Pile("gold", 2) != Tile("gold", 2)  # another kind of record, however alike


def test_a_mutable_record_cannot_be_hashed_and_a_frozen_one_hashes_its_fields():
    with pytest.raises(TypeError):
        hash(Pile("gold", 2))
    assert hash(Tile("iron", 1)) == hash(Tile("iron", 1))
    assert len({Tile("iron", 1), Tile("iron", 1), Tile("iron", 2)}) == 2
    with pytest.raises(FrozenInstanceError):
        Tile("iron", 1).cubes = 2  # type: ignore[misc]


def test_a_record_prints_its_shown_fields():
    assert repr(Pile("gold", 2, note="secret")) == "Pile(metal='gold', cubes=2)"
    assert repr(Tile("copper", 4)) == "Tile(metal='copper', cubes=4)"


def test_every_event_and_the_loaded_content_are_records():
    assert all(issubclass(cls, Record) for cls in EVENT_TYPES.values())
    assert load_content() == load_content()
