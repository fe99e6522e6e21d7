"""A unit's candidates (the matchers' hits that survived the overlap and context filters) as
findings: the line each is on, its masked snippet, its match hash and fingerprint, whether an
inline comment suppresses it."""

from __future__ import annotations

import gc
from functools import partial
from typing import Any

from wukong_lint.engine import suppress
from wukong_lint.engine.keyed_hash import fingerprint_secret, guessable
from wukong_lint.engine.masking import shapes as redact
from wukong_lint.engine.masking.masker import masker_for
from wukong_lint.model import (
    CHANGE_KINDS,
    Finding,
    Severity,
    Source,
    Unit,
    fingerprint,
    sha256_hex,
)

# Finding(*fields) without the Python frame of the NamedTuple's __new__ (the same record)
_new_finding = partial(tuple.__new__, Finding)
_SHARED: dict[str, str] = {}
# a rule's severity number -> its Severity (the enum's call costs a microsecond a finding)
_SEVERITY = {int(s): s for s in Severity}


def _real_line(unit: Unit, line: int) -> int:
    """A line of the unit's text as a line of the file it came from."""
    if unit.line_numbers is not None and 0 < line <= len(unit.line_numbers):
        return unit.line_numbers[line - 1]
    return line + unit.first_line - 1


def _shared(text: str) -> str:
    """One copy of a snippet or message that many findings repeat (the same command or file
    name over a long transcript): findings are kept until the report, so their size is the
    scan's memory."""
    found = _SHARED.get(text)
    if found is None:
        if len(_SHARED) >= 50000:
            _SHARED.clear()
        found = _SHARED[text] = text
    return found


def _line_text(text: str, offset: int) -> tuple[int, str]:
    """Where the line of `text` holding `offset` starts, and the line (without its end)."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    if end < 0:
        end = len(text)
    line = text[start:end]
    return start, line[:-1] if line.endswith("\r") else line


def make_findings(
    ruleset: Any,
    unit: Unit,
    found: list[Any],
    occurrences: dict[tuple[str, str], int] | None,
) -> list[Finding]:
    """The findings of `found` (engine/scan.py's candidates of `unit`, sorted by place)."""
    text = unit.text
    path = unit.path
    # a change as a whole (sources/git.py) is reported as part of the diff it belongs to
    source = unit.source._replace(kind="diff") if unit.source.kind in CHANGE_KINDS else unit.source
    # Every secret span is masked in every snippet, whichever finding the snippet belongs to.
    secret_spans = []
    for c in found:  # (a loop: most units have one candidate, a comprehension is a call)
        if c.rule.redact:
            s, e = c.hit.secret_start, c.hit.secret_end
            secret_spans.append((s, e, redact.public_prefix(text[s:e], c.rule.keywords)))
    if occurrences is None:
        occurrences = {}
    findings = []
    masker = masker_for(ruleset)
    allow_comments = ruleset.allow_comments
    # a unit's line as a line of its file (_real_line, inline for text of adjacent lines)
    first_line, numbered = unit.first_line - 1, unit.line_numbers is not None
    # what the findings on one line share (the candidates come sorted by place)
    line_start = line_end = -1
    line_text = ""
    names: tuple[str, ...] | None = None
    for cand in found:
        rule, hit, anchor = cand.rule, cand.hit, cand.anchor
        if not line_start <= anchor <= line_end:
            line_start, line_text = _line_text(text, anchor)
            line_end = line_start + len(line_text)
            names = suppress.parse_ignore(line_text)
        if secret_spans:
            spans = [
                (s - line_start, e - line_start, keep)
                for s, e, keep in secret_spans
                if s < line_end and e > line_start
            ]
        else:
            spans = []
        # every secret near the column is masked too, whichever rules ran (masking.py)
        snippet = masker.snippet(line_text, spans, anchor - line_start)
        redacted = rule.redact
        matched = text[hit.secret_start : hit.secret_end] if redacted else text[hit.start : hit.end]
        match_hash = _hash(matched)
        key = (rule.id, match_hash)
        occurrence = occurrences.get(key, 0)
        occurrences[key] = occurrence + 1
        suppressed = names is not None and suppress.covers(names, rule.id, rule.category)
        if not suppressed and allow_comments:
            # other scanners' allow comments, when the config asks: gitleaks and
            # detect-secrets on secret rules, bandit's `# nosec` on the code rules
            if rule.category == "secret":
                suppressed = suppress.foreign_allowed(text, line_start, allow_comments)
            elif rule.category in suppress.NOSEC_CATEGORIES:
                bandit = "bandit" in allow_comments
                ruff = "ruff" in allow_comments
                if bandit or ruff:
                    suppressed = suppress.nosec_allowed(line_text, rule.tags, ruff, bandit)
        if numbered:
            line = _real_line(unit, cand.line)
            end_line = line if cand.end_line == cand.line else _real_line(unit, cand.end_line)
        else:
            line, end_line = cand.line + first_line, cand.end_line + first_line
        note = hit.note
        message = masker.with_note(rule.message, note) if note else rule.message
        # a secret's fingerprint holds a slow salted hash of it (keyed_hash.py)
        value = (
            fingerprint_secret(rule.id, path, match_hash)
            if redacted and _guessable(matched, match_hash)
            else match_hash
        )
        # (the fields in Finding's order: a tuple made by tuple.__new__, no Python frame)
        findings.append(
            _new_finding(
                (
                    rule.id,
                    rule.category,
                    _SEVERITY[cand.severity or rule.severity],
                    message,
                    path,
                    line,
                    cand.column,
                    end_line,
                    _shared(snippet),
                    _fingerprint(rule.id, path, value, occurrence),
                    source,
                    match_hash,
                    suppressed,
                    "inline" if suppressed else "",
                )
            )
        )
    return findings


# Memos of what findings repeat (the same command, file name or token over a long session),
# each cleared when full. A text longer than this is hashed each time (hashing it for the
# memo costs about as much as the SHA-256).
_MEMO_MAX = 8192
_MEMO_TEXT = 512
_HASHES: dict[str, str] = {}
_GUESSABLE: dict[str, bool] = {}


def _remembered(memo: dict[Any, Any], key: Any, make: Any, *args: Any) -> Any:
    """`make(*args)`, remembered in `memo` under `key` (cleared when full)."""
    found = memo.get(key)
    if found is None:
        if len(memo) >= _MEMO_MAX:
            memo.clear()
        found = memo[key] = make(*args)
    return found


def _hash(matched: str) -> str:
    """`sha256_hex(matched)`, memoised for short texts."""
    if len(matched) > _MEMO_TEXT:
        return sha256_hex(matched)
    return _remembered(_HASHES, matched, sha256_hex, matched)  # type: ignore[no-any-return]


def _fingerprint(rule_id: str, path: str, value: str, occurrence: int) -> str:
    """`fingerprint(...)`, memoised for a first occurrence (a long session reports the same
    rule on the same command or file many times: one SHA-256 each)."""
    if occurrence:
        return fingerprint(rule_id, path, value, occurrence)
    key = (rule_id, path, value)
    return _remembered(_FINGERPRINTS, key, fingerprint, rule_id, path, value, 0)  # type: ignore[no-any-return]


_FINGERPRINTS: dict[tuple[str, str, str], str] = {}


def _guessable(value: str, value_hash: str) -> bool:
    """`guessable(value)`, memoised by the value's hash (its entropy takes a Counter)."""
    return _remembered(_GUESSABLE, value_hash, guessable, value)  # type: ignore[no-any-return]


# --- findings between processes ------------------------------------------------------------
# A worker's findings reach the parent pickled. A NamedTuple pickles as a call of its class
# with its fields, and unpickles by calling the class's Python `__new__`: ~4.5 us a finding
# both ways. In columns (one tuple per field, the sources' fields too) pickle writes plain
# tuples, and the records are rebuilt by `tuple.__new__` mapped over the rows (no Python
# frame a record): ~2 us. The records come back equal, of the same classes.
_SOURCE_AT = Finding._fields.index("source")
_new_source = partial(tuple.__new__, Source)


def pack(findings: list[Finding]) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """`findings` as columns (`unpack` makes them again)."""
    if not findings:
        return [], []
    columns = list(zip(*findings, strict=True))
    sources = columns.pop(_SOURCE_AT)
    return columns, list(zip(*sources, strict=True))


def unpack(packed: tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]) -> list[Finding]:
    columns, sources = packed
    if not columns:
        return []
    fields: list[Any] = list(columns)
    fields.insert(_SOURCE_AT, map(_new_source, zip(*sources, strict=True)))
    # Two new tuples a finding, none of them in a cycle: the collector's passes that so many
    # allocations trigger find nothing to free, and they traverse the parent's whole heap
    # (measured: 0.025-0.1 s against 0.012 s for 38,573 findings).
    enabled = gc.isenabled()
    gc.disable()
    try:
        return list(map(_new_finding, zip(*fields, strict=True)))
    finally:
        if enabled:
            gc.enable()
