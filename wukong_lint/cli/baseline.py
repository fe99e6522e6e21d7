"""`wukong-lint baseline create|update`: record today's findings so only new ones fail.

    wukong-lint baseline create [PATH ...] [-o .wukong-lint-baseline.json] [--force]
    wukong-lint baseline update [PATH ...] [-o FILE]

Both scan like `check PATH ...` (same config, rules, --select/--ignore); findings already
suppressed inline or by the config's per-path ignores are not recorded. `update` rewrites the
file with the current findings and says how many were added and dropped.
"""

from __future__ import annotations

import argparse
import os
import sys

from wukong_lint.cli import common


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("baseline", help="create or update the baseline file")
    actions = parser.add_subparsers(
        dest="baseline_command", metavar="ACTION", prog="wukong-lint baseline"
    )
    for name, text in (
        ("create", "scan and write a new baseline"),
        ("update", "rescan and rewrite an existing baseline"),
    ):
        action = actions.add_parser(name, help=text)
        common.add_scan_options(action)
        action.add_argument(
            "-o",
            "--output",
            metavar="FILE",
            help="baseline file (default: config `baseline`, else .wukong-lint-baseline.json;"
            " -: standard output)",
        )
        if name == "create":
            action.add_argument("--force", action="store_true", help="replace an existing file")
        action.set_defaults(handler=run)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from wukong_lint.suppression import baseline
    from wukong_lint.util.errors import UsageError

    command = getattr(args, "baseline_command", None)
    if command not in ("create", "update"):
        raise UsageError("baseline: expected one of: create, update")
    config = common.load_config(args)
    to_stdout = args.output == common.STDOUT
    path = (None if to_stdout else args.output) or config.baseline or baseline.DEFAULT_PATH
    exists = os.path.exists(path) and not to_stdout  # (update reads `path`, the old one)
    if command == "create" and exists and not args.force:
        raise UsageError(f"baseline create: {path} exists (use `baseline update` or --force)")
    # update keeps the file's salt (same scan, same bytes); a version 1 file gets a new one
    old = baseline.load(path) if command == "update" else None
    hashing = old.hashing if old and old.hashing else baseline.Hashing.new()
    # a baseline records findings, never the rules' docs or examples: the rules as a scan
    # loads them (the package snapshot), not every rule file parsed again
    ruleset = common.build_ruleset(args, config, details=False)
    report = common.scan_paths_report(args, ruleset)
    # per-path ignores of the config apply; an older baseline does not (it is being replaced)
    report = common.postfilter(report, config, args, use_baseline=False)
    for error in report.errors:
        print(f"wukong-lint: warning: {error.path}: {error.message}", file=sys.stderr)
    entries = baseline.entries_for(report.findings, os.getcwd(), path, hashing)
    if to_stdout:
        sys.stdout.write(baseline.dumps(entries, hashing))
        sys.stdout.flush()
        path = "(standard output)"
    else:
        baseline.save(path, entries, hashing)
    n = len(entries)
    said = sys.stderr if to_stdout else sys.stdout  # (stdout holds the baseline itself)
    noun = "finding" if n == 1 else "findings"
    if command == "create":
        print(f"Baseline {path}: {n} {noun} recorded.", file=said)
    else:
        assert old is not None
        before = {e._replace(fingerprint="") for e in old.upgraded(hashing)}
        now = {e._replace(fingerprint="") for e in entries}
        added, dropped = len(now - before), len(before - now)
        upgraded = " (upgraded to version 2: salted scrypt hashes)" if old.hashing is None else ""
        print(
            f"Baseline {path}: {n} {noun} ({added} added, {dropped} no longer found){upgraded}.",
            file=said,
        )
    return 0
