"""The players' records and a finished room's rematch, as the lobby shows them (from its `lobby` frames).

A player's own record follows their name atop the lobby; the records of the
people of the room highlighted are on one line under the lists (computers
have none). A finished room's row says where its rematch stands.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text


def title_text(player: str, lobby: dict[str, Any]) -> Text:
    """ "Lagoon · Ana · 12 games · 4 wins · 2nd ×3" ("no game finished yet" before the first), after " · on
    vacation until …" while the player is away; "Lagoon · Ana" while the server has not said."""
    until = (lobby.get("vacation") or {}).get("until")
    away = f" · on vacation until {until}" if until else ""
    record = f" · {lobby['record'] or 'no game finished yet'}" if "record" in lobby else ""
    return Text(f"Lagoon · {player}{away}{record}")


def records_line(room: dict[str, Any] | None) -> Text:
    """ "Ana: 3 games · 1 win · 2nd ×2   Ben: no game finished yet" for the people of `room`."""
    if room is None:
        return Text("")
    people = [seat for seat in room.get("seats", []) if "record" in seat and seat.get("name")]
    return Text("   ".join(f"{seat['name']}: {seat['record'] or 'no game finished yet'}" for seat in people))


def rematch_row(room: dict[str, Any]) -> str:
    """A finished room's row: "finished", and where its rematch stands if anyone asked for one."""
    rematch = room.get("rematch")
    if not rematch:
        return "finished"
    if rematch.get("started"):
        return f"finished · rematch in room {rematch['started']}"
    awaited = [s["name"] for s in rematch.get("seats", []) if not s.get("accepted")]
    if rematch.get("declined") and len(awaited) == len([s for s in rematch["seats"] if not s.get("computer")]):
        return f"finished · {rematch['declined']} declined a rematch"
    return "finished · rematch: waiting for " + ", ".join(awaited)
