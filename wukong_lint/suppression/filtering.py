"""The suppression stage after a scan: baseline and per-path ignores of the config.

Inline comments are read while scanning (they need the line's text); this stage adds the
suppressions that need the whole report. Every suppressed finding is kept in the report with
`suppressed=True` and its reason in `suppressed_by` (reporters count it, SARIF lists it as
dismissed), exactly like an inline ignore, and never fails the run.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable

from wukong_lint.model import Finding, Report


def _glob(path: str, pattern: str) -> bool:
    from wukong_lint.engine.rules import _glob as rule_glob

    return rule_glob(path, pattern)


def relative_to(path: str, base_dir: str, root: str) -> str:
    """A report path (relative to `base_dir`, or absolute) relative to `root`, with `/`."""
    full = os.path.normpath(os.path.join(base_dir, path))
    return os.path.relpath(full, root).replace(os.sep, "/")


def apply(
    report: Report,
    *,
    baseline: Counter[tuple[str, str, str]] | None = None,
    baseline_root: str = ".",
    path_ignores: tuple[tuple[str, tuple[str, ...]], ...] = (),
    config_root: str = ".",
    base_dir: str = ".",
    baseline_hash: Callable[[str], str] | None = None,
) -> Report:
    """`report` with baselined findings and findings under a per-path ignore suppressed.

    The baseline is a multiset of (rule id, path relative to `baseline_root`, hash of the
    matched text): for each such key, the first findings in file order, as many as the
    baseline holds, are baselined and any further copy is new. That is what the fingerprint
    encodes too (its occurrence number), but matching on the parts keeps working when the
    scan runs from another folder, so paths are written differently. `baseline_hash` turns a
    finding's match hash into the form the baseline holds (its salted slow hash, computed
    only for findings whose rule and path the baseline has, once per distinct value).
    """
    if not baseline and not path_ignores:
        return report
    base_dir = os.path.abspath(base_dir)
    remaining = Counter(baseline or ())
    # hashing is slow on purpose: only where the baseline has an entry of that rule and file
    located = {(rule_id, path) for rule_id, path, _ in remaining}
    if path_ignores:
        from wukong_lint.config.path_globs import expand
        from wukong_lint.config.selectors import covers as names_cover

        root = os.path.abspath(config_root)
        expanded = [(expand(pattern, root), names) for pattern, names in path_ignores]
    findings: list[Finding] = []
    for finding in report.findings:
        if not finding.suppressed and remaining:
            rel = relative_to(finding.path, base_dir, os.path.abspath(baseline_root))
            key = (finding.rule_id, rel, finding.match_hash)
            if baseline_hash is not None and (finding.rule_id, rel) in located:
                key = (finding.rule_id, rel, baseline_hash(finding.match_hash))
            if remaining[key] > 0:
                remaining[key] -= 1
                finding = finding._replace(suppressed=True, suppressed_by="baseline")
        if not finding.suppressed and path_ignores:
            rel = relative_to(finding.path, base_dir, root)
            for forms, names in expanded:
                # (an empty list, as a bare inline ignore, covers every rule)
                if any(_glob(rel, form) for form in forms) and (
                    not names or names_cover(names, finding.rule_id, finding.category)
                ):
                    finding = finding._replace(suppressed=True, suppressed_by="config")
                    break
        findings.append(finding)
    stats = report.stats._replace(suppressed=sum(1 for f in findings if f.suppressed))
    return report._replace(findings=tuple(findings), stats=stats)
