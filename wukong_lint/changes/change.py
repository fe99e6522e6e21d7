"""The `change` rule kind: checks of a staged change or a commit range as a whole.

A `change` unit (made by sources/git.py for `check --staged` and `check --diff`, never for
folder scans or history) holds the paths the change touches, one a line: added, modified,
deleted and renamed files alike. `max_files` is the largest number of them that passes; a
larger change is reported once, on the unit's first line, with the count in the message.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from wukong_lint.engine.matchers import Hit
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.model import Unit


def changed_paths(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def match_change(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    params = rule.params or {}
    limit = params.get("max_files", 10)
    count = len(changed_paths(unit.text))
    if count <= limit:
        return
    text = unit.text
    end = text.find("\n")
    end = len(text) if end < 0 else end
    yield Hit(0, end, 0, end, note=f"{count} files changed, limit {limit}")
