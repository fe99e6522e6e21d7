"""`wukong-lint rules list` (sorted by id, columns as wide as their longest entry, or JSON)
and the "did you mean" of `rules show`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

SEVERITY_NAMES = ("low", "medium", "high", "critical")
COLUMNS = ("id", "category", "severity", "kind", "enabled")


def rows(rules: Sequence[Any]) -> list[dict[str, Any]]:
    return [
        {
            "id": rule.id,
            "category": rule.category,
            "severity": SEVERITY_NAMES[rule.severity - 1],
            "kind": rule.kind,
            "enabled": bool(rule.enabled),
        }
        for rule in sorted(rules, key=lambda r: r.id)
    ]


def engines(ruleset: Any, rules: Sequence[Any]) -> dict[str, Any]:
    """Which engine runs the listed regex rules: Hyperscan confirms a text may match before
    `regex` runs (engine/multimatch.py), or `regex` alone (a pattern Hyperscan cannot hold,
    or no Hyperscan: `why`)."""
    from wukong_lint.engine import multimatch

    listed = {id(rule) for rule in rules}
    regex_rules = [r for r in ruleset.rules if r.kind == "regex" and id(r) in listed]
    why = multimatch.unavailable()
    database = None if why is not None else ruleset.multimatch()
    covered = set() if database is None else {ruleset.rules[i].id for i in database.covered}
    on_regex = sorted(r.id for r in regex_rules if r.id not in covered)
    return {
        "hyperscan": len(regex_rules) - len(on_regex),
        "regex": len(on_regex),
        "regex_only": on_regex,
        "why": why or "",
        "engine": multimatch.engine_status(),
    }


def _engines_line(split: dict[str, Any]) -> str:
    if split["why"]:
        return f"regex rules: {split['regex']} on regex ({split['why']})\n"
    shown = ", ".join(split["regex_only"][:12]) + (", ..." if split["regex"] > 12 else "")
    return (
        f"regex rules: {split['hyperscan']} on hyperscan + regex ({split['engine']}), "
        f"{split['regex']} on regex alone" + (f": {shown}" if shown else "") + "\n"
    )


def render(rules: Sequence[Any], fmt: str = "text", split: dict[str, Any] | None = None) -> str:
    table = rows(rules)
    if fmt == "json":
        body: dict[str, Any] = {"rules": table}
        if split is not None:
            body["engines"] = split
        return json.dumps(body, ensure_ascii=False, indent=2) + "\n"
    cells = [[str(c).upper() for c in COLUMNS]]
    cells += [[*(str(r[c]) for c in COLUMNS[:-1]), "on" if r["enabled"] else "off"] for r in table]
    widths = [max(len(row[i]) for row in cells) for i in range(len(COLUMNS) - 1)]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row[:-1], widths, strict=True))
        + "  "
        + row[-1]
        for row in cells
    ]
    tail = (
        ""
        if split is None or not (split["hyperscan"] or split["regex"])
        else "\n" + _engines_line(split)
    )
    return "\n".join(lines) + "\n" + tail


def filtered(
    rules: Sequence[Any], categories: Sequence[str], kinds: Sequence[str], enabled: bool | None
) -> list[Any]:
    """`rules list --category C --kind K --enabled/--disabled`: the rules of any named
    category and any named kind (all when none is named), on or off as asked. A category or
    kind no loaded rule has is an error with the closest name."""
    import difflib

    from wukong_lint.util.errors import UsageError

    for option, wanted, field in (
        ("--category", categories, "category"),
        ("--kind", kinds, "kind"),
    ):
        known = sorted({getattr(rule, field) for rule in rules})
        for name in wanted:
            if name not in known:
                close = difflib.get_close_matches(name, known, n=1)
                hint = f"did you mean '{close[0]}'?" if close else f"known: {', '.join(known)}"
                raise UsageError(f"rules list: {option}: no rule has {field} {name!r} ({hint})")
    return [
        rule
        for rule in rules
        if (not categories or rule.category in categories)
        and (not kinds or rule.kind in kinds)
        and (enabled is None or bool(rule.enabled) == enabled)
    ]


def unknown_rule(rule_id: str, ids: Sequence[str]) -> str:
    """The error for `rules show` of an id no rule has, with the closest ids."""
    import difflib

    # a prefix or a category names its rules first; else the ids spelt most alike
    close = sorted(i for i in ids if i.startswith(rule_id))[:3]
    close = close or difflib.get_close_matches(rule_id, ids, n=3, cutoff=0.7)
    if not close:
        return f"rules show: unknown rule {rule_id!r} (see `wukong-lint rules list`)"
    quoted = " or ".join(f"'{c}'" for c in close)
    return f"rules show: unknown rule {rule_id!r}: did you mean {quoted}?"
