"""A unit's candidates (the matchers' hits that survived the overlap and context filters) as
findings: the line each is on, its masked snippet, its match hash and fingerprint, whether an
inline comment suppresses it."""

from __future__ import annotations

from functools import partial
from typing import Any

from wukong_lint import redact, suppress
from wukong_lint.keyed_hash import fingerprint_secret, guessable
from wukong_lint.model import (
    CHANGE_KINDS,
    Finding,
    Severity,
    Source,
    Unit,
    fingerprint,
    sha256_hex,
)

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


def make_findings(
    ruleset: Any,
    unit: Unit,
    lines: Any,
    found: list[Any],
    occurrences: dict[tuple[str, str], int] | None,
) -> list[Finding]:
    """The findings of `found` (engine/scan.py's candidates of `unit`, sorted by place);
    `lines`: scan._Lines of the unit's text."""
    text = unit.text
    # a change as a whole (sources/git.py) is reported as part of the diff it belongs to
    source = unit.source._replace(kind="diff") if unit.source.kind in CHANGE_KINDS else unit.source
    # Every secret span is masked in every snippet, whichever finding the snippet belongs to.
    secret_spans = [
        (
            c.hit.secret_start,
            c.hit.secret_end,
            redact.public_prefix(text[c.hit.secret_start : c.hit.secret_end], c.rule.keywords),
        )
        for c in found
        if c.rule.redact
    ]
    if occurrences is None:
        occurrences = {}
    findings = []
    masker = ruleset.masker()
    for cand in found:
        rule, hit = cand.rule, cand.hit
        line_start, line_text = lines.line_text(cand.anchor)
        line_end = line_start + len(line_text)
        spans = [
            (s - line_start, e - line_start, keep)
            for s, e, keep in secret_spans
            if s < line_end and e > line_start
        ]
        # every secret near the column is masked too, whichever rules ran (masking.py)
        snippet = masker.snippet(line_text, spans, cand.anchor - line_start)
        matched = (
            text[hit.secret_start : hit.secret_end] if rule.redact else text[hit.start : hit.end]
        )
        match_hash = sha256_hex(matched)
        key = (rule.id, match_hash)
        occurrence = occurrences.get(key, 0)
        occurrences[key] = occurrence + 1
        names = suppress.parse_ignore(line_text)
        suppressed = names is not None and suppress.covers(names, rule.id, rule.category)
        if not suppressed and ruleset.allow_comments:
            # other scanners' allow comments, when the config asks: gitleaks and
            # detect-secrets on secret rules, bandit's `# nosec` on the code rules
            if rule.category == "secret":
                suppressed = suppress.foreign_allowed(text, line_start, ruleset.allow_comments)
            elif rule.category in suppress.NOSEC_CATEGORIES:
                bandit = "bandit" in ruleset.allow_comments
                ruff = "ruff" in ruleset.allow_comments
                if bandit or ruff:
                    suppressed = suppress.nosec_allowed(line_text, rule.tags, ruff, bandit)
        line = _real_line(unit, cand.line)
        findings.append(
            Finding(
                rule_id=rule.id,
                category=rule.category,
                severity=_SEVERITY[cand.severity or rule.severity],
                message=(
                    _shared(f"{rule.message} ({masker.mask(hit.note)})")
                    if hit.note
                    else rule.message
                ),
                path=unit.path,
                line=line,
                column=cand.column,
                end_line=line if cand.end_line == cand.line else _real_line(unit, cand.end_line),
                snippet=_shared(snippet),
                fingerprint=fingerprint(
                    rule.id,
                    unit.path,
                    # a secret's fingerprint holds a slow salted hash of it (keyed_hash.py)
                    fingerprint_secret(rule.id, unit.path, match_hash)
                    if rule.redact and guessable(matched)
                    else match_hash,
                    occurrence,
                ),
                source=source,
                match_hash=match_hash,
                suppressed=suppressed,
                suppressed_by="inline" if suppressed else "",
            )
        )
    return findings


# --- findings between processes ------------------------------------------------------------
# A worker's findings reach the parent pickled. A NamedTuple pickles as a call of its class
# with its fields, and unpickles by calling the class's Python `__new__`: ~4.5 us a finding
# both ways. In columns (one tuple per field, the sources' fields too) pickle writes plain
# tuples, and the records are rebuilt by `tuple.__new__` mapped over the rows (no Python
# frame a record): ~2 us. The records come back equal, of the same classes.
_SOURCE_AT = Finding._fields.index("source")
_new_finding = partial(tuple.__new__, Finding)
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
    return list(map(_new_finding, zip(*fields, strict=True)))
