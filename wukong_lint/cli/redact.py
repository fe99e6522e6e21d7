"""`wukong-lint redact TRANSCRIPT -o OUT`: a copy with every secret masked;
`wukong-lint redact --in-place PATH... [--agent-history [AGENT]]`: the files cleaned where
they are (engine/masking/inplace.py: safe while an agent appends), with a manifest of the
lines changed, `--dry-run`, `--backup DIR`.

JSONL is rewritten record by record: a record holding a secret is decoded, every string in
it (at any depth, including JSON encoded inside strings) has its secrets replaced by a
marker, and it is written back as one JSON line; other lines are copied byte for byte. A
line that is not JSON is masked as text. A JSON array (OpenAI chat) is rewritten whole, any
other text line by line. The output replaces its target atomically; the input is never
touched unless `--in-place`. `-o -` writes to standard output.

A Claude Code session's sub-agent transcripts (`<session>/subagents/agent-*.jsonl`) are
redacted with it: in place, or to `<OUT without its suffix>/subagents/` (`<OUT>.d/subagents/`
for an OUT without a suffix); with `-o -` they are not, and a note says so.
"""

from __future__ import annotations

import argparse
import os


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    from wukong_lint.cli.agent_history import add_argument

    parser = subparsers.add_parser("redact", help="copy a transcript with its secrets masked")
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="the transcript (with -o); with --in-place: sessions, sub-agent files, folders",
    )
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument(
        "-o", "--output", metavar="OUT", help="write the clean copy here (-: standard output)"
    )
    where.add_argument(
        "--in-place", action="store_true", help="clean the PATHs where they are (atomically)"
    )
    add_argument(parser)
    parser.add_argument(
        "--since", metavar="DURATION", help="with --agent-history: sessions modified in 7d, 12h…"
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="with --in-place: list what would change"
    )
    parser.add_argument(
        "--backup", metavar="DIR", help="with --in-place: keep the originals here (mode 0600)"
    )
    parser.add_argument(
        "--manifest",
        metavar="FILE",
        help="with --in-place: write the manifest (JSONL: file, line, rules) here (default: "
        "standard output)",
    )
    parser.add_argument(
        "--jobs", type=int, default=0, metavar="N",
        help="with --in-place: processes (default: one per core)",
    )  # fmt: skip
    parser.add_argument("--rules", action="append", default=[], metavar="DIR")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from wukong_lint.util.errors import UsageError

    if args.in_place:
        from wukong_lint.cli.redact_inplace import run_in_place

        return run_in_place(args)
    extra = [n for n in ("agent_history", "dry_run", "backup", "manifest", "since")
             if getattr(args, n)]  # fmt: skip
    if extra:
        raise UsageError(f"redact: --{extra[0].replace('_', '-')} needs --in-place")
    if len(args.paths) != 1:
        raise UsageError("redact: -o takes one TRANSCRIPT")
    args.transcript = args.paths[0]

    from wukong_lint.engine.loader import load_rules
    from wukong_lint.engine.masking.redactor import redact_file, redact_to
    from wukong_lint.sources.transcripts.claude import subagent_files

    if not os.path.isfile(args.transcript):
        raise UsageError(f"redact: no such file: {args.transcript}")
    target = args.output
    to_stdout = target == "-"  # (never a file named "-")
    if os.path.abspath(target) == os.path.abspath(args.transcript):
        raise UsageError("redact: OUT is the input; use --in-place to replace it")
    # A Claude Code session's sub-agents write their own files (<session>/subagents/): the
    # secrets they printed are part of the session, so they are cleaned with it.
    subs = subagent_files(args.transcript)
    # (beside OUT as beside a session: `clean.jsonl` -> `clean/subagents/`; an OUT without a
    # suffix cannot be its own folder: `out` -> `out.d/subagents/`)
    stem = os.path.splitext(target)[0]
    sub_out = "" if to_stdout else stem if stem != target else target + ".d"
    if (
        sub_out
        and subs
        and os.path.abspath(os.path.join(sub_out, "subagents"))
        == (os.path.dirname(os.path.abspath(subs[0])))
    ):
        raise UsageError("redact: OUT would replace the session's sub-agent files; "
                         "use --in-place to replace them")  # fmt: skip
    ruleset = load_rules(tuple(args.rules), details=False)  # (masking reads no docs)
    errors = 0
    try:
        if to_stdout:
            redactor = redact_to(args.transcript, sys.stdout.buffer, ruleset)
            sys.stdout.buffer.flush()
        else:
            redactor = redact_file(args.transcript, target, ruleset)
        count, errors = redactor.count, redactor.errors
        written = "standard output" if to_stdout else target
        cleaned = 0
        for sub in subs if not to_stdout else ():
            sub_target = os.path.join(sub_out, "subagents", os.path.basename(sub))
            os.makedirs(os.path.dirname(sub_target), exist_ok=True)
            done = redact_file(sub, sub_target, ruleset)
            count, errors, cleaned = count + done.count, errors + done.errors, cleaned + 1
    except OSError as err:
        raise UsageError(f"redact: {err.filename or target}: {err.strerror or err}") from None
    if errors:
        print(f"wukong-lint: warning: {errors} text(s) hit a rule's time limit", file=sys.stderr)
    if subs and to_stdout:
        print(
            f"wukong-lint: note: {len(subs)} sub-agent transcript(s) of this session "
            f"({os.path.dirname(subs[0])}) NOT redacted: standard output holds one file "
            "(use -o FILE or --in-place to clean them too)",
            file=sys.stderr,
        )
    also = ""
    if cleaned:
        where = os.path.join(sub_out, "subagents")
        also = f" (with {cleaned} sub-agent transcript(s) -> {where})"
    print(f"{count} secret(s) redacted -> {written}{also}", file=sys.stderr)
    return 0
