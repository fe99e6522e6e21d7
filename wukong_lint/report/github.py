"""GitHub Actions workflow commands: one annotation per finding.

`::error file=F,line=L,endLine=E,col=C,title=RULE::message`. Critical and high findings are
errors, medium warnings, low notices. Message data escapes `%`, CR and LF; property values
also escape `:` and `,` (GitHub's own toolkit rules). Suppressed findings are not annotated.
Paths are repository-relative, as the annotation API needs. The last line is the plain summary.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wukong_lint.engine.masking.printable import printable
from wukong_lint.model import Report, Severity
from wukong_lint.report.paths import repo_path

COMMANDS = {
    Severity.CRITICAL: "error",
    Severity.HIGH: "error",
    Severity.MEDIUM: "warning",
    Severity.LOW: "notice",
}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(name: str, message: str, **properties: object) -> str:
    props = ",".join(
        f"{key}={escape_property(str(value))}"
        for key, value in properties.items()
        if value is not None
    )
    return f"::{name}{' ' + props if props else ''}::{escape_data(message)}"


def render(report: Report, *, prefix: str = "", rules: Sequence[Any] = (), **_: object) -> str:
    from wukong_lint.report.text import summary_line

    lines = []
    for finding in report.active:
        message = f"{printable(finding.message)} [{finding.severity.label}]"
        if finding.snippet:
            message += f"\n{printable(finding.snippet)}"
        if finding.path == ".":  # the change as a whole (a large-scale change): no file
            lines.append(command(COMMANDS[finding.severity], message, title=finding.rule_id))
            continue
        lines.append(
            command(
                COMMANDS[finding.severity],
                message,
                file=printable(repo_path(finding.path, prefix)),
                line=finding.line,
                endLine=max(finding.line, finding.end_line),
                col=finding.column,
                title=finding.rule_id,
            )
        )
    for error in report.errors:
        path = printable(repo_path(error.path, prefix))
        lines.append(command("warning", printable(error.message), file=path, title="wukong-lint"))
    lines.append(summary_line(report))
    return "\n".join(lines) + "\n"
