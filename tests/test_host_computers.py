"""Computer seats on the host's side: kept in the save file, played from their seat's message, never undone."""

from __future__ import annotations

from rules import Engine
from rules.bots import Bot
from rules.host import LEVELS, Host, Store, load_content
from rules.seat import Witness, seat_scene
from tests.helpers.scenario import play_until

CONTENT = load_content()


def test_the_computers_of_a_game_are_saved_with_it_and_come_back_with_it(tmp_path):
    store = Store(tmp_path / "lagoon.db")
    host = Host.new(
        CONTENT,
        ["Ana", "Ben", "Cleo"],
        ["red", "yellow", "green"],
        seed=4,
        store=store,
        computers={1: "easy", 2: "hard"},
    )
    assert host.people == (0,) and host.computers == {1: "easy", 2: "hard"}
    info = store.info(host.game)
    assert info.computers == ((1, "easy"), (2, "hard")) and info.names == ("Ana", "Ben", "Cleo")
    store.release()
    again = Host.resume(store, host.game, CONTENT)
    assert again.computers == {1: "easy", 2: "hard"} and again.people == (0,)
    store.close()


def test_a_game_without_computers_is_saved_as_before(tmp_path):
    store = Store(tmp_path / "lagoon.db")
    host = Host.new(CONTENT, ["Ana", "Ben"], ["red", "yellow"], seed=4, store=store)
    assert store.info(host.game).computers == () and host.people == (0, 1)
    store.close()


def test_undo_never_takes_back_a_computers_move():
    """While a computer decides, undo refuses; when the person decides after it, the computer's
    move is not theirs to take back (the engine's rule of undo: one's own moves of one's turn)."""
    host = Host.new(CONTENT, ["Ana", "Ben"], ["red", "yellow"], seed=8, start_player=1, computers={1: "normal"})
    for _ in range(30):  # Ben's decisions and Ana's, well into the game
        play_until(host, 1)
        events = len(host.engine.events)
        refused = host.undo()
        assert not refused and refused.reason == "a computer player's moves are never taken back"
        assert len(host.engine.events) == events
        play_until(host, 0)
        if host.engine.marks[-1].seat == 1:  # Ana decides right after Ben's move
            events = len(host.engine.events)
            assert not host.undo()
            assert len(host.engine.events) == events and host.engine.marks[-1].seat == 1


def test_every_level_is_a_player_the_host_can_seat():
    host = Host.new(
        CONTENT,
        ["Ana", "Ben", "Cleo", "Dev"],
        ["red", "yellow", "green", "blue"],
        seed=2,
        computers={1: "easy", 2: "normal", 3: "hard"},
    )
    assert set(LEVELS) == {"easy", "normal", "hard"}
    for seat in (1, 2, 3):
        assert host.computer(seat) is host.computer(seat), "one player a seat, its plan kept between decisions"


def test_a_resumed_hard_player_plays_on_as_if_the_game_had_never_been_left(tmp_path):
    """The hard player remembers the cards its seat was shown (offers, deals it held) to deal its
    worlds; made anew for a resumed game, it is handed its seat's earlier messages, so the game goes
    on move for move as the same game played without a break."""
    small = dict(rollouts=4, candidates=2, min_worlds=2, time_cap=1e9)  # (the budget decides, not the clock)
    names, colours = ["Ana", "Ben"], ["red", "yellow"]

    def game(store=None) -> Host:
        return Host.new(CONTENT, names, colours, seed=12, start_player=0, store=store, computers={1: "hard"})

    def play_rounds(host: Host, last: int) -> None:
        host.computer(1, **small)
        while host.engine.state.round <= last and not host.over:
            play_until(host, 1)
            play_until(host, 0)

    unbroken = game()
    play_rounds(unbroken, 6)

    store = Store(tmp_path / "lagoon.db")
    left = game(store)
    play_rounds(left, 3)
    seen = left.computer(1).worlds.remembered
    assert any(card in CONTENT.deals for card in seen)  # (it held deals: there is something to remember)
    store.release()
    resumed = Host.resume(store, left.game, CONTENT)
    play_rounds(resumed, 6)
    assert resumed.computer(1).worlds.remembered >= seen
    assert resumed.engine.events == unbroken.engine.events
    store.close()


def test_a_seat_is_briefed_on_each_decision_once_in_order_as_its_message_showed_it():
    """The witness of a seat (what a host briefs a reading computer with) hands on, for each decision
    of the game, whoever made it, the view and the turn that seat's message showed at that moment:
    each once and in order, however the briefings fall (here every seventh decision, and at the end)."""
    engine = Engine.new(CONTENT, ["Ana", "Ben", "Cleo"], seed=6)
    bots = [Bot(CONTENT, seat, seed=seat) for seat in range(3)]
    witness, shown, briefed = Witness(CONTENT, 1), [], []
    while engine.state.phase != "over":
        message = seat_scene(engine, None, 1)
        shown.append((message.view, message.turn))
        if len(shown) % 7 == 0:
            briefed += witness.since(engine)
        seat = engine.asking().seat
        engine.choose(bots[seat].choose(seat_scene(engine, None, seat)))
    briefed += witness.since(engine)
    assert briefed == shown and {turn.seat for _, turn in shown} == {0, 1, 2}
    assert witness.since(engine) == []
