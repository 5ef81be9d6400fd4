"""The computer players (rules/bots) read their seat's message and the engine's public API, nothing else.

A bot is a client of the seat message, as a screen or a remote seat is: it may
import `rules.seat`, the printed content (`rules.cards`) and the names the
`rules` package exports (`rules.__all__`), and must pick options by what they
are about (`Choice.refers`), never by writing an option id or taking one apart.
Which modules they import is a contract of `lint-imports` (pyproject.toml,
"bots-read-the-seat"). What a contract cannot say (which names they take from
`rules`, no private ones, no option id) an AST walk of every module of
rules/bots holds them to; the same walk is run on the ways the bot used to
break it, so it cannot pass by finding nothing.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import rules
from rules.seat import _READERS
from tests.helpers.source import docstrings

BOTS_DIR = Path(__file__).resolve().parents[1] / "rules" / "bots"
ALLOWED_MODULES = {"rules.seat", "rules.cards"}  # what they import besides `rules` (its __all__) and rules.bots
PUBLIC = set(rules.__all__)
ID_HEADS = sorted(_READERS)  # the first part of the engine's option ids ("island", "do", "place"...)
ID_START = re.compile(r"(?<![\w])(?:" + "|".join(ID_HEADS) + r"):")
TAKING_APART = {"split", "rsplit", "partition", "rpartition", "removeprefix", "removesuffix"}


def _imported(node: ast.ImportFrom, package: str) -> str:
    """The absolute name of the module an import names (`from ..seat import x` in rules.bots -> rules.seat)."""
    if node.level == 0:
        return node.module or ""
    base = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def offences(source: str, package: str = "rules.bots") -> list[str]:
    """Each thing in one module's source that breaks the bots' contract, as "line N: what"."""
    tree = ast.parse(source)
    words = docstrings(tree)
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.ImportFrom):
            module = _imported(node, package)
            if module == "rules":
                found += [f"line {line}: rules.{a.name} (not exported)" for a in node.names if a.name not in PUBLIC]
            elif module in ALLOWED_MODULES:
                found += [f"line {line}: {module}.{a.name} (private)" for a in node.names if a.name.startswith("_")]
        elif isinstance(node, ast.Call):
            called = node.func
            name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
            if name in TAKING_APART:
                found.append(f"line {line}: .{name}() takes a string apart")
            elif name in ("startswith", "endswith") and any(":" in str(getattr(a, "value", "")) for a in node.args):
                found.append(f"line {line}: .{name}() reads an id's spelling")
            elif name in ("__import__", "import_module"):
                found.append(f"line {line}: {name}() imports around the contract")
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "id":
            found.append(f"line {line}: an option id cut up")
        elif isinstance(node, ast.Attribute) and node.attr == "label":
            found.append(f"line {line}: an option's label read (its words are for people)")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in words:
            if ID_START.search(node.value):
                found.append(f"line {line}: {node.value!r} writes an option id")
        elif isinstance(node, ast.JoinedStr):
            parts = node.values
            for before, after in zip(parts, parts[1:]):
                if isinstance(after, ast.Constant) and isinstance(before, ast.FormattedValue):
                    if str(after.value).startswith((":", "+")):
                        found.append(f"line {line}: an f-string joins parts with {after.value[0]!r}, as ids do")
    return found


def bot_modules() -> dict[Path, str]:
    """Each module of rules/bots, by its path from the top of the checkout."""
    top = BOTS_DIR.parent.parent
    return {path.relative_to(top): path.read_text(encoding="utf-8") for path in sorted(BOTS_DIR.rglob("*.py"))}


def test_the_bots_use_only_the_seat_message_and_the_public_api():
    modules = bot_modules()
    assert Path("rules/bots/heuristic.py") in modules and len(modules) >= 3, "walked no bot"
    levels = ("levels.py", "search.py", "worlds.py", "forecast.py")  # the levels and the hard player's parts
    assert {Path("rules/bots", name) for name in levels} <= set(modules), "walked not every level"
    found = {str(path): offences(source, ".".join(path.parent.parts)) for path, source in modules.items()}
    assert {path: what for path, what in found.items() if what} == {}


def test_the_bots_read_the_seat_message():
    """(So the walk above looks at modules that do talk to the engine.)"""
    sources = "\n".join(bot_modules().values())
    assert "from rules.seat import" in sources and "from rules import" in sources


def test_the_check_catches_each_way_the_bot_used_to_break_the_contract():
    """Lines of the bot before it read the seat message (rules/bot.py), each of which must be caught (its imports
    of the engine's modules, such as `from rules.choose import merchant_cost`, by the contract)."""
    old_ways = {
        "from rules import Engine, codec": "rules.codec (not exported)",
        "from rules.seat import _READERS": "private",
        "x = f'island:{n}'": "writes an option id",
        "x = f'mine:{c}:{lv}:{n}'": "writes an option id",
        "x = 'give:' + '+'.join(given)": "writes an option id",
        "x = f'{island}:{action}'": "joins parts with ':'",
        "x = int(i.split(':')[1])": "takes a string apart",
        "_, island, action = option.partition(':')": "takes a string apart",
        "x = i.startswith('place:')": "writes an option id",
        "x = chosen.endswith(':depart_island')": "reads an id's spelling",
        "x = choice.id[4:]": "an option id cut up",
        "x = choice.label == 'Done'": "label read",
    }
    for line, why in old_ways.items():
        caught = offences(line, package="rules")  # (as the bot was, in rules/)
        assert any(why in each for each in caught), (line, caught)
    assert offences('"""A docstring may say island:3."""\nx = ("done", "workers", {"a": 1})') == []
