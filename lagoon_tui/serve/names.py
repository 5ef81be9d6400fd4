"""Who may be called what at a `lagoon serve`: one name, one person or one computer, across the server.

The names rule of one keyboard (`rules.names`: printable, short, capitals and
look-alike letters one name) holds across every key of the server: a name is
refused if it looks like the name of another player, or a name a seat
carries in a game begun here, another person's (a player who renamed keeps
their former name in the games begun before) or a computer's; and a name that
would read as a computer's, or carry a colour's mark, is nobody's. Computers are
given names no person here has (`lagoon_tui.settings.computer_names`), so a
computer never carries a person's name, and no person can take a computer's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.host import name_key, names_problems


@dataclass(frozen=True)
class InUse:
    """A name already given at the server: a player's, or one a seat carries in a game (a computer's?)."""

    name: str
    computer: bool = False


MARKS = "()[]"
"""What the app writes after a name to say what it is ("Cleo (computer, Hard)", "Ben [Y]"): no person's name
holds them, so that no one reads as a computer or as another player's colour."""


def refusal(name: str, in_use: Iterable[InUse]) -> str | None:
    """Why a player may not be called `name` (in its normal form), with the names of others `in_use`; None if
    they may. The sentence names the name in use (everyone may see it), never the one refused."""
    problems = names_problems([name])
    if problems:
        return problems[0]
    if any(mark in name for mark in MARKS):
        return "A name here holds no brackets: the game writes them after names, to mark computers and colours."
    if name_key("computer") in name_key(name):
        return 'A name here cannot say "computer": only the computer players are marked so.'
    wanted = name_key(name)
    for other in in_use:
        if name_key(other.name) != wanted:
            continue
        if other.computer:
            return f"{other.name} is a computer player's name here: pick another name."
        alike = "" if other.name == name else " (names that look the same count as one)"
        return f"Another player of this server is called {other.name} already{alike}: pick another name."
    return None
