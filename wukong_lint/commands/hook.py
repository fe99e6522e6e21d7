"""`wukong-lint hook`: the Claude Code PreToolUse/PostToolUse hook (event JSON on stdin)."""

from __future__ import annotations

import argparse
import sys


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "hook", help="Claude Code hook: judge the tool call or result on stdin"
    )
    parser.add_argument(
        "--mode",
        choices=("exit", "json"),
        default="exit",
        help="block with exit code 2 and a reason on stderr (default), or with the JSON "
        "permissionDecision form on stdout",
    )
    parser.add_argument(
        "--fail-on",
        choices=("low", "medium", "high", "critical"),
        default="high",
        help="lowest severity that blocks (default: high)",
    )
    parser.add_argument("--profile", choices=("generic", "wukong"), default=None)
    parser.add_argument("--rules", action="append", default=[], metavar="DIR")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from wukong_lint.engine.loader import load_rules
    from wukong_lint.engine.scan import scan_unit
    from wukong_lint.hook import HookInputError, decide, event_units, parse_event
    from wukong_lint.model import Severity

    try:
        data = parse_event(sys.stdin.read())
    except HookInputError as err:
        print(f"wukong-lint hook: {err}; the call was not checked", file=sys.stderr)
        return 1
    except UnicodeDecodeError:
        print("wukong-lint hook: stdin is not UTF-8; the call was not checked", file=sys.stderr)
        return 1
    ruleset = load_rules(tuple(args.rules))
    findings = []
    notes: list[str] = []
    for unit in event_units(data, args.profile, notes):
        found, _ = scan_unit(ruleset, unit)
        findings += [f for f in found if not f.suppressed]
    from wukong_lint.checks.memory_gate import apply_guard_mode

    findings = apply_guard_mode(ruleset, findings, notes)
    code, out, err = decide(data, findings, Severity.parse(args.fail_on), args.mode)
    sys.stdout.write(out)
    sys.stderr.write("".join(f"wukong-lint hook: {note}\n" for note in notes) + err)
    return code
