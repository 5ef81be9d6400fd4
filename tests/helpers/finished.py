"""Games of `lagoon serve` brought to their end at once: every seat's first option, through the game's own host
(real rules, the real save file), as fast as the rules go. `play_out` plays a room's game on the lobby's loop;
`finished_room` writes a finished room into a save file before a server opens it."""

from __future__ import annotations

from pathlib import Path

from lagoon_tui.settings import COLOURS
from rules.host import Host, SavedRoom, SavedSeat, Store, load_content

CONTENT = load_content()


def first_options_to_the_end(host: Host) -> None:
    """Every seat takes its first option until the game is over (a held turn ends: End turn is its one option)."""
    for _ in range(5000):
        if host.over:
            return
        seat = host.turn().seat
        prompt = host.scene(seat).prompt
        assert prompt is not None, "a game not over that asks nobody"
        host.choose(prompt.options[0].id, hold=False)
    raise AssertionError("the game never ended")


def play_out(served, code: str) -> Host:
    """Room `code`'s game played to its end on the lobby's loop (`served`: a `LobbyThread`); its host."""
    host = served.lobby.rooms[code].room.host
    served.call(lambda: first_options_to_the_end(host))
    return host


def finished_room(
    db: Path,
    code: str,
    people: dict[str, str],
    computers: dict[int, str],
    seed: int = 5,
    *,
    private: bool = False,
    pace: float = 0.0,
) -> int:
    """Room `code` in save file `db`, finished: `people` (key: name) in the first seats, then a computer at
    each level of `computers` (seat: level), its game played to the end (`private`, with `pace` seconds a move:
    as the lobby keeps such a room); the game's id."""
    seats = [SavedSeat(key) for key in people] + [SavedSeat(None, True, computers[n]) for n in sorted(computers)]
    names = [*people.values(), *("Cleo", "Dev", "Eve")[: len(computers)]]
    with Store(db) as store:
        for key, name in people.items():
            store.name_player(key, name)
        host = Host.new(CONTENT, names, COLOURS[: len(names)], seed=seed, store=store, computers=computers)
        first_options_to_the_end(host)
        assert host.game is not None
        store.save_room(SavedRoom(code, next(iter(people)), tuple(seats), seed, host.game), private=private)
        if pace > 0:
            store.save_clock(code, pace, None, 0.0, None)
        store.release()
        return host.game
