"""The per-category, per-severity table at the end of the text report."""

from __future__ import annotations

from collections import Counter

from wukong_lint.model import Report, Severity

ORDER = (Severity.CRITICAL, Severity.HIGH, Severity.MEDIUM, Severity.LOW)


def table(report: Report) -> list[str]:
    """Plain lines: one row per category with findings, a count per severity, a total."""
    active = report.active
    if not active:
        return []
    counts = Counter((f.category, f.severity) for f in active)
    categories = sorted({f.category for f in active})
    width = max(len("category"), *(len(c) for c in categories))
    head = f"{'category':<{width}}  " + "  ".join(f"{s.label:>8}" for s in ORDER) + "     total"
    rows = [head]
    for category in categories:
        cells = "  ".join(f"{counts[(category, s)] or '-':>8}" for s in ORDER)
        total = sum(counts[(category, s)] for s in ORDER)
        rows.append(f"{category:<{width}}  {cells}  {total:>8}")
    return rows
