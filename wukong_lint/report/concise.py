"""One line per finding, `path:line:col: severity rule-id message`, as compilers print them:
editors and terminals make the location clickable. Then the one-line summary (not with
--quiet). Suppressed findings are not listed (they are counted in the summary)."""

from __future__ import annotations

from wukong_lint.model import Report


def _one_line(text: str) -> str:
    from wukong_lint.engine.masking.printable import printable  # control characters escaped

    return printable(" ".join(text.split()))


def render(report: Report, *, quiet: bool = False, **_: object) -> str:
    lines = [
        f"{_one_line(f.path)}:{f.line}:{f.column}: {f.severity.label} {f.rule_id} "
        f"{_one_line(f.message)}"
        for f in report.active
    ]
    # the inputs not (fully) scanned: `path: error: message`, as compilers print errors
    lines += [f"{_one_line(e.path)}: error: {_one_line(e.message)}" for e in report.errors]
    if not quiet:
        from wukong_lint.report.text import summary_line

        lines.append(summary_line(report))
    return "".join(line + "\n" for line in lines)
