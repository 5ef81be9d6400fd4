"""A session that keeps a core busy yields to the others (`serve.hogs`, issue 35 point 9): counted on a clock and
a CPU time the test moves, never on the machine's."""

from __future__ import annotations

from lagoon_tui.serve.hogs import LOOK_OVER, READ_EVERY, Hog


class Process:
    """A clock, a process's CPU time, and the priorities it was given."""

    def __init__(self) -> None:
        self.now = 0.0
        self.cpu = 0.0
        self.lowered: list[int] = []

    def run(self, seconds: float, share: float) -> None:
        self.now += seconds
        self.cpu += seconds * share

    def hog(self, share: float = 0.3) -> Hog:
        return Hog(7, share, clock=lambda: self.now, cpu=lambda pid: self.cpu, lowers=self.lowered.append)


def test_a_session_past_its_share_of_a_core_over_a_few_seconds_is_lowered_once():
    process = Process()
    hog = process.hog()
    found = []
    for _ in range(20):
        found.append(hog.looked())
        process.run(READ_EVERY, 0.5)  # half a core, every second
    assert found.count(True) == 1 and process.lowered == [7]
    assert found.index(True) == LOOK_OVER / READ_EVERY  # (once it has been watched for LOOK_OVER seconds)
    assert abs(hog.used - 0.5) < 1e-9


def test_a_player_at_a_tenth_of_a_core_or_in_a_burst_is_never_lowered():
    process = Process()
    hog = process.hog()
    for _ in range(60):
        assert not hog.looked()
        process.run(READ_EVERY, 0.1)
    for second in range(3):  # a second of a whole core, then quiet ones: under 0.3 over five seconds
        assert not hog.looked()
        process.run(READ_EVERY, 1.0 if second == 0 else 0.0)
    assert process.lowered == []


def test_it_is_looked_at_no_more_than_once_a_second_and_never_with_no_share():
    process = Process()
    reads = []
    hog = Hog(
        7, 0.3, clock=lambda: process.now, cpu=lambda pid: reads.append(pid) or 0.0, lowers=process.lowered.append
    )
    for _ in range(10):
        hog.looked()
        process.now += READ_EVERY / 5
    assert len(reads) == 2
    never = Process()
    off = never.hog(share=0.0)
    for _ in range(20):
        assert not off.looked()
        never.run(READ_EVERY, 1.0)
    assert never.lowered == []
