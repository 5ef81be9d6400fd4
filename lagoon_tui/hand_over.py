"""Who sees what at one keyboard: the state machine of the hot-seat hand-over.

Plain data in, plain data out, no Textual: the game screen hands every change
of the game and every key that matters here (Enter on the curtain, `v`) to
`next_state`, and does what the answer says (`Do`): draw the panels for a
seat or as everyone sees them, raise the curtain for a person, close what was
said or opened for the last person, show the end.

The states (`Keyboard.mode`):

- START: a new game screen, nothing drawn yet;
- PERSON: a person at the keyboard, every panel drawn for them, their cards shown;
- VEILED: a person at the keyboard making an open decision (choosing an island)
  in front of everyone: every panel as everyone sees it, only the prompt theirs;
- CURTAIN: the curtain up, calling a person; nobody has the keyboard (a new
  screen's first curtain comes before any board, for an open decision too:
  then the board after it is VEILED);
- COMPUTERS: a computer decides: every panel as everyone sees it, since nobody
  can know who decides after it;
- OVER: the game is over (every hand shows);
- OWN: a screen of one reader, which hides nothing from them: one person
  against computers (nobody else is at the keyboard), a seat at its own
  terminal, or a spectator (seat None).

What is decided in the open is drawn in the open: at a keyboard shared by two
or more people, an open decision and a computer's move are drawn from the
public message, the deciding person's own cards included. Only `v` shows a
veiled person their cards, behind a curtain.
"""

from __future__ import annotations

from dataclasses import dataclass

START = "start"
PERSON = "person"
VEILED = "veiled"
CURTAIN = "curtain"
COMPUTERS = "computers"
OVER = "over"
OWN = "own"

HOLDING = frozenset({PERSON, VEILED, OWN, OVER})
"""Modes in which `Keyboard.seat` has the keyboard (its keys count)."""


@dataclass(frozen=True)
class Keyboard:
    """Where the keyboard is and whose cards the screen may show."""

    mode: str = START
    seat: int | None = None
    """PERSON, VEILED: the person at the keyboard; CURTAIN: the person it calls; COMPUTERS: the person who
    had the keyboard before the computers moved (None: nobody yet); OWN, OVER: the screen's one reader."""
    alone: bool = False
    """COMPUTERS: whether that person had their own cards on screen (PERSON) when the computers began, so
    they may have them back without a curtain if they decide next."""
    veil: bool = False
    """CURTAIN: a new screen's first curtain, called for an open decision: once it is passed, the person
    makes it on the board as everyone sees it."""

    @classmethod
    def start(cls, people: tuple[int, ...], seat: int | None = None, *, watching: bool = False) -> Keyboard:
        """A new game screen: of one `seat` (a player at their own terminal), `watching` (nobody's), or at one
        keyboard shared by `people` (the seats people play; one person among computers has the screen)."""
        if seat is not None or watching or len(people) < 2:
            own = seat if seat is not None or watching or not people else people[0]
            return cls(OWN, own)
        return cls()

    @property
    def at_keyboard(self) -> int | None:
        """The seat whose keys count now (None: nobody's, behind a curtain or while computers move)."""
        return self.seat if self.mode in HOLDING else None

    @property
    def veiled(self) -> bool:
        return self.mode == VEILED


@dataclass(frozen=True)
class Change:
    """The game changed: what is pending now, in facts anyone at the table may know."""

    seat: int | None  # who decides (None when the game is over)
    computer: bool = False  # a computer plays that seat
    open: bool = False  # the decision is open (rules.decision.OPEN_KINDS): anyone may watch it being made
    over: bool = False  # the game is over


@dataclass(frozen=True)
class Key:
    """A key that moves the keyboard: READY (Enter on the curtain) or UNVEIL (v, to see one's own cards)."""

    name: str


READY = Key("ready")
UNVEIL = Key("unveil")


@dataclass(frozen=True)
class Draw:
    """Every panel and the prompt: as `seat` may see them, or as everyone may (seat None).

    `at_table`: as everyone may, with `seat`'s prompt for the open decision it makes."""

    seat: int | None
    at_table: bool = False


PUBLIC = Draw(None)


@dataclass(frozen=True)
class Do:
    """What the screen does after a step, in this order: forget, draw, turn the page, curtain, end."""

    forget: bool = False  # close what was said or opened for the person who had the keyboard
    draw: Draw | None = None  # draw the board now (None: leave it; behind a curtain it is drawn when the curtain is up)
    page: int | None = None  # the compact layout turns to the page this person needs first
    curtain: int | None = None  # the curtain comes up (or stays up) calling this person
    end: bool = False  # the end screen


NOTHING = Do()


def next_state(state: Keyboard, event: Change | Key) -> tuple[Keyboard, Do]:
    """The keyboard after `event`, and what the screen must do."""
    if isinstance(event, Key):
        return _key(state, event)
    if state.mode == OVER:  # (nothing follows the end)
        return state, Do(draw=Draw(state.seat))
    if state.mode == OWN:
        return _own(state, event)
    if event.over:
        return Keyboard(OVER), Do(draw=PUBLIC, end=True)  # (everyone's message shows every hand now)
    last = state.seat if state.mode in (PERSON, VEILED, COMPUTERS) else None  # the person who had the keyboard
    shown = state.mode == PERSON  # their cards are on screen
    if event.computer:
        alone = shown or (state.mode == COMPUTERS and state.alone)
        return Keyboard(COMPUTERS, last, alone), Do(forget=shown, draw=PUBLIC)
    seat = event.seat
    if state.mode == START:  # a new screen: a curtain first, whose turn it is (the board drawn before it)
        first = Draw(seat, at_table=event.open)
        return Keyboard(CURTAIN, seat, veil=event.open), Do(draw=first, page=seat, curtain=seat)
    forget = shown or (last is not None and seat != last)  # (what was said or opened for them may name their cards)
    if event.open:
        return Keyboard(VEILED, seat), Do(forget=forget, draw=Draw(seat, at_table=True), page=seat)
    if state.mode == PERSON and seat == last:
        return state, Do(draw=Draw(seat))  # the same person again
    if state.mode == COMPUTERS and seat == last and state.alone:
        return Keyboard(PERSON, seat), Do(draw=Draw(seat))  # back to the person who was alone at it
    return Keyboard(CURTAIN, seat), Do(forget=forget, curtain=seat)


def _own(state: Keyboard, event: Change) -> tuple[Keyboard, Do]:
    """A screen of one reader: drawn for them whatever happens, and the end screen at the end."""
    if event.over:
        return Keyboard(OVER, state.seat), Do(draw=Draw(state.seat), end=True)
    return Keyboard(OWN, state.seat), Do(draw=Draw(state.seat))


def _key(state: Keyboard, key: Key) -> tuple[Keyboard, Do]:
    if key == READY and state.mode == CURTAIN:
        if state.veil:
            return Keyboard(VEILED, state.seat), Do(draw=Draw(state.seat, at_table=True))
        return Keyboard(PERSON, state.seat), Do(draw=Draw(state.seat))
    if key == UNVEIL and state.mode == VEILED:
        return Keyboard(CURTAIN, state.seat), Do(curtain=state.seat)
    return state, NOTHING
