"""How a saved game reads: its time, its players' names and its status, as text from the save file.

The Load screen and `lagoon list` both show saved games with these, so a game
reads the same in the list and at the command line. Everything here came from
a file and goes through `rules.names.printable`: a name saved before names were
checked may hold an escape sequence, markup or thousands of characters.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rich.text import Text

from rules.host import NAME_SHOWN, computer_words, printable, read_time

if TYPE_CHECKING:
    from rules.host import GameInfo


def when(stamp: str) -> str:
    """A stored UTC time as local time, to the minute (a damaged game's time that cannot be read, as
    text; `rules.codec.read_time` refuses any time that cannot be shown, so this never fails)."""
    moment = read_time(stamp)
    return printable(str(stamp), NAME_SHOWN) if moment is None else moment.astimezone().strftime("%Y-%m-%d %H:%M")


def shown_name(name: str) -> str:
    """A player's name from the save file as it may be shown (one saved before names were checked may
    hold an escape sequence, or be thousands of characters long)."""
    return printable(name, NAME_SHOWN)


def shown_names(names: Iterable[str]) -> str:
    """The players' names of a saved game, as they may be shown."""
    return ", ".join(map(shown_name, names))


def players_text(game: GameInfo) -> str:
    """The players of a saved game, each seat a computer played marked with its level: "Ana, Ben (computer, Hard)"."""
    levels = dict(game.computers)
    return ", ".join(
        shown_name(name) + (f" ({computer_words(levels[seat])})" if seat in levels else "")
        for seat, name in enumerate(game.names)
    )


def status_text(game: GameInfo) -> str:
    """Damaged (and what of it), finished, or whose turn it is."""
    if game.damage:
        return f"damaged: {game.damage}"
    if game.over:
        return "finished"
    return f"{shown_name(game.names[game.deciding])} to play" if game.deciding is not None else "playing"


def plain(text: str) -> Text:
    """Text from a save file as a table cell: never markup, never a control character (a name saved
    before names were checked may hold "[/]" or an escape sequence)."""
    return Text(printable(text))
