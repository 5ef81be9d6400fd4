"""Issue 34, point 5, in the host (no screen): a person's turn that ended with a move nothing revealed
waits for End turn, undo reaches that move, a lone Pass is passed for the player and the log says so,
and the take-back names the player's move. Random games of two to four people, every seat confirming
or none."""

from __future__ import annotations

import random

import pytest

from rules import load_content
from rules.host import END_TURN, Host
from rules.narrate import narrate
from rules.undo import HAND_OVERS, REVEALS
from rules.view import redact

CONTENT = load_content()
NAMES = ("Ana", "Ben", "Cleo", "Dev")
COLOURS = ("red", "yellow", "green", "blue")
FORCED = ": nothing else was possible."


def host_of(seed: int, confirming: bool) -> Host:
    players = 2 + seed % 3
    host = Host.new(CONTENT, NAMES[:players], COLOURS[:players], seed=seed, start_player=0)
    if confirming:
        host.confirming = set(range(players))
    return host


def play(host: Host, seed: int, undo: float = 0.3, moves: int = 500):
    """Purposeful random play through the host's own messages; yields the host after each move."""
    rng = random.Random(seed)
    for _ in range(moves):
        if host.over:
            return
        turn = host.turn()
        prompt = host.scene(turn.seat).prompt
        assert prompt is not None, f"{turn.says}: no options for the seat deciding"
        if host.held is not None and rng.random() < undo:
            assert host.undo(), "a held turn's move can be taken back"
        else:
            ids = [o.id for o in prompt.options]
            useful = [i for i in ids if i not in ("pass", "back")] or ids
            host.choose(useful[rng.randrange(len(useful))])
        yield host


CASES = [(seed, confirming) for seed in range(6) for confirming in (True, False)]


@pytest.mark.parametrize(("seed", "confirming"), CASES)
def test_a_held_turn_is_its_seats_alone_and_hides_no_reveal(seed, confirming):
    """While held: the seat that moved decides, End turn its one option, no other seat has a prompt;
    the held move revealed nothing. Without confirming nothing is ever held."""
    host = host_of(seed, confirming)
    held = 0
    for _ in play(host, seed):
        if host.held is None:
            continue
        held += 1
        seat = host.held.point.seat
        assert host.turn().seat == seat and host.turn().kind == END_TURN
        prompt = host.scene(seat).prompt
        assert prompt is not None and [o.id for o in prompt.options] == [END_TURN]
        others = [s for s in range(len(host.engine.state.players)) if s != seat]
        assert all(host.scene(s).prompt is None for s in others)
        block = host.engine.events[host.held.point.pos :]
        assert not any(type(e) in REVEALS for e in block), "a move that revealed something is never held"
    assert (held > 0) == confirming, held


@pytest.mark.parametrize("seed", range(6))
def test_undo_of_a_held_turn_restores_the_game_before_the_move(seed):
    host = host_of(seed, True)
    rng = random.Random(seed)
    checked = 0
    for _ in play(host, seed, undo=0.0):
        if host.held is None or rng.random() < 0.5:
            continue
        point = host.held.point
        name = host.engine.state.players[point.seat].name
        # the player's move, not a side effect (a "Done" that closes an action: a step, after the move it closes)
        said = point.what
        assert said.startswith((f"{name} ", f"your last step, after {name} ")) or said.endswith(" was demolished."), (
            said
        )
        events = list(host.engine.events[: point.pos])
        taken = host.undo()
        assert taken and taken.what == point.what and host.held is None
        assert list(host.engine.events) == events and host.turn().seat == point.seat
        checked += 1
    assert checked > 3


@pytest.mark.parametrize(("seed", "confirming"), CASES)
def test_a_lone_pass_is_passed_for_the_player_and_the_log_says_so(seed, confirming):
    """No person is ever left with Pass as the only option (a held turn's End turn passes for them)."""
    host = host_of(seed, confirming)
    for _ in play(host, seed, undo=0.0):
        turn = host.turn()
        if host.over or host.held is not None:
            continue
        assert host.engine.legal_ids() != ["pass"], f"{turn.says}: left to pass alone"
    forced = [line.text for line in host.chronicle.lines(None) if line.text.endswith(FORCED)]
    assert forced and all(" pass" in text for text in forced), forced[:3]


@pytest.mark.parametrize("confirming", [True, False])
def test_a_pass_made_for_a_player_is_told_so_to_a_screen_that_reads_the_log_at_every_change(confirming):
    """A screen reads its seat's message as soon as the host tells it the game changed, the pass made for a
    player included: the log it reads then already says "nothing else was possible", as the whole log
    told afresh at the end does (the host marked the pass only after making it, and the seats' logs,
    read while it was made, never said so)."""
    seed = 3
    host = host_of(seed, confirming)
    seats = range(len(host.engine.state.players))
    host.on_change(lambda: [host.scene(seat) for seat in seats])  # (as each seat's screen does)
    for _ in play(host, seed, undo=0.0, moves=300):
        pass
    for seat in seats:
        read = [line.text for line in host.chronicle.lines(seat)]
        afresh = [line.text for line in host.chronicle.tell(0, seat)]
        assert read == afresh
        assert any(text.endswith(FORCED) for text in read), f"no pass made for anyone in {seat}'s log"


@pytest.mark.parametrize("seed", range(4))
def test_the_undo_note_names_the_players_move_after_a_step_or_a_done(seed):
    """Wherever undo is offered, its note names the player's move in the log's words, a demolished gallery
    rather than the gallery that slid down after it; a step or a "Done" that tells nothing by itself is
    said to be a step, after the move it belongs to (undo takes back the step, not that move)."""
    host = host_of(seed, seed % 2 == 0)
    names = [player.name for player in host.engine.state.players]
    steps = 0
    for _ in play(host, seed, undo=0.0, moves=400):
        seat = host.turn().seat
        undo = host.scene(seat).undo
        if seat is None or undo is None or not undo.allowed:
            continue
        says = undo.says
        step = "your last step, after "
        assert says.startswith((f"{names[seat]} ", step)) or says.endswith(" was demolished."), says
        events, mark = host.engine.events, host.engine.marks[-1]
        start = max((at + 1 for at, e in enumerate(events[: mark.pos]) if isinstance(e, HAND_OVERS)), default=0)
        state = host.engine.state
        if not any(narrate(redact(e, seat), state) for e in events[mark.pos :]):  # (a step, a Done: no words)
            steps += 1
            assert says.startswith(step), says
            told = [narrate(redact(e, seat), state) for e in events[start : mark.pos]]
            assert f"{says[len(step) :]}." in told, says
    assert steps > 3


@pytest.mark.parametrize("seed", range(3))
def test_a_computer_standing_in_for_a_person_is_never_held(seed):
    """`lagoon serve` lets a computer play for a player who left: its moves for that person's seat (made with
    hold=False) are never held, nor is a lone Pass left after them, while the other people's turns still are."""
    host = host_of(seed, True)
    rng = random.Random(seed)
    held = set()
    for _ in range(400):
        if host.over:
            break
        seat = host.turn().seat
        ids = [option.id for option in host.scene(seat).prompt.options]
        useful = [i for i in ids if i not in ("pass", "back")] or ids
        host.choose(useful[rng.randrange(len(useful))], hold=seat != 1)  # (seat 1: a computer stands in)
        if host.held is not None:
            held.add(host.held.point.seat)
    assert 1 not in held and 0 in held, held
