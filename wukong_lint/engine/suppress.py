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


# `allow-comments` names that are not line markers of secret scanners: `bandit` honours
# bandit's `# nosec`, `ruff` ruff's noqa comments with S codes (S608: its port of bandit's
# B608) on the code rules (categories NOSEC_CATEGORIES).
ALLOW_COMMENT_NAMES = (*FOREIGN_MARKERS, "bandit", "ruff")
NOSEC_CATEGORIES = frozenset({"injection", "info-leak"})
# patterns as text: compiled (and cached by `re`) on first use, not on every pre-commit run
_NOSEC = r"(?i)#\s*nosec\b:?([^#]*)"
_BANDIT_WORD = r"b\d{3}|[a-z][a-z0-9]*(?:_[a-z0-9]+)+"  # a test id (b608) or name


def nosec_allowed(
    line: str, tags: tuple[str, ...], ruff: bool = False, bandit: bool = True
) -> bool:
    """Whether `line` has a bandit `# nosec` comment that covers a rule with these tags.

    A bare `# nosec` (or one whose words name no bandit test) covers every code rule, as in
    bandit; `# nosec B602, B608` covers only the rules tagged `bandit:B602` or `bandit:B608`
    (a test's name, `bandit:hardcoded_sql_expressions`, works the same way). With `ruff`,
    ruff's noqa comment with S602 counts for the same tests."""
    lowered = line.lower()
    if ruff and "noqa" in lowered and _ruff_codes_allowed(line, tags):
        return True
    if "nosec" not in lowered or not bandit:
        return False
    match = re.search(_NOSEC, line)
    if match is None:
        return False
    words = [w.lower() for w in re.split(r"[\s,]+", match.group(1).strip()) if w]
    # test ids (B608) and names (hardcoded_sql_expressions); other words are prose
    named = [w for w in words if re.fullmatch(_BANDIT_WORD, w)]
    if not named:
        return True
    mine = {t[7:].lower() for t in tags if t.startswith("bandit:")}
    return any(w in mine for w in named)


_NOQA = r"(?i)#\s*noqa\s*:\s*([A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*)"


def _ruff_codes_allowed(line: str, tags: tuple[str, ...]) -> bool:
    """ruff's port of bandit names the same tests `S` + number: noqa with S608 is B608's nosec
    (a bare noqa is not: it silences every linter's every rule)."""
    match = re.search(_NOQA, line)
    if match is None:
        return False
    mine = {t[7:].lower() for t in tags if t.startswith("bandit:")}
    codes = re.split(r"[\s,]+", match.group(1).strip())
    return any(c[:1].upper() == "S" and c[1:].isdigit() and f"b{c[1:]}" in mine for c in codes if c)


def foreign_allowed(text: str, line_start: int, names: tuple[str, ...]) -> bool:
    """Whether the line starting at offset `line_start` of `text` (or the line before it)
    carries an allow comment of one of the scanners `names`."""
    end = text.find("\n", line_start)
    line = text[line_start : end if end >= 0 else len(text)].lower()
    previous = None
    for name in names:
        if name not in FOREIGN_MARKERS:
            continue
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
