"""Speed of the terminal app on a real pseudo-terminal: start-up, and key press to updated screen.

    python bench/tui_bench.py [--runs N] [--presses N] [--seed S] [--stock]

A benchmark, not a test: it prints figures and never fails on time.

Method. Each app runs as a child process on a pseudo-terminal of its own
(`os.openpty`, the size set with TIOCSWINSZ, TERM=xterm-256color), exactly as
in a terminal window: the bench reads everything the app writes to the
terminal, time-stamped as it arrives, and strips the escape sequences to find
text in it (Textual writes each run of equally styled text in one piece, so a
phrase of one style is found whole). Nothing answers the app's terminal
queries, so it draws without synchronised output, as in a plain terminal.
The game's modules are compiled to bytecode first, as they are for a player
(an installed wheel's are; `make play` compiles an editable install's).
With --stock the lagoon processes run with LAGOON_STOCK_TEXTUAL=1, so the
app's Textual-internals layer (`lagoon_tui.turbo`) is off; the bare app is
the same either way. The report's header says whether the layer was on, as
the lagoon process itself finds it (`lagoon_tui.turbo.ON`, asked of a Python
started with the same environment).

(a) Start-up, at 160x50 and at 80x24, median of --runs runs each, measured
    in the same run for a bare Textual app (a Header and a Footer, written to
    a temporary file) and for `lagoon play Ana Ben --seed 5 --start 1`:
    - bare: process start (just before the spawn) to the first frame, that
      is to when the Header's title and the Footer's key have been written;
    - lagoon, first frame: process start to the hot-seat curtain written
      ("Pass the keyboard to Ana"): the app's first screen;
    - lagoon, board ready: process start to the first interactive frame of
      the main board: the curtain is passed with Enter the moment it is on
      screen, and the time is taken when the board's prompt is written with
      its first option ("keep 2 of your 3 objectives", "1. Keep"). This is
      the figure held against the target: at most 1.5x the bare app's;
    - lagoon, waited: what a player waits in all when Enter comes as a person
      presses it, PLAYER_WAIT seconds after the curtain shows (the board is
      drawn under the curtain meanwhile): process start to the curtain, plus
      Enter to the board ready. For information, not the target.
    The machine's speed drifts within a run, so each lagoon figure is divided
    by the bare app's start made just before it; the median of those ratios
    is reported, with their spread.
(b) Key press to updated screen at 160x50, in one game of `lagoon play`
    played through from its start by keys alone. A copy of the game, on the
    engine behind the app's own host (`rules.host.Host`) (same names, colours, seed and
    start player, each turn held for its End turn as `lagoon play` holds it;
    so a lone forced Pass is made for a player exactly where the app makes
    it), says which options the prompt lists, so the bench
    picks a legal option at random among the first nine (avoiding "back" and
    "pass" most of the time). Where the keyboard goes after each choice is
    worked out by the rule the game screen follows (`Hands`, with
    `lagoon_tui.hand_over`, its state machine): to a new player behind a curtain, or,
    for a decision anyone may watch (`rules.decision.OPEN_KINDS`: the
    choice of an island), to the next player with no curtain, their cards
    hidden until a later decision of theirs raises one. A curtain expected
    and not written, or written and not expected, stops the bench. Kinds of
    key, each timed from the write of the key to the terminal:
    - choice: an option's digit (the engine takes the choice, every panel
      redraws; after a choice that hands the keyboard on in the open, for
      the next player);
    - hand-over: Enter on a curtain (the board drawn for the player it calls);
    - highlight: Down in the prompt's option list (the highlight moves);
    - log filter: f (the log shows one player's lines, then all again).
    "first" is the time to the first byte the app writes in answer, "done"
    the time to the last byte before the output has been quiet for
    QUIET seconds (the update is complete on screen). p50 and p95 over all
    presses of a kind; the target is done p95 <= 16 ms.
"""

from __future__ import annotations

import argparse
import codecs
import fcntl
import os
import random
import re
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import textual  # noqa: E402
from bytecode import compile_game  # noqa: E402

from lagoon_tui import turbo  # noqa: E402
from lagoon_tui.hand_over import READY, Change, Keyboard, next_state  # noqa: E402
from lagoon_tui.settings import COLOURS  # noqa: E402
from rules import Engine, load_content  # noqa: E402
from rules.host import Host, NotMade, Rejection  # noqa: E402
from rules.seat import Turn  # noqa: E402

PYTHON = Path(sys.executable)
LAGOON = PYTHON.with_name("lagoon")
QUIET = 0.15  # seconds without output after which a screen update counts as complete
TIMEOUT = 30.0  # seconds to wait for anything at all
ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][0-9A-Za-z]|[@-Z\\-_=>78])")

BARE_APP = """
from textual.app import App
from textual.widgets import Footer, Header


class Bare(App):
    TITLE = "Bare bench app"
    BINDINGS = [("q", "quit", "Quit")]

    def compose(self):
        yield Header()
        yield Footer()


Bare().run()
"""
BARE_READY = ("Bare bench app", "Quit")
CURTAIN = "Pass the keyboard to"
BOARD_READY = ("keep 2 of your 3 objectives", "1. Keep")
NAMES, SEED, START = ["Ana", "Ben"], 5, 0
LAGOON_ARGS = ["play", *NAMES, "--seed", str(SEED), "--start", str(START + 1)]
PLAYER_WAIT = 0.3  # seconds a person takes to press Enter once the curtain shows
LAGOON_ENV: dict[str, str] = {}  # what the lagoon processes get in their environment besides (--stock)


def terminal_env(width: int, height: int, extra: dict[str, str]) -> dict[str, str]:
    """The environment of an app on the bench's terminal: this one's, as a plain xterm of that size."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "TMUX"))}
    env.update(TERM="xterm-256color", LANG=env.get("LANG", "C.UTF-8"), COLUMNS=str(width), LINES=str(height))
    env.update(extra)
    return env


class Terminal:
    """A child process on a pseudo-terminal, and everything it writes, time-stamped."""

    def __init__(self, argv: list[str], width: int, height: int, extra_env: dict[str, str] | None = None):
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
        env = terminal_env(width, height, extra_env or {})
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True, close_fds=True
        )
        os.close(slave)
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.text = ""  # plain text written since the last mark()
        self.last_output = self.started

    def read(self, timeout: float) -> bool:
        """Read what the app wrote within `timeout` seconds; False if nothing came."""
        ready, _, _ = select.select([self.master], [], [], max(0.0, timeout))
        if not ready:
            return False
        try:
            data = os.read(self.master, 1 << 16)
        except OSError:  # the child has gone
            data = b""
        now = time.perf_counter()
        if not data:
            raise EOFError("the app closed its terminal")
        self.last_output = now
        self.text += ANSI.sub("", self.decoder.decode(data))
        return True

    def mark(self) -> None:
        self.text = ""

    def wait_for(self, *phrases: str) -> float:
        """perf_counter time at which every phrase has been written since the last mark()."""
        deadline = time.perf_counter() + TIMEOUT
        while not all(p in self.text for p in phrases):
            if time.perf_counter() > deadline:
                raise TimeoutError(f"{phrases} never appeared; last output: {self.text[-400:]!r}")
            self.read(deadline - time.perf_counter())
        return self.last_output

    def press(self, key: bytes) -> tuple[float, float]:
        """Send `key`; (first, done): seconds to the first output and to the last before QUIET of silence."""
        self.drain()
        self.mark()
        sent = time.perf_counter()
        os.write(self.master, key)
        deadline = sent + TIMEOUT
        first = None
        while True:
            if first is None:
                if not self.read(deadline - time.perf_counter()):
                    raise TimeoutError(f"no answer to {key!r}")
                first = self.last_output - sent
            elif not self.read(QUIET):
                return first, self.last_output - sent

    def drain(self) -> None:
        while self.read(QUIET):
            pass

    def close(self) -> None:
        """Quit the app with ctrl+q (twice: on a player's own turn the first asks); kill it (its own process
        group) if it does not go."""
        if self.process.poll() is None:
            try:
                os.write(self.master, b"\x11\x11")  # ctrl+q, and again: the question's yes
                self.process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                try:
                    os.killpg(self.process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.process.wait()
        os.close(self.master)


# -- (a) start-up ------------------------------------------------------------------------------


def start_bare(script: Path, size: tuple[int, int]) -> float:
    term = Terminal([str(PYTHON), str(script)], *size)
    try:
        return term.wait_for(*BARE_READY) - term.started
    finally:
        term.close()


def start_lagoon(size: tuple[int, int], wait: float = 0.0) -> tuple[float, float]:
    """(to the curtain, to the board ready) in seconds: from the spawn, and from the Enter after `wait` seconds."""
    term = Terminal([str(LAGOON), *LAGOON_ARGS], *size, LAGOON_ENV)
    try:
        curtain = term.wait_for(CURTAIN) - term.started
        if wait:
            term.drain()
            time.sleep(wait)
        term.mark()
        enter = time.perf_counter()
        os.write(term.master, b"\r")
        board = term.wait_for(*BOARD_READY)
        return curtain, board - (term.started if not wait else enter)
    finally:
        term.close()


def startup(runs: int) -> list[tuple]:
    """Per size: the size; the medians of bare, curtain, board, board/bare, waited, waited/bare;
    board/bare's lowest and highest.

    The machine's speed drifts within a run, so each lagoon start is divided by
    the bare start made just before it, and the ratios' median is reported.
    """
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "bare_app.py"
        script.write_text(BARE_APP)
        for size in ((160, 50), (80, 24)):
            start_bare(script, size), start_lagoon(size)  # warm the file cache
            bare, curtain, board, ratio, waited, waited_ratio = [], [], [], [], [], []
            for _ in range(runs):  # interleaved, so both see the same machine
                b = start_bare(script, size)
                c, ready = start_lagoon(size)
                wc, wb = start_lagoon(size, wait=PLAYER_WAIT)
                bare.append(b)
                curtain.append(c)
                board.append(ready)
                ratio.append(ready / b)
                waited.append(wc + wb)
                waited_ratio.append((wc + wb) / b)
            rows.append(
                (
                    size,
                    *(statistics.median(v) for v in (bare, curtain, board, ratio, waited, waited_ratio)),
                    min(ratio),
                    max(ratio),
                )
            )
    return rows


# -- (b) key press to updated screen ----------------------------------------------------------


def pick(rng: random.Random, options) -> int:
    first = list(range(min(9, len(options))))
    moving = [i for i in first if options[i].id.split(":", 1)[0] not in ("back", "pass")]
    if moving and rng.random() < 0.8:
        return rng.choice(moving)
    return rng.choice(first)


class Hands:
    """Who has the app's keyboard, worked out after each move by the rule the game screen follows (`hand_over`).

    If the bench and the app ever part, the bench sees a curtain it did not
    expect (or misses one it did) and stops.
    """

    def __init__(self) -> None:
        self.state = Keyboard()  # (a game of people only: the bench plays no computers)

    def curtain_for(self, turn: Turn) -> bool:
        """The app has just shown what came of a move: whether a curtain is up now (and the keyboard goes on)."""
        self.state, do = next_state(self.state, Change(turn.seat, open=turn.open))
        if do.curtain is None:
            return False
        self.state, _ = next_state(self.state, READY)  # (the bench passes every curtain it sees)
        return True

    def follow(self, term: Terminal, turn: Turn, *, where: str) -> bool:
        """`curtain_for`, held against what the app wrote since the key (or its start): True if a curtain is up.

        A curtain expected is waited for (a slow frame may come after a quiet
        spell on a busy machine); one written and not expected, or expected
        and never written, means the bench no longer follows the app: it stops.
        """
        curtain = self.curtain_for(turn)
        lost = f"the bench lost track of the game at {where}, {turn.kind} for seat {turn.seat}"
        if not curtain and CURTAIN in term.text:
            raise RuntimeError(f"{lost}: a curtain it did not expect")
        if curtain:
            try:
                term.wait_for(CURTAIN)
            except TimeoutError:
                raise RuntimeError(f"{lost}: no curtain where it expects one") from None
        return curtain


def latency(presses: int, seed: int) -> dict[str, list[tuple[float, float]]]:
    engine = Engine.new(load_content(), NAMES, seed=SEED, start_player=START, colours=list(COLOURS[: len(NAMES)]))
    host = Host(engine)  # (moves go through it, as the game screen's do)
    host.confirming = set(range(len(NAMES)))  # (`lagoon play` holds each turn for its End turn, as here)
    host.pass_where_forced()  # as the game screen does when it opens
    hands = Hands()
    rng = random.Random(seed)
    times: dict[str, list[tuple[float, float]]] = {"choice": [], "hand-over": [], "highlight": [], "log filter": []}
    term = Terminal([str(LAGOON), *LAGOON_ARGS], 160, 50, LAGOON_ENV)
    try:
        curtain = hands.follow(term, host.turn(), where="the start")
        while len(times["choice"]) < presses and engine.state.phase != "over":
            if curtain:
                times["hand-over"].append(term.press(b"\r"))
                curtain = False
                continue
            turn = host.turn()
            decision = host.scene(turn.seat).prompt  # (a held turn's is End turn alone)
            assert decision is not None, f"no decision on screen for seat {turn.seat}"
            if len(decision.options) > 1:
                times["highlight"].append(term.press(b"\x1b[B"))  # Down
            if len(times["choice"]) % 5 == 4:
                times["log filter"].append(term.press(b"f"))
                for _ in range(engine.state.seats):  # round to "all players" again
                    term.press(b"f")
            index = pick(rng, decision.options)
            times["choice"].append(term.press(str(index + 1).encode()))
            if isinstance(host.choose(decision.options[index].id), (Rejection, NotMade)):  # (End turn: no events)
                raise RuntimeError(f"the bench's copy of the game refused {decision.options[index].id!r}")
            if engine.state.phase == "over":
                break
            curtain = hands.follow(term, host.turn(), where=f"round {engine.state.round}")
    finally:
        term.close()
    return times


def layer_on() -> bool:
    """Whether the lagoon processes run with the Textual-internals layer, as a Python in their environment finds."""
    check = subprocess.run(
        [str(PYTHON), "-c", "from lagoon_tui import turbo; print(turbo.ON)"],
        cwd=ROOT,
        env=terminal_env(160, 50, LAGOON_ENV),
        capture_output=True,
        text=True,
        check=True,
    )
    return check.stdout.strip() == "True"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    low = int(k)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="start-ups of each app per size (default 7)")
    parser.add_argument("--presses", type=int, default=60, help="option choices to time (default 60)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the choices (default 1)")
    parser.add_argument(
        "--stock", action="store_true", help=f"run lagoon with {turbo.SWITCH}=1: the Textual-internals layer off"
    )
    args = parser.parse_args()
    if args.stock:
        LAGOON_ENV[turbo.SWITCH] = "1"
    # the games the bench plays are saved in a scratch folder, not among the user's games
    os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="lagoon-bench-")
    if not LAGOON.exists():
        sys.exit(f"no lagoon command at {LAGOON}: install the project in this Python's environment")
    compile_game()  # as a player's installed game is

    switch = f" ({turbo.SWITCH}=1)" if args.stock else ""
    print(
        f"lagoon_tui.turbo, the Textual-internals layer: {'on' if layer_on() else 'off'}{switch}; "
        f"Textual {textual.__version__}"
    )
    print(f"(a) start-up, median of {args.runs} runs (ms; each ratio is to the bare start just before it)")
    print(
        f"{'terminal':>9} {'bare app':>9} {'lagoon curtain':>15} {'lagoon board':>13} {'board/bare':>11} "
        f"{'(spread)':>12} {'waited':>7} {'waited/bare':>12}"
    )
    for (w, h), bare, curtain, board, ratio, waited, waited_ratio, low, high in startup(args.runs):
        print(
            f"{f'{w}x{h}':>9} {bare * 1000:>9.0f} {curtain * 1000:>15.0f} {board * 1000:>13.0f} "
            f"{ratio:>10.2f}x {f'{low:.2f}-{high:.2f}':>12} {waited * 1000:>7.0f} {waited_ratio:>11.2f}x"
        )
    print("target: lagoon board / bare app <= 1.5x")
    print()
    times = latency(args.presses, args.seed)
    print(f"(b) key press to updated screen at 160x50 (ms; 'done' = last byte before {QUIET * 1000:.0f} ms quiet)")
    print(f"{'key':>11} {'presses':>8} {'first p50':>10} {'first p95':>10} {'done p50':>9} {'done p95':>9}")
    for kind, pairs in times.items():
        if not pairs:
            continue
        first = [f * 1000 for f, _ in pairs]
        done = [d * 1000 for _, d in pairs]
        print(
            f"{kind:>11} {len(pairs):>8} {percentile(first, 0.5):>10.1f} {percentile(first, 0.95):>10.1f} "
            f"{percentile(done, 0.5):>9.1f} {percentile(done, 0.95):>9.1f}"
        )
    print("target: done p95 <= 16 ms")


if __name__ == "__main__":
    main()
