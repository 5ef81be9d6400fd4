"""Each player's record at this server, and their finished games: `Records`.

A record is read from the save file's finished games of the lobby's rooms:
which key sat in which seat (the room's row), and the place each seat took
(the finished game's results, as its end screen shows them: players equal on
everything share a place, and a shared first place is a win). Computers have
no record. The lobby fills it as it opens its rooms again and adds each game
as it ends; nothing of it is kept apart from the games themselves.

What a record says is public (the lobby shows it beside a player's name): how
many games, how many wins, how many of each other place.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rules.host import Host
from rules.seat import catalogue_to_json, ordinal


@dataclass(frozen=True)
class Finished:
    """One finished game of a room: who sat where, the place each seat took, and when it ended."""

    code: str  # the room's
    game: int
    keys: tuple[str | None, ...]  # each seat's player's key (None: a computer played it)
    names: tuple[str, ...]  # as the game's board had them
    levels: tuple[tuple[int, str], ...]  # (seat, level) of each seat a computer played
    places: tuple[int, ...]  # 1 = a winner
    ended: str  # the save file's time of its last move (ISO, UTC)

    def listed(self, key: str) -> dict:
        """The game as a player's list of finished games shows it (`key`: theirs)."""
        seat = self.keys.index(key)
        return {
            "code": self.code,
            "names": list(self.names),
            "levels": {str(seat): level for seat, level in self.levels},
            "seat": seat,
            "place": self.places[seat],
            "ended": self.ended[:16].replace("T", " "),
        }


class Records:
    def __init__(self) -> None:
        self.finished: dict[str, Finished] = {}  # by room
        self._places: dict[str, Counter[int]] = {}  # by key: how many times they took each place

    def ended(self, code: str, keys: tuple[str | None, ...], host: Host, ended: str) -> None:
        """Room `code`'s game is over (once for each room; again changes nothing)."""
        results = host.scene(None).results
        if code in self.finished or results is None or host.game is None:
            return
        places = tuple(player.place for player in results.players)
        levels = tuple(sorted(host.levels.items()))
        names = tuple(player.name for player in results.players)
        self.finished[code] = Finished(code, host.game, keys, names, levels, places, ended)
        for key, place in zip(keys, places, strict=True):
            if key is not None:
                self._places.setdefault(key, Counter())[place] += 1

    def words(self, key: str) -> str:
        """A player's record in words: "12 games · 4 wins · 2nd ×3 · 3rd ×3 · 4th ×2" ("" before any)."""
        places = self._places.get(key)
        if not places:
            return ""
        games = sum(places.values())
        wins = places.get(1, 0)
        parts = [f"{games} game{'s' if games != 1 else ''}", f"{wins} win{'s' if wins != 1 else ''}"]
        parts += [f"{ordinal(place)} ×{count}" for place, count in sorted(places.items()) if place > 1]
        return " · ".join(parts)

    def games_of(self, key: str) -> list[dict]:
        """A player's finished games, the newest first."""
        theirs = [game for game in self.finished.values() if key in game.keys]
        theirs.sort(key=lambda game: (game.ended, game.game), reverse=True)
        return [game.listed(key) for game in theirs]


NOT_OVER = "This game is not over: its replay is shown once it is."


def log_answer(host: Host) -> dict:
    """The answer to `log`: a finished game's whole log (public once the game is over: every hand is shown
    then), the cards it was played with and its computers' levels, for its replay and score sheet."""
    if not host.over:
        return {"refused": NOT_OVER}
    levels = {str(seat): level for seat, level in host.levels.items()}
    return {"log": host.log_json(), "content": catalogue_to_json(host.content), "levels": levels}
