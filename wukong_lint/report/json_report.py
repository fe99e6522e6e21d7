"""The JSON report (DESIGN.md contract, version 1). Suppressed findings are counted, not listed."""

from __future__ import annotations

import json
from typing import Any

from wukong_lint.model import Finding, Report

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


def render(report: Report, *, color: bool = False) -> str:
    stats = report.stats
    document = {
        "version": JSON_VERSION,
        "tool": "wukong-lint",
        "findings": [finding_to_dict(f) for f in report.active],
        "stats": {
            "files": stats.files,
            "bytes": stats.bytes,
            "units": stats.units,
            "seconds": stats.seconds,
            "suppressed": stats.suppressed,
            "skipped": stats.skipped,
        },
        "errors": [{"path": e.path, "message": e.message} for e in report.errors],
    }
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"
