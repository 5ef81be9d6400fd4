"""A seat whose game is hosted in another thread's room, over a real socket: what it is sent and what it may do.

The room (lagoon_tui.serve.room) holds the game; each seat's `RemoteHost`
holds only the frames it received. These tests play through those links as
the players of `lagoon serve` do, and look at what came over the wire.
"""

from __future__ import annotations

import random

import pytest

from lagoon_tui.link import Link
from lagoon_tui.remote import RemoteHost
from lagoon_tui.wire import body
from rules.host import END_TURN, Host, Rejection, load_content
from tests.helpers.rooms import RoomThread, until

CONTENT = load_content()


@pytest.fixture
def room():
    served = RoomThread(Host.new(CONTENT, ["Ana", "Ben", "Cleo"], ["red", "yellow", "green"], seed=4, start_player=0))
    yield served
    served.stop()


def caught_up(room: RoomThread, links: list[RemoteHost]) -> bool:
    """Whether every link holds its seat's message as the room's host would tell it whole now.

    (Waiting for each link's count of frames to grow is not enough: a link's
    first frames tell it who else is present, and those may come after a move.)
    """
    scenes = room.call(lambda: [room.room.host.scene(seat) for seat in range(len(links))])
    return all(
        (link.message.view, link.message.log, link.message.turn, link.message.prompt)
        == (scene.view, scene.log, scene.turn, scene.prompt)
        for link, scene in zip(links, scenes)
    )


def test_each_link_gets_its_own_seat_and_only_the_decider_gets_options(room):
    links = [room.remote(seat) for seat in range(3)]
    turn = links[0].turn()
    assert [link.seat for link in links] == [0, 1, 2]
    deciding = links[turn.seat]
    assert deciding.message.prompt is not None and deciding.message.prompt.options
    for link in links:
        assert link.turn() == turn
        if link is not deciding:
            assert link.message.prompt is None and link.message.undo is None


def test_a_seat_cannot_choose_or_undo_for_another(room):
    links = [room.remote(seat) for seat in range(3)]
    turn = links[0].turn()
    decider = links[turn.seat]
    other = links[(turn.seat + 1) % 3]
    option = decider.message.prompt.options[0].id
    before = room.call(lambda: len(room.room.host.engine.events))
    refused = other.choose(option)
    assert isinstance(refused, Rejection) and refused.reason == "It is not your turn."
    assert not other.undo()
    assert room.call(lambda: len(room.room.host.engine.events)) == before  # nothing changed


def test_every_seat_sees_a_move_as_it_happens_and_its_log_is_whole(room):
    links = [room.remote(seat) for seat in range(3)]
    for _ in range(12):  # objectives kept, corporations chosen, islands picked...
        turn = links[0].turn()
        decider = links[turn.seat]
        seen = [link.changes for link in links]
        assert decider.choose(decider.message.prompt.options[0].id)
        until(lambda: all(link.changes > n for link, n in zip(links, seen)), "the move on every seat")
        until(lambda: caught_up(room, links), "every seat's whole message")


def test_an_undo_is_seen_by_everyone_and_the_logs_are_told_afresh(room):
    links = [room.remote(seat) for seat in range(3)]
    # to the first choice that can be taken back
    for _ in range(40):
        turn = links[0].turn()
        decider = links[turn.seat]
        if decider.message.undo is not None and decider.message.undo.allowed:
            break
        assert decider.choose(decider.message.prompt.options[-1].id)
        until(lambda: caught_up(room, links), "the move on every seat")
    else:
        pytest.fail("no move of the first 40 could be taken back")
    lines_before = [len(link.message.log) for link in links]
    seen = [link.changes for link in links]
    point = decider.undo()
    assert point and point.what
    until(lambda: all(link.changes > n for link, n in zip(links, seen)), "the undo on every seat")
    until(lambda: caught_up(room, links), "every seat's whole message after the undo")
    assert all(len(link.message.log) < before for link, before in zip(links, lines_before))


def test_a_seat_joining_again_takes_over_from_its_stale_link(room):
    first = room.remote(1)
    again = room.remote(1)
    until(lambda: first.lost is not None, "the stale link's end")
    assert first.lost == "You joined this game from another terminal."
    assert again.lost is None and again.seat == 1
    assert room.call(lambda: room.room.seated(1))


def test_another_seats_secrets_never_cross_the_wire(room):
    """Ben's first message and the frames before it, as their bytes came, name his own objectives on offer
    and none of the others'.

    (The content frame before it lists every card of the game, as the printed
    cards are public; the message says which are whose.)
    """
    host = room.room.host
    offers = room.call(lambda: [list(p.objective_offer) for p in host.engine.state.players])
    with room.socket(1).makefile("rb") as stream:
        assert stream.readline().startswith(b"content ")
        frames = [stream.readline().decode()]  # (who is away, who watches... then the message)
        while not frames[-1].startswith("scene "):
            frames.append(stream.readline().decode())
    message = "".join(frames)
    names = {o: CONTENT.objectives[o].name for offer in offers for o in offer}
    assert all(o in message for o in offers[1])  # (its own cards do come)
    theirs = {o for seat in (0, 2) for o in offers[seat]} - set(offers[1])
    assert theirs and not {o for o in theirs if o in message or names[o] in message}


def test_the_others_are_told_who_left_and_who_came_back_and_who_took_a_move_back(room):
    heard: list[str] = []

    def ana_hears(kind: str, text: str) -> None:
        ana.receive(kind, text)
        if kind == "notice":
            heard.append(body(text)["text"])

    ana = RemoteHost(Link(room.socket(0)))
    ana.link.start(ana_hears)
    until(lambda: ana.ready and ana.away == {1, 2}, "Ana alone")
    ben, cleo = room.remote(1), room.remote(2)
    until(lambda: ana.away == frozenset() and "Cleo joined the game." in heard, "everyone there")
    cleo.link.close()
    until(lambda: ana.away == {2} and ben.away == {2}, "Cleo away, on every screen")
    assert "Cleo left; the game waits for them to return." in heard
    again = room.remote(2)
    until(lambda: ana.away == frozenset() and heard[-1] == "Cleo is back.", "Cleo back")
    assert again.seat == 2
    # a move taken back: the others are told who, never what (it can name the mover's cards)
    links = {0: ana, 1: ben, 2: again}
    for _ in range(80):
        decider = links[ana.turn().seat]
        if decider is not ana and decider.message.undo is not None and decider.message.undo.allowed:
            break
        seen = [link.changes for link in links.values()]
        decider.choose(decider.message.prompt.options[-1].id)
        until(lambda: all(link.changes > n for link, n in zip(links.values(), seen)))
    else:
        pytest.fail("Ben and Cleo had no move to take back in 80")
    name = ana.message.view["players"][decider.seat]["name"]
    point = decider.undo()
    assert point
    until(lambda: heard[-1] == f"{name} took back a move.", "the undo, told")
    assert point.what not in " ".join(heard)


def test_every_seat_is_told_which_seats_computers_play_and_at_which_level():
    """Public, as the lobby lists them: each seat and a spectator learn the levels, just before the message
    they go with. A bare room plays no computer (a lobby does), so none is said to be thinking."""
    served = RoomThread(
        Host.new(
            CONTENT,
            ["Ana", "Ben", "Computer"],
            ["red", "yellow", "green"],
            seed=4,
            start_player=0,
            computers={2: "hard"},
        )
    )
    try:
        with served.socket(1).makefile("rb") as stream:
            kinds = [stream.readline().split(b" ", 1) for _ in range(6)]
        told = [b"content", b"holding", b"presence", b"watchers", b"computers", b"scene"]
        assert [kind for kind, _ in kinds] == told  # (all that goes with the message comes before it)
        assert body(kinds[4][1].decode()) == {"levels": {"2": "hard"}, "thinking": False}
        ana, watching = served.remote(0), served.remote(None)
        assert ana.levels == watching.levels == {2: "hard"} and not ana.thinking
    finally:
        served.stop()


# -- End turn, and a lone Pass, over the wire (issue 34, point 5) ------------------------------------


def play_one(room: RoomThread, links: list[RemoteHost], rng: random.Random | None = None) -> RemoteHost:
    """The deciding seat takes its first option (with `rng`: one at random, Pass or Back only if nothing else
    is offered); every seat then holds the room's message."""
    decider = links[links[0].turn().seat]
    ids = [option.id for option in decider.message.prompt.options]
    useful = [i for i in ids if i not in ("pass", "back")] or ids
    assert decider.choose(useful[rng.randrange(len(useful))] if rng else ids[0])
    until(lambda: caught_up(room, links), "the move on every seat")
    return decider


def held(link: RemoteHost) -> bool:
    """Whether the seat's prompt is its turn's End turn."""
    prompt = link.message.prompt
    return prompt is not None and [option.id for option in prompt.options] == [END_TURN]


def test_a_remote_seats_turn_waits_for_end_turn_and_undo_reaches_its_move(room):
    links = [room.remote(seat) for seat in range(3)]
    until(lambda: all(link.holding for link in links), "every seat told its turns wait")
    for _ in range(40):
        mover = play_one(room, links)
        if held(mover):
            break
    else:
        pytest.fail("no turn of the first 40 moves waited for End turn")
    name = mover.message.view["players"][mover.seat]["name"]
    for link in links:  # the game is the mover's to end: nobody else is asked anything
        assert link.turn().seat == mover.seat and link.turn().says == f"{name} is ending their turn"
        assert link is mover or link.message.prompt is None
    # (its move, or a Done that closed an action: a step, after that move)
    assert mover.message.undo is not None
    assert mover.message.undo.says.startswith((f"{name} ", f"your last step, after {name} "))
    point = mover.undo()  # the move that ended the turn, taken back
    until(lambda: caught_up(room, links) and not held(mover), "the undo on every seat")
    assert point and mover.turn().seat == mover.seat
    play_one(room, links)  # the same move again: held again
    assert held(mover)
    assert mover.choose(END_TURN)
    until(lambda: caught_up(room, links) and links[0].turn().seat != mover.seat, "the turn handed on")


def test_a_remote_player_who_turns_end_turn_off_is_never_held_and_the_others_still_are(room):
    links = [room.remote(seat) for seat in range(3)]
    until(lambda: all(link.holding is not None for link in links), "every seat told")
    ben = links[1]
    assert ben.hold_turns((1,), False) is None and ben.holding is False
    held_seats, bens_moves, rng = set(), 0, random.Random(4)
    for _ in range(200):
        if held_seats >= {0, 2} and bens_moves > 10:
            break
        mover = play_one(room, links, rng)
        bens_moves += mover is ben
        if held(mover):
            held_seats.add(mover.seat)
    assert held_seats == {0, 2}, held_seats  # (Ana's and Cleo's turns wait; Ben's never)
    assert bens_moves > 10
    assert isinstance(links[0].hold_turns((1,), True), type(None)) and links[0].holding is True  # (their own)
    assert ben.holding is False


def test_a_spectator_has_no_turns_to_hold(room):
    watching = room.remote(None)
    assert watching.holding is None
    assert watching.hold_turns((0,), False) == "Only the players' own turns wait for End turn."


def test_a_lone_pass_is_passed_for_a_remote_seat_and_its_log_says_so(room):
    """Seats played over links to a room: none is ever offered Pass alone, and a pass made for one is told."""
    links = [room.remote(seat) for seat in range(3)]
    forced, rng = ": nothing else was possible.", random.Random(4)
    for _ in range(600):
        if any(line.text.endswith(forced) for line in links[0].message.log):
            break
        decider = links[links[0].turn().seat]
        ids = [option.id for option in decider.message.prompt.options]
        assert ids != ["pass"], f"{decider.turn().says}: left to pass alone"
        play_one(room, links, rng)
    assert all(any(line.text.endswith(forced) for line in link.message.log) for link in links)
