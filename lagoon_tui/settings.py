"""What a new game is set up with: the seats' names and colours, who plays each (a person or a
computer at a level), a seed and the start player; and the one setting kept between runs, whether a
turn waits for End turn (`read_end_turn`, `save_end_turn`), in a small JSON file beside the save file.

Kept apart from the new-game form so that starting a game straight away
(`lagoon play`) does not load the form.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from rules.host import SEED_MAX, name_key, names_problems, normal_name, seed_problem

DEFAULT_NAMES = ("Ana", "Ben", "Cleo", "Dev")
COLOURS = ("red", "yellow", "green", "blue")
SEATS_MIN, SEATS_MAX = 2, 4


PERSON = "person"
"""Who plays a seat that no computer plays (the form's word beside the levels)."""


class GameSettings(NamedTuple):
    """What the new-game form decided. `seed`/`start_player` None mean "pick at random";
    `computers` maps each seat a computer plays to its level (`rules.host.LEVELS`)."""

    names: tuple[str, ...]
    colours: tuple[str, ...]
    seed: int | None = None
    start_player: int | None = None
    computers: dict[int, str] = {}


def check_settings(
    names: list[str],
    colours: list[str],
    seed_text: str,
    start_player: int | None,
    players: list[str] | None = None,
) -> tuple[GameSettings | None, dict[str, str]]:
    """The settings, or the problems found, keyed by field: "name-0", "colour-1", "player-2", "seed".

    `players` says who plays each seat: PERSON, or a computer's level (default: people everywhere).

    Names are put in their normal form (composed, trimmed, single spaces), then held to the one
    rule for names (`rules.names`): printable, with a character that shows, at most
    `rules.names.NAME_MAX` characters; two names that look the same (capitals, look-alike
    letters) count as one, since players could not tell them apart.
    """
    names = [normal_name(n) for n in names]
    problems = {f"name-{seat}": problem for seat, problem in names_problems(names).items()}
    taken: dict[str, int] = {}
    for seat, colour in enumerate(colours):
        if colour not in COLOURS:
            problems[f"colour-{seat}"] = "Choose a colour."
        elif colour in taken:
            problems[f"colour-{seat}"] = f"Seat {taken[colour] + 1} already plays {colour}."
        else:
            taken[colour] = seat
    seed: int | None = None
    if seed_text.strip():
        text = seed_text.strip()
        if not text.isdigit():
            problems["seed"] = "The seed must be a whole number such as 42, or blank for a random game."
        elif (problem := seed_problem(int(text) if len(text) <= len(str(SEED_MAX)) else SEED_MAX + 1)) is not None:
            problems["seed"] = problem
        else:
            seed = int(text)
    if start_player is not None and not 0 <= start_player < len(names):
        problems["start"] = "Choose a seat that is playing, or Random."
    computers = {}
    if players is not None:
        from rules.host import LEVELS

        for seat, who in enumerate(players):
            if who in LEVELS:
                computers[seat] = who
            elif who != PERSON:
                problems[f"player-{seat}"] = f"Choose a person or a computer level ({', '.join(LEVELS)})."
    if problems:
        return None, problems
    return GameSettings(tuple(names), tuple(colours), seed, start_player, computers), {}


def computer_names(people: Sequence[str], count: int) -> tuple[str, ...]:
    """Names for `count` computer players: the default names the people did not take (nor one like them),
    then "Computer 1", "Computer 2"… (those the people did not take either)."""
    taken = {name_key(name) for name in people}
    more = (f"Computer {n}" for n in range(1, len(people) + count + 1))  # (people who took every default name)
    free = [name for name in (*DEFAULT_NAMES, *more) if name_key(name) not in taken]
    return tuple(free[:count])


# --- kept between runs --------------------------------------------------------------------------

END_TURN_KEY = "end_turn"
"""The key of the setting "End turn: ask or not" in the settings file (true: a turn waits for End turn)."""


def settings_file(save_file: Path) -> Path:
    """Where the settings kept between runs are: beside the save file (so `--db` keeps its own)."""
    return save_file.with_name("settings.json")


def _read(path: Path) -> tuple[dict[str, object], str | None]:
    """The settings file's keys ({} if there is none), or what is wrong with it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}, None
    except (OSError, ValueError) as error:
        why = error.strerror if isinstance(error, OSError) else "it is not JSON"
        return {}, f"{path} could not be read ({why}); it was left as it is."
    if not isinstance(data, dict):
        return {}, f"{path} is not a JSON object; it was left as it is."
    return data, None


def read_end_turn(path: Path) -> tuple[bool, str | None]:
    """Whether a turn waits for End turn, as saved (yes if nothing is), and what is wrong with the file, if so."""
    data, problem = _read(path)
    value = data.get(END_TURN_KEY, True)
    if not isinstance(value, bool):
        return True, f'{path}: "{END_TURN_KEY}" must be true or false; it was left as it is.'
    return value, problem


def save_end_turn(path: Path, on: bool) -> str | None:
    """Keep whether a turn waits for End turn, with the file's other keys; why not, if it could not be."""
    data, problem = _read(path)
    if problem is not None:
        return problem
    data[END_TURN_KEY] = on
    part = path.with_name(f".{path.name}.part")
    try:
        part.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        os.replace(part, path)
    except OSError as error:
        part.unlink(missing_ok=True)
        return f"{path} could not be written ({error.strerror})."
    return None
