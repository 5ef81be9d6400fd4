"""The `lagoon` command: start the game, check decks, or simulate many games.

The engine modules are imported inside the sub-commands, so `lagoon --help`
stays quick and a half-built engine cannot break the commands that don't use it.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table

from lagoon_tui import crash
from lagoon_tui.cli_saves import SAVE_COMMANDS, add_save_commands
from lagoon_tui.cli_start import (
    add_no_confirm,
    load_or_explain,
    open_store_or_explain,
    print_problems,
    run_app,
    terminal_problem,
    usage_error,
)

if TYPE_CHECKING:  # (imported where they are used: `lagoon --help` stays quick)
    from lagoon_tui.settings import GameSettings
    from rules.host import Content

END_REASONS = {
    "vp_goal": "Ended when a player reached the VP goal",
    "last_round": "Ended after the last round",
}


def build_parser() -> argparse.ArgumentParser:
    # --content and --db are accepted before or after the sub-command; SUPPRESS keeps a
    # sub-parser from overwriting a value given before it. --db only on the commands
    # that open the save file (given before a command that does not, it is refused: `main`).
    decks = argparse.ArgumentParser(add_help=False)
    decks.add_argument(
        "--content",
        metavar="DIR",
        type=Path,
        default=argparse.SUPPRESS,
        help="folder of TOML decks to play with (default: the shipped decks)",
    )
    saves = argparse.ArgumentParser(add_help=False)
    saves.add_argument(
        "--db",
        metavar="PATH",
        type=Path,
        default=argparse.SUPPRESS,
        help="the file of saved games (default: $XDG_DATA_HOME/lagoon/lagoon.db, else ~/.local/share/lagoon/lagoon.db)",
    )
    parser = argparse.ArgumentParser(
        prog="lagoon",
        parents=[decks, saves],
        description="Miner's Lagoon, the board game, in a terminal.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = sub.add_parser(
        "check-content",
        parents=[decks],
        help="validate a folder of decks and list every problem",
    )
    check.add_argument(
        "dir", nargs="?", type=Path, metavar="DIR", help="folder to check (default: --content or the shipped decks)"
    )

    play = sub.add_parser(
        "play",
        parents=[decks, saves],
        help="start a hot-seat game straight away, skipping the title screen",
    )
    play.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="the people playing, in seat order (default: Ana Ben; with --vs, Ana)",
    )
    play.add_argument(
        "--vs",
        default=None,
        metavar="LEVEL[,LEVEL...]",
        help="computer players seated after the people, one level each: easy, normal or hard (e.g. --vs hard,normal)",
    )
    play.add_argument(
        "--pace",
        type=float,
        default=None,
        metavar="SECONDS",
        help="how long each computer step stays on screen before the next (default: 0.5; space hurries them)",
    )
    add_no_confirm(play)
    play.add_argument("--seed", type=int, default=None, metavar="S", help="random seed of the game (default: random)")
    play.add_argument(
        "--start",
        type=int,
        default=None,
        metavar="SEAT",
        help="seat number (1..) of the start player (default: random)",
    )

    add_save_commands(sub, [decks, saves])

    serve = sub.add_parser(
        "serve",
        parents=[decks, saves],
        help="host games for players who join over SSH from their own terminals",
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine only)"
    )
    serve.add_argument("--port", type=int, default=2222, help="port to listen on (default: 2222)")
    serve.add_argument(
        "--host-key",
        type=Path,
        default=None,
        metavar="PATH",
        help="the server's SSH key, made on first start (default: beside the save file)",
    )
    serve.add_argument(
        "--allow-keys",
        type=Path,
        default=None,
        metavar="FILE",
        help="only the public keys in this authorized_keys-style file may join (default: any key)",
    )
    serve.add_argument(
        "--max-players",
        type=int,
        default=None,
        metavar="N",
        help="players at once, lobby and games together (default: as many as half this machine's memory holds)",
    )
    serve.add_argument(
        "--per-address",
        type=int,
        default=30,
        metavar="N",
        help="logins a minute from one address, all keys together (default: 30; friends behind one router share one)",
    )
    serve.add_argument(
        "--per-key",
        type=int,
        default=10,
        metavar="N",
        help="logins a minute with one SSH key (default: 10)",
    )
    serve.add_argument(
        "--sessions-per-key",
        type=int,
        default=3,
        metavar="N",
        help="sessions one SSH key may have open at once (default: 3)",
    )
    serve.add_argument(
        "--sessions-per-address",
        type=int,
        default=8,
        metavar="N",
        help="sessions one address may have open at once (default: 8; players through ssh -L share 127.0.0.1)",
    )
    serve.add_argument(
        "--idle-minutes",
        type=float,
        default=30.0,
        metavar="M",
        help="close a session whose player pressed nothing for M minutes, warned before (default: 30; 0: never)",
    )
    serve.add_argument(
        "--session-memory",
        type=int,
        default=1024,
        metavar="MIB",
        help="the memory (address space) each player's session may take, in MiB; past it the session ends "
        "(default: 1024; 0: no ceiling)",
    )
    serve.add_argument(
        "--max-window",
        type=window_size,
        default=(500, 200),
        metavar="COLSxROWS",
        help="the largest window a session is drawn in; a larger one is drawn at this size (default: 500x200)",
    )
    serve.add_argument(
        "--keys-per-second",
        type=int,
        default=30,
        metavar="N",
        help="keys a second a player may type, after a burst of 100; more are dropped (default: 30; 0: no limit)",
    )
    serve.add_argument(
        "--bytes-per-minute",
        type=int,
        default=128 * 1024,
        metavar="N",
        help="bytes a minute a player may send, pastes too; more are dropped (default: 131072; 0: no limit)",
    )
    serve.add_argument(
        "--cpu-share",
        type=float,
        default=0.3,
        metavar="F",
        help="the share of one core a session may keep busy for seconds before it yields to the others "
        "(default: 0.3; 0: never)",
    )
    serve.add_argument(
        "--stand-in-after",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="how long a player who left a game is waited for before the others may let a computer play for them "
        "(default: 60; 0: at once)",
    )
    said = serve.add_mutually_exclusive_group()
    said.add_argument("--quiet", action="store_true", help="write on this terminal only what is refused or goes wrong")
    said.add_argument(
        "--verbose", action="store_true", help="write more: each session's end, each name taken, each connection closed"
    )

    # The app of one SSH session of `lagoon serve`, which starts it on the session's own terminal
    # with one end of a socket to the server: not a command for people to type.
    session = sub.add_parser("session", parents=[decks])
    session.add_argument("--fd", type=int, required=True, help=argparse.SUPPRESS)
    session.add_argument("--join", default=None, help=argparse.SUPPRESS)
    session.add_argument("--watch", default=None, help=argparse.SUPPRESS)

    sim = sub.add_parser(
        "simulate",
        parents=[decks],
        help="play many bot games and summarise the results",
    )
    sim.add_argument("--players", type=int, default=3, metavar="N", help="seats per game (default: 3)")
    sim.add_argument("--games", type=int, default=100, metavar="G", help="number of games (default: 100)")
    sim.add_argument(
        "--seed", type=int, default=1, metavar="S", help="random seed; the same seed gives the same report (default: 1)"
    )
    sim.add_argument(
        "--bots",
        nargs="?",
        const="",
        default=None,
        metavar="LEVEL[,LEVEL...]",
        help="seat computer players instead of random legal players: alone, Normal in every seat; with levels"
        " (easy, normal, hard, random), those levels, turn about in every seat (e.g. --bots hard,normal)",
    )
    sim.add_argument("--json", action="store_true", help="print the report as JSON instead of a table")
    return parser


def speak_utf8() -> None:
    """Write UTF-8 whatever the locale says (the decks' "≥", the board's lines and cubes, players' names).

    Under a locale that is not UTF-8 (LC_ALL=C with Python's own UTF-8 mode
    off, or ISO-8859-1) Python would encode the output as ASCII or Latin-1 and
    fail at the first character outside it; every terminal of today reads
    UTF-8, and one that does not shows a wrong character rather than a crash.
    """
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").replace("-", "").lower()
        if encoding != "utf8" and hasattr(stream, "reconfigure"):
            stream.reconfigure(encoding="utf-8", errors="replace")


def window_size(given: str) -> tuple[int, int]:
    """`--max-window`'s "COLSxROWS" (each from 1 to 65535)."""
    cols, x, rows = given.lower().partition("x")
    if not (x and cols.isdigit() and rows.isdigit() and 0 < int(cols) <= 0xFFFF and 0 < int(rows) <= 0xFFFF):
        raise argparse.ArgumentTypeError(f"{given!r} is not COLSxROWS, such as 500x200")
    return int(cols), int(rows)


@functools.cache
def parser() -> argparse.ArgumentParser:
    """The command line's parser, built once a process: the fork server builds it before it forks (built in
    each session, it cost 1.5 MB of the session's own memory)."""
    return build_parser()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code.

    A bug in any command (or in any thread of it) ends it with one sentence on the terminal and its
    traceback in a report (`lagoon_tui.crash`); the app's own are handled as it runs (`turbo/crash.py`).
    """
    speak_utf8()
    try:
        args = parser().parse_args(argv)
        if "db" in args and args.command in KEEP_NO_GAMES:  # (given before the command, where every command takes it)
            parser().error(f"--db: `lagoon {args.command}` keeps no games, so it has no save file to use")
    except SystemExit as exit_:  # argparse has already printed why
        return exit_.code if isinstance(exit_.code, int) else 2
    remote = args.command == "session"  # (its terminal is an SSH player's: the report's path stays here)
    playing = args.command in PLAYING  # (the others play no game: no word of saved moves)
    with crash.handlers(remote=remote, playing=playing):
        try:
            return run_command(args)
        except Exception as error:
            return crash.stopped(error, remote=remote, playing=playing)


KEEP_NO_GAMES = ("check-content", "simulate", "session")
"""The commands that open no save file (their sub-parsers have no --db)."""

PLAYING = (None, "play", "resume", "session", "serve")
"""The commands that play or change a game (None: the app's title screen), whose bug's sentence says the
game is saved."""


def run_command(args: argparse.Namespace) -> int:
    content_dir: Path | None = getattr(args, "content", None)

    if args.command == "check-content":
        return check_content_command(args.dir or content_dir)
    if args.command == "simulate":
        return simulate_command(args, content_dir)
    if args.command == "serve":
        return serve_command(args, content_dir)
    if args.command == "session":
        return session_command(args)
    if args.command in SAVE_COMMANDS:
        return SAVE_COMMANDS[args.command](args, content_dir)
    return play_command(args, content_dir)


# -- the terminal app ---------------------------------------------------------


def play_command(args: argparse.Namespace, content_dir: Path | None) -> int:
    """Open the app: at the title screen, or (`lagoon play`) straight into a game."""
    content = load_or_explain(content_dir)
    if content is None:
        return 2
    settings: GameSettings | None = None
    if args.command == "play":
        given = play_settings(args, content)
        if isinstance(given, str):
            return usage_error(given)
        settings = given
    return run_app(args, content, settings=settings)


def level_list(option: str, given: str, more: tuple[str, ...] = ()) -> tuple[str, ...] | str:
    """The computer levels `given` lists, comma-separated (`rules.host.LEVELS`, or one of `more`), or
    what is wrong with it, for `option`."""
    from rules.host import LEVELS

    levels = tuple(level.strip().lower() for level in given.split(","))
    unknown = [level for level in levels if level not in (*LEVELS, *more)]
    if unknown:
        return f"{option}: no computer level {unknown[0]!r}; the levels are {' and '.join((', '.join(LEVELS), *more))}"
    return levels


def play_settings(args: argparse.Namespace, content: Content) -> GameSettings | str:
    """The game `lagoon play` asks for (a `GameSettings`), or what is wrong with its arguments."""
    from lagoon_tui.settings import COLOURS, GameSettings, computer_names
    from rules.host import names_problems, normal_name, seed_problem

    levels = () if args.vs is None else level_list("--vs", args.vs)
    if isinstance(levels, str):
        return levels
    if args.pace is not None and not 0 <= args.pace <= 10:
        return "--pace must be from 0 to 10 seconds"
    people = tuple(normal_name(name) for name in (args.names or (("Ana",) if levels else ("Ana", "Ben"))))
    low, high = content.board.players_min, content.board.players_max
    if not low <= len(people) + len(levels) <= high:
        return f"give {low} to {high} players, people and computers together (got {len(people) + len(levels)})"
    names = people + computer_names(people, len(levels))
    problems = names_problems(names)  # (the form's rule, word for word)
    if problems:
        seat, problem = min(problems.items())
        return f"player {seat + 1}: {problem}"
    if args.seed is not None and (wrong_seed := seed_problem(args.seed)) is not None:
        return wrong_seed
    if args.start is not None and not 1 <= args.start <= len(names):
        return f"--start must be a seat from 1 to {len(names)}"
    start = None if args.start is None else args.start - 1
    computers = {len(people) + n: level for n, level in enumerate(levels)}
    return GameSettings(names, COLOURS[: len(names)], args.seed, start, computers)


def serve_command(args: argparse.Namespace, content_dir: Path | None) -> int:
    """Host games over SSH until stopped; a file that cannot be used stops it before it listens."""
    import asyncio

    from lagoon_tui.serve.capacity import default_players
    from lagoon_tui.serve.server import Options, serve
    from lagoon_tui.serve.ssh import Limits, SetupError

    if not 0 <= args.port <= 65535:
        return usage_error(f"--port must be from 0 to 65535 (got {args.port})")
    for flag in ("max_players", "per_address", "per_key", "sessions_per_key", "sessions_per_address"):
        if getattr(args, flag) is not None and getattr(args, flag) < 1:
            return usage_error(f"--{flag.replace('_', '-')} must be at least 1")
    for flag in ("session_memory", "keys_per_second", "bytes_per_minute"):
        if getattr(args, flag) < 0:
            return usage_error(f"--{flag.replace('_', '-')} cannot be negative (0: no limit)")
    if not 0 <= args.cpu_share <= 1:
        return usage_error(f"--cpu-share must be from 0 (never) to 1 (a whole core) (got {args.cpu_share})")
    if not 0 <= args.idle_minutes <= 7 * 24 * 60:
        return usage_error(f"--idle-minutes must be from 0 (never) to a week (got {args.idle_minutes})")
    if not 0 <= args.stand_in_after <= 365 * 24 * 3600:
        return usage_error(
            f"--stand-in-after must be from 0 (at once) to a year, in seconds (got {args.stand_in_after})"
        )
    content = load_or_explain(content_dir)
    if content is None:
        return 2
    store = open_store_or_explain(args)
    if store is None:
        return 2
    limits = Limits(
        max_connections=default_players() if args.max_players is None else args.max_players,
        rate=args.per_address,
        key_rate=args.per_key,
        per=60.0,
        sessions_per_key=args.sessions_per_key,
        sessions_per_address=args.sessions_per_address,
        idle_timeout=args.idle_minutes * 60.0,
        session_memory=args.session_memory * 1024 * 1024,
        window=args.max_window,
        keys_per_second=args.keys_per_second,
        bytes_per_minute=args.bytes_per_minute,
        cpu_share=args.cpu_share,
    )
    said = "quiet" if args.quiet else "verbose" if args.verbose else "normal"
    options = Options(
        args.host,
        args.port,
        args.host_key,
        args.allow_keys,
        content_dir,
        limits,
        said,
        args.max_players is not None,
        args.stand_in_after,
    )
    try:
        return asyncio.run(serve(store, content, options))
    except SetupError as error:  # (a file or the port it was given: the sentence names which, and why)
        return usage_error(str(error))
    except OSError as error:  # (not one of those: said as the system says it, with the file it names)
        return usage_error(f"the server stopped: {error}")
    finally:
        store.close()


def session_command(args: argparse.Namespace) -> int:
    """The app of a session whose server is at the other end of socket `--fd` (see lagoon_tui.serve)."""
    import socket

    from lagoon_tui import session_warmup
    from lagoon_tui.link import Link
    from lagoon_tui.session_app import SessionApp

    try:
        link = Link(socket.socket(fileno=args.fd))
    except OSError as error:
        return usage_error(f"no game at the other end of descriptor {args.fd}: {error}")
    if (problem := terminal_problem()) is not None:
        return usage_error(problem)
    content = session_warmup.content  # (None: loaded by the app)
    app = SessionApp(link, join=args.join, watch=args.watch, content=content)
    try:
        app.run()
    finally:
        link.close()
    return app.return_code or 0


# -- check-content ----------------------------------------------------------


def check_content_command(directory: Path | None) -> int:
    from rules.host import check_content, default_content_dir, load_content, printable

    problems = check_content(directory)
    if problems:
        print_problems(problems)
        return 2
    shown = directory if directory is not None else default_content_dir()
    counts = deck_counts(load_content(directory))
    summary = ", ".join(f"{n} {name}" for name, n in counts.items())
    print(printable(f"OK: {shown}" + (f" ({summary})" if summary else "")))
    return 0


def deck_counts(content: Content) -> dict[str, int]:
    """How many entries each collection of the loaded content holds."""
    if not dataclasses.is_dataclass(content):
        return {}
    counts = {}
    for field in dataclasses.fields(content):
        value = getattr(content, field.name)
        if isinstance(value, (Mapping, list, tuple)):
            counts[field.name] = len(value)
    return counts


# -- simulate ---------------------------------------------------------------


def simulate_command(args: argparse.Namespace, content_dir: Path | None) -> int:
    if args.games < 1:
        return usage_error(f"--games must be at least 1 (got {args.games})")
    content = load_or_explain(content_dir)
    if content is None:
        return 2
    low, high = content.board.players_min, content.board.players_max
    if not low <= args.players <= high:
        return usage_error(f"--players must be between {low} and {high} (got {args.players})")

    from rules.host import simulate

    levels = level_list("--bots", args.bots, ("random",)) if args.bots else None
    if isinstance(levels, str):
        return usage_error(levels)
    report = run_with_progress(
        lambda progress: simulate(
            content,
            players=args.players,
            games=args.games,
            seed=args.seed,
            progress=progress,
            bots=args.bots is not None,
            levels=levels,
        ),
        total=args.games,
    )
    if args.json:
        print(json.dumps(report, sort_keys=True, indent=2))
    else:
        Console().print(report_table(report))
    return 0


def run_with_progress(run: Callable[[Callable[[int], None]], dict[str, Any]], total: int) -> dict[str, Any]:
    """Call `run(progress)`, drawing a progress bar on stderr if it is a terminal."""
    if not sys.stderr.isatty():
        return run(lambda done: None)
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("Simulating", total=total)
        return run(lambda done: bar.update(task, completed=done))


def report_table(report: Mapping[str, Any]) -> Table:
    games = report["games"]
    who = {"bots": "bots", "levels": "computer players"}.get(report.get("players_are", ""), "random players")
    table = Table(title=f"{games} games, {report['players']} {who}, seed {report['seed']}")
    table.add_column("Measure")
    table.add_column("Value", justify="right")
    table.add_row("Games", str(games))
    table.add_row("Mean rounds", f"{report['mean_rounds']:.2f}")
    for reason, count in sorted(report["end_reasons"].items()):
        table.add_row(END_REASONS.get(reason, f"Ended: {reason}"), f"{count} ({count / games:.0%})")
    table.add_row("Final score", f"{report['score_mean']:.1f} ± {report['score_stdev']:.1f}")
    table.add_row("Lowest / highest score", f"{report['score_min']} / {report['score_max']}")
    for seat, share in enumerate(report["win_share"], start=1):
        table.add_row(f"Wins, seat {seat}", f"{share:.1%}")
    for level, tally in report.get("by_level", {}).items():
        table.add_row(
            f"Wins, {level}",
            f"{tally['win_share']:.1%} of {tally['seat_games']} seat-games (mean score {tally['score_mean']:.1f})",
        )
    table.add_row("Mean decisions per game", f"{report['mean_decisions']:.1f}")
    return table
