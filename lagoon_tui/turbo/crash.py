"""The app's crash handler: a bug ends the app with one sentence, its traceback in a report (`lagoon_tui.crash`).

Textual sends every exception the app does not handle (in a message
handler, a panel's drawing, a timer, a worker thread such as a computer
player's) to the private `App._handle_exception`, which prints a Rich
traceback with the local variables of every frame once the app has closed:
the whole game state, every hand, the deck order and the seed, on a screen
others may see. Textual offers no public hook for it, so `CrashReports`
overrides that method: the bug goes to a report, and Textual is handed
instead a `Stopped` whose picture is the sentence, which it prints as it
would the traceback, after the terminal is given back. Its terminal driver,
when its input thread fails, calls the public `App.panic` with a traceback
(without locals, but with the exception's text): that is reported the same
way. A thread's bug (`crash.handlers`, `crash.thread_failed`) is handed to
the app's loop and handled there as its own (`thread_failed`). After any of
them, the app's exit code is `crash.CRASHED`, and the app says nothing more
(an `exit` with a message of its own, such as a lost link's, is let go).

Unlike the rest of the layer this piece is not for speed and is never
switched off: off, a bug would show the game's secrets.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import RenderableType
from rich.traceback import Trace, Traceback
from textual.worker import WorkerFailed

from .. import crash

if TYPE_CHECKING:
    from textual.app import App

    _App = App[Any]  # what the mixin goes with, for the checker
else:
    _App = object  # at run time no class but the mixin's own joins the app's MRO


class CrashReports(_App):
    """Mixin for the app (before `App` in its bases)."""

    crashed: bool = False
    crash_report: Path | None = None  # the report of this run's first bug (a later one is added to it)
    crash_remote: bool = False  # a player at a terminal of their own over SSH: the report's path is not theirs

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        crash.catch_for(self)

    def thread_failed(self, error: BaseException) -> bool:
        """(From any thread.) End the app on `error`, a bug of another thread, as on a bug of its own; False
        if the app is closing and cannot take it."""
        return self.call_later(self._handle_exception, error)

    def exit(self, *args: Any, **kwargs: Any) -> None:
        if not self.crashed:  # (after a bug, the sentence is the last word)
            super().exit(*args, **kwargs)

    def crash_sentence(self, bug: BaseException | str) -> str:
        """Report `bug` (an exception, or a traceback's text); the sentence for the terminal. (A remote
        session whose memory ran out ends here, see `crash.end_if_out_of_memory`.)"""
        crash.end_if_out_of_memory(bug, remote=self.crash_remote)
        self.crashed = True
        self.crash_report = crash.write_report(bug, into=self.crash_report)
        return crash.sentence(self.crash_report, remote=self.crash_remote)

    def _handle_exception(self, error: Exception) -> None:
        bug = error.error if isinstance(error, WorkerFailed) else error  # (a worker's: the bug is what it raised)
        super()._handle_exception(crash.Stopped(self.crash_sentence(bug), bug))

    def panic(self, *renderables: RenderableType) -> None:
        traces = [renderable.trace for renderable in renderables if isinstance(renderable, Traceback)]
        if traces:
            told = [self.crash_sentence(trace_text(trace)) for trace in traces][-1]
            renderables = (crash.Stopped(told),)
        super().panic(*renderables)

    @property
    def return_code(self) -> int | None:
        return crash.CRASHED if self.crashed else super().return_code


def trace_text(trace: Trace) -> str:
    """A Rich traceback's frames and exceptions as Python writes a traceback (the first cause first)."""
    lines: list[str] = []
    stacks = trace.stacks  # (the last exception first; each one's `is_cause`: it caused the one before it)
    for n in range(len(stacks) - 1, -1, -1):
        if n < len(stacks) - 1:
            caused = stacks[n + 1].is_cause
            lines += ["", "That caused:" if caused else "While handling it, another exception:", ""]
        lines.append("Traceback (most recent call last):")
        for frame in stacks[n].frames:
            lines.append(f'  File "{frame.filename}", line {frame.lineno}, in {frame.name}')
            if frame.line.strip():
                lines.append(f"    {frame.line.strip()}")
        lines.append(f"{stacks[n].exc_type}: {stacks[n].exc_value}")
    return "\n".join(lines)
