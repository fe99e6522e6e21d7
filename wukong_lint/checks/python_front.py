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

from wukong_lint.checks.python_gates import GATES

_lowered: list[Any] = [None, "", {}]  # (text, text.lower(), {requires_any: found})
_FINDERS: dict[tuple[str, ...], Any] = {}
_gated: list[Any] = [None, {}]  # (text, {check: possible})


def lower(text: str) -> str:
    """`text.lower()`, computed once per text for all the rules and checks that ask."""
    if _lowered[0] is not text:
        _lowered[0], _lowered[1], _lowered[2] = text, text.lower(), {}
    return _lowered[1]  # type: ignore[no-any-return]


def wanted(rule: Any, text: str) -> bool:
    """A rule whose `requires_any` words are all missing from the text has nothing to find."""
    requires = (rule.params or {}).get("requires_any")
    if not requires:
        return True
    lowered = lower(text)
    key = tuple(requires)
    known = _lowered[2].get(key)
    if known is None:  # rules share their lists of words: each list is looked for once
        finder = _FINDERS.get(key)
        if finder is None:  # one automaton pass instead of a scan of the text per word
            import ahocorasick_rs

            finder = _FINDERS[key] = ahocorasick_rs.AhoCorasick(list(requires))
        try:
            known = bool(finder.find_matches_as_indexes(lowered))
        except UnicodeEncodeError:  # lone surrogates: the plain way
            known = any(word in lowered for word in requires)
        _lowered[2][key] = known
    return known  # type: ignore[no-any-return]


def possible(rule: Any, text: str) -> bool:
    """False when a cheap look at the text proves that the rule's check cannot report anything
    in it (python_gates.py), on the syntax tree or by the line patterns."""
    check = (rule.params or {}).get("check", "")
    gate = GATES.get(check)
    if gate is None:
        return True
    if _gated[0] is not text:
        _gated[0], _gated[1] = text, {}
    known = _gated[1].get(check)
    if known is None:
        known = _gated[1][check] = gate(text)
    return known  # type: ignore[no-any-return]


def prepare(unit: Any, batch: list[tuple[Any, list[int] | None]]) -> None:
    """code_python.prepare, when some rule of the batch can report in the unit's text."""
    text = unit.text
    # (the cheap gates first: most files fail them, and then their words need no search)
    if not any(possible(rule, text) and wanted(rule, text) for rule, _ in batch):
        return
    from wukong_lint.checks import code_python

    code_python.prepare(unit, batch)


def match_python(rule: Any, unit: Any, offsets: list[int] | None) -> Iterator[Any]:
    text = unit.text
    if not possible(rule, text) or not wanted(rule, text):
        return
    from wukong_lint.checks import code_python

    yield from code_python.match_python(rule, unit, offsets)


match_python.prepare = prepare  # type: ignore[attr-defined]
