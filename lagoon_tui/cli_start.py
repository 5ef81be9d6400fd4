"""What a `lagoon` command opens before it plays: the decks, the save file, a terminal, then the app.

Each opener either gives what it opened or says, in one sentence on stderr,
why it cannot, and the command stops with exit code 2. `lagoon play` and
`lagoon resume` (`cli.py`, `cli_saves.py`) both end in `run_app`. The engine
and the app are imported inside the functions, so `lagoon --help` stays quick.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from lagoon_tui.settings import GameSettings
    from rules.host import Content, Store

PROBLEMS_SHOWN = 100
"""The most problems of a deck printed one by one (a count of the others follows)."""


def print_problems(problems: Sequence[str], file: TextIO | None = None) -> None:
    """Each problem found in the decks on a line of its own, as text (`rules.names.printable`: a key or a
    value quoted from a deck may hold anything), and at most `PROBLEMS_SHOWN` of them."""
    from rules.host import printable

    for problem in problems[:PROBLEMS_SHOWN]:
        print(printable(problem), file=file)
    if len(problems) > PROBLEMS_SHOWN:
        print(f"… and {len(problems) - PROBLEMS_SHOWN} more problems.", file=file)


def add_no_confirm(command: argparse.ArgumentParser) -> None:
    """`--no-confirm`, for the commands that open a game to play (`play`, `resume`)."""
    command.add_argument(
        "--no-confirm",
        action="store_true",
        help="end each turn at its last move, without waiting for End turn (then that move cannot be taken back)",
    )


def load_or_explain(content_dir: Path | None) -> Content | None:
    """The decks, or None after printing every problem found in them."""
    from rules.host import ContentError, load_content

    try:
        return load_content(content_dir)
    except ContentError as error:
        print_problems(error.problems, file=sys.stderr)
        return None


def usage_error(message: str) -> int:
    """Say what is wrong (as text: it may quote a file, such as a key file's problem) and give exit code 2."""
    from rules.host import printable

    print(printable(f"lagoon: {message}"), file=sys.stderr)
    return 2


def fail(message: str) -> int:
    """Say `message` on stderr and give the exit code of a refusal. The message may quote a file (a name,
    a lease's host, a fingerprint, a path): it is printed as text, and cut at twice `LINE_SHOWN`
    characters, room for an error's sentence (`said`) and what to do about it."""
    from rules.host import LINE_SHOWN, printable

    print(printable(message, 2 * LINE_SHOWN), file=sys.stderr)
    return 2


def open_store_or_explain(args: argparse.Namespace, *, read_only: bool = False, to_make: bool = False) -> Store | None:
    """The save file named by --db (or the default), or None after saying why it cannot be used.

    `read_only`: for a command that only looks, or looks before it writes: nothing is made or written
    (a file that is not there has no games). `to_make` (with `read_only`): a file that is not there must
    be one Lagoon could make, as a command that will write a game needs it.
    """
    from rules.host import Store, StoreError, check_can_make

    try:
        store = Store(getattr(args, "db", None), read_only=read_only)
        if to_make:
            check_can_make(store.path)
        return store
    except StoreError as error:
        fail(str(error))
        return None


def terminal_problem() -> str | None:
    """Why the app cannot run here: it draws on a terminal and reads keys from one (None: it can)."""
    missing = [
        name for name, stream in (("input", sys.stdin), ("output", sys.stdout)) if stream is None or not stream.isatty()
    ]
    if not missing:
        return None
    which = "neither its input nor its output is" if len(missing) == 2 else f"its {missing[0]} is not"
    return f"the game needs a terminal, and {which} one; run it in a terminal window (or over ssh -t)"


def end_turn_asked(args: argparse.Namespace, kept: Path) -> bool:
    """Whether a person's turn waits for End turn this run: as kept from the last run (yes if nothing is),
    unless `--no-confirm` says no. A settings file that cannot be read is said, and left as it is."""
    from lagoon_tui.settings import read_end_turn

    asked, problem = read_end_turn(kept)
    if problem is not None:
        print(f"lagoon: {problem}", file=sys.stderr)
    return asked and not getattr(args, "no_confirm", False)


def run_app(
    args: argparse.Namespace, content: Content, settings: GameSettings | None = None, resume: int | None = None
) -> int:
    """Open the save file, then the app; a save file that cannot be used stops here, untouched.

    The app needs a terminal to draw on and to read keys from: without one
    (input from /dev/null, output into a pipe) it says so and stops before a
    game is created. Its exit code is the app's (1 if it failed).
    """
    from lagoon_tui.app import LagoonApp
    from lagoon_tui.settings import settings_file

    # a save file that cannot be used is said first, but looked at only: without a terminal nothing is
    # made or written, not even the file
    looked = open_store_or_explain(args, read_only=True, to_make=True)
    if looked is None:
        return 2
    looked.close()
    if (problem := terminal_problem()) is not None:  # before a game is so much as created
        return usage_error(problem)
    store = open_store_or_explain(args)
    if store is None:
        return 2
    kept = settings_file(store.path)
    try:
        app = LagoonApp(
            content,
            settings,
            store=store,
            resume=resume,
            pace=getattr(args, "pace", None),
            confirm=end_turn_asked(args, kept),
            kept=kept,
        )
        app.run()
    finally:
        store.forget_if_unused()  # (a file made for this window that got no game is taken away)
    return app.return_code or 0
