"""A choice the engine does not know is refused in a short sentence that quotes it safely (issue 17, point 9).

A choice may come from an import file or, later, from another machine: a
million characters of it made a refusal of two million, and escape sequences
in it went into the message as they were.
"""

from __future__ import annotations

from rules import Engine, load_content
from rules.choose import ECHOED

CONTENT = load_content()


def test_an_unknown_choice_is_quoted_short_and_without_control_characters():
    engine = Engine.new(CONTENT, ["Ana", "Ben"], seed=1)
    before = list(engine.events)
    refused = engine.choose("x" * 1_000_000)
    assert not refused and len(refused.reason) < ECHOED + 80
    assert f"'{'x' * (ECHOED - 1)}…' is not a choice now" in refused.reason
    refused = engine.choose("\x1b]0;PWNED\x07keep")
    assert not refused and "\x1b" not in refused.reason and "\x07" not in refused.reason
    assert engine.events == before


def test_an_action_on_an_island_that_does_not_exist_is_not_sent_sailing():
    engine = Engine.new(CONTENT, ["Ana", "Ben"], seed=1)
    while engine.pending.kind != "choose_action":
        engine.choose(engine.legal_ids()[0])
    here = engine.state.players[engine.pending.seat].island
    elsewhere = next(i.number for i in CONTENT.board.islands if i.number != here)
    assert f"sail to island {elsewhere}" in engine.choose(f"do:{elsewhere}:trade").reason
    refused = engine.choose("do:" + "9" * 5000 + ":trade")
    assert "sail to island" not in refused.reason and len(refused.reason) < ECHOED + 80
