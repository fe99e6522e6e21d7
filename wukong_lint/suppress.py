"""Inline suppression: `wukong-lint: ignore` or `wukong-lint: ignore[RULE_ID, category, ...]`."""

from __future__ import annotations

import re

MARKER = "wukong-lint:"
_IGNORE = re.compile(r"wukong-lint:\s*ignore(?:\[([^\]]*)\])?", re.IGNORECASE)


def parse_ignore(line: str) -> tuple[str, ...] | None:
    """None when the line has no ignore comment; () for a bare ignore; else the names given."""
    if MARKER not in line.lower():
        return None
    match = _IGNORE.search(line)
    if match is None:
        return None
    if match.group(1) is None:
        return ()
    return tuple(n.strip() for n in match.group(1).split(",") if n.strip())


def covers(names: tuple[str, ...], rule_id: str, category: str) -> bool:
    """A bare ignore covers everything; a name covers its rule id, its category or an id prefix."""
    if not names:
        return True
    for name in names:
        if name in (rule_id, category) or rule_id.startswith(name.rstrip(".") + "."):
            return True
    return False
