"""JUnit XML for CI systems that show test reports (GitLab, Jenkins, Azure, CircleCI).

One test suite per category that has findings; each finding is a test case named
`RULE at PATH:LINE` (class name: the path). Exactly the findings that fail the run (at or
above --fail-on) are failures, with the message and redacted snippet; findings below it are
passed test cases with the same text as their output; suppressed findings are skipped test
cases; inputs that could not be scanned are errors. A clean scan is one passing test case, so
CI shows that the check ran.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from wukong_lint.engine.masking.printable import xml_text
from wukong_lint.model import Finding, Report, Severity
from wukong_lint.report.paths import repo_path


def _clean(text: str) -> str:
    """XML 1.0 cannot hold most control characters, even escaped; a byte of a name that is
    not UTF-8 is shown as `\xff`."""
    return "".join(
        ch if ch in "\t\n\r" or (ord(ch) >= 0x20 and ch not in "\ufffe\uffff") else "\ufffd"
        for ch in xml_text(text)
    )


def _attr(value: object) -> str:
    return quoteattr(_clean(str(value)))


def _case(finding: Finding, prefix: str, fail_on: int = Severity.LOW) -> str:
    path = repo_path(finding.path, prefix)
    name = f"{finding.rule_id} at {path}:{finding.line}:{finding.column}"
    head = f"    <testcase name={_attr(name)} classname={_attr(path)} file={_attr(path)}"
    head += f' line={_attr(finding.line)} time="0">'
    if finding.suppressed:
        by = getattr(finding, "suppressed_by", "") or "inline"
        return f"{head}\n      <skipped message={_attr('suppressed by ' + by)}/>\n    </testcase>"
    body = "\n".join(
        [
            f"{finding.severity.label} {finding.rule_id}: {finding.message}",
            f"{path}:{finding.line}:{finding.column}",
            finding.snippet,
            f"fingerprint: {finding.fingerprint}",
        ]
    )
    if finding.severity < fail_on:  # reported, but it does not fail the run
        return f"{head}\n      <system-out>{escape(_clean(body))}</system-out>\n    </testcase>"
    return (
        f"{head}\n      <failure message={_attr(finding.message)} "
        f"type={_attr(finding.severity.label)}>{escape(_clean(body))}</failure>\n    </testcase>"
    )


def render(
    report: Report,
    *,
    prefix: str = "",
    rules: Sequence[Any] = (),
    fail_on: int = Severity.LOW,
    **_: object,
) -> str:
    """`fail_on`: the lowest severity that fails the run (check's --fail-on)."""
    suites: dict[str, list[Finding]] = defaultdict(list)
    for finding in report.findings:
        suites[finding.category].append(finding)
    seconds = report.stats.seconds
    parts: list[str] = []
    total = failures = skipped = 0
    for category in sorted(suites):
        found = suites[category]
        n_fail = sum(1 for f in found if not f.suppressed and f.severity >= fail_on)
        n_skip = sum(1 for f in found if f.suppressed)
        total, failures, skipped = total + len(found), failures + n_fail, skipped + n_skip
        parts.append(
            f'  <testsuite name={_attr("wukong-lint." + category)} tests="{len(found)}" '
            f'failures="{n_fail}" errors="0" skipped="{n_skip}" time="0">'
        )
        parts += [_case(f, prefix, fail_on) for f in found]
        parts.append("  </testsuite>")
    errors = len(report.errors)
    if errors:
        total += errors
        parts.append(
            f'  <testsuite name="wukong-lint.errors" tests="{errors}" failures="0" '
            f'errors="{errors}" skipped="0" time="0">'
        )
        for error in report.errors:
            path = repo_path(error.path, prefix)
            parts.append(
                f"    <testcase name={_attr('scan ' + path)} classname={_attr(path)} "
                f'time="0">\n      <error message={_attr(error.message)}/>\n    </testcase>'
            )
        parts.append("  </testsuite>")
    if not total:
        total = 1
        parts.append(
            '  <testsuite name="wukong-lint" tests="1" failures="0" errors="0" skipped="0" '
            f'time="{seconds}">\n    <testcase name="no findings" classname="wukong-lint" '
            f'time="{seconds}"/>\n  </testsuite>'
        )
    head = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<testsuites name="wukong-lint" tests="{total}" failures="{failures}" '
        f'errors="{errors}" skipped="{skipped}" time="{seconds}">'
    )
    return "\n".join([head, *parts, "</testsuites>"]) + "\n"
