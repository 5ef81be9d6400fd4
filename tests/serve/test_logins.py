"""Logins limited by key as well as by address (issue 35, point 8), with OpenSSH's own client on loopback.

Friends who reach the server through one address (a home router, `ssh -L`)
are not one person: one key that logs in again and again is stopped by its
own limit first, and what it is refused spends nothing of its address's, so
the others behind that address still get in. The clock is the test's own.
"""

from __future__ import annotations

import logging

import pytest

from lagoon_tui.serve import ssh
from tests.helpers.harness import FakeClock, key_fingerprint, make_key, missing, run

REASON = missing()
pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]


def login(server, key) -> str:
    """What a login with `key` ends with: "in" once it got in, else the reason ssh printed."""
    done = run(server.ssh(key, "-tt", command=("whoami",)))
    return "in" if f"you are {key_fingerprint(key.with_suffix('.pub'))}" in done.stderr else done.stderr


def test_a_key_past_its_logins_is_refused_while_others_behind_its_address_still_get_in(servers, tmp_path, caplog):
    clock = FakeClock()
    server = servers(limits=ssh.Limits(key_rate=2, rate=5, per=3600.0), clock=clock)
    alice, bob, carol = (make_key(tmp_path, name) for name in ("alice", "bob", "carol"))
    with caplog.at_level(logging.INFO, logger="lagoon_tui"):
        assert [login(server, alice) for _ in range(2)] == ["in", "in"]
        for _ in range(4):  # alice tries on, again and again
            assert ssh.TOO_MANY_LOGINS in login(server, alice)
        # her refusals spent nothing of the address's five: her friends behind it get in
        assert [login(server, bob), login(server, bob), login(server, carol)] == ["in", "in", "in"]
    refusals = [r.getMessage() for r in caplog.records if r.getMessage().startswith("refused")]
    fingerprint = key_fingerprint(alice.with_suffix(".pub"))[:15]
    assert refusals == [f"refused 127.0.0.1 (key {fingerprint}) [--per-key]: {ssh.TOO_MANY_LOGINS}"] * 4
    # the address's own limit still holds, over every key: its sixth login is refused, whoever logs in
    dave = make_key(tmp_path, "dave")
    assert "Too many connections from 127.0.0.1" in login(server, dave)
    clock.now += 3600.0  # an hour later, all may log in again
    assert login(server, alice) == "in" and login(server, dave) == "in"
