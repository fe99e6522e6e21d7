"""`.wukong/context/dcp-config.yaml` against the keys of seed 000's DCP configuration (kind
`dcp-config`, category `context`): unknown keys (with the nearest known one), values of the
wrong type or out of range, a file that is not valid YAML or not a mapping. A misspelt key
is silently ignored by the tool that reads the file, so the pruning the team configured
never happens.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from typing import Any

from wukong_lint.engine.matchers import Hit
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.model import Unit

_TYPES: dict[str, Any] = {"bool": bool, "int": int, "ratio": float, "list": list, "str": str}
_NAMES = {bool: "true or false", int: "a whole number", float: "a number", list: "a list",
          str: "a string"}  # fmt: skip


def _merge(into: dict[str, Any], table: dict[str, Any]) -> None:
    for key, value in table.items():
        if isinstance(value, dict):
            _merge(into.setdefault(key, {}), value)
        else:
            into.setdefault(key, _TYPES[value])


_SCHEMA: list[dict[str, Any]] = []


def schema() -> dict[str, Any]:
    """Key -> a type, or a nested table: the DCP configuration's keys of every protocol
    version (`dcp-config` in rules/protocol/*.yaml; upstream's template at each commit), so a
    file written for any version is read without an unknown key."""
    if not _SCHEMA:
        from wukong_lint.protocol.versions import versions

        merged: dict[str, Any] = {}
        for version in versions().values():
            _merge(merged, version.dcp_config)
        _SCHEMA.append(merged)
    return _SCHEMA[0]


def _problems(data: Any, schema: dict[str, Any], where: str) -> Iterator[tuple[str, str]]:
    """(key, problem) for each problem of `data` against `schema`."""
    if not isinstance(data, dict):
        yield where or "dcp", "is not a mapping"
        return
    for key, value in data.items():
        name = str(key)
        path = f"{where}.{name}" if where else name
        expected = schema.get(name)
        if expected is None:
            near = difflib.get_close_matches(name, list(schema), n=1, cutoff=0.6)
            hint = f" (did you mean {near[0]}?)" if near else ""
            yield name, f"unknown key {path}{hint}"
        elif isinstance(expected, dict):
            yield from _problems(value, expected, path)
        elif expected is float:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                yield name, f"{path} must be {_NAMES[float]}"
            elif not 0 <= value <= 1:
                yield name, f"{path} must be between 0 and 1"
        elif expected is int:
            if isinstance(value, bool) or not isinstance(value, int):
                yield name, f"{path} must be {_NAMES[int]}"
            elif value < 0:
                yield name, f"{path} must not be negative"
        elif not isinstance(value, expected):
            yield name, f"{path} must be {_NAMES[expected]}"


def _at(text: str, key: str, start: int = 0) -> Hit:
    found = re.search(rf"(?m)^[ \t-]*{re.escape(key)}[ \t]*:", text[start:])
    if found is None:
        return Hit(0, 0, 0, 0)
    begin = start + found.start()
    end = text.find("\n", begin)
    end = len(text) if end < 0 else end
    return Hit(begin, end, begin, end)


def match_dcp_config(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    import yaml

    try:
        data = yaml.safe_load(unit.text)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = f" (line {mark.line + 1})" if mark is not None else ""
        yield Hit(0, 0, 0, 0, f"not valid YAML{line}")
        return
    if data is None:
        return  # an empty file configures nothing
    for key, problem in _problems(data, schema(), ""):
        hit = _at(unit.text, key)
        yield hit._replace(note=problem)
