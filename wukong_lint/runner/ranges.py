"""`check --diff` (and the pre-commit hook on a range): a commit range's units scanned, on
several processes only when the range is long."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from wukong_lint.sources.ranges import endpoints, range_units


def scan_range(scanner: Any, args: Any, excluded: Any = None) -> None:
    """`check --diff` (and the pre-commit hook on a range): the range's units into `scanner`,
    on several processes only when the range is long, then what the range changes in the
    scan's own setup (config, baseline, inline ignores) when the weakening rule runs."""
    from itertools import chain, islice

    from wukong_lint.runner.parallel import UNIT_CHUNK, default_jobs, scan_stream

    units: Iterator[Any] = range_units(args.diff, allow_empty=args.allow_empty_range)
    if getattr(args, "pre_commit", False):
        from wukong_lint.sources.precommit import only_files

        units = only_files(units, args.pre_commit_files)
    if excluded is not None:  # the config's `exclude` globs
        units = (unit for unit in units if not excluded(unit.path))
    first = list(islice(units, UNIT_CHUNK))  # a short range: no processes to start
    if len(first) < UNIT_CHUNK:
        scanner.scan(first)
    else:
        scan_stream(scanner, chain(first, units), args.jobs or default_jobs())
    if any(rule.kind == "weakening" for rule in scanner.ruleset.rules):
        from wukong_lint.sources.weakening import weakening_units

        scanner.scan(weakening_units(*endpoints(args.diff), scanner.findings))
