"""Saved games: the SQLite event store, the recorder that feeds it, and JSON archives.

The event log is the save. Every accepted choice's events are committed in
one transaction before the screen shows them, so a crash or a dropped SSH
connection loses nothing a player has seen.
"""

from .rooms import SavedRematch, SavedRoom, SavedSeat
from .store import GameInfo, GameInUse, GameLost, SavedGame, Store, StoreError, default_db_path

__all__ = [
    "GameInfo",
    "GameInUse",
    "GameLost",
    "SavedGame",
    "SavedRematch",
    "SavedRoom",
    "SavedSeat",
    "Store",
    "StoreError",
    "default_db_path",
]
