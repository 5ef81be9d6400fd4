"""What a bug leaves behind: one sentence on the terminal and a report in a private file.

Whatever fails (the app, a computer player's thread, the engine, a replay,
any `lagoon` command) ends the same way: the terminal gets `sentence(path)`,
which says what happened, where the report is, and (where a game was being
played: the app, `lagoon session` and `lagoon serve`) that the game is saved;
and nothing else: never the exception's text, which can name a card (a
`KeyError` of a deal), and never a traceback with its local variables,
which hold the whole game. The report (`write_report`) holds the time, the
versions and the traceback without local variables, in a file only its
owner may read, under `$XDG_STATE_HOME/lagoon/` (by default
`~/.local/state/lagoon/`).

Who catches what: the app's own bugs, its handler in `turbo/crash.py`
(Textual keeps its handler in a private method); a command's, `main` in
`cli.py` (with `stopped`); a thread's, `handlers()`, which gives it to the
app if one is running (it ends as on any bug of its own) and otherwise
says the sentence; a task's of the server's event loop, `loop_handler`
(the server goes on).
"""

from __future__ import annotations

import os
import sys
import threading
import traceback
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import asyncio

    from rich.text import Text

CRASHED = 70
"""The exit code after a bug (EX_SOFTWARE of sysexits.h: an internal software error)."""

OUT_OF_MEMORY = 71
"""The exit code of an SSH session's app whose memory ran out under the ceiling its server set (EX_OSERR of
sysexits.h: the system refused a resource). Not a bug: no report; the server tells the player."""

SAVED = "Every move up to the last one is saved."


def state_dir() -> Path:
    """`$XDG_STATE_HOME/lagoon`, by default `~/.local/state/lagoon` (a relative XDG_STATE_HOME is ignored,
    as the XDG base directory specification says)."""
    base = os.environ.get("XDG_STATE_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".local" / "state"
    return root / "lagoon"


def sentence(report: Path | None, *, remote: bool = False, playing: bool = True) -> str:
    """What the terminal is told: never the error itself, which may name a card (two lines: the report's
    path on the second, whole where the terminal is wide enough).

    `remote`: a player on a terminal of their own over SSH, for whom a path
    on the server means nothing (and tells them nothing they need).
    `playing`: a game was being played or changed (the app, a session, the
    server), so what was saved is worth saying; a command that plays no
    game (`lagoon list`, `check-content`) has nothing to say about moves."""
    if remote:
        where = "The report is on the game's server."
    elif report is None:
        where = "No report could be written."
    else:
        where = f"The report is in {report}"
    return f"Lagoon stopped on a bug. {SAVED}\n{where}" if playing else f"Lagoon stopped on a bug.\n{where}"


def report_text(error: BaseException | str, when: datetime) -> str:
    """The report of `error` (or of a traceback's text): when, which versions, and its traceback (chained
    ones too) without local variables."""
    import platform

    from lagoon_tui import __version__

    trace = error if isinstance(error, str) else "".join(traceback.format_exception(error))

    return "\n".join(
        [
            "Lagoon crash report",
            f"time: {when.isoformat(timespec='seconds')}",
            f"lagoon {__version__}, Python {platform.python_version()}, textual {_textual_version()}, "
            f"{platform.system()} {platform.release()}",
            "This report may name cards of the game it stopped: read it, or send it on, after that game.",
            "",
            trace.rstrip(),
            "",
        ]
    )


def _textual_version() -> str:
    from importlib import metadata

    try:
        return metadata.version("textual")
    except metadata.PackageNotFoundError:
        return "not installed"


FOLDER_REPORTS = 1000
"""No new report is written in a folder that holds this many: the sessions of `lagoon serve` write theirs
there too, and a bug a player can reach again and again, one session after another, must not fill the disk."""


def write_report(error: BaseException | str, into: Path | None = None) -> Path | None:
    """Write the report of `error` in a new file of the state folder (or at the end of `into`, the report of
    the same run's first failure); its path, or None if it could not be written (a full disk, a folder
    not ours, one that holds `FOLDER_REPORTS` already). The folder is made for its owner only (0700), the
    file readable by its owner only (0600)."""
    try:
        text = report_text(error, datetime.now(UTC))
        if into is not None:
            with open(into, "a", encoding="utf-8", errors="replace") as report:
                report.write("\nAnd then:\n\n" + text)
            return into
        folder = state_dir()
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        folder.chmod(0o700)
        if sum(1 for _ in folder.glob("crash-*.txt")) >= FOLDER_REPORTS:
            return None
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        for n in range(1, 100):
            path = folder / f"crash-{stamp}-{os.getpid()}{'' if n == 1 else f'-{n}'}.txt"
            try:  # (O_EXCL: never into a file, or through a link, that is already there)
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                continue
            with open(fd, "w", encoding="utf-8", errors="replace") as report:
                report.write(text)
            return path
    except Exception:  # (the last resort of every other handler: whatever stops the report, the sentence is said)
        pass
    return None


def ran_out_of_memory(bug: BaseException | str) -> bool:
    """Whether `bug` is a MemoryError, or came of one (its cause or context), or is a traceback's text
    that ends in one."""
    if isinstance(bug, str):
        return bug.rstrip().rsplit("\n", 1)[-1].startswith("MemoryError")
    seen: set[int] = set()
    error: BaseException | None = bug
    while error is not None and id(error) not in seen:
        if isinstance(error, MemoryError):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


def end_if_out_of_memory(bug: BaseException | str, *, remote: bool) -> None:
    """A remote session's app under a memory ceiling (`lagoon serve` sets one) whose `bug` is running out
    of memory ends at once with `OUT_OF_MEMORY`, allocating nothing more (a report or a sentence could
    fail the same way); its server tells the player. Anything else returns, to be handled as a bug."""
    if remote and ran_out_of_memory(bug) and under_ceiling():
        os._exit(OUT_OF_MEMORY)


def under_ceiling() -> bool:
    """Whether this process's address space has a limit (RLIMIT_AS)."""
    import resource

    return resource.getrlimit(resource.RLIMIT_AS)[0] != resource.RLIM_INFINITY


def say(line: str) -> None:
    """`line` on stderr, if there is one to write to."""
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):  # (no stderr, or a closed one)
        pass


def stopped(error: BaseException, *, remote: bool = False, playing: bool = True) -> int:
    """A command ends on `error`: its report written, the sentence said; the exit code."""
    end_if_out_of_memory(error, remote=remote)
    say(sentence(write_report(error), remote=remote, playing=playing))
    return CRASHED


SERVER_REPORTS = 100
"""The most reports a server writes in one run (`reported`): a bug a client can reach, met again and again,
must not fill the server's disk."""

_server_reports: dict[Path, dict[tuple[str, ...], Path]] = {}  # by folder: each bug's report


def reported(error: BaseException) -> str:
    """Report `error`; where the report is, for a line of a server's log.

    The same bug (an exception of one type raised through the same lines)
    is written once a run, and later lines name that report; past
    `SERVER_REPORTS` different ones, none is written."""
    written = _server_reports.setdefault(state_dir(), {})
    same = (type(error).__qualname__, *(f"{f.filename}:{f.lineno}" for f in traceback.extract_tb(error.__traceback__)))
    if same in written:
        return f"the same bug as before; the report is in {written[same]}"
    if len(written) >= SERVER_REPORTS:
        return f"no report was written: this run has written {SERVER_REPORTS} already"
    report = write_report(error)
    if report is None:
        folder = state_dir()
        try:
            full = sum(1 for _ in folder.glob("crash-*.txt")) >= FOLDER_REPORTS
        except OSError:
            full = False
        why = f"{folder} holds {FOLDER_REPORTS} reports already (remove old ones)" if full else f"not in {folder}"
        where = traceback.extract_tb(error.__traceback__)[-1:]  # (where it was raised: no words of the game)
        at = f" at {Path(where[0].filename).name}:{where[0].lineno}" if where else ""
        return f"{type(error).__name__}{at}; no report could be written: {why}"
    written[same] = report
    return f"the report is in {report}"


class Catcher(Protocol):
    """An app that takes a thread's bug while it runs (`turbo.crash.CrashReports`)."""

    @property
    def is_running(self) -> bool: ...

    def thread_failed(self, error: BaseException) -> bool:
        """End on `error` as on a bug of its own; False if it is closing and cannot."""
        ...


_apps: list[weakref.ref[Catcher]] = []


def catch_for(app: Catcher) -> None:
    """From now on, while `app` runs, a bug in any thread ends it (the app last made that runs, if more do)."""
    _apps[:] = [ref for ref in _apps if ref() is not None]
    _apps.append(weakref.ref(app))


def thread_failed(error: BaseException, *, remote: bool = False, playing: bool = True) -> None:
    """A bug that ends a thread: the running app ends on it, with the sentence and a report like any bug
    of its own; with no app to take it, the report is written and the sentence said."""
    for ref in reversed(_apps):
        app = ref()
        if app is not None and app.is_running and app.thread_failed(error):
            return
    stopped(error, remote=remote, playing=playing)


@contextmanager
def handlers(*, remote: bool = False, playing: bool = True) -> Iterator[None]:
    """While in it, an exception that ends a thread goes to `thread_failed` (the main thread's is the
    caller's to catch: see `stopped`); the hook that was there before comes back after."""
    before = threading.excepthook

    def hook(failure: threading.ExceptHookArgs) -> None:
        if failure.exc_value is None or isinstance(failure.exc_value, SystemExit):
            return  # (as Python's own hook: a thread that called sys.exit just ended)
        thread_failed(failure.exc_value, remote=remote, playing=playing)

    threading.excepthook = hook
    try:
        yield
    finally:
        threading.excepthook = before


def loop_handler(tell: Callable[[str], None]) -> Callable[[asyncio.AbstractEventLoop, dict], None]:
    """For a server's event loop: a task that failed is reported, and `tell` gets one line with the path
    (the server goes on); anything else the loop has to say is said as asyncio says it."""

    def handle(loop: asyncio.AbstractEventLoop, context: dict) -> None:
        error = context.get("exception")
        if not isinstance(error, Exception):
            loop.default_exception_handler(context)
            return
        tell(f"lagoon serve: a bug stopped one of the server's tasks{_which(context)}; {reported(error)}")

    return handle


def _which(context: dict) -> str:
    """The task or callback that failed, as asyncio's context names it: " (in Room._flush)", say."""
    future = context.get("future")
    if future is not None and hasattr(future, "get_coro"):
        return f" (in {getattr(future.get_coro(), '__qualname__', future.get_name())})"
    message = str(context.get("message", ""))
    callback = message.removeprefix("Exception in callback ").split("(", 1)[0].split()[:1]
    return f" (in {callback[0]})" if message.startswith("Exception in callback ") and callback else ""


class Stopped(Exception):
    """What the app raises in a bug's place (and Textual's test pilot raises again after the app): its
    message, and its picture on a terminal, are the sentence only; `error` is the bug itself."""

    def __init__(self, told: str, error: BaseException | None = None) -> None:
        super().__init__(told)
        self.told, self.error = told, error
        self.__cause__ = error  # (for a test that fails on it: Textual's pilot raises it again; the app never does)

    def __rich__(self) -> Text:
        from rich.text import Text

        return Text(self.told, overflow="fold")  # (a path wider than the terminal is folded, not cut off)
