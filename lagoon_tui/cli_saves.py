"""The `lagoon` sub-commands for saved games: resume, list, delete, export, import.

Each opens the save file given by `--db` (or the default one) and turns every
problem into one sentence on stderr and exit code 2: a damaged or foreign
file, a read-only folder, a full disk, an unknown game, a bad export file.
Whatever they print that came from a file (names, times, a lease's host, a
fingerprint, a path) goes through `rules.names.printable`, as text.
The store is imported inside the commands so `lagoon --help` stays quick.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console, JustifyMethod
from rich.table import Table

from rules.host import printable

from .cli_start import add_no_confirm, fail, load_or_explain, open_store_or_explain, run_app, terminal_problem
from .saved_words import plain, players_text, shown_name, shown_names, status_text, when

if TYPE_CHECKING:
    from rules.host import GameInfo, Store

Command = Callable[[argparse.Namespace, Path | None], int]
"""A sub-command: its arguments and the folder of decks given (None: the shipped ones) to its exit code."""

GAME_NUMBER_MAX = 2**63 - 1  # the save file keeps a game's number as a signed 64-bit integer


def game_number(text: str) -> int:
    """A game's number as typed after a command: refused by argparse, with this sentence, unless the save
    file could hold it."""
    if not text.isdigit() or len(text) > len(str(GAME_NUMBER_MAX)) or not 1 <= int(text) <= GAME_NUMBER_MAX:
        raise argparse.ArgumentTypeError(
            f"a game's number is a whole number from 1 to {GAME_NUMBER_MAX}, as `lagoon list` shows it; "
            f"got {text[:30]!r}"
        )
    return int(text)


GAME_ID_HELP = "the game's number, as `lagoon list` shows it"


def add_save_commands(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], parents: list[argparse.ArgumentParser]
) -> None:
    """The commands of the save file; `parents`: the options they share (--content, --db)."""
    resume = sub.add_parser("resume", parents=parents, help="go on with a saved game (default: the latest unfinished)")
    resume.add_argument("id", nargs="?", type=game_number, metavar="ID", help=GAME_ID_HELP)
    resume.add_argument(
        "--take-over",
        action="store_true",
        help="open the game even if it is open in another window (that window's next move is refused)",
    )
    add_no_confirm(resume)
    sub.add_parser("list", parents=parents, help="list the saved games")
    delete = sub.add_parser("delete", parents=parents, help="delete a saved game (asks first)")
    delete.add_argument("id", type=game_number, metavar="ID", help=f"{GAME_ID_HELP}; its replay goes with it")
    delete.add_argument("--yes", action="store_true", help="do not ask (for scripts)")
    export = sub.add_parser("export", parents=parents, help="write a saved game to a JSON file")
    export.add_argument("id", type=game_number, metavar="ID", help=GAME_ID_HELP)
    export.add_argument(
        "file", type=Path, metavar="FILE", help="the JSON file to write (a file of that name is replaced)"
    )
    imp = sub.add_parser("import", parents=parents, help="check a JSON game file and add it to the saved games")
    imp.add_argument(
        "file", type=Path, metavar="FILE", help="a game written by `lagoon export`; it gets the next free number"
    )


def said(error: Exception) -> str:
    """An error's sentence as it may be printed within a longer message (it may quote a file)."""
    return printable(str(error))


COLUMNS: tuple[tuple[str, JustifyMethod], ...] = (
    ("ID", "right"),
    ("Last played", "left"),
    ("Players", "left"),
    ("Round", "right"),
    ("Scores", "left"),
    ("Status", "left"),
)


def games_table(games: Sequence[GameInfo]) -> Table:
    table = Table(title="Saved games")
    for name, justify in COLUMNS:
        table.add_column(name, justify=justify)
    for g in games:
        scores = ", ".join(f"{shown_name(n)} {vp}" for n, vp in zip(g.names, g.scores)) if g.scores else "—"
        status = status_text(g)
        table.add_row(
            *map(plain, (str(g.id), when(g.updated), players_text(g), str(g.round or "setup"), scores, status))
        )
    return table


def _reading(run: Callable[[Store, argparse.Namespace, Path | None], int]) -> Command:
    """Open the store to read only (a refused command writes nothing, not even a missing file or folder),
    run the command, close the store; StoreError becomes a message."""

    def command(args: argparse.Namespace, content_dir: Path | None) -> int:
        from rules.host import StoreError

        store = open_store_or_explain(args, read_only=True)
        if store is None:
            return 2
        try:
            return run(store, args, content_dir)
        except StoreError as error:
            return fail(str(error))
        finally:
            store.close()

    return command


@_reading
def list_command(store: Store, args: argparse.Namespace, content_dir: Path | None) -> int:
    games = store.games()
    if not games:
        print(printable(f"No saved games in {store.path}."))
        return 0
    Console().print(games_table(games))
    return 0


@_reading
def delete_command(store: Store, args: argparse.Namespace, content_dir: Path | None) -> int:
    """Checked and asked with the file open to read; only a deletion asked for opens it to write."""
    info = store.info(args.id)
    store.refuse_if_damaged()
    if not args.yes:
        question = printable(
            f"Delete game {args.id} ({shown_names(info.names)}, round {info.round}, {info.status})? [y/N] "
        )
        try:
            answer = input(question)
        except EOFError:
            return fail("No answer, so nothing was deleted. Pass --yes to delete without asking.")
        if answer.strip().lower() not in ("y", "yes"):
            print("Nothing was deleted.")
            return 1
    writer = open_store_or_explain(args)
    if writer is None:
        return 2
    with writer:
        writer.delete(args.id)
    print(f"Deleted game {args.id}.")
    return 0


@_reading
def export_command(store: Store, args: argparse.Namespace, content_dir: Path | None) -> int:
    from rules.host import ArchiveError, export_game

    content = load_or_explain(content_dir)  # (the log is played again under these decks before it is written)
    if content is None:
        return 2
    try:
        doc = export_game(store, args.id, args.file, content)
    except ArchiveError as error:
        return fail(str(error))
    print(printable(f"Wrote game {args.id} ({len(doc['events'])} events) to {args.file}."))
    return 0


def import_command(args: argparse.Namespace, content_dir: Path | None) -> int:
    """The file and the save file are checked with the save file open to read; only a game that will be
    added opens it to write (and a file made for it that then takes no game is taken away)."""
    from rules.host import ArchiveError, check_import, save_import

    content = load_or_explain(content_dir)
    if content is None:
        return 2
    reader = open_store_or_explain(args, read_only=True, to_make=True)
    if reader is None:
        return 2
    try:
        with reader:
            checked = check_import(reader, args.file, content)
    except ArchiveError as error:
        return fail(str(error))
    writer = open_store_or_explain(args)
    if writer is None:
        return 2
    try:
        game = save_import(writer, args.file, checked)
    except ArchiveError as error:
        writer.forget_if_unused()
        return fail(str(error))
    writer.close()
    print(printable(f"Imported {args.file} as game {game}."))
    return 0


def resume_command(args: argparse.Namespace, content_dir: Path | None) -> int:
    """Check the game can be resumed here, then open the app on it.

    Everything is checked with the save file open to read only, so a refusal writes nothing: the game is
    there, sound (every event read as an import reads it, and played again), with these decks, not open
    in another window (exit code 2, unless `--take-over`), and there is a terminal. Only then, with
    `--take-over`, this window takes the game and lets go at once, so the app (a store of its own) finds
    it free, and the other window can no longer write.
    """
    from rules.host import GameInUse, StoreError, check_saved_game

    content = load_or_explain(content_dir)
    if content is None:
        return 2
    store = open_store_or_explain(args, read_only=True)
    if store is None:
        return 2
    try:
        info = store.info(args.id) if args.id is not None else store.latest_unfinished()
        if info is None:
            return fail(f"There is no unfinished game in {store.path}. Start one with `lagoon play`.")
        check_saved_game(store, info.id, content)  # (other decks, or a damaged log, is said here, not played on)
        if not info.over and not args.take_over:
            try:
                store.check_free(info.id)
            except GameInUse as error:
                return fail(
                    f"{said(error)} Close it there, or take it over with `lagoon resume {info.id} --take-over` "
                    "(that window's next move will then be refused; every move it made is kept)."
                )
        if (problem := terminal_problem()) is not None:
            return fail(f"lagoon: {problem}")
    except StoreError as error:
        return fail(str(error))
    finally:
        store.close()
    if args.take_over and not info.over:
        writer = open_store_or_explain(args)
        if writer is None:
            return 2
        try:
            with writer:
                writer.hold(info.id, take_over=True)
        except StoreError as error:
            return fail(str(error))
    return run_app(args, content, resume=info.id)


SAVE_COMMANDS: dict[str, Command] = {
    "resume": resume_command,
    "list": list_command,
    "delete": delete_command,
    "export": export_command,
    "import": import_command,
}
