"""The JSON report (DESIGN.md contract, version 1). Suppressed findings are counted, not listed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from wukong_lint.model import Finding, Report
from wukong_lint.report.safe import json_text  # undecodable names as \udcff escapes

# json.dumps(..., ensure_ascii=False) builds a new encoder per call: one per finding (same
# output: the default separators, no indent)
_FINDING_ENCODER = json.JSONEncoder(ensure_ascii=False)

JSON_VERSION = 1


def finding_to_dict(finding: Finding) -> dict[str, Any]:
    src = finding.source
    return {
        "rule_id": finding.rule_id,
        "category": finding.category,
        "severity": finding.severity.label,
        "message": finding.message,
        "path": finding.path,
        "line": finding.line,
        "column": finding.column,
        "end_line": finding.end_line,
        "snippet": finding.snippet,
        "fingerprint": finding.fingerprint,
        "source": {
            "kind": src.kind,
            "tool": src.tool,
            "agent": src.agent,
            "record": src.record,
            "commit": src.commit,
        },
    }


# The six error classes of the 戒 module (seed 004), counted from transcript-integrity findings.
ERROR_CLASSES = (
    "edit-failure",
    "tool-result-missing",
    "context-exceeded",
    "permission-denied",
    "file-not-found",
    "empty-content",
)


def tool_errors(findings: tuple[Finding, ...]) -> dict[str, int]:
    counts = dict.fromkeys(ERROR_CLASSES, 0)
    for finding in findings:
        name = finding.rule_id.removeprefix("transcript-integrity.")
        if finding.category == "transcript-integrity" and name in counts:
            counts[name] += 1
    return counts


def render(report: Report, *, color: bool = False) -> str:
    """The JSON document, one finding per line (see `chunks`)."""
    return "".join(chunks(report))


def chunks(report: Report) -> Iterator[str]:
    """The JSON document in pieces, one finding per line. Each finding is encoded on its own by
    the C encoder and can be written as it comes: an indented dump of the whole document would
    hold every finding as a dict and run the pure-Python encoder, and even one string of the
    whole document is several tens of MB on a big transcript."""
    stats = report.stats
    tail = {
        "stats": {
            "files": stats.files,
            "bytes": stats.bytes,
            "units": stats.units,
            "seconds": stats.seconds,
            "suppressed": stats.suppressed,
            "skipped": stats.skipped,
            "tool_errors": tool_errors(report.findings),
        },
        "errors": [{"path": e.path, "message": e.message} for e in report.errors],
    }
    yield f'{{\n  "version": {JSON_VERSION},\n  "tool": "wukong-lint",\n  "findings": ['
    separator = "\n    "
    for finding in report.active:
        yield separator + json_text(_FINDING_ENCODER.encode(finding_to_dict(finding)))
        separator = ",\n    "
    if separator != "\n    ":
        yield "\n  "
    rest = json_text(json.dumps(tail, ensure_ascii=False, indent=2))[1:-2]  # the tail's keys
    yield f"],{rest}\n}}\n"
