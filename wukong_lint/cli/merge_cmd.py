"""`wukong-lint merge REPORT...`: the reports of a split scan's shards (`check --shard K/N`)
as one, written by the JSON or SARIF writer `check` uses (report/merge.py reads and joins
them). Exit codes as `check`'s: 1 when a finding is at or above --fail-on; 2 for a report
that cannot be read or merged, a shard missing from the split (unless --allow-partial), or
inputs the shards could not scan (unless --allow-skipped / --allow-rule-timeouts)."""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "merge", help="merge the JSON or SARIF reports of `check --shard K/N` runs into one"
    )
    parser.add_argument("reports", nargs="+", metavar="REPORT", help="JSON or SARIF reports")
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="write the merged report to FILE (-: stdout)"
    )
    parser.add_argument(
        "--format", choices=("json", "sarif"), default=None, help="default: the reports' format"
    )
    parser.add_argument(
        "--fail-on",
        choices=("low", "medium", "high", "critical"),
        default=None,
        help="default: config, else high",
    )
    parser.add_argument("--config", metavar="FILE", help="config file (default: found upwards)")
    parser.add_argument(
        "--allow-partial",
        action="store_true",
        help="shards missing from the split are a warning only (default: exit 2)",
    )
    parser.add_argument(
        "--allow-skipped",
        action="store_true",
        help="inputs a shard could not read are a warning only (default: exit 2)",
    )
    parser.add_argument(
        "--allow-rule-timeouts",
        action="store_true",
        help="rules that ran out of time in a shard are a warning only (default: exit 2)",
    )
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 even with findings")
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from types import SimpleNamespace

    from wukong_lint.cli import common
    from wukong_lint.model import Severity
    from wukong_lint.report.merge import load, merge

    merged = merge([load(path) for path in args.reports])
    report = merged.report
    fmt = args.format or merged.format
    context = {"rules": merged.rules, "prefix": ""} if fmt == "sarif" else {}
    # (`paths`: -o must not overwrite one of the reports it merges)
    out = SimpleNamespace(format=fmt, output=args.output or "-", quiet=args.quiet,
                          paths=list(args.reports), color="never")  # fmt: skip
    common.emit(report, out, context)
    code = 0
    shard = report.shard
    if shard is not None and shard.missing:
        missing = ", ".join(f"{k}/{shard.count}" for k in shard.missing)
        level = "warning" if args.allow_partial else "error"
        print(f"wukong-lint: {level}: shard(s) {missing} missing: the merged report covers "
              f"{len(shard.indexes)} of {shard.count} shards"
              + ("" if args.allow_partial else " (--allow-partial accepts that)"),
              file=sys.stderr)  # fmt: skip
        if not args.allow_partial:
            code = 2
    incomplete = common.incomplete_scan(report, args.allow_skipped, args.allow_rule_timeouts)
    if incomplete:
        print(f"wukong-lint: error: {incomplete}", file=sys.stderr)
    if code or incomplete:
        return 2
    if args.exit_zero:
        return 0
    fail_on = args.fail_on or common.load_config(args).fail_on or "high"
    return 1 if report.failing(Severity.parse(fail_on)) else 0
