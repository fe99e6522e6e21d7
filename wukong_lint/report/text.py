"""Human output: findings grouped by file, then a one-line summary.

A clean run prints one short line without importing rich (pre-commit hot path); findings are
rendered with rich, in colour only when writing to a terminal.
"""

from __future__ import annotations

import io
from collections import Counter
from itertools import groupby

from wukong_lint.model import Report, Severity

STYLES = {
    Severity.CRITICAL: "bold red",
    Severity.HIGH: "red",
    Severity.MEDIUM: "yellow",
    Severity.LOW: "cyan",
}


def summary_line(report: Report) -> str:
    stats = report.stats
    active = report.active
    scanned = f"{stats.files} file{'s' if stats.files != 1 else ''} scanned in {stats.seconds:.2f}s"
    extra = []
    if stats.suppressed:
        extra.append(f"{stats.suppressed} suppressed")
    if report.errors:
        extra.append(f"{len(report.errors)} error{'s' if len(report.errors) != 1 else ''}")
    tail = f" ({', '.join(extra)})" if extra else ""
    if report.shard is not None:  # (`check --shard K/N`; `merge`: the shards merged)
        shard = report.shard
        merged = len(shard.indexes) > 1
        missing = f", {len(shard.missing)} missing" if merged and shard.missing else ""
        scanned = f"{scanned} (shard {shard.label}{missing})"
    if not active:
        return f"No findings. {scanned}{tail}."
    counts = Counter(f.severity for f in active)
    parts = ", ".join(f"{counts[s]} {s.label}" for s in sorted(counts, reverse=True))
    files = len({f.path for f in active})
    noun = "finding" if len(active) == 1 else "findings"
    return (
        f"{len(active)} {noun} ({parts}) in {files} file{'s' if files != 1 else ''}; "
        f"{scanned}{tail}."
    )


def error_lines(report: Report) -> list[str]:
    """The inputs not (fully) scanned, named in the report itself (not only in the warnings
    on stderr): a text report written with `-o` must say what it did not cover."""
    if not report.errors:
        return []
    from wukong_lint.engine.masking.printable import printable  # names come from the files

    lines = ["Not scanned:"]
    lines += [
        f"  {printable(e.path)}: {printable(' '.join(e.message.split()))}" for e in report.errors
    ]
    return lines


COMMIT_CHARS = 12  # a short commit id that stays unique in large repositories
Segment = tuple[str, str]  # (text, rich style)


def layout(report: Report, quiet: bool = False) -> list[list[Segment]]:
    """The report as lines of styled segments: one layout for plain and coloured output
    (`quiet`: the findings without the table and the summary line)."""
    from wukong_lint.engine.masking.printable import printable  # (a clean run never needs it)

    lines: list[list[Segment]] = []
    for path, group in groupby(report.active, key=lambda f: f.path):
        # names, messages and snippets come from the files: control characters escaped
        lines.append([(printable(path), "bold underline")])
        for finding in group:
            line: list[Segment] = [
                ("  ", ""),
                (f"{finding.line}:{finding.column}".ljust(9), "dim"),
                (finding.severity.label.ljust(9), STYLES[finding.severity]),
                (finding.rule_id, "bold"),
                ("  " + printable(finding.message), ""),
            ]
            src = finding.source
            if src.record is not None or src.tool:
                where = ", ".join(x for x in (src.tool, src.agent and f"agent {src.agent}") if x)
                line.append((f"  [{printable(where)}]", "dim"))
            if src.commit:  # --history and --diff: the commit that added the line
                line.append((f"  [commit {src.commit[:COMMIT_CHARS]}]", "dim"))
            lines.append(line)
            if finding.snippet:
                lines.append([("           " + printable(finding.snippet), "dim")])
        lines.append([])
    if quiet:
        return lines[:-1] if lines and not lines[-1] else lines
    errors = error_lines(report)
    lines += [[(errors[0], "bold")], *([(e, "")] for e in errors[1:]), []] if errors else []
    from wukong_lint.report.summary import table

    rows = table(report)
    lines += [[(row, "bold" if i == 0 else "")] for i, row in enumerate(rows)]
    lines += [[]] if rows else []
    lines.append([(summary_line(report), "bold")])
    return lines


def render(report: Report, *, color: bool = False, quiet: bool = False) -> str:
    if not report.active:
        return (
            ""
            if quiet
            else "".join(f"{e}\n" for e in error_lines(report)) + summary_line(report) + "\n"
        )
    lines = layout(report, quiet)
    if not color:
        # Plain output (pipes, pre-commit, CI logs) needs no rich: it costs tens of
        # milliseconds to import, on every failing commit.
        return "".join("".join(text for text, _ in line) + "\n" for line in lines)

    from rich.console import Console
    from rich.text import Text

    buffer = io.StringIO()
    # Colour was decided by the caller (--color, NO_COLOR, FORCE_COLOR): rich must not undo
    # it from the environment (it reads NO_COLOR, and TERM=dumb turns its colours off).
    console = Console(
        file=buffer,
        force_terminal=True,
        no_color=False,
        color_system="standard",
        width=120,
        highlight=False,
        soft_wrap=True,
    )
    for line in lines:
        text = Text()
        for chunk, style in line:
            text.append(chunk, style=style or None)
        console.print(text)
    return buffer.getvalue()
