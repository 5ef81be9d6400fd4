"""Editing a private copy of the shipped decks, one exact passage at a time."""

from __future__ import annotations

from pathlib import Path


def edit(directory: Path, file: str, old: str, new: str) -> None:
    """Replace one exact, unique passage, so a test cannot silently edit the wrong card."""
    path = directory / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not unique in {file}"
    path.write_text(text.replace(old, new), encoding="utf-8")
