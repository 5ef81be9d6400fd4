"""A player's turn in their games at `lagoon serve`, in words: the notice, the lobby's title and rows.

The server tells a session when one of its player's games turns to them
while it shows something else (`turn`: the room's code, whose room it is,
the other players' names); the session rings, puts it in the window's title
and offers to go there with GO_KEY. The lobby lists the games that wait for
the player first, each with how long it has waited ("your turn · 2 h").
"""

from __future__ import annotations

from typing import Any

GO_KEY = "y"  # (g pages to the mining sites in a compact game: y, yes, go there)


def waited_words(seconds: int) -> str:
    """How long a game has waited, short: "1 min", "40 min", "2 h", "3 d"."""
    if seconds < 3600:
        return f"{max(1, seconds // 60)} min"
    if seconds < 86400:
        return f"{seconds // 3600} h"
    return f"{seconds // 86400} d"


def your_turn_words(room: dict[str, Any]) -> str:
    """A lobby row's "your turn", with the player's time left in a game over days ("your turn · 48 min left"),
    else how long the game has waited for them if the server said ("your turn · 15 min")."""
    left = room.get("left")
    if isinstance(left, str):
        return f"your turn · {left} left"
    waited = room.get("waited")
    return f"your turn · {waited_words(waited)}" if isinstance(waited, int) else "your turn"


def turn_notice(told: dict[str, Any]) -> tuple[str, str]:
    """The notice of a `turn` frame and its heading: "Your turn in Ana's room (ABC123): g to go there.",
    "Your turn · with Ana, Cleo"; or, for a game the player left in which a computer now plays for them
    (`stood_in`), that, and how to take their seat back."""
    maker = told.get("maker")
    whose = "your room" if maker is None else f"{maker}'s room"
    others = ", ".join(str(name) for name in told.get("others", ()))
    if told.get("stood_in"):
        return (
            f"A computer now plays for you in {whose} ({told['code']}), since you left that game: "
            f"{GO_KEY} to go there and take your seat back.",
            f"A computer plays for you · with {others}",
        )
    return f"Your turn in {whose} ({told['code']}): {GO_KEY} to go there.", f"Your turn · with {others}"


def turn_title(told: dict[str, Any]) -> str:
    if told.get("stood_in"):
        return f"Lagoon · A computer plays for you in room {told['code']}"
    return f"Lagoon · Your turn in room {told['code']}"


def elsewhere_words(codes: list[str]) -> str:
    """What a game's window title adds of the player's other games that wait for them (their rooms' `codes`):
    " · room K3AKK6 waits for you", " · 2 other games wait for you", or nothing."""
    if not codes:
        return ""
    return f" · room {codes[0]} waits for you" if len(codes) == 1 else f" · {len(codes)} other games wait for you"


def waiting_games(lobby: dict[str, Any]) -> int:
    """How many of the player's games wait for them."""
    return sum(1 for room in lobby.get("mine", []) if room.get("your_turn"))


def lobby_title(lobby: dict[str, Any]) -> str:
    """The window's title in the lobby: how many games wait for the player, if any do."""
    waiting = waiting_games(lobby)
    return f"Lagoon · Your turn in {games(waiting)}" if waiting else "Lagoon · Lobby"


def games(count: int) -> str:
    return "1 game" if count == 1 else f"{count} games"


def connected_notice(waiting: int) -> str:
    """Said as the player connects, when games wait for them (the first row, highlighted, waited longest)."""
    if waiting == 1:
        return "Your turn in 1 game: Enter goes there."
    return f"Your turn in {games(waiting)}: Enter goes to the one waiting longest."


SHOWN_SINCE = 3
"""How many of the latest sentences of what changed the offer shows (w lists them all)."""


def since_offer(sentences: list[str]) -> tuple[str, str]:
    """The notice offering what changed since the player's last move: its latest sentences, and w for all."""
    latest = sentences[-SHOWN_SINCE:]
    more = f"w lists all {len(sentences)}." if len(sentences) > len(latest) else "w lists them."
    return "\n".join([*latest, more]), "Since your last move"
