"""The log in words: every event a player should hear about reads as a sentence,
and a sentence written for one seat never names another seat's secret cards."""

from __future__ import annotations

from rules import events as ev
from rules import load_content
from rules.evolve import evolve
from rules.narrate import narrate
from rules.simulate import random_game
from rules.state import GameState
from rules.view import redact

CONTENT = load_content()
SILENT = {ev.Picked, ev.Unpicked, ev.ActionFinished}


def _log(engine, seat):
    s = GameState(content=engine.content)
    lines = []
    for e in engine.events:
        evolve(s, e)
        lines.append((e, narrate(redact(e, seat), s)))
    return lines


def test_every_event_of_a_game_reads_as_a_sentence():
    """Apart from plan steps, each event of a whole game gets a sentence ending in a full stop."""
    for seed in range(6):
        engine, _ = random_game(CONTENT, 2 + seed % 3, seed)
        for e, line in _log(engine, 0):
            if type(e) in SILENT or (isinstance(e, ev.GalleriesDrawn) and e.seat is None):
                continue
            assert line and line.endswith((".", "!")), f"no sentence for {e}"


def test_sentences_for_one_seat_never_name_another_seats_secrets():
    """Ben's log tells that Ana kept objectives and drew deals, never which ones, until the end."""
    engine, _ = random_game(CONTENT, 3, 11)
    names = {o.id: o.name for o in CONTENT.objectives.values()}
    ana = engine.state.players[0]
    secret = {names[o] for o in ana.objectives}
    for e, line in _log(engine, 1):
        if isinstance(e, (ev.ObjectiveScored, ev.GameEnded)):
            break  # objectives are revealed at the end of the game
        for name in secret:
            assert line is None or name not in line, f"Ben's log names Ana's objective: {line}"


def test_known_sentences():
    """A few events told exactly as a player would say them."""
    engine, _ = random_game(CONTENT, 2, 3)
    s = engine.state
    ana = s.players[0].name
    assert narrate(ev.Traded(0, ("iron", "silver"), "money"), s) == f"{ana} traded 1 iron and 1 silver for $1."
    assert narrate(ev.WagesPaid(0, 4, 2), s) == f"{ana} paid $2 in wages (short by $2)."
    assert narrate(ev.DealDrawn(0, None), s) == f"{ana} drew a deal."


def test_a_name_ending_in_a_full_stop_ends_the_sentence_once():
    engine, _ = random_game(CONTENT, 2, 3)
    s = engine.state
    ana = s.players[0].name
    assert narrate(ev.CorporationChosen(0, "ironbark_mining"), s) == f"{ana} runs Ironbark Mining Co."
    assert narrate(ev.CorporationChosen(0, "copperhead_holdings"), s) == f"{ana} runs Copperhead Holdings."


def test_cubes_that_leave_the_centre_are_counted_in_words():
    s = random_game(CONTENT, 2, 3)[0].state
    assert narrate(ev.CentreEnriched((("gold", 0),)), s) == (
        "The Enrichment Center enriched every cube by one level; 1 cube past 4' left the game."
    )
    assert narrate(ev.CentreEnriched((("gold", 0), ("iron", 1))), s).endswith("; 2 cubes past 4' left the game.")
    assert narrate(ev.CentreEnriched(()), s) == "The Enrichment Center enriched every cube by one level."
