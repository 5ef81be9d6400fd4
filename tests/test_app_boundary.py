"""The app (lagoon_tui) talks to the rules through the seat message and the host, nothing else.

A screen draws from its seat's message (`rules.seat`); the game, the saved
games and the decks come from the host (`rules.host`). Each module's
`__all__` is the whole of what the app may take from it. The app never holds
the engine or its state, and never reads or writes an option id's spelling:
an option says what it is about (`Choice.refers`). That the app imports no
other module of `rules` is a contract of `lint-imports` (pyproject.toml,
"app-seat-boundary"); which names it takes from the two, and the rest, a
contract cannot say: an AST walk of every module of lagoon_tui holds it to
that; the same walk is run on the ways the app used to break it, so it cannot
pass by finding nothing.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import rules.host
import rules.seat
from rules.seat import _READERS
from tests.helpers.source import docstrings

APP_DIR = Path(__file__).resolve().parents[1] / "lagoon_tui"
ALLOWED = {"rules.seat": set(rules.seat.__all__), "rules.host": set(rules.host.__all__)}
HELD = {"engine", "chronicle", "state", "events"}  # what the app would reach the engine's insides through
ID_START = re.compile(r"(?<![\w])(?:" + "|".join(sorted(_READERS)) + r"):")
TAKING_APART = {"split", "rsplit", "partition", "rpartition", "removeprefix", "removesuffix", "startswith"}


def offences(source: str) -> list[str]:
    """Each thing in one module of the app that crosses the boundary, as "line N: what"."""
    tree = ast.parse(source)
    words = docstrings(tree)
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in ALLOWED:
            allowed = ALLOWED[node.module]
            found += [
                f"line {line}: {node.module}.{a.name} (not exported)" for a in node.names if a.name not in allowed
            ]
        elif isinstance(node, ast.Call):
            called = node.func
            name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
            if name in ("__import__", "import_module"):
                found.append(f"line {line}: {name}() imports around the boundary")
            elif name in TAKING_APART and isinstance(called, ast.Attribute):
                target = called.value
                if (
                    isinstance(target, ast.Attribute)
                    and target.attr == "id"
                    or getattr(target, "id", "") == "option_id"
                ):
                    found.append(f"line {line}: an option id taken apart with .{name}()")
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "id":
            found.append(f"line {line}: an option id cut up")
        elif isinstance(node, ast.Attribute) and node.attr in HELD and isinstance(node.ctx, ast.Load):
            found.append(f"line {line}: .{node.attr} (the engine's own, behind the host)")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in words:
            if ID_START.search(node.value):
                found.append(f"line {line}: {node.value!r} writes an option id")
    return found


def app_modules() -> dict[str, str]:
    top = APP_DIR.parent
    return {str(path.relative_to(top)): path.read_text(encoding="utf-8") for path in sorted(APP_DIR.rglob("*.py"))}


def test_the_app_takes_from_the_rules_only_the_seat_message_and_the_host():
    modules = app_modules()
    assert "lagoon_tui/screens/game.py" in modules and len(modules) > 30, "walked no app"
    found = {path: offences(source) for path, source in modules.items()}
    assert {path: what for path, what in found.items() if what} == {}


def test_the_app_does_use_both():
    """(So the walk above looks at modules that do talk to the rules.)"""
    sources = "\n".join(app_modules().values())
    assert "from rules.seat import" in sources and "from rules.host import" in sources


def test_the_check_catches_each_way_the_app_used_to_reach_past_the_boundary():
    """Lines the app held before the boundary (session 14 and earlier), each of which must be caught (its imports
    of other modules of `rules`, such as `from rules.state import GameState`, by the contract)."""
    old_ways = {
        "from rules.seat import _READERS": "not exported",
        "from rules.host import Engine": "not exported",
        "self.call_later(self._show_end, host.engine)": ".engine",
        "if engine.state.phase == 'over': pass": ".state",
        "ReplayScreen(engine.content, list(engine.events))": ".events",
        "head, _, rest = choice.id.partition(':')": "taken apart",
        "if option.id.startswith('equipment:'): pass": "taken apart",
        "x = f'do:{island}:{action}'": "writes an option id",
        "x = choice.id[4:]": "cut up",
        "importlib.import_module('rules.view')": "imports around",
    }
    for line, why in old_ways.items():
        caught = offences(line)
        assert any(why in each for each in caught), (line, caught)
    assert (
        offences('"""A docstring may say island:3."""\nfrom rules.seat import Content\nx = scene.view["round"]') == []
    )
