"""Undo within a turn (rules/undo.py): what may be taken back, what never, and that it is exact.

Undo cuts the log back to where the deciding seat's last choice began (see
docs/saves.md); these tests pin that it restores the very state from before
that choice and never crosses a reveal, a random draw or another player's turn.
"""

from __future__ import annotations

import random
import re

from rules import Engine, clone, load_content, replay
from rules import events as ev
from rules.narrate import narrate
from rules.undo import HAND_OVERS, NoUndo, UndoPoint
from rules.view import redact

CONTENT = load_content()


def set_up(engine: Engine) -> None:
    """Make every setup choice (the first option each time)."""
    while engine.state.phase == "setup":
        engine.choose(engine.legal_ids()[0])


def test_undo_restores_exactly_the_state_before_the_choice_in_random_games():
    """Hundreds of undos in random play: state, log and marks are as they were before the move."""
    rng = random.Random(7)
    undone = 0
    for seed in range(4):
        engine = Engine.new(CONTENT, ["Ana", "Ben", "Cleo"][: 2 + seed % 2], seed=seed)
        while engine.state.phase != "over":
            before = (clone(engine.state), list(engine.events), list(engine.marks))
            ids = engine.legal_ids()
            engine.choose(ids[rng.randrange(len(ids))])
            point = engine.undo_point()
            said = point.what if point else point.reason
            assert said and not re.search(r"\w:\w", said), said  # words for players, never an option id
            if point and rng.random() < 0.5:
                assert engine.undo()
                undone += 1
                assert (engine.state, engine.events, engine.marks) == before
                assert engine.state == replay(CONTENT, engine.events)
                ids = engine.legal_ids()
                engine.choose(ids[rng.randrange(len(ids))])
    assert undone > 100


def test_undo_never_crosses_a_reveal_a_draw_or_another_turn():
    """Whenever undo is offered, the events it removes hold no reveal and no hand-over."""
    rng = random.Random(3)
    offered = refused = 0
    for seed in range(3):
        engine = Engine.new(CONTENT, ["Ana", "Ben"], seed=seed)
        while engine.state.phase != "over":
            point = engine.undo_point()
            if point:
                offered += 1
                mark = engine.marks[-1]
                assert mark.seat == engine.pending.seat
                for e in engine.events[point.pos :]:
                    assert not isinstance(e, HAND_OVERS)
                    assert not isinstance(
                        e,
                        (
                            ev.GalleryFlipped,
                            ev.GalleriesDrawn,
                            ev.DealDrawn,
                            ev.DealClosed,
                            ev.EquipmentRevealed,
                            ev.ShipmentRevealed,
                            ev.GalleryDeckReshuffled,
                        ),
                    )
                    assert not (isinstance(e, ev.GalleryPlaced) and e.face_up)
            else:
                refused += 1
                assert point.reason
            ids = engine.legal_ids()
            engine.choose(ids[rng.randrange(len(ids))])
    assert offered > 50 and refused > 50


def test_own_action_in_the_turn_is_taken_back_but_not_after_the_turn_ends():
    engine = Engine.new(CONTENT, ["Ana", "Ben"], seed=1, start_player=0)
    set_up(engine)
    assert engine.undo_point().reason.startswith("the last move was")  # Ben chose last in setup
    engine.choose("island:3")  # Ana: island 3 (recruit merchant there)
    assert isinstance(engine.undo_point(), NoUndo)  # Ben decides now: not Ana's turn any more
    engine.choose("island:4")  # Ben's choice starts the action phase: a hand-over
    assert (
        engine.undo_point().reason == "the last move was Ben's, and only your own moves of this turn can be taken back"
    )
    seat = engine.pending.seat
    assert engine.state.players[seat].island == 3
    before = clone(engine.state)
    engine.choose("do:3:recruit_merchant")
    point = engine.undo_point()
    assert isinstance(point, UndoPoint) and "recruited a merchant" in point.what
    engine.undo()
    assert engine.state == before
    engine.choose("do:3:recruit_merchant")
    engine.choose("pass")  # passing ends the turn: no way back into it
    assert isinstance(engine.undo_point(), NoUndo)


def test_a_drawn_deal_cannot_be_taken_back():
    engine = Engine.new(CONTENT, ["Ana", "Ben"], seed=2, start_player=0)
    set_up(engine)
    engine.choose("island:1")
    engine.choose("island:2")
    engine.choose("do:1:draw_or_close_deal")
    assert engine.undo_point()  # placing the merchant revealed nothing yet
    engine.choose("draw")
    point = engine.undo_point()
    assert not point and point.reason == "a deal was drawn"
    assert engine.undo() == point  # refused, and nothing changed


def test_the_undo_note_tells_the_move_as_the_players_own_log_does():
    """The note under the prompt is the move as that seat's log tells it, so it names nothing the
    seat may not know (a face-down gallery demolished, another's deal): its last sentence naming
    the player, not a side effect of the move (issue 34: "Take back: Ana mined 1 gold on island 2"), else its
    first sentence (a gallery demolished, not the one that slid down after it); a choice that tells nothing
    by itself (a step of an action, a Done) is said to be a step, after the player's last sentence earlier
    in the turn (undo takes back the step alone)."""
    checked = differs = 0
    for seed in range(12):
        rng = random.Random(seed)
        engine = Engine.new(CONTENT, ["Ana", "Ben", "Cleo", "Dev"][: 2 + seed % 3], seed=seed)
        while engine.state.phase != "over":
            ids = engine.legal_ids()
            engine.choose(ids[rng.randrange(len(ids))])
            point = engine.undo_point()
            if not point:
                continue
            block = engine.events[point.pos :]
            told = [narrate(redact(e, point.seat), engine.state) for e in block]
            raw = [narrate(e, engine.state) for e in block]
            name = engine.state.players[point.seat].name
            said = [t for t in told if t]
            own = [t for t in said if t.startswith(f"{name} ")]
            # (a choice with no words of its own, a step or a Done: a step, after the player's last sentence earlier)
            start = max(
                (at + 1 for at, e in enumerate(engine.events[: point.pos]) if isinstance(e, HAND_OVERS)), default=0
            )
            before = [narrate(redact(e, point.seat), engine.state) for e in engine.events[start : point.pos]]
            earlier = [t for t in before if t and t.startswith(f"{name} ")]
            expected = own[-1] if own else said[0] if said else f"your last step, after {earlier[-1].rstrip('.')}"
            assert point.what == expected
            checked += 1
            differs += told != raw
    assert checked > 200 and differs, (checked, differs)
