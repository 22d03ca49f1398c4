"""The app's code stays readable: no function over 60 lines, no class over 400."""

from __future__ import annotations

import ast
from pathlib import Path

import karavan_tui

MOST_LINES = {ast.FunctionDef: 60, ast.AsyncFunctionDef: 60, ast.ClassDef: 400}


def oversized(root: Path) -> list[str]:
    """Each function or class under ``root`` longer than its kind may be, with its length."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            most = MOST_LINES.get(type(node))
            if most is None:
                continue
            assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            assert node.end_lineno is not None
            lines = node.end_lineno - node.lineno + 1
            if lines > most:
                found.append(f"{path.relative_to(root.parent)}:{node.lineno} {node.name} {lines}")
    return found


def test_no_function_or_class_of_the_app_is_too_long():
    assert oversized(Path(karavan_tui.__file__).parent) == []
