"""Each player's own settings at the server, kept by key in the save file: `PlayerSettings`.

One setting so far: whether the player's turns wait for End turn after a move
that can still be taken back (`hold_turns`, on unless they turned it off with
ctrl+p "End turn: ask or not"). It is the player's, not a seat's: turned off
in one game, it is off in every game of theirs, those under way (each of their
links is told `holding`) and those to come, after a reconnection or a restart
of the server too (`Store.serve_settings`, a JSON object a key).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rules.host import Store

from .room import Room

HOLD_TURNS = "hold_turns"


class PlayerSettings:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.kept: dict[str, dict[str, Any]] = store.serve_settings()

    def holds_turns(self, key: str) -> bool:
        """Whether the turns of `key`'s player wait for End turn (yes, unless they said no)."""
        return self.kept.get(key, {}).get(HOLD_TURNS) is not False

    def opened(self, room: Room, keys: Sequence[str | None]) -> None:
        """A room's game opened (`keys`: each seat's player, None for a computer): each player's turns held or
        not, as they chose."""
        for seat, key in enumerate(keys):
            if key is not None and seat in room.people:
                room.host.hold_turns((seat,), self.holds_turns(key))

    def hold_turns(self, key: str, on: bool, seats: Iterable[tuple[Room, int]]) -> dict[str, Any]:
        """The player with `key` asks that their turns wait for End turn, or no more: kept (StoreError if the
        save file refuses: then nothing changes), then done at each of their `seats` (a room and their seat
        there) of the games under way."""
        settings = {**self.kept.get(key, {}), HOLD_TURNS: on}
        self.store.save_serve_settings(key, settings)
        self.kept[key] = settings
        for room, seat in seats:
            room.hold(seat, on)
        return {"holding": on}
