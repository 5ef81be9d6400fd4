"""Taking back a move: how far back a seat may go, and why not further.

A seat may take back its own last choice while its turn lasts. It may never
take back a choice whose events revealed something (a gallery turned up, a
tile or deal drawn, a card laid out on a display, a deal shown by closing it)
or handed the game to someone else (a new turn, round or phase): what was
seen cannot be unseen, and what another player has begun is theirs.

Undo is a truncation of the log: the game goes back to exactly the state
before the choice (the state is rebuilt by replaying the shorter log), so no
"reverse" events exist and a replay of the saved log never shows the slip.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import events as ev
from .narrate import narrate
from .record import FrozenRecord, Record, frozen_record, record
from .state import GameState
from .view import redact


@record
class Mark(Record):
    """Where one accepted choice began in the log, who made it, and what it was.

    Never changed once made. The engine keeps its marks as plain tuples and makes
    these only when they are read (most never are).
    """

    pos: int
    seat: int | None
    choice: str


@frozen_record
class UndoPoint(FrozenRecord):
    """The log may be cut back to `pos`; `what` says in words what is taken back."""

    pos: int
    seat: int
    what: str


@frozen_record
class NoUndo(FrozenRecord):
    """Undo is not possible now; `reason` says why in a few words, for the prompt ("a deal was drawn")."""

    reason: str

    def __bool__(self) -> bool:  # like a Rejection: never mistaken for a point to go back to
        return False


REVEALS: dict[type, str] = {
    ev.GalleryFlipped: "a face-down gallery was turned up",
    ev.GalleriesDrawn: "gallery tiles were drawn",
    ev.GalleryDeckReshuffled: "the gallery tiles were reshuffled",
    ev.DealDrawn: "a deal was drawn",
    ev.DealClosed: "the deal was shown to everyone",
    ev.EquipmentRevealed: "a new equipment card was laid out",
    ev.ShipmentRevealed: "a new shipment tile was laid out",
    ev.ObjectivesDealt: "objectives were dealt",
    ev.CorporationsDealt: "corporations were dealt",
    ev.ObjectiveScored: "objectives were revealed",
}
"""Events after which a choice stays made: each shows something that cannot be unseen."""

HAND_OVERS = (ev.TurnBegan, ev.RoundBegan, ev.ActionPhaseBegan, ev.RoundEnded, ev.GameEnded, ev.GameCreated)
"""Events that end the turn of the seat that chose: undo never reaches into another turn."""


def _revealing(e: ev.Event) -> str | None:
    if isinstance(e, ev.GalleryPlaced) and e.face_up and e.seat is not None:
        return "the gallery was placed face up for all to see"
    return REVEALS.get(type(e))


def undo_point(
    s: GameState, events: Sequence[ev.Event], mark: Mark | None, seat: int | None, *, ended: bool = False
) -> UndoPoint | NoUndo:
    """Where undo would take the game for `seat` (the seat deciding now), or why it cannot;
    `mark` is the last choice's.

    `ended`: the last choice ended its seat's turn and nobody has chosen since (the host holds the
    game until that seat ends its turn, `rules.host.Host.confirming`): it may be taken back by
    that seat, unless it revealed something."""
    if ended and mark is not None:
        seat = mark.seat
    if s.phase == "over":
        return NoUndo("the game is over")
    if seat is None:
        return NoUndo("nobody is deciding now")
    if mark is None:
        return NoUndo("there is no move to take back yet")
    if mark.seat != seat:
        who = s.players[mark.seat].name if mark.seat is not None else "the game"
        return NoUndo(f"the last move was {who}'s, and only your own moves of this turn can be taken back")
    block = events[mark.pos :]
    for e in block:
        if isinstance(e, HAND_OVERS) and not ended:
            return NoUndo("your last move ended your turn")
        why = _revealing(e)
        if why is not None:
            return NoUndo(why)
    return UndoPoint(mark.pos, seat, _describe(s, events, mark))


def _describe(s: GameState, events: Sequence[ev.Event], mark: Mark) -> str:
    """The move taken back, in words, as the seat's own log tells it (so it names nothing that seat
    may not know), before the turn went on to anyone else: its last sentence naming the player (what
    they did, not a side effect such as a gallery pushed off), else its first sentence. A choice that
    tells nothing by itself (a step of an action, a Done that closes one) is said to be a step, after
    the move it belongs to (the player's last sentence earlier in this turn): undo takes back that step
    alone, and the move stays."""
    mine = events[mark.pos :]
    for at, e in enumerate(mine):
        if isinstance(e, HAND_OVERS):
            mine = mine[:at]
            break
    name = s.players[mark.seat].name if mark.seat is not None else None
    told = _told(s, mine, mark.seat)
    own = [line for line in told if name is not None and line.startswith(f"{name} ")]
    if own:
        return own[-1]
    if told:  # (the move itself comes first, what it set off after it: a gallery demolished, then one slid down)
        return told[0]
    start = mark.pos
    while start > 0 and not isinstance(events[start - 1], HAND_OVERS):
        start -= 1
    earlier = [line for line in _told(s, events[start : mark.pos], mark.seat) if line.startswith(f"{name} ")]
    return f"your last step, after {earlier[-1].rstrip('.')}" if earlier else "your last step of this action"


def _told(s: GameState, events: Sequence[ev.Event], seat: int | None) -> list[str]:
    """`events` as `seat`'s log tells them, sentence by sentence."""
    return [line for line in (narrate(redact(e, seat), s) for e in events) if line]
