"""Shared test fixtures. Keep this small: most helpers belong in the test modules."""

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import settings

REPO_ROOT = Path(__file__).resolve().parents[1]

# Hypothesis gives each example 200 ms unless told otherwise; with no limit, a
# busy machine cannot fail a test (the tests that use it also say deadline=None).
settings.register_profile("lagoon", deadline=None)
settings.load_profile("lagoon")


@pytest.fixture
def repo_root() -> Path:
    """The checkout's top folder (where pyproject.toml lives)."""
    return REPO_ROOT


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A private copy of the shipped decks, for a test to break."""
    from rules.loader import default_content_dir

    target = tmp_path / "content"
    shutil.copytree(default_content_dir(), target)
    return target


@pytest.fixture(autouse=True, scope="session")
def _saved_games_in_a_scratch_folder(tmp_path_factory):
    """Every app and `lagoon` command the tests start saves its games in a scratch folder.

    The default database lives in the user's data folder; tests must never
    write there (and the apps of two tests running at once must not share it).
    Tests that need a particular database still pass `--db` or a `store`.
    """
    folder = tmp_path_factory.mktemp("xdg-data")
    old = os.environ.get("XDG_DATA_HOME")
    os.environ["XDG_DATA_HOME"] = str(folder)
    yield folder
    if old is None:
        os.environ.pop("XDG_DATA_HOME", None)
    else:
        os.environ["XDG_DATA_HOME"] = old


@pytest.fixture(autouse=True, scope="session")
def _crash_reports_in_a_scratch_folder(tmp_path_factory):
    """A test whose app fails writes its crash report (`lagoon_tui.crash`) in a scratch folder, never in
    the user's state folder (the tests of the reports point XDG_STATE_HOME at their own)."""
    folder = tmp_path_factory.mktemp("xdg-state")
    old = os.environ.get("XDG_STATE_HOME")
    os.environ["XDG_STATE_HOME"] = str(folder)
    yield folder
    if old is None:
        os.environ.pop("XDG_STATE_HOME", None)
    else:
        os.environ["XDG_STATE_HOME"] = old


def pytest_collection_modifyitems(config, items):
    """A test marked `turbo` measures the Textual internals layer (lagoon_tui/turbo): with the layer off
    (LAGOON_STOCK_TEXTUAL=1, or another Textual release) it is skipped, saying why."""
    from lagoon_tui import turbo

    if turbo.ON:
        return
    skip = pytest.mark.skip(reason="measures lagoon_tui.turbo, which is off here")
    for item in items:
        if item.get_closest_marker("turbo"):  # (not `keywords`: they hold the folders' names, a checkout's "turbo" too)
            item.add_marker(skip)
