"""The Python code fixtures cut into statements, for differential and fuzz tests."""

from __future__ import annotations

import ast
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures" / "code"


def top_level_statements() -> list[str]:
    """Every top-level statement (decorators included) of the Python fixtures."""
    found = []
    for path in sorted(FIXTURES.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        lines = text.splitlines(keepends=True)
        for node in tree.body:
            first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
            found.append("".join(lines[first - 1 : node.end_lineno]))
    return found
