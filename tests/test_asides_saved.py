"""What happened at a game's table, not in its rules (a computer began to play for a player who left, the
player took their seat back), stays in the game's log: after a restart, after an undo and in the replay."""

from __future__ import annotations

import json

from rules.engine import replay
from rules.host import Host, Store, load_content, replay_from_json
from rules.seat import Line
from rules.view import view

CONTENT = load_content()
LEFT = "Ben left: a computer plays for them from here."
BACK = "Ben is back and plays their own seat again."


def play(host: Host, moves: int) -> None:
    for _ in range(moves):
        ids = [i for i in host.engine.legal_ids() if i != "back"]
        assert host.choose(ids[0], hold=False)  # (a Rejection or a NotMade is false)


def texts(lines) -> list[str]:
    return [line.text for line in lines]


def a_game_with_a_stand_in(store: Store) -> tuple[Host, int, int]:
    """A saved 2-player game in which Ben was stood in for after 4 moves and came back after 7; where each was."""
    host = Host.new(CONTENT, ["Ana", "Ben"], ["red", "yellow"], seed=5, start_player=0, store=store)
    play(host, 4)
    left_at = len(host.engine.events)
    host.aside(1, LEFT)
    play(host, 3)
    back_at = len(host.engine.events)
    host.aside(1, BACK)
    play(host, 2)
    return host, left_at, back_at


def test_a_restarted_server_still_tells_when_the_computer_began_and_when_the_player_came_back(tmp_path):
    store = Store(tmp_path / "lagoon.db")
    host, _, _ = a_game_with_a_stand_in(store)
    before = {seat: texts(host.scene(seat).log) for seat in (None, 0, 1)}
    assert LEFT in before[None] and before[None].index(LEFT) < before[None].index(BACK)
    store.close()

    again = Store(tmp_path / "lagoon.db")
    resumed = Host.resume(again, host.game, CONTENT)
    for seat in (None, 0, 1):  # every reader's log, word for word as before the restart
        assert texts(resumed.scene(seat).log) == before[seat]
    again.close()


def test_the_replay_of_the_saved_game_shows_both_lines_where_they_happened(tmp_path):
    store = Store(tmp_path / "lagoon.db")
    host, left_at, back_at = a_game_with_a_stand_in(store)
    store.close()

    replay = Host.replay_saved(Store(tmp_path / "lagoon.db", read_only=True), host.game, CONTENT)
    said = texts(told.line for told in replay.lines)
    assert said.index(LEFT) < said.index(BACK)
    # a step onto each line shows the board as it was then: after the events before it
    assert replay.stops[said.index(LEFT)] == left_at and replay.stops[said.index(BACK)] == back_at
    assert said == texts(host.replay().lines[i].line for i in range(len(host.replay().lines)))


def test_the_log_sent_for_a_replay_in_another_process_carries_them_and_an_older_log_still_reads(tmp_path):
    host, _, _ = a_game_with_a_stand_in(Store(tmp_path / "lagoon.db"))
    sent = replay_from_json(CONTENT, host.log_json())
    assert texts(told.line for told in sent.lines) == texts(told.line for told in host.replay().lines)

    older = json.loads(host.log_json())
    del older["asides"]  # (a log written before asides were sent)
    assert LEFT not in texts(told.line for told in replay_from_json(CONTENT, json.dumps(older)).lines)


def test_an_undo_keeps_the_line_at_the_logs_new_end_also_after_a_restart(tmp_path):
    store = Store(tmp_path / "lagoon.db")
    host = Host.new(CONTENT, ["Ana", "Ben"], ["red", "yellow"], seed=5, start_player=0, store=store)
    play(host, 4)
    while True:  # (on to a move after which its player decides again: only such a move can be taken back)
        mover = host.turn().seat
        play(host, 1)
        if host.turn().seat == mover:
            break
    host.aside(1, LEFT)
    assert host.undo()  # (the last move, made before the line, taken back; a NoUndo is false)
    play(host, 2)  # (the game goes on past where the line was said: it stays where the undo left it)
    now = texts(host.scene(None).log)
    assert LEFT in now and now.index(LEFT) < len(now) - 1
    store.close()

    resumed = Host.resume(Store(tmp_path / "lagoon.db"), host.game, CONTENT)
    assert texts(resumed.scene(None).log) == now


def stood_in_for_ben(store: Store) -> tuple[Host, int]:
    """A saved 2-player game: Ben's own moves, then Ana's, then a computer begins to play for Ben; where the events
    after Ben's own last move began."""
    host = Host.new(CONTENT, ["Ana", "Ben"], ["red", "yellow"], seed=5, start_player=0, store=store)
    while host.turn().seat != 1:
        play(host, 1)
    while host.turn().seat == 1:  # Ben's own moves
        play(host, 1)
    own = host.engine.after_last_move(1)
    while host.turn().seat != 1:  # then Ana's
        play(host, 1)
    host.aside(1, LEFT, stand_in=True)
    return host, own


def test_a_player_back_from_a_stand_in_reads_what_the_computer_did_for_them_since_their_own_last_move(tmp_path):
    """The "since your last move" list counts from the player's own last move, not the computer's for them: the lines
    the computer's moves made, and that it began and ended, are in it; once they move again it starts anew."""
    store = Store(tmp_path / "lagoon.db")
    host, own = stood_in_for_ben(store)
    stood = len(host.engine.events)
    while host.turn().seat == 1:  # the computer's moves for Ben
        play(host, 1)
    host.aside(1, BACK, stand_in=False)
    since = texts(host.scene(1).since)
    assert since[0] != LEFT and LEFT in since and since[-1] == BACK  # (Ana's moves before the computer's too)
    assert texts(host.chronicle.tell(own, None, stood)) == since[: since.index(LEFT)]
    assert host.view_after_last_move(1) == view(replay(CONTENT, host.engine.events[:own]), 1)  # (his own board then)
    store.close()
    resumed = Host.resume(Store(tmp_path / "lagoon.db"), host.game, CONTENT)  # (the same after a restart)
    assert texts(resumed.scene(1).since) == since
    while resumed.turn().seat != 1:
        play(resumed, 1)
    play(resumed, 1)  # Ben moves again, himself
    assert LEFT not in texts(resumed.scene(1).since)


def test_a_stand_in_a_restart_ended_is_told_and_counts_no_more_once_the_player_has_moved_again(tmp_path):
    """A restarted server forgets its stand-ins: a line of the log says so where the game was opened again (the
    log said the computer played on, and nothing more), kept for the next restart; the player's own last move is
    still the one before the computer's, until they move again themselves."""
    store = Store(tmp_path / "lagoon.db")
    host, own = stood_in_for_ben(store)
    while host.turn().seat == 1:  # the computer's moves for Ben, then the server stops
        play(host, 1)
    store.close()
    resumed = Host.resume(Store(tmp_path / "lagoon.db"), host.game, CONTENT)
    ended = Line(1, "No computer plays for Ben now: the game waits for them.")
    assert resumed.chronicle.lines(0)[-1] == ended and resumed.chronicle.stand_ins_under_way() == []
    resumed.engine.journal.store.close()
    again = Host.resume(Store(tmp_path / "lagoon.db"), host.game, CONTENT)  # (and once only, after another)
    assert [line for line in again.chronicle.lines(0) if line == ended] == [ended]
    resumed = again
    assert resumed.chronicle.own_move_end(1) == own
    while resumed.turn().seat != 1:
        play(resumed, 1)
    play(resumed, 1)  # Ben, back, moves himself
    assert resumed.chronicle.own_move_end(1) == resumed.engine.after_last_move(1) > own
