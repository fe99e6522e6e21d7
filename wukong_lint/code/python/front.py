"""The `python` rule kind's entry point: the cheap tests of whether a rule can report anything
in a text, before the syntax-tree analysis (code_python.py) is even imported.

Importing code_python (with `ast`, the names it knows, the skeleton and string models) costs
~7 ms, and most Python files of a commit fail every rule's gates (python_gates.py) or lack
every rule's `requires_any` words: then nothing is parsed, and now nothing is imported
either. When some rule can report, code_python's own `prepare` and `match_python` run, and
ask the same questions (answered from the memos below).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from wukong_lint.code.python.gates import possible, wanted


def prepare(unit: Any, batch: list[tuple[Any, list[int] | None]]) -> None:
    """code_python.prepare, when some rule of the batch can report in the unit's text."""
    text = unit.text
    # (the cheap gates first: most files fail them, and then their words need no search)
    if not any(possible(rule, text) and wanted(rule, text) for rule, _ in batch):
        return
    from wukong_lint.code.python import matcher as code_python

    code_python.prepare(unit, batch)


def match_python(rule: Any, unit: Any, offsets: list[int] | None) -> Iterator[Any]:
    text = unit.text
    if not possible(rule, text) or not wanted(rule, text):
        return
    from wukong_lint.code.python import matcher as code_python

    yield from code_python.match_python(rule, unit, offsets)


match_python.prepare = prepare  # type: ignore[attr-defined]
