"""Textual's private parts are reached only from lagoon_tui/turbo (issue 18): the rest of the app uses its public API.

A private part is a name with a leading underscore that Textual defines: a
module (`textual._compositor`), a method or an attribute. Outside the turbo
layer no module of the app may import one, override one in a class of its
own, read or set one on `self` when a Textual class it derives from has it,
or reach one on any other object. Names the app gives its own classes are its
own business, unless they shadow one of Textual's.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import textual

import lagoon_tui

APP_DIR = Path(lagoon_tui.__file__).parent
LAYER = APP_DIR / "turbo"


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def textual_private_names() -> set[str]:
    """Every private method, attribute or module-level name that Textual's own source defines."""
    names: set[str] = set()
    for path in Path(textual.__file__).parent.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
    return {name for name in names if private(name)}


def app_sources() -> list[Path]:
    return sorted(path for path in APP_DIR.rglob("*.py") if LAYER not in path.parents)


def private_on_self(tree: ast.AST) -> set[str]:
    """The private names the code in `tree` reads or sets on `self`."""
    return {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
        and private(node.attr)
    }


def textual_bases(cls: type) -> list[type]:
    return [base for base in cls.__mro__ if base.__module__.split(".")[0] == "textual"]


def names_of_textual_bases(cls: type) -> set[str]:
    """The private names a class gets from Textual: its Textual bases' own, and what their code sets on self."""
    names: set[str] = set()
    for base in textual_bases(cls):
        names.update(name for name in vars(base) if private(name))
        try:
            tree = ast.parse(inspect.getsource(base).lstrip())
        except (OSError, TypeError, IndentationError):
            continue
        names.update(private_on_self(tree))
    return names


def app_classes() -> list[type]:
    classes = []
    for info in pkgutil.walk_packages([str(APP_DIR)], "lagoon_tui."):
        if info.name.startswith("lagoon_tui.turbo") or info.name == "lagoon_tui.__main__":
            continue
        module = importlib.import_module(info.name)
        classes += [
            value for value in vars(module).values() if inspect.isclass(value) and value.__module__ == module.__name__
        ]
    return classes


def test_no_module_outside_the_layer_imports_a_private_textual_module():
    found = []
    for path in app_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            modules = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module]
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
                else []
            )
            found += [
                f"{path.relative_to(APP_DIR)}:{node.lineno} {m}"
                for m in modules
                if m.split(".")[0] == "textual" and any(private(part) for part in m.split("."))
            ]
    assert found == []


def test_no_class_outside_the_layer_overrides_or_touches_a_private_part_of_textual_on_self():
    found = []
    for cls in app_classes():
        if not textual_bases(cls):
            continue
        theirs = names_of_textual_bases(cls)
        tree = ast.parse(inspect.getsource(cls).lstrip())
        body = tree.body[0].body  # what the class's own source defines (not what Textual's metaclass adds)
        ours = {node.name for node in body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
        ours |= {
            target.id
            for node in body
            if isinstance(node, (ast.Assign, ast.AnnAssign))
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            if isinstance(target, ast.Name)
        }
        found += [f"{cls.__module__}.{cls.__qualname__} overrides {name}" for name in sorted(ours & theirs)]
        touched = private_on_self(tree)
        found += [f"{cls.__module__}.{cls.__qualname__} uses self.{name}" for name in sorted(touched & theirs)]
    assert found == []


STANDARD_MODULES = ("os", "sys")
"""Python's own modules, whose few public names starting with "_" (`os._exit`) are not Textual's."""


def test_no_module_outside_the_layer_reaches_a_private_part_of_textual_on_another_object():
    theirs = textual_private_names()
    ours: set[str] = set()  # private names the app defines for itself (its own attributes and methods)
    uses = []
    for path in app_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                ours.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                ours.add(node.attr)
            elif isinstance(node, (ast.Name, ast.arg)) and isinstance(getattr(node, "ctx", ast.Store()), ast.Store):
                ours.add(node.id if isinstance(node, ast.Name) else node.arg)
            if (
                isinstance(node, ast.Attribute)
                and private(node.attr)
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls", *STANDARD_MODULES))
            ):
                uses.append((node.attr, f"{path.relative_to(APP_DIR)}:{node.lineno} .{node.attr}"))
    assert [where for name, where in uses if name in theirs and name not in ours] == []


def test_the_layer_is_on_only_for_the_textual_it_was_written_for(monkeypatch, tmp_path):
    """LAGOON_STOCK_TEXTUAL=1 turns it all off (how `make test` runs the app's tests on stock Textual), a list
    of pieces those pieces only (how each piece's gain is measured)."""
    from lagoon_tui import turbo

    monkeypatch.delenv(turbo.SWITCH, raising=False)
    assert turbo.installed_textual() == turbo.TEXTUAL == textual.__version__  # (its quick look agrees)
    with monkeypatch.context() as elsewhere:  # installed in a way that leaves no dist-info beside it
        elsewhere.setattr(textual, "__file__", str(tmp_path / "textual" / "__init__.py"))
        elsewhere.setattr(textual, "__version__", "0.0.1")
        assert turbo.installed_textual() == "0.0.1"
    assert all(turbo.on(piece) == (textual.__version__ == turbo.WRITTEN_FOR) for piece in turbo.PIECES)
    monkeypatch.setattr(turbo, "TEXTUAL", turbo.WRITTEN_FOR)
    for switch, off in [
        ("1", set(turbo.PIECES)),
        ("yes", set(turbo.PIECES)),
        ("0", set()),
        ("", set()),
        ("compositor", {"compositor"}),
        ("sizes, framing", {"sizes", "framing"}),
        ("keyboard", {"keyboard"}),  # (a guard: only its own name turns it off)
        ("keyboard,title", {"keyboard", "title"}),
    ]:
        monkeypatch.setenv(turbo.SWITCH, switch)
        assert {piece for piece in turbo.PIECES + turbo.GUARDS if not turbo.on(piece)} == off, switch
    monkeypatch.setattr(turbo, "TEXTUAL", "0.0.1")
    monkeypatch.setenv(turbo.SWITCH, "0")
    assert not any(turbo.on(piece) for piece in turbo.PIECES)
    assert all(turbo.on(piece) for piece in turbo.GUARDS)  # (a guard checks the release for itself: turbo/keyboard.py)
