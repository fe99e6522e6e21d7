"""SARIF 2.1.0 output, as GitHub code scanning reads it.

- `tool.driver.rules` describes the rules that results refer to (id, name, descriptions,
  help, default level, the category as a tag), sorted by id: listing every rule that ran
  made a report of a few results weigh hundreds of KB.
- Only the security categories (SECURITY_CATEGORIES) carry the `security` tag and GitHub's
  `security-severity` (which files an alert under code scanning's security view); agent,
  transcript and anchor/memory-bank rules are `quality` or `maintainability` findings.
- Each result has its rule, level, message, a repository-relative URI, a region and a
  `partialFingerprints` entry that holds the finding's fingerprint, which has no line numbers,
  so an alert survives code moving around it.
- Suppressed findings are kept, with `suppressions` (`inSource` for inline ignores,
  `external` for the baseline and config ignores), so code scanning shows them as dismissed.
- No timestamps and no absolute paths of the machine: the same scan gives the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from wukong_lint import __version__
from wukong_lint.model import Finding, Report, Severity
from wukong_lint.report.paths import to_uri

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/wukong-lint/wukong-lint"
FINGERPRINT_KEY = "wukongFingerprint/v1"

LEVELS = {
    Severity.CRITICAL: "error",
    Severity.HIGH: "error",
    Severity.MEDIUM: "warning",
    Severity.LOW: "note",
}
# GitHub ranks security alerts by this number (critical >= 9.0, high >= 7.0, medium >= 4.0).
SECURITY_SEVERITY = {
    Severity.CRITICAL: "9.5",
    Severity.HIGH: "8.0",
    Severity.MEDIUM: "5.5",
    Severity.LOW: "3.0",
}
EXTERNAL_SUPPRESSIONS = ("baseline", "config")
SECURITY_CATEGORIES = frozenset(
    {"secret", "dangerous-command", "sensitive-path", "guard-integrity", "injection", "info-leak"}
)
# The kind of problem the other categories are, as tags code scanning shows.
MAINTAINABILITY_CATEGORIES = frozenset({"anchor", "memory-bank", "hardcoded-config"})


def _kind_tag(category: str) -> str:
    if category in SECURITY_CATEGORIES:
        return "security"
    return "maintainability" if category in MAINTAINABILITY_CATEGORIES else "quality"


def _tagged(properties: dict[str, Any], category: str, severity: Severity) -> dict[str, Any]:
    """`properties` with the kind tag, and `security-severity` for security categories."""
    if category in SECURITY_CATEGORIES:
        properties["security-severity"] = SECURITY_SEVERITY[severity]
    return properties


def rule_name(rule_id: str) -> str:
    """A SARIF rule name: the id in PascalCase (`secret.github-pat` -> `SecretGithubPat`)."""
    parts = rule_id.replace("-", ".").replace("_", ".").split(".")
    return "".join(p[:1].upper() + p[1:] for p in parts if p)


def _first_paragraph(text: str) -> str:
    return " ".join(text.strip().split("\n\n", 1)[0].split())


def _rule_descriptor(rule: Any) -> dict[str, Any]:
    severity = Severity(rule.severity)
    docs = (rule.docs or "").strip()
    # Help is the rule's docs only: its examples look like real credentials and would make the
    # report trip secret scanners (and contradict "no secret in the output").
    level = LEVELS[severity]
    return {
        "id": rule.id,
        "name": rule_name(rule.id),
        "shortDescription": {"text": rule.message},
        "fullDescription": {"text": _first_paragraph(docs) or rule.message},
        "help": {"text": docs or rule.message, "markdown": docs or rule.message},
        "defaultConfiguration": {"level": level, "enabled": bool(rule.enabled)},
        "properties": _tagged(
            {
                "tags": _tags(rule.category, rule.tags),
                "category": rule.category,
                "severity": severity.label,
                "kind": rule.kind,
                "precision": "high",
                "problem.severity": level if level != "note" else "recommendation",
            },
            rule.category,
            severity,
        ),
    }


def _tags(category: str, extra: Sequence[str] = ()) -> list[str]:
    kind = _kind_tag(category)
    # a rule's own tags cannot make it a security rule: that is its category's call
    own = sorted(set(extra) - {category, kind, "security", "quality", "maintainability"})
    return [category, kind, *own]


def _fallback_descriptor(finding: Finding) -> dict[str, Any]:
    """A rule that produced findings but is not in the rule set given (e.g. a built-in check)."""
    level = LEVELS[finding.severity]
    return {
        "id": finding.rule_id,
        "name": rule_name(finding.rule_id),
        "shortDescription": {"text": finding.message},
        "fullDescription": {"text": finding.message},
        "help": {"text": finding.message},
        "defaultConfiguration": {"level": level},
        "properties": _tagged(
            {
                "tags": _tags(finding.category),
                "category": finding.category,
                "severity": finding.severity.label,
            },
            finding.category,
            finding.severity,
        ),
    }


def _result(finding: Finding, index: int, prefix: str) -> dict[str, Any]:
    region: dict[str, Any] = {
        "startLine": max(1, finding.line),
        "startColumn": max(1, finding.column),
        "endLine": max(finding.line, finding.end_line, 1),
    }
    if finding.snippet:
        region["snippet"] = {"text": finding.snippet}  # already redacted
    src = finding.source
    properties: dict[str, Any] = {
        "category": finding.category,
        "severity": finding.severity.label,
        "source": src.kind,
    }
    for key in ("tool", "agent", "record", "commit"):
        value = getattr(src, key)
        if value is not None:
            properties[key] = value
    result: dict[str, Any] = {
        "ruleId": finding.rule_id,
        "ruleIndex": index,
        "level": LEVELS[finding.severity],
        "message": {"text": finding.message},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": to_uri(finding.path, prefix)},
                    "region": region,
                }
            }
        ],
        "partialFingerprints": {FINGERPRINT_KEY: finding.fingerprint},
        "properties": properties,
    }
    if finding.suppressed:
        by = getattr(finding, "suppressed_by", "") or "inline"
        kind = "external" if by in EXTERNAL_SUPPRESSIONS else "inSource"
        result["suppressions"] = [{"kind": kind, "justification": f"suppressed by {by}"}]
    return result


def to_sarif(report: Report, rules: Sequence[Any] = (), prefix: str = "") -> dict[str, Any]:
    referenced = {finding.rule_id for finding in report.findings}
    descriptors = {rule.id: _rule_descriptor(rule) for rule in rules if rule.id in referenced}
    for finding in report.findings:
        if finding.rule_id not in descriptors:
            descriptors[finding.rule_id] = _fallback_descriptor(finding)
    ordered = [descriptors[key] for key in sorted(descriptors)]
    index = {d["id"]: i for i, d in enumerate(ordered)}
    notifications = [
        {
            "level": "warning",
            "message": {"text": error.message},
            "locations": [
                {"physicalLocation": {"artifactLocation": {"uri": to_uri(error.path, prefix)}}}
            ],
        }
        for error in report.errors
    ]
    invocation: dict[str, Any] = {"executionSuccessful": True}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    run = {
        "tool": {
            "driver": {
                "name": "wukong-lint",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": INFORMATION_URI,
                "rules": ordered,
            }
        },
        "invocations": [invocation],
        "columnKind": "unicodeCodePoints",
        "results": [_result(f, index[f.rule_id], prefix) for f in report.findings],
    }
    if report.shard is not None:  # (`check --shard K/N`, `merge`): what `merge` reads back
        from wukong_lint.report.json_report import shard_properties

        stats = report.stats
        run["properties"] = {
            "shard": shard_properties(report.shard),
            # (no seconds: the same scan gives the same bytes)
            "stats": {
                "files": stats.files,
                "bytes": stats.bytes,
                "units": stats.units,
                "suppressed": stats.suppressed,
                "skipped": stats.skipped,
            },
        }
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def render(report: Report, *, rules: Sequence[Any] = (), prefix: str = "", **_: object) -> str:
    from wukong_lint.engine.masking.printable import (
        json_text,  # undecodable names as \udcff escapes
    )

    return json_text(dumps(to_sarif(report, rules, prefix))) + "\n"


def dumps(document: Any) -> str:
    """`json.dumps(document, ensure_ascii=False, indent=2)`, the same text. The standard
    library indents with its pure-Python encoder (~0.2 ms a result); orjson's OPT_INDENT_2
    writes the same bytes for what a SARIF document holds: strings (raw UTF-8, the same
    escapes), ints (an IntEnum as its number), bools, None, lists, tuples and dicts with
    string keys, in their order. What it does not take the same way (a lone surrogate of an
    undecodable name, an int past 64 bits, a key that is not a string) raises, and the
    standard library writes it. Floats would differ in exponent form (1e+16 / 1e16): the
    document has none (tests/test_finding_cost_paths.py walks one)."""
    import orjson

    try:
        return orjson.dumps(document, option=orjson.OPT_INDENT_2).decode("utf-8")
    except TypeError:  # (orjson.JSONEncodeError is one)
        return json.dumps(document, ensure_ascii=False, indent=2)
