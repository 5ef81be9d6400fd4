"""The lobby's rematches as the save file keeps them (schema 4, `serve_rematches`): who accepted, and the
rematch's room once started, written with that room in one transaction; a row that cannot be read is left out."""

from __future__ import annotations

import sqlite3
from contextlib import closing

from rules.host import SavedRematch, SavedRoom, SavedSeat, Store

ROOM = SavedRoom("NEW234", "SHA256:ana", (SavedSeat("SHA256:ana"), SavedSeat(None, True, "hard")), None, 1)


def test_a_rematch_is_kept_with_its_room_and_read_back(tmp_path):
    with Store(tmp_path / "lagoon.db") as store:
        store.save_rematch(SavedRematch("OLD234", frozenset({0})))
        assert store.rematches() == [SavedRematch("OLD234", frozenset({0}))]
        store.save_rematch(SavedRematch("OLD234", frozenset({0, 1}), "NEW234"), ROOM)
    with Store(tmp_path / "lagoon.db", read_only=True) as store:
        assert store.rematches() == [SavedRematch("OLD234", frozenset({0, 1}), "NEW234")]
        assert store.rooms() == [ROOM]


def test_a_rematch_whose_row_cannot_be_read_is_left_out(tmp_path):
    with Store(tmp_path / "lagoon.db") as store:
        store.save_rematch(SavedRematch("OLD234", frozenset({1})))
        store.save_rematch(SavedRematch("TWO234", frozenset()))
    with closing(sqlite3.connect(tmp_path / "lagoon.db")) as raw:
        raw.execute("UPDATE serve_rematches SET accepted = '[\"x\"]' WHERE room = 'OLD234'")
        raw.commit()
    with Store(tmp_path / "lagoon.db") as store:
        assert store.rematches() == [SavedRematch("TWO234", frozenset())]
