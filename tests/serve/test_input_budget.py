"""A session's input budget (lagoon_tui/serve/budget.py): keys a second and bytes a minute, on a clock the
test turns (counted seconds, never waited), and the flags of `lagoon serve` that set it."""

from __future__ import annotations

import pytest

from lagoon_tui.cli import main
from lagoon_tui.serve.budget import KEYS_BURST, PASTE_END, PASTE_START, InputBudget


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def budget(keys: int, size: int) -> tuple[InputBudget, Clock]:
    """A budget of `keys` a second and `size` bytes a minute, no burst beyond a second's worth of keys."""
    clock = Clock()
    return InputBudget(keys, size, clock, keys_burst=0), clock


def test_keys_past_a_seconds_worth_are_dropped_and_the_player_is_told_once():
    admit, clock = budget(10, 1 << 20)
    assert admit.admit(b"a" * 25) == b"a" * 10
    assert admit.first_drop() and not admit.first_drop()
    clock.now += 0.5  # half a second: five more
    assert admit.admit(b"b" * 25) == b"b" * 5
    assert not admit.first_drop()  # (told once, however much more is dropped)
    assert admit.dropped == 15 + 20


def test_a_burst_of_keys_passes_then_keys_a_second_count():
    """A key held down repeats faster than a session's keys a second (30 by default): KEYS_BURST of them pass
    first, so a held arrow runs for seconds; a flood is held to keys a second after that (issue 35: at 100 keys
    a second, opening and closing the keys list kept a session's core busy)."""
    clock = Clock()
    admit = InputBudget(30, 1 << 20, clock)
    assert admit.admit(b"\x1b[B" * 150) == b"\x1b[B" * KEYS_BURST
    clock.now += 1.0
    assert admit.admit(b"?" * 100) == b"?" * 30
    clock.now += 10.0  # (full again, and no fuller)
    assert admit.admit(b"x" * 200) == b"x" * KEYS_BURST


def test_a_key_is_a_press_whole_an_arrow_a_character_of_several_bytes_alt():
    admit, _ = budget(4, 1 << 20)
    keys = b"\x1b[A" + "é".encode() + b"\x1bx" + b"\x1bOP" + b"z"
    assert admit.admit(keys) == keys[: -len(b"z")]  # four keys pass whole; the fifth waits for its second


def test_mouse_reports_cost_bytes_only():
    admit, _ = budget(1, 13 * 50)
    sweep = b"".join(b"\x1b[<35;%d;45M" % column for column in range(100, 150))  # 50 moves of 13 bytes
    assert admit.admit(sweep + b"\x1b[<0;149;45M") == sweep  # all 50; the click does not fit the bytes
    assert admit.admit(b"k") == b""  # (and then a key has no byte either)


def test_bytes_past_a_minutes_worth_are_dropped_whole_keys_only():
    admit, clock = budget(0, 60)  # (0: keys are not counted)
    assert admit.admit(b"x" * 59 + b"\x1b[A") == b"x" * 59  # the arrow does not fit whole
    clock.now += 1  # a byte more: two, for an arrow of three
    assert admit.admit(b"\x1b[A") == b""
    clock.now += 1
    assert admit.admit(b"\x1b[A") == b"\x1b[A"


def test_a_paste_costs_one_key_and_its_bytes_and_one_cut_short_is_ended_where_it_was_cut():
    admit, clock = budget(2, 100)
    paste = PASTE_START + b"p" * 50 + PASTE_END
    assert admit.admit(paste + b"k") == paste + b"k"  # 50 characters for 2 keys: the start and the k
    clock.now += 1  # two keys more, and a bit over one byte
    cut = admit.admit(PASTE_START + b"q" * 80 + PASTE_END + b"after")
    # 37 bytes were left, 38 and two thirds a second later: the start's 6, then 32 characters, then its end
    assert cut == PASTE_START + b"q" * 32 + PASTE_END
    assert admit.first_drop()


def test_the_end_of_a_paste_split_between_two_chunks_is_seen():
    admit, _ = budget(3, 1 << 20)
    assert admit.admit(PASTE_START + b"abc" + PASTE_END[:3]) == PASTE_START + b"abc" + PASTE_END[:3]
    assert admit.admit(PASTE_END[3:] + b"xyz") == PASTE_END[3:] + b"xy"  # after its end, keys count again


def test_no_limit_at_zero():
    admit, _ = budget(0, 0)
    flood = b"a" * 100_000
    assert admit.admit(flood) == flood and not admit.first_drop()


@pytest.mark.parametrize(
    "flags, hint",
    [
        (["--session-memory", "-1"], "cannot be negative"),
        (["--keys-per-second", "-5"], "cannot be negative"),
        (["--max-window", "500"], "COLSxROWS"),
        (["--max-window", "0x200"], "COLSxROWS"),
    ],
)
def test_lagoon_serve_refuses_a_limit_it_cannot_keep(capsys, flags, hint):
    assert main(["serve", "--port", "0", *flags]) == 2
    assert hint in capsys.readouterr().err
