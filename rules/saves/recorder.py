"""Ties a game's Engine to the store: each accepted choice is saved before anyone sees it.

The recorder is the Engine's `journal`. The engine calls it inside `choose`
and `undo`, before any subscriber (the screen) hears of the change; if saving
fails the engine takes the choice back, so the screen never shows a move that
a crash could lose.
"""

from __future__ import annotations

from collections.abc import Mapping

from .. import Engine
from ..audit import LogError, audit
from ..cards import Content
from ..events import Event
from ..seat import Line
from ..undo import Mark
from .store import GameInfo, SavedGame, Store, StoreError, Summary


def summary_of(engine: Engine) -> Summary:
    s = engine.state
    over = s.phase == "over"
    return Summary(
        "over" if over else "playing", s.round, tuple(p.vp for p in s.players), None if over else engine.pending.seat
    )


class Recorder:
    """The journal of one saved game."""

    def __init__(self, store: Store, game: int, engine: Engine) -> None:
        self.store, self.game, self.engine = store, game, engine

    def record(self, start: int, events: list[Event], mark: Mark) -> None:
        self.store.append(self.game, start, events, mark, summary_of(self.engine))

    def rewind(self, length: int) -> None:
        # the engine has not cut its log yet: the summary is that of the log before the undone move
        marks = [m for m in self.engine.marks if m.pos < length]
        before = Engine(self.engine.content, self.engine.events[:length], marks)
        self.store.rewind(self.game, length, self.engine.pending.seat, summary_of(before), was=len(self.engine.events))


def saved_asides(store: Store, game: int, engine: Engine) -> tuple[list[tuple[int, Line]], list[tuple[int, int, bool]]]:
    """The lines of `game`'s log that are no event of the rules, as saved (`Store.asides`), each after so many of
    the events `engine` holds (`Chronicle.asides`; a seat the game has not is nobody's), and where a computer
    began to play for a seat and where its player took it back (`Chronicle.stand_ins`)."""
    seats, length = len(engine.state.players), len(engine.events)
    asides: list[tuple[int, Line]] = []
    stand_ins: list[tuple[int, int, bool]] = []
    for pos, seat, text, kind in store.asides(game):
        at, whose = min(pos, length), seat if seat is None or 0 <= seat < seats else None
        asides.append((at, Line(whose, text)))
        if kind is not None and whose is not None:
            stand_ins.append((at, whose, kind == "began"))
    return asides, stand_ins


def record_new(store: Store, engine: Engine, computers: Mapping[int, str] | None = None) -> int:
    """Save a game just created with `Engine.new` (`computers`: the seats a computer plays, by level)
    and keep saving it; its id."""
    s = engine.state
    game = store.create(
        seed=s.seed,
        names=[p.name for p in s.players],
        colours=[p.colour for p in s.players],
        fingerprint=engine.content.fingerprint,
        events=engine.events,
        marks=engine.marks,
        summary=summary_of(engine),
        computers=computers,
    )
    engine.journal = Recorder(store, game, engine)
    return game


def check_content(info: GameInfo, content: Content) -> None:
    """Refuse a game saved with other decks: its log would not mean the same thing."""
    if info.fingerprint != content.fingerprint:
        raise StoreError(
            f"Game {info.id} was played with other decks (content fingerprint "
            f"{info.fingerprint[:12]}…, these decks are {content.fingerprint[:12]}…). "
            "Start lagoon with --content DIR pointing at the decks it was played with."
        )


def _rebuilt(store: Store, game: int, content: Content) -> Engine:
    """The saved game's engine, its log checked as an import checks one (`rules.audit.audit`: the moves
    played again from the seed must give exactly the saved events); StoreError if it cannot be."""
    return _audited(store, store.load(game), content)


def _audited(store: Store, saved: SavedGame, content: Content) -> Engine:
    check_content(saved.info, content)
    try:
        engine = audit(content, saved.events, [m.choice for m in saved.marks])
    except LogError as error:
        raise damaged(store, saved.info.id, error.event) from None
    except Exception:  # noqa: BLE001 - whatever breaks, the log is not a game (and its text is not said)
        raise damaged(store, saved.info.id, None) from None
    for mark, made in zip(saved.marks, engine.marks):
        if (mark.pos, mark.seat) != (made.pos, made.seat):  # a move saved at another place or for another seat
            raise damaged(store, saved.info.id, min(mark.pos, made.pos))
    return engine


def damaged(store: Store, game: int, event: int | None) -> StoreError:
    """The sentence for a saved game whose log the rules do not replay: the game, the file and the event
    only. (Never the error's text or the event's fields: they may name a seat's hidden cards, and the
    sentence is shown on a shared screen.)"""
    where = "" if event is None else f" from event {event}"
    return StoreError(
        f"Game {game} in {store.path} is damaged: its log does not replay under these rules{where} "
        "(changed, or saved under an older rule). It was left as it is."
    )


def check_saved_game(store: Store, game: int, content: Content) -> None:
    """Refuse with StoreError, only reading, a saved game that cannot be played on here: one played with
    other decks, or whose log is damaged or does not replay (as `lagoon resume` checks before it writes)."""
    _rebuilt(store, game, content)


def open_game(store: Store, game: int, content: Content, *, record: bool = True, take_over: bool = False) -> Engine:
    """The saved game rebuilt from its log, exactly as it was left; saving on if `record`.

    To record, the game is first checked, only reading (a damaged game is
    refused before a lease is written for it); then the store takes hold of
    it (`Store.hold`: refused with `GameInUse` while another window has it
    open, unless `take_over`) and reads it again: a window that holds the
    game reads every move saved before.
    """
    checked = _rebuilt(store, game, content) if record else None
    if record:
        store.hold(game, take_over=take_over)
    try:
        saved = store.load(game)
        if checked is not None and saved.events == checked.events and saved.marks == checked.marks:
            engine = checked  # (read again, as it was checked: not played again)
        else:
            engine = _audited(store, saved, content)
    except StoreError:
        if record:
            store.release(game)  # not opened after all: another window may have it
        raise
    if record:
        engine.journal = Recorder(store, game, engine)
    return engine
