"""The `weakening` rule kind: a commit range that turns the scan of security findings down.

A `weakening` unit (sources/weakening.py, made by `check --diff` for the range it scans)
holds one line per change the range makes to the scan's own setup, a verb and its subject:

    ignore NAME                  the config's `ignore` gains NAME (a rule, category or prefix)
    unselect CATEGORY            `select` no longer covers CATEGORY
    per-path-ignore NAME GLOB    `per-path-ignores` gains NAME for GLOB
    builtin-rules off            `builtin-rules: false`
    fail-on SEVERITY             `fail-on` raised to SEVERITY
    rule-params RULE KEY         a rule's settings changed (severity lowered, turned off...)
    allow-comments TOOL          another scanner's allow comments now suppress findings
    baseline RULE PATH           a baseline entry added
    inline-ignore RULE PATH      a `wukong-lint: ignore` comment on an added line hides RULE

The matcher decides which lines weaken *security* scanning: those whose subject is one of
the rule's `categories` (a rule id counts by its category, `all`/`*` and category prefixes
by every category they cover); `builtin-rules off` and a raised `fail-on` always do.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from wukong_lint.engine.matchers import Hit
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.model import Unit

ALWAYS = frozenset({"builtin-rules", "fail-on"})
DEFAULT_CATEGORIES = (
    "secret",
    "dangerous-command",
    "sensitive-path",
    "guard-integrity",
    "injection",
    "info-leak",
)


def categories_of(name: str, known: tuple[str, ...]) -> set[str]:
    """The categories a selection name reaches (`secret`, `secret.jwt`, `sec`, `*`)."""
    if name in ("all", "*"):
        return set(known)
    category = name.split(".", 1)[0]
    if "." in name or category in known:
        return {category}
    return {c for c in known if c.startswith(name)}


def weakens(line: str, params: dict[str, Any]) -> bool:
    words = line.split()
    if not words:
        return False
    verb, subject = words[0], words[1] if len(words) > 1 else ""
    if verb in ALWAYS:
        return True
    security = tuple(params.get("categories") or DEFAULT_CATEGORIES)
    if verb == "allow-comments":
        reached = set((params.get("comment_categories") or {}).get(subject, ()))
    else:
        from wukong_lint.model import CATEGORIES

        reached = categories_of(subject, tuple(CATEGORIES))
    return bool(reached & set(security))


def match_weakening(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    params = rule.params or {}
    start = 0
    text = unit.text
    while start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line = text[start:end]
        if line.strip() and weakens(line, params):
            yield Hit(start, end, start, end, note=line.strip())
        start = end + 1
