"""A room's onlookers wait longer for a move the busier the machine's cores are (`lagoon_tui.serve.busy`, issue 35):
0.1 s on a machine with cores to spare, a second when they are busy and three when they are saturated, so that the
keys of the players who act are answered first. The room's use of the wait: tests/serve/test_onlookers.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from lagoon_tui.serve.busy import (
    CALM,
    FULL,
    JITTER,
    OTHERS_AFTER,
    OTHERS_BUSY,
    OTHERS_MOST,
    READ_EVERY,
    SATURATED,
    Cores,
    cpu_times,
    wait_for,
)


def test_the_wait_is_short_on_a_calm_machine_a_second_on_a_busy_one_and_three_on_a_saturated_one():
    assert wait_for(0.0) == wait_for(CALM) == OTHERS_AFTER == 0.1
    assert wait_for(FULL) == OTHERS_BUSY == 1.0
    assert wait_for(SATURATED) == wait_for(1.0) == OTHERS_MOST == 3.0
    shares = [CALM + (SATURATED - CALM) * n / 40 for n in range(41)]
    waits = [wait_for(share) for share in shares]
    assert waits == sorted(waits) and len(set(waits)) == len(waits)  # (growing all the way, no step)
    halfway = wait_for((CALM + FULL) / 2), wait_for((FULL + SATURATED) / 2)
    assert halfway == pytest.approx(((OTHERS_AFTER + OTHERS_BUSY) / 2, (OTHERS_BUSY + OTHERS_MOST) / 2))


def test_the_cores_are_read_from_linux_and_an_unreadable_file_is_an_idle_machine(tmp_path: Path):
    busy_ticks, all_ticks = cpu_times()  # (this machine's /proc/stat)
    assert 0 < busy_ticks < all_ticks
    stat = tmp_path / "stat"
    stat.write_text("cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 100 0 50 800 50 0 0 0 0 0\n")
    assert cpu_times(stat) == (150, 1000)  # (idle and waiting for a disk are not busy)
    for broken in ("", "intr 1 2 3\n", "cpu  a b c d\n"):
        stat.write_text(broken)
        assert cpu_times(stat) is None
    assert cpu_times(tmp_path / "none") is None
    idle = Cores(lambda: None, lambda: 10.0)
    assert idle.read() == 0.0 and wait_for(idle.read()) == OTHERS_AFTER


def test_the_busy_share_is_that_of_the_time_since_the_last_reading_read_no_more_often_than_needed():
    readings = iter([(0, 0), (180, 200), (200, 400), (600, 800)])
    now = [0.0]
    cores = Cores(lambda: next(readings), lambda: now[0], seed=1)
    assert cores.read() == 0.0  # (one reading: no share yet)
    now[0] += READ_EVERY
    assert cores.read() == pytest.approx(0.9)  # 180 of 200 ticks busy
    now[0] += READ_EVERY / 2
    assert cores.read() == pytest.approx(0.9)  # (too soon: the file is not read again)
    now[0] += READ_EVERY
    assert cores.read() == pytest.approx(0.1)  # 20 of 200
    waits = [cores.onlooker_wait() for _ in range(200)]
    assert cores.read() == pytest.approx(0.1)  # (asking for waits read nothing: no time passed)
    assert OTHERS_AFTER * (1 - JITTER) <= min(waits) < max(waits) <= OTHERS_AFTER * (1 + JITTER)
    now[0] += READ_EVERY
    waits = [cores.onlooker_wait() for _ in range(200)]  # 400 of 400: all busy
    assert OTHERS_MOST * (1 - JITTER) <= min(waits) < OTHERS_MOST < max(waits) <= OTHERS_MOST * (1 + JITTER)
