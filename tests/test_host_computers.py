"""Computer seats on the host's side: kept in the save file, played from their seat's message, never undone."""

from __future__ import annotations

from rules.host import LEVELS, Host, Store, load_content

CONTENT = load_content()


def play_until(host: Host, seat: int, person_plays=lambda scene: scene.prompt.options[0].id) -> None:
    """Play the game (computers by their own players, people by their first option) until `seat` decides."""
    while host.turn().seat != seat:
        deciding = host.turn().seat
        scene = host.scene(deciding)
        choice = host.computer(deciding).choose(scene) if deciding in host.computers else person_plays(scene)
        assert host.choose(choice)


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
