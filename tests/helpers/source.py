"""Reading the project's own source: what the boundary tests walk."""

from __future__ import annotations

import ast


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the nodes that are docstrings (words, not code): a check of code leaves them be."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found
