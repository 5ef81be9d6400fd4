"""The tests' own layout: what they share lives in tests/helpers, imported one way, and no test module
imports another (a test module is free to change without breaking a second one)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SHARED = {"__init__.py", "conftest.py"}


def modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "__snapshots__" not in p.parts)


def imported(path: Path) -> list[tuple[int, str]]:
    """Every module `path` imports, with its line, written as it is written (a relative one with its dots)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            found.append((node.lineno, "." * node.level + (node.module or "")))
            if node.module in ("tests", "tests.helpers") or node.level:
                found += [(node.lineno, f"{'.' * node.level}{node.module or ''}.{a.name}") for a in node.names]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
    return found


def problems(path: Path, tests: Path = TESTS) -> list[str]:
    where = path.relative_to(tests.parent)
    found = []
    for line, name in imported(path):
        parts = name.lstrip(".").split(".")
        if name.startswith("."):
            found.append(f"{where}:{line} imports {name} relatively: write tests.helpers.<module>")
        elif any(part.startswith("test_") for part in parts):
            found.append(f"{where}:{line} imports the test module {name}")
        elif parts[0] == "tests" and (parts[1:2] != ["helpers"] or len(parts) < 3):
            found.append(f"{where}:{line} imports {name}: write from tests.helpers.<module> import ...")
        elif parts[0] != "tests" and (tests / "helpers" / f"{parts[0]}.py").exists():
            found.append(f"{where}:{line} imports the helper {name} bare: write tests.helpers.{name}")
    helper = path.parent.name == "helpers"
    if not helper and path.name not in SHARED and not path.name.startswith("test_"):
        found.append(f"{where} shares code outside tests/helpers (or is a test module not named test_*)")
    return found


def test_tests_import_their_helpers_one_way_and_never_each_other():
    found = [problem for path in modules() for problem in problems(path)]
    assert not found, "\n".join(found)


def test_the_check_finds_each_way_of_breaking_the_layout(tmp_path: Path):
    """The check above run on modules that break the layout each once (so it cannot pass by seeing nothing)."""
    cases = {
        "from .test_hand_over import ana_and_ben": "relatively",
        "from tests.tui.test_hand_over import ana_and_ben": "the test module",
        "from tests.test_results import player": "the test module",
        "from tests.tui import drive": "write from tests.helpers.<module>",
        "from tests.helpers import drive": "write from tests.helpers.<module>",
        "from scenario import act": "bare",
        "import test_content": "the test module",
    }
    tests = tmp_path / "tests"
    (tests / "helpers").mkdir(parents=True)
    (tests / "helpers" / "scenario.py").write_text("X = 1\n", encoding="utf-8")
    (tests / "tui").mkdir()
    for n, (source, said) in enumerate(cases.items()):
        path = tests / "tui" / f"test_case_{n}.py"
        path.write_text(source + "\n", encoding="utf-8")
        assert any(said in problem for problem in problems(path, tests)), source
    loose = tests / "shared_here.py"
    loose.write_text("X = 1\n", encoding="utf-8")
    assert any("outside tests/helpers" in problem for problem in problems(loose, tests))
    fine = tests / "tui" / "test_fine.py"
    fine.write_text("from tests.helpers.scenario import X\n", encoding="utf-8")
    assert problems(fine, tests) == []
