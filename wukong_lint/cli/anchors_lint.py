"""`wukong-lint anchors lint [FILE...]`: the anchor and memory-bank rules on the named files
(default: the project's anchors files), whatever the files are called.

`check` applies these rules only to files named like anchors files (anchors.md,
memory-bank/*.md, .wukong/context/*.md); here the user names the files, so the rules' path
filters are dropped and every file is read as memory-bank markdown.
"""

from __future__ import annotations

import time

from wukong_lint.util.errors import InputError

CATEGORIES = ("anchor", "memory-bank")


def lint(files: list[str], fmt: str, fail_on: str, rule_dirs: tuple[str, ...] = ()):
    """(report text, exit code) of the anchor rules over `files`."""
    from wukong_lint.engine.loader import load_rules
    from wukong_lint.engine.rules import RuleSet
    from wukong_lint.engine.scan import scan_unit
    from wukong_lint.model import Report, ScanError, Severity, Source, Stats, Unit
    from wukong_lint.report import render
    from wukong_lint.sources.files import read_file

    started = time.monotonic()
    loaded = load_rules(rule_dirs, details=False)
    rules = [r._replace(paths=(), exclude_paths=()) for r in loaded.rules
             if r.category in CATEGORIES]  # fmt: skip
    ruleset = RuleSet(rules)
    findings = []
    errors: list[ScanError] = []
    scanned = size = skipped = 0
    for path in files:
        item = read_file(path, path)
        if isinstance(item, ScanError):
            errors.append(item)
            continue
        if not isinstance(item, Unit):  # Skipped: a link, a binary file
            raise InputError(f"{path}: not linted ({item.reason})")
        unit = item._replace(source=Source(kind="memory"))
        found, errs = scan_unit(ruleset, unit)
        findings += found
        errors += errs
        scanned += 1
        size += len(unit.text.encode("utf-8", "surrogateescape"))
    stats = Stats(scanned, size, scanned, time.monotonic() - started, 0, skipped)
    report = Report(tuple(findings), stats, tuple(errors))
    text = render(report, fmt) if fmt in ("text", "concise", "json") else ""
    code = 1 if report.failing(Severity.parse(fail_on)) else 0
    if errors:
        code = 2
    return text, code
