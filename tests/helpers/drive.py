"""Playing the real app through key presses only, for the Pilot tests.

`play_game(pilot, seed)` plays a whole game of a running `LagoonApp`: on a
curtain it presses Enter; on the game screen it reads the engine's pending
decision (only to *choose*: the prompt lists exactly the engine's options),
picks one option with a small seeded `Policy` and presses the keys that pick
it on screen: the option's digit for the first nine, else Home (or End) and
the arrows to move the prompt's highlight onto it, then Enter. Nothing here
calls the app or the engine to make a move.

Each key goes to the app as a key event, like `Pilot.press`, but the wait
after it is exact instead of `Pilot.press`'s wait for an idle CPU (which
costs tens of milliseconds a key, a lot over a game of a thousand keys): the
driver knows what the key must do (the engine accepted a choice, a curtain
was passed, the highlight moved, the panel page changed), pauses until that
has happened and the screen is consistent again (a curtain, the end screen,
or a game screen whose prompt lists exactly the engine's pending options for
the seat at the keyboard), and then once more so the frame is drawn. Only
then is the test's `after_key(key)` hook called, so a test sees every screen
the players would see.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

from rich.errors import MarkupError
from rich.text import Text
from textual import events
from textual.app import App
from textual.pilot import Pilot
from textual.visual import Visual
from textual.widget import Widget
from textual.widgets import OptionList, RichLog, Static

from lagoon_tui.app import LagoonApp
from lagoon_tui.screens.curtain import CurtainScreen
from lagoon_tui.screens.end import EndScreen
from lagoon_tui.screens.game import GameScreen
from lagoon_tui.settings import GameSettings
from lagoon_tui.widgets.market import MarketPanel
from lagoon_tui.widgets.note import SteadyBorders
from lagoon_tui.widgets.options import Options
from lagoon_tui.widgets.prompt import PromptPanel
from rules import Engine
from rules.decision import Option
from rules.host import Host

DIGITS = "123456789"
STALLING = ("back", "pass")
"""Option ids (or their first part) that undo or skip: taken only now and then, so games move on."""

CHARACTERS = {"enter": "\r", "escape": "\x1b", "tab": "\t", "left_square_bracket": "[", "right_square_bracket": "]"}

AfterKey = Callable[[str], Awaitable[None] | None]


def keys_for(index: int, count: int) -> list[str]:
    """The keys that pick the option at `index` (0-based) of a prompt of `count` options."""
    if index < len(DIGITS):
        return [DIGITS[index]]
    if index <= count - 1 - index:
        return ["home", *["down"] * index, "enter"]
    return ["end", *["up"] * (count - 1 - index), "enter"]


@dataclass
class Policy:
    """Random legal choices, avoiding "back" and "pass" `avoid` of the time when something else is legal."""

    seed: int
    avoid: float = 0.8
    undo: float = 0.0  # how often `u` is pressed instead, where undo is possible (0: never, and no draw)
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def pick(self, options: tuple[Option, ...]) -> int:
        moving = [i for i, o in enumerate(options) if o.id.split(":", 1)[0] not in STALLING]
        if moving and self.rng.random() < self.avoid:
            return self.rng.choice(moving)
        return self.rng.randrange(len(options))


@dataclass
class Run:
    """One game as the driver saw it."""

    engine: Engine
    keys: int = 0  # key presses sent
    accepted: int = 0  # choices the engine accepted (it tells its subscribers)
    curtains: int = 0  # curtains passed
    keyboard: int | None = None  # the seat the driver handed the keyboard to (None: a curtain is up)
    unsubscribe: Callable[[], None] | None = None

    def __post_init__(self) -> None:
        self.unsubscribe = self.engine.subscribe(self._accepted)

    def _accepted(self, new_events: list) -> None:
        self.accepted += 1


def game_screen(app: App) -> GameScreen | None:
    """The game screen, wherever it is in the screen stack."""
    return next((s for s in app.screen_stack if isinstance(s, GameScreen)), None)


def prompt_options(screen: GameScreen) -> Options:
    return screen.query_one(PromptPanel).query_one(Options)


def offered_ids(options: Options) -> list[str]:
    """The ids of the options listed that may be taken (the refused ones, dimmed, come after them)."""
    listed = [options.get_option_at_index(i) for i in range(options.option_count)]
    return [option.id for option in listed if option.refused is None]


def settled(app: App) -> bool:
    """True when the screen on top is consistent with the engine (nothing is on its way)."""
    screen = app.screen
    if isinstance(screen, (CurtainScreen, EndScreen)):
        return True
    if not isinstance(screen, GameScreen):
        return False
    engine = screen.host.engine
    if engine.state.phase == "over":
        return screen.finished  # the last board, waiting for Enter (else the end screen is on its way)
    pending = engine.pending
    if screen.at_keyboard != pending.seat:
        return False  # a curtain is on its way
    return offered_ids(prompt_options(screen)) == list(pending.ids())


async def open_game(pilot: Pilot, game: Engine | Host) -> GameScreen:
    """A new game screen for `game` (an engine, or a host), its curtain passed: the board of whoever decides now."""
    app = pilot.app
    await pilot.pause()
    await app.push_screen(GameScreen(game if isinstance(game, Host) else Host(game)))
    await pilot.pause()
    if isinstance(app.screen, CurtainScreen):
        await pilot.press("enter")
    await settle(pilot)
    assert isinstance(app.screen, GameScreen)
    return app.screen


def quiet(app: App) -> bool:
    """True when the screen has nothing left to lay out or repaint and no after-refresh callback waiting.

    (Textual keeps these in private attributes of the screen; Textual's version is pinned.)
    """
    screen = app.screen
    return not (
        screen._callbacks
        or screen._layout_required
        or screen._repaint_required
        or screen._dirty_widgets
        or screen._recompose_required
    )


async def settle(pilot: Pilot, tries: int = 200) -> None:
    """Wait until the app has caught up with the engine and has nothing left to draw."""
    for _ in range(tries):
        await pilot.pause(0)
        if settled(pilot.app) and quiet(pilot.app):
            await pilot.pause(0)
            return
    raise AssertionError(f"the app did not settle; on {pilot.app.screen!r}:\n" + screen_text(pilot.app))


async def until(pilot: Pilot, ok: Callable[[], bool], tries: int = 60) -> None:
    """Pause the app until `ok()` (a screen pushed or popped comes a message or two later)."""
    for _ in range(tries):
        await pilot.pause()
        if ok():
            return
    raise AssertionError(f"never happened; on {pilot.app.screen!r}")


def toast_shown(app: App) -> bool:
    """A notification is on screen (Textual mounts its toast a message or two after `notify`)."""
    return any(type(w).__name__ == "Toast" for w in app.screen.walk_children())


def key_event(key: str) -> events.Key:
    return events.Key(key, key if len(key) == 1 else CHARACTERS.get(key))


async def press(
    pilot: Pilot,
    key: str,
    done: Callable[[], bool],
    *,
    run: Run | None = None,
    after_key: AfterKey | None = None,
    tries: int = 200,
) -> None:
    """Press `key`; wait until `done()`, the app has settled and the screen is quiet; then `after_key`."""
    app = pilot.app
    behind_curtain = isinstance(app.screen, CurtainScreen)
    app.post_message(key_event(key))
    for _ in range(tries):
        await pilot.pause(0)
        if done() and settled(app) and quiet(app):
            break
    else:
        raise AssertionError(
            f"key {key!r} had no effect, or the app did not settle; on {app.screen!r}:\n" + screen_text(app)
        )
    await pilot.pause(0)
    if run is not None:
        run.keys += 1
        game = game_screen(app)
        if isinstance(app.screen, CurtainScreen):
            run.keyboard = None
        elif behind_curtain:
            run.keyboard = run.engine.pending.seat
        elif game is not None and game.veiled:  # an open decision: the keyboard passed with the board public
            run.keyboard = game.at_keyboard
    if after_key is not None:
        result = after_key(key)
        if result is not None:
            await result


async def step(pilot: Pilot, run: Run, policy: Policy, after_key: AfterKey | None = None) -> None:
    """One move by key presses: pass a curtain, or pick one option of the pending decision."""
    app = pilot.app
    screen = app.screen
    if isinstance(screen, CurtainScreen):
        # the curtain names whoever decides next: the keyboard goes to them
        name = run.engine.state.players[run.engine.pending.seat].name
        assert f"Pass the keyboard to {name}" in screen_text(app), f"the curtain does not call {name}"
        run.curtains += 1
        await press(pilot, "enter", lambda: app.screen is not screen, run=run, after_key=after_key)
        return
    assert isinstance(screen, GameScreen), f"unexpected screen {screen!r}"
    if screen.finished:  # the game is over, its last board on screen: Enter for the scores
        await press(pilot, "enter", lambda: isinstance(app.screen, EndScreen), run=run, after_key=after_key)
        return
    decision = run.engine.pending
    assert decision.seat == run.keyboard, (
        f"seat {decision.seat} decides, but the keyboard went to seat {run.keyboard} without a curtain"
    )
    if policy.undo and run.engine.undo_point() and policy.rng.random() < policy.undo:
        before = len(run.engine.events)
        await press(
            pilot, "u", lambda: len(run.engine.events) < before and toast_shown(app), run=run, after_key=after_key
        )
        return
    index = policy.pick(decision.options)
    options = prompt_options(screen)
    count = options.option_count  # (the refused options are listed after the legal ones)
    keys = keys_for(index, count)
    for n, key in enumerate(keys):
        if key == "home":
            done = lambda: options.highlighted == 0  # noqa: E731
        elif key == "end":
            done = lambda: options.highlighted == count - 1  # noqa: E731
        elif key in ("down", "up"):
            moved = n if keys[0] == "home" else count - 1 - n
            done = lambda moved=moved: options.highlighted == moved  # noqa: E731
        else:  # a digit, or enter on the highlighted option: the engine takes the choice
            before = run.accepted
            done = lambda before=before: run.accepted > before  # noqa: E731
        await press(pilot, key, done, run=run, after_key=after_key)


async def start(pilot: Pilot, after_key: AfterKey | None = None) -> Run:
    """Wait for the first curtain of a game the app started from its settings; the Run to play it."""
    for _ in range(200):
        await pilot.pause(0)
        if isinstance(pilot.app.screen, CurtainScreen) and quiet(pilot.app):
            break
    else:
        raise AssertionError(f"no curtain at the start of the game; on {pilot.app.screen!r}")
    await pilot.pause(0)
    run = Run(game_screen(pilot.app).host.engine)
    if after_key is not None:
        result = after_key("")
        if result is not None:
            await result
    return run


async def play_game(
    pilot: Pilot,
    seed: int,
    *,
    after_key: AfterKey | None = None,
    until: Callable[[Run], bool] | None = None,
    max_keys: int = 20_000,
    run: Run | None = None,
    undo: float = 0.0,
) -> Engine:
    """Play the app's game by key presses to the end screen (or until `until(run)`); the engine."""
    run = run or await start(pilot, after_key)
    policy = Policy(seed, undo=undo)
    while not isinstance(pilot.app.screen, EndScreen):
        if until is not None and until(run):
            break
        assert run.keys < max_keys, f"no end after {run.keys} key presses"
        await step(pilot, run, policy, after_key)
    return run.engine


# -- what is on screen ------------------------------------------------------------------------

WIDE_TEXT = 400
"""Width at which `widget_texts` also renders a widget's whole content: wide enough that no line wraps."""


def screen_text(app: App) -> str:
    """The frame the terminal shows now (the top screen as composed), line by line."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


_STATIC_TEXT: WeakKeyDictionary[Widget, tuple[Visual, dict[int, str]]] = WeakKeyDictionary()
"""A Static's texts by width, kept with the visual they were rendered from (a new visual comes with every update)."""


def title_of(widget: Widget, which: str = "title") -> str:
    """The plain words of a widget's border title (or "subtitle"): as our panels set them, else Textual's."""
    if isinstance(widget, SteadyBorders):
        return widget.border_words(which)
    title = widget.border_title if which == "title" else widget.border_subtitle
    return _plain(title) if title else ""


def _plain(visual_or_text) -> str:
    """The text of a Text, Content or markup string (a border title is markup)."""
    plain = getattr(visual_or_text, "plain", None)
    if isinstance(plain, str):
        return plain
    try:
        return Text.from_markup(str(visual_or_text)).plain  # Rich's markup keeps a letter tag such as [G]
    except MarkupError:  # not markup after all
        return str(visual_or_text)


def _static_text(widget: Static, width: int) -> str:
    visual = widget.visual
    cached = _STATIC_TEXT.get(widget)
    if cached is None or cached[0] is not visual:
        cached = _STATIC_TEXT[widget] = (visual, {})
    if width not in cached[1]:
        # with the widget's own style, as Textual draws it: with an empty style Textual 8.2.8 drops the
        # line breaks of a Rich renderable (its _Styled filters out the unstyled newline segments)
        strips = Visual.to_strips(widget, visual, width, None, widget.visual_style)
        cached[1][width] = "\n".join(strip.text.rstrip() for strip in strips)
    return cached[1][width]


def widget_text(widget: Widget, width: int | None = None) -> str:
    """Everything a widget holds to show, scrolled out of view, hidden or not.

    A Static (every board panel) is rendered whole at `width` columns (its own
    width if None; a panel may say things differently by the room it has); a
    RichLog gives its written lines (and any not yet written for want of a
    size); an option list gives its options; every widget gives its border titles.
    """
    parts = [words for words in (title_of(widget), title_of(widget, "subtitle")) if words]
    if isinstance(widget, Static) and type(widget).render is not Static.render:  # a toast draws its own
        parts.append(_plain(widget.render()))
    elif isinstance(widget, Static):
        width = width or widget.content_region.width
        if width > 0:
            parts.append(_static_text(widget, width))
    elif isinstance(widget, RichLog):
        parts.extend(strip.text.rstrip() for strip in widget.lines)
        parts.extend(_plain(d.content) for d in widget._deferred_renders)
    elif isinstance(widget, MarketPanel):  # it draws and scrolls its own lines, laid out at its width
        parts.extend(strip.text.rstrip() for strip in widget.lines)
    elif isinstance(widget, (OptionList, Options)):
        parts.extend(_plain(widget.get_option_at_index(i).prompt) for i in range(widget.option_count))
    return "\n".join(p for p in parts if p)


@dataclass(frozen=True)
class Seen:
    """What one widget holds to show: as it is laid out now, and unwrapped."""

    where: str  # e.g. "GameScreen/PlayerBoard[2]" (the third player board)
    widget: Widget
    shown: str  # at the widget's own width (empty for a widget with no room now)
    wide: str  # at WIDE_TEXT columns


def widget_texts(app: App) -> list[Seen]:
    """What every widget with any text holds, in every screen of the stack but those under a curtain.

    The board under a curtain is never shown as it is: the one way past a
    curtain is Enter, which draws the board for the next player first.
    """
    out: list[Seen] = []
    stack = app.screen_stack
    curtains = [n for n, screen in enumerate(stack) if isinstance(screen, CurtainScreen)]
    for screen in stack[curtains[-1] :] if curtains else stack:
        count: dict[str, int] = {}
        for widget in screen.walk_children(with_self=True):
            shown, wide = widget_text(widget), widget_text(widget, WIDE_TEXT)
            if shown or wide:
                kind = type(widget).__name__
                n = count[kind] = count.get(kind, -1) + 1
                name = f"#{widget.id}" if widget.id else f"[{n}]"
                out.append(Seen(f"{type(screen).__name__}/{kind}{name}", widget, shown, wide))
    return out


def ana_and_ben(seed: int = 5, start_player: int = 0) -> LagoonApp:
    return LagoonApp(settings=GameSettings(("Ana", "Ben"), ("red", "yellow"), seed, start_player))


async def pick(pilot, run, key: str) -> None:
    """A key that the engine answers with a move (or with an undo)."""
    engine = run.engine
    before = (run.accepted, len(engine.events))
    await press(pilot, key, lambda: (run.accepted, len(engine.events)) != before, run=run)


async def pass_curtain(pilot, run) -> None:
    app = pilot.app
    assert isinstance(app.screen, CurtainScreen)
    await press(pilot, "enter", lambda: not isinstance(app.screen, CurtainScreen), run=run)
