"""Fixtures for every test of the app."""

import pytest

from lagoon_tui.widgets import svg


@pytest.fixture(autouse=True)
def _drawn_for_a_terminal(monkeypatch):
    """Each test starts with the panels drawn for a terminal, and gets the setting back as it was after.

    `stills.py` turns `SVG_SPACES` on for the SVG pictures it makes
    and never turns it off: without this, every test run after a snapshot in
    the same process would get strips cut up for SVG (`detach_spaces`), and
    pass or fail by the order the tests happened to run in.
    """
    monkeypatch.setattr(svg, "SVG_SPACES", False)
