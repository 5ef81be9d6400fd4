"""Lines of the table in the log (issue 35, point 2): something that happened at the table rather than in the
game ("Ben left: a computer plays for them from here.") is told to every reader where it happened, is no
event of the rules, and stays where it was when a move after it is taken back."""

from __future__ import annotations

from rules import load_content
from rules.host import Host
from rules.seat import Line

CONTENT = load_content()
ASIDE = Line(1, "Ben left: a computer plays for them from here.")
BACK = Line(1, "Ben is back and plays their own seat again.")


def test_a_table_line_is_told_to_every_reader_where_it_happened_and_survives_an_undo_after_it():
    host = Host.new(CONTENT, ["Ana", "Ben", "Cleo"], ["red", "yellow", "green"], seed=3, start_player=0)
    readers = (0, 1, 2, None)
    for _ in range(7):  # a few moves, each reader's log told as it goes (as a room tells its links)
        seat = host.turn().seat
        host.choose(host.scene(seat).prompt.options[0].id)
        for reader in readers[:2]:
            host.scene(reader)
    before = {reader: host.scene(reader).log for reader in readers}
    events = len(host.engine.events)
    host.aside(1, ASIDE.text)
    assert len(host.engine.events) == events  # (no event of the rules: the game is as it was)
    for reader in readers:
        assert host.scene(reader).log == (*before[reader], ASIDE)
    for _ in range(50):  # moves after it, until the one deciding may take one back
        seat = host.turn().seat
        host.choose(host.scene(seat).prompt.options[0].id)
        if host.scene(host.turn().seat).undo.allowed:
            break
    after = {reader: host.scene(reader).log for reader in readers}
    assert all(len(after[reader]) > len(before[reader]) + 1 for reader in readers)
    host.aside(1, BACK.text)  # (just before the undo: the move it takes back came before this line)
    assert host.undo()
    for reader in readers:
        log = host.scene(reader).log
        assert log.count(ASIDE) == log.count(BACK) == 1 and log[: len(before[reader]) + 1] == (*before[reader], ASIDE)
        assert log[-1] == BACK and len(log) < len(after[reader]) + 1  # (the move's lines went; the line stays)
    undone = {reader: host.scene(reader).log for reader in readers}
    for _ in range(50):  # and it stays there through the moves after, and another undo
        seat = host.turn().seat
        host.choose(host.scene(seat).prompt.options[0].id)
        if host.scene(host.turn().seat).undo.allowed and len(host.engine.events) > events + 10:
            break
    assert host.undo()
    for reader in readers:
        assert host.scene(reader).log[: len(undone[reader])] == undone[reader]
