"""Fixtures of the SSH layer's tests: servers on threads of their own, clients, a player's key."""

from __future__ import annotations

import pytest

from tests.helpers.harness import Client, ServerThread, make_key


def starter(make, finish):
    """A fixture's body: gives a function that makes things with `make`, then `finish`es each at the end."""
    made = []

    def start(*args, **options):
        made.append(make(*args, **options))
        return made[-1]

    yield start
    for thing in made:
        finish(thing)


@pytest.fixture
def servers(tmp_path):
    """`servers(folder=tmp_path, **options)` starts a server; each is stopped at the end."""
    yield from starter(lambda folder=None, **options: ServerThread(folder or tmp_path, **options), ServerThread.stop)


@pytest.fixture
def clients():
    """`clients(argv)` starts a client; any still running at the end is killed."""
    yield from starter(Client, Client.kill)


@pytest.fixture
def key(tmp_path):
    return make_key(tmp_path, "player_key")
