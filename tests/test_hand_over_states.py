"""The keyboard's state machine (lagoon_tui/hand_over.py): who sees what at one keyboard.

Every state against every kind of event, written out by hand: a person
deciding (the one who had the keyboard, or another), in private or in the
open; a computer deciding; the end; Enter on the curtain and `v`. Then how a
game screen starts for each number of people, and random games of one, two
and three people with none, one or two computers, where the rule of issue 32
must hold at every step: an open decision and a computer's move are drawn as
everyone sees them (at a keyboard two or more people share), and a person's
own cards are drawn only for the person deciding, after a curtain they passed.
"""

from __future__ import annotations

import random

import pytest

from lagoon_tui.hand_over import (
    COMPUTERS,
    CURTAIN,
    OVER,
    OWN,
    PERSON,
    PUBLIC,
    READY,
    START,
    UNVEIL,
    VEILED,
    Change,
    Do,
    Draw,
    Keyboard,
    next_state,
)

# the states: Ana (seat 0) had the keyboard, in each way she can have had it
STATES = {
    "start": Keyboard(START),
    "Ana": Keyboard(PERSON, 0),
    "Ana veiled": Keyboard(VEILED, 0),
    "curtain for Ana": Keyboard(CURTAIN, 0),
    "first curtain for Ana, open": Keyboard(CURTAIN, 0, veil=True),
    "computers after Ana": Keyboard(COMPUTERS, 0, alone=True),
    "computers after Ana veiled": Keyboard(COMPUTERS, 0, alone=False),
    "computers first": Keyboard(COMPUTERS, None),
    "over": Keyboard(OVER),
    "solo Ana": Keyboard(OWN, 0),
    "spectator": Keyboard(OWN, None),
}
# the events: Ana (0) or Ben (1), people; Cleo (2) a computer
EVENTS = {
    "Ana private": Change(0),
    "Ana open": Change(0, open=True),
    "Ben private": Change(1),
    "Ben open": Change(1, open=True),
    "computer private": Change(2, computer=True),
    "computer open": Change(2, computer=True, open=True),
    "over": Change(None, over=True),
    "enter": READY,
    "v": UNVEIL,
}

ANA, BEN = Draw(0), Draw(1)
ANA_AT_TABLE, BEN_AT_TABLE = Draw(0, at_table=True), Draw(1, at_table=True)
NOTHING = Do()
CHANGES = [e for e in EVENTS if e not in ("enter", "v")]
DECISIONS = [e for e in CHANGES if e != "over"]


def row(state: str, **outcomes: tuple[Keyboard, Do] | str) -> dict[tuple[str, str], tuple[Keyboard, Do]]:
    """One state's transitions; an event left out is ignored (no change, nothing to do)."""
    out = {}
    for event in EVENTS:
        result = outcomes.get(event.replace(" ", "_"), "same")
        out[(state, event)] = (STATES[state], NOTHING) if result == "same" else result
    return out


TABLE = {
    **row(
        "start",
        # a curtain first, whose turn it is; the board drawn before it, since nothing was painted
        Ana_private=(Keyboard(CURTAIN, 0), Do(draw=ANA, page=0, curtain=0)),
        Ana_open=(Keyboard(CURTAIN, 0, veil=True), Do(draw=ANA_AT_TABLE, page=0, curtain=0)),
        Ben_private=(Keyboard(CURTAIN, 1), Do(draw=BEN, page=1, curtain=1)),
        Ben_open=(Keyboard(CURTAIN, 1, veil=True), Do(draw=BEN_AT_TABLE, page=1, curtain=1)),
        computer_private=(Keyboard(COMPUTERS, None), Do(draw=PUBLIC)),
        computer_open=(Keyboard(COMPUTERS, None), Do(draw=PUBLIC)),
        over=(Keyboard(OVER), Do(draw=PUBLIC, end=True)),
    ),
    **row(
        "Ana",
        Ana_private=(Keyboard(PERSON, 0), Do(draw=ANA)),
        Ana_open=(Keyboard(VEILED, 0), Do(forget=True, draw=ANA_AT_TABLE, page=0)),  # (the bug of issue 32)
        Ben_private=(Keyboard(CURTAIN, 1), Do(forget=True, curtain=1)),
        Ben_open=(Keyboard(VEILED, 1), Do(forget=True, draw=BEN_AT_TABLE, page=1)),
        computer_private=(Keyboard(COMPUTERS, 0, True), Do(forget=True, draw=PUBLIC)),  # (issue 32 too)
        computer_open=(Keyboard(COMPUTERS, 0, True), Do(forget=True, draw=PUBLIC)),
        over=(Keyboard(OVER), Do(draw=PUBLIC, end=True)),
    ),
    **row(
        "Ana veiled",
        Ana_private=(Keyboard(CURTAIN, 0), Do(curtain=0)),  # the others watched: a curtain before her cards
        Ana_open=(Keyboard(VEILED, 0), Do(draw=ANA_AT_TABLE, page=0)),
        Ben_private=(Keyboard(CURTAIN, 1), Do(forget=True, curtain=1)),
        Ben_open=(Keyboard(VEILED, 1), Do(forget=True, draw=BEN_AT_TABLE, page=1)),
        computer_private=(Keyboard(COMPUTERS, 0, False), Do(draw=PUBLIC)),
        computer_open=(Keyboard(COMPUTERS, 0, False), Do(draw=PUBLIC)),
        over=(Keyboard(OVER), Do(draw=PUBLIC, end=True)),
        v=(Keyboard(CURTAIN, 0), Do(curtain=0)),
    ),
    **row(
        "curtain for Ana",  # (the game does not change behind a curtain; if it did, the curtain follows it)
        Ana_private=(Keyboard(CURTAIN, 0), Do(curtain=0)),
        Ana_open=(Keyboard(VEILED, 0), Do(draw=ANA_AT_TABLE, page=0)),
        Ben_private=(Keyboard(CURTAIN, 1), Do(curtain=1)),
        Ben_open=(Keyboard(VEILED, 1), Do(draw=BEN_AT_TABLE, page=1)),
        computer_private=(Keyboard(COMPUTERS, None), Do(draw=PUBLIC)),
        computer_open=(Keyboard(COMPUTERS, None), Do(draw=PUBLIC)),
        over=(Keyboard(OVER), Do(draw=PUBLIC, end=True)),
        enter=(Keyboard(PERSON, 0), Do(draw=ANA)),
    ),
    **row(
        "first curtain for Ana, open",  # (a game resumed at an island choice)
        Ana_private=(Keyboard(CURTAIN, 0), Do(curtain=0)),
        Ana_open=(Keyboard(VEILED, 0), Do(draw=ANA_AT_TABLE, page=0)),
        Ben_private=(Keyboard(CURTAIN, 1), Do(curtain=1)),
        Ben_open=(Keyboard(VEILED, 1), Do(draw=BEN_AT_TABLE, page=1)),
        computer_private=(Keyboard(COMPUTERS, None), Do(draw=PUBLIC)),
        computer_open=(Keyboard(COMPUTERS, None), Do(draw=PUBLIC)),
        over=(Keyboard(OVER), Do(draw=PUBLIC, end=True)),
        enter=(Keyboard(VEILED, 0), Do(draw=ANA_AT_TABLE)),  # she chooses in front of everyone
    ),
    **row(
        "computers after Ana",
        Ana_private=(Keyboard(PERSON, 0), Do(draw=ANA)),  # she had the keyboard alone: no curtain
        Ana_open=(Keyboard(VEILED, 0), Do(draw=ANA_AT_TABLE, page=0)),
        Ben_private=(Keyboard(CURTAIN, 1), Do(forget=True, curtain=1)),
        Ben_open=(Keyboard(VEILED, 1), Do(forget=True, draw=BEN_AT_TABLE, page=1)),
        computer_private=(Keyboard(COMPUTERS, 0, True), Do(draw=PUBLIC)),
        computer_open=(Keyboard(COMPUTERS, 0, True), Do(draw=PUBLIC)),
        over=(Keyboard(OVER), Do(draw=PUBLIC, end=True)),
    ),
    **row(
        "computers after Ana veiled",
        Ana_private=(Keyboard(CURTAIN, 0), Do(curtain=0)),
        Ana_open=(Keyboard(VEILED, 0), Do(draw=ANA_AT_TABLE, page=0)),
        Ben_private=(Keyboard(CURTAIN, 1), Do(forget=True, curtain=1)),
        Ben_open=(Keyboard(VEILED, 1), Do(forget=True, draw=BEN_AT_TABLE, page=1)),
        computer_private=(Keyboard(COMPUTERS, 0, False), Do(draw=PUBLIC)),
        computer_open=(Keyboard(COMPUTERS, 0, False), Do(draw=PUBLIC)),
        over=(Keyboard(OVER), Do(draw=PUBLIC, end=True)),
    ),
    **row(
        "computers first",
        Ana_private=(Keyboard(CURTAIN, 0), Do(curtain=0)),
        Ana_open=(Keyboard(VEILED, 0), Do(draw=ANA_AT_TABLE, page=0)),
        Ben_private=(Keyboard(CURTAIN, 1), Do(curtain=1)),
        Ben_open=(Keyboard(VEILED, 1), Do(draw=BEN_AT_TABLE, page=1)),
        computer_private=(Keyboard(COMPUTERS, None), Do(draw=PUBLIC)),
        computer_open=(Keyboard(COMPUTERS, None), Do(draw=PUBLIC)),
        over=(Keyboard(OVER), Do(draw=PUBLIC, end=True)),
    ),
    **row("over", **{e.replace(" ", "_"): (Keyboard(OVER), Do(draw=PUBLIC)) for e in CHANGES}),
    **row(
        "solo Ana",  # one person among computers: the screen is hers, open decisions too
        **{e.replace(" ", "_"): (Keyboard(OWN, 0), Do(draw=ANA)) for e in DECISIONS},
        over=(Keyboard(OVER, 0), Do(draw=ANA, end=True)),
    ),
    **row(
        "spectator",
        **{e.replace(" ", "_"): (Keyboard(OWN, None), Do(draw=PUBLIC)) for e in DECISIONS},
        over=(Keyboard(OVER, None), Do(draw=PUBLIC, end=True)),
    ),
}


def test_the_table_has_every_state_and_event():
    assert set(TABLE) == {(s, e) for s in STATES for e in EVENTS}


@pytest.mark.parametrize("state, event", list(TABLE), ids=[f"{s} + {e}" for s, e in TABLE])
def test_every_transition(state, event):
    assert next_state(STATES[state], EVENTS[event]) == TABLE[(state, event)]


@pytest.mark.parametrize(
    "people, seat, watching, expected",
    [
        ((0, 1), None, False, Keyboard(START)),  # two people (and any computers): hot seat
        ((0, 1, 2, 3), None, False, Keyboard(START)),
        ((1, 3), None, False, Keyboard(START)),
        ((2,), None, False, Keyboard(OWN, 2)),  # one person among computers: the screen is theirs
        ((), None, False, Keyboard(OWN, None)),  # computers alone: watched
        ((), 1, False, Keyboard(OWN, 1)),  # a seat at its own terminal
        ((), None, True, Keyboard(OWN, None)),  # a spectator
    ],
)
def test_a_screen_starts_by_the_people_at_it(people, seat, watching, expected):
    assert Keyboard.start(people, seat, watching=watching) == expected


def test_who_has_the_keyboard():
    assert [Keyboard(m, 0).at_keyboard for m in (START, PERSON, VEILED, CURTAIN, COMPUTERS, OVER, OWN)] == [
        None,
        0,
        0,
        None,
        None,
        0,
        0,
    ]
    assert [Keyboard(m, 0).veiled for m in (PERSON, VEILED, CURTAIN)] == [False, True, False]


# -- random games ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "people, computers", [(p, c) for p in (1, 2, 3) for c in (0, 1, 2) if p + c >= 2]
)  # (two players at least)
def test_random_games_keep_the_rule_of_the_open_table(people, computers):
    """Random decisions of random seats, open or not, with Enter on every curtain."""
    seats = people + computers
    rng = random.Random(people * 10 + computers)
    for _ in range(50):
        state = Keyboard.start(tuple(range(people)))
        alone: int | None = None  # the person who passed the last curtain and has been alone at it since
        for _ in range(60):
            seat = rng.randrange(seats)
            event = Change(seat, computer=seat >= people, open=rng.random() < 0.3)
            state, do = next_state(state, event)
            if people == 1:
                assert do == Do(draw=Draw(0)), "alone among computers, the screen is the person's"
                continue
            if state.mode == CURTAIN and state.veil:  # a new screen's first curtain, at an open decision
                assert event.open and do.draw == Draw(seat, at_table=True) and do.curtain == seat
                state, do = next_state(state, READY)
                assert state == Keyboard(VEILED, seat) and do == Do(draw=Draw(seat, at_table=True))
                alone = None
                continue
            if event.open or event.computer:
                assert do.curtain is None
                assert do.draw in (PUBLIC, Draw(seat, at_table=True)), f"{event}: {do}"
                if not event.computer:  # (a person in front of everyone: a curtain before anyone's cards)
                    alone = None
                assert state.at_keyboard == (None if event.computer else seat)
                continue
            # a person's private decision: their cards only if they were alone at it, else a curtain
            if do.curtain is None:
                assert alone == seat and do.draw == Draw(seat) and state == Keyboard(PERSON, seat)
            else:
                assert do.curtain == seat and do.draw in (None, Draw(seat)) and state == Keyboard(CURTAIN, seat)
                if rng.random() < 0.1:  # (a key the curtain does not take)
                    assert next_state(state, UNVEIL) == (state, Do())
                state, do = next_state(state, READY)
                assert state == Keyboard(PERSON, seat) and do == Do(draw=Draw(seat))
                alone = seat
        state, do = next_state(state, Change(None, over=True))
        assert do.end and state.mode == OVER


# Issue 34, point 5: a turn held for End turn (rules.host.Host.confirming) is told to the keyboard as a
# decision of the seat that moved, of the same kind as its move; End turn or Take back come next.
HELD_FLOWS = {
    # name: the keyboard before the move, the changes (the held turn, then what follows), whose curtain each raises
    "a private move, then End turn": (Keyboard(PERSON, 0), [Change(0), Change(1)], [None, 1]),
    "an open move (an island), then End turn": (Keyboard(VEILED, 0), [Change(0, open=True), Change(1)], [None, 1]),
    "a private move, taken back, made again, then End turn": (
        Keyboard(PERSON, 0),
        [Change(0), Change(0), Change(0), Change(1)],
        [None, None, None, 1],
    ),
    "alone against a computer": (Keyboard(OWN, 0), [Change(0), Change(2, computer=True)], [None, None]),
    "two people and a computer": (Keyboard(PERSON, 0), [Change(0), Change(2, computer=True)], [None, None]),
}


@pytest.mark.parametrize("name", HELD_FLOWS)
def test_a_held_turn_keeps_the_keyboard_and_the_curtain_comes_after_end_turn(name):
    state, changes, curtains = HELD_FLOWS[name]
    mover = state.seat
    for n, (change, curtain) in enumerate(zip(changes, curtains, strict=True)):
        state, do = next_state(state, change)
        assert do.curtain == curtain, (name, n)
        if change.seat == mover:  # held, or taken back: the mover keeps the keyboard, their cards unforgotten
            assert state.at_keyboard == mover and not do.forget, (name, n)
