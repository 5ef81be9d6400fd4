"""Every place the type checker is told to look away says which check and why, on its own line."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IGNORE = re.compile(r"#\s*type:\s*ignore(?P<codes>\[[^\]]+\])?(?P<after>.*)$")


def bare(line: str) -> str | None:
    """What is missing from the ignore on `line`, if anything: the codes, or a reason after it."""
    found = IGNORE.search(line)
    if found is None:
        return None
    if not found["codes"]:
        return "names no check"
    if not re.match(r"\s*#\s*\S", found["after"]):
        return "gives no reason"
    return None


def test_every_type_ignore_names_its_check_and_gives_a_reason():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {problem}"
        for folder in ("rules", "lagoon_tui")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if (problem := bare(line))
    ]
    assert not found, "\n".join(found)


def test_the_check_tells_a_bare_ignore_from_one_with_its_reason():
    assert bare("x = y  # type: ignore") == "names no check"
    assert bare("x = y  # type: ignore[assignment]") == "gives no reason"
    assert bare("x = y  # type: ignore[assignment]  # (y is set by then)") is None
    assert bare("x = y  # an ordinary comment") is None
