"""Shared test fixtures. Keep this small: most helpers belong in the test modules."""
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def repo_root() -> Path:
    """The checkout's top folder (where pyproject.toml lives)."""
    return REPO_ROOT
