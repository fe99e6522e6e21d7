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


# Inline allow comments of other scanners, honoured when the config lists them
# (`allow-comments`): name -> (marker on the finding's line, marker on the line before).
FOREIGN_MARKERS: dict[str, tuple[str | None, str | None]] = {
    "gitleaks": ("gitleaks:allow", None),
    "detect-secrets": ("pragma: allowlist secret", "pragma: allowlist nextline secret"),
}


def foreign_allowed(text: str, line_start: int, names: tuple[str, ...]) -> bool:
    """Whether the line starting at offset `line_start` of `text` (or the line before it)
    carries an allow comment of one of the scanners `names`."""
    end = text.find("\n", line_start)
    line = text[line_start : end if end >= 0 else len(text)].lower()
    previous = None
    for name in names:
        same, before = FOREIGN_MARKERS[name]
        if same and same in line:
            return True
        if before:
            if previous is None:
                start = text.rfind("\n", 0, max(0, line_start - 1)) + 1
                previous = text[start : max(start, line_start - 1)].lower()
            if before in previous:
                return True
    return False
