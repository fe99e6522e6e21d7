"""`wukong-lint redact TRANSCRIPT -o OUT [--in-place]`: a copy with every secret masked.

JSONL is rewritten record by record: a record holding a secret is decoded, every string in
it (at any depth, including JSON encoded inside strings) has its secrets replaced by a
marker, and it is written back as one JSON line; other lines are copied byte for byte. A
line that is not JSON is masked as text. A JSON array (OpenAI chat) is rewritten whole, any
other text line by line. The output replaces its target atomically; the input is never
touched unless `--in-place`.
"""

from __future__ import annotations

import argparse
import os


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("redact", help="copy a transcript with its secrets masked")
    parser.add_argument("transcript", metavar="TRANSCRIPT")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("-o", "--output", metavar="OUT", help="write the clean copy here")
    where.add_argument("--in-place", action="store_true", help="replace TRANSCRIPT (atomically)")
    parser.add_argument("--rules", action="append", default=[], metavar="DIR")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from wukong_lint.engine.loader import load_rules
    from wukong_lint.engine.masking.redactor import redact_file
    from wukong_lint.util.errors import UsageError

    if not os.path.isfile(args.transcript):
        raise UsageError(f"redact: no such file: {args.transcript}")
    target = args.transcript if args.in_place else args.output
    if not args.in_place and os.path.abspath(target) == os.path.abspath(args.transcript):
        raise UsageError("redact: OUT is the input; use --in-place to replace it")
    ruleset = load_rules(tuple(args.rules))
    try:
        redactor = redact_file(args.transcript, target, ruleset)
    except OSError as err:
        raise UsageError(f"redact: {err.filename or target}: {err.strerror or err}") from None
    if redactor.errors:
        print(
            f"wukong-lint: warning: {redactor.errors} text(s) hit a rule's time limit",
            file=sys.stderr,
        )
    print(f"{redactor.count} secret(s) redacted -> {target}", file=sys.stderr)
    return 0
