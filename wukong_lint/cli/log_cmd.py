"""`wukong-lint log`: the hook's audit log (wukong_lint/audit/), newest last."""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("log", help="the live hook's audit log of decisions")
    parser.add_argument(
        "--since", metavar="WHEN", help="30m, 12h, 1d, 2w ago, or a date YYYY-MM-DD"
    )
    parser.add_argument("--verdict", choices=("deny", "ask", "allow", "redact"), default=None)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import json

    from wukong_lint.audit.log import audit_dir, parse_since, read
    from wukong_lint.util.errors import UsageError

    since = None
    if args.since:
        try:
            since = parse_since(args.since)
        except ValueError:
            raise UsageError(
                f"log: --since {args.since!r}: expected 30m, 12h, 1d, 2w or YYYY-MM-DD"
            ) from None
    records, bad = read(since, args.verdict)
    if args.format == "json":
        for record in records:
            sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
    elif not records:
        print(f"wukong-lint log: no decisions recorded (in {audit_dir()})")
    else:
        for r in records:
            rules = ",".join(r.get("rules") or []) or "-"
            subject = str(r.get("subject") or "").replace("\n", "⏎")
            print(f"{r.get('time', '?')}  {r.get('verdict', '?')!s:5}  "
                  f"{r.get('agent', '?')!s:11}  {r.get('tool') or '-'!s:14}  "
                  f"{rules}  {subject[:120]}")  # fmt: skip
    if bad:
        print(f"wukong-lint log: {bad} line(s) could not be read", file=sys.stderr)
    return 0
