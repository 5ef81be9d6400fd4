"""The computers' turns a screen plays (`lagoon_tui.computer_turns`), without a screen.

A real host and real computer players; the screen's part is the test's: each
search runs when the test says (as a worker would, later), each timer fires
when the test says, and the clock moves only when the test moves it. So what
is checked is counted, never timed: a computer's move waits for what is left
of its pace, space makes it at once and the next ones too until a person
decides, a move found for a game that has moved on or for a screen that has
gone is dropped, and computers alone play a game to its end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from lagoon_tui.computer_turns import ComputerTurns
from rules.host import Host, load_content

CONTENT = load_content()
NAMES = ("Ana", "Ben", "Cleo")
COLOURS = ("red", "yellow", "green")
STEPS = 20_000  # more than any game here takes (each step: one search, one timer, one move or one change shown)


@dataclass
class Timer:
    delay: float
    then: Callable[[], None]
    stopped: bool = False

    def stop(self) -> None:
        self.stopped = True


@dataclass
class Stage:
    """The screen's part: searches and timers wait until the test runs them."""

    searches: list[tuple[Callable[[], str], Callable[[str], None]]] = field(default_factory=list)
    timers: list[Timer] = field(default_factory=list)
    set: int = 0  # timers set so far
    keys: int = 0  # times the hurry key came or went
    made: list[object] = field(default_factory=list)

    def run_search(self, search: Callable[[], str], then: Callable[[str], None], name: str) -> None:
        self.searches.append((search, then))

    def call_in(self, delay: float, then: Callable[[], None]) -> Timer:
        timer = Timer(delay, then)
        self.timers.append(timer)
        self.set += 1
        return timer

    def keys_changed(self) -> None:
        self.keys += 1

    def computer_made(self, result: object) -> None:
        self.made.append(result)

    def finish_search(self) -> None:
        search, then = self.searches.pop(0)
        then(search())

    def fire(self) -> None:
        timer = self.timers.pop(0)
        if not timer.stopped:
            timer.then()


class Table:
    """A game, its computers' turns, and the screen's loop as the test runs it."""

    def __init__(self, computers: dict[int, str], seats: int, seed: int, pace: float, start_player: int = 0):
        self.host = Host.new(
            CONTENT, NAMES[:seats], COLOURS[:seats], seed=seed, start_player=start_player, computers=computers
        )
        self.stage, self.now = Stage(), 0.0
        self.turns = ComputerTurns(self.host, self.stage, pace=pace, clock=lambda: self.now)
        self.shown = -1

    def show(self) -> bool:
        """The screen shows the latest change (as its GameChanged message does); True if there was one."""
        if self.shown == self.host.changes:
            return False
        self.shown = self.host.changes
        self.turns.follow(self.host.turn())
        return True

    def person_moves(self) -> None:
        seat = self.host.turn().seat
        assert seat not in self.host.computers
        prompt = self.host.scene(seat).prompt
        assert prompt is not None
        assert self.host.choose(prompt.options[0].id)

    def step(self) -> None:
        """One thing happens: a change shown, a timer fired, a search finished, or a person's move."""
        if self.show():
            return
        if self.stage.timers:
            self.stage.fire()
        elif self.stage.searches:
            self.stage.finish_search()
        else:
            self.person_moves()

    def until(self, done: Callable[[], bool]) -> None:
        for _ in range(STEPS):
            if done():
                return
            self.step()
        raise AssertionError("the game stopped moving")


def test_computers_alone_play_a_game_to_its_end():
    table = Table({0: "easy", 1: "normal", 2: "easy"}, seats=3, seed=7, pace=0.0)
    table.until(lambda: table.host.over)
    assert table.stage.set == 0, "no pace: each move made as soon as it is found"
    assert {mark.seat for mark in table.host.engine.marks} == {0, 1, 2}, "every computer made its own moves"
    assert len(table.stage.made) > 50 and all(table.stage.made), "every move found was made, none refused"


def test_a_found_move_waits_for_what_is_left_of_its_pace():
    table = Table({1: "normal"}, seats=2, seed=6, pace=0.5, start_player=1)  # Ben, a computer, decides first
    table.show()
    assert len(table.stage.searches) == 1 and table.turns.thinking and table.turns.may_hurry
    changes = table.host.changes
    table.now += 0.2  # the search took 0.2 s
    table.stage.finish_search()
    assert [timer.delay for timer in table.stage.timers] == [pytest.approx(0.3)], "what is left of the pace"
    assert table.host.changes == changes and table.turns.due is not None and table.turns.thinking
    table.stage.fire()
    assert table.host.changes > changes and table.turns.due is None
    table.show()
    assert table.host.turn().seat == 1, "Ben's second setup decision"
    changes = table.host.changes
    table.now += 0.7  # a search that outlasts the pace: its move is made at once
    table.stage.finish_search()
    assert table.host.changes > changes and table.stage.timers == [] and table.stage.set == 1


def test_space_makes_a_waiting_move_at_once_and_the_next_ones_until_a_person_decides():
    table = Table({1: "normal", 2: "normal"}, seats=3, seed=3, pace=0.5, start_player=1)  # Ana the one person
    table.show()
    table.stage.finish_search()
    (waiting,) = table.stage.timers
    changes, keys = table.host.changes, table.stage.keys
    table.turns.hurry()
    assert waiting.stopped and table.host.changes > changes, "the waiting move made at once"
    assert table.turns.hurried and not table.turns.may_hurry and table.stage.keys == keys + 1
    made, moves = table.stage.set, len(table.host.engine.marks)
    table.until(lambda: table.host.turn().seat == 0 and table.shown == table.host.changes)
    assert len(table.host.engine.marks) - moves == 3, "Ben's second setup decision and both of Cleo's"
    assert table.stage.set == made, "hurried: none of them waited for its pace"
    assert not table.turns.hurried and not table.turns.may_hurry, "Ana decides: the computers' pace holds again"
    table.person_moves()
    table.until(lambda: table.stage.set > made)
    assert table.host.turn().seat == 1 and table.turns.due is not None, "Ben's next move waits for its pace again"


def test_a_move_found_for_a_game_that_has_moved_on_is_dropped():
    table = Table({1: "normal"}, seats=2, seed=6, pace=0.0, start_player=1)
    table.show()
    stale = table.stage.searches.pop(0)
    prompt = table.host.scene(1).prompt
    assert prompt is not None
    assert table.host.choose(prompt.options[0].id)  # Ben's decision made another way meanwhile
    changes = table.host.changes
    search, then = stale
    then(search())
    assert table.host.changes == changes and table.stage.made == [], "the late answer is not made"


def test_a_stopped_screen_makes_no_move_and_starts_no_search():
    table = Table({1: "normal"}, seats=2, seed=6, pace=0.0, start_player=1)
    table.show()
    changes = table.host.changes
    table.turns.stop()  # the screen goes while Ben thinks
    table.stage.finish_search()
    assert table.host.changes == changes and table.stage.made == [], "the move found after it went is not made"
    prompt = table.host.scene(1).prompt
    assert prompt is not None
    assert table.host.choose(prompt.options[0].id)  # (Ben's decision made another way: he decides again)
    table.show()
    assert table.host.turn().seat == 1 and table.stage.searches == [], "no new search"
