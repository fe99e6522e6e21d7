"""`wukong-lint explain "CMD"` / `explain --tool Read --path P`: the verdict the hook would
give one call, and why (wukong_lint/explain/)."""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "explain", help="the verdict of one command line or file call, and why"
    )
    parser.add_argument("command_line", nargs="?", metavar="CMD", help="a shell command line")
    parser.add_argument(
        "--tool", default=None, metavar="TOOL",
        help="the tool of the call (default: Bash with CMD; Read, Write, Edit with --path)",
    )  # fmt: skip
    parser.add_argument("--path", metavar="PATH", help="the file a file tool reads or writes")
    parser.add_argument(
        "--cwd", metavar="DIR", default=None, help="the project folder (default: current)"
    )
    parser.add_argument("--profile", choices=("generic", "wukong"), default=None)
    parser.add_argument("--fail-on", choices=("low", "medium", "high", "critical"), default=None)
    parser.add_argument("--config", metavar="FILE", help="config file (default: found from cwd)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.set_defaults(handler=run, select=[], ignore=[], rules=[])


def run(args: argparse.Namespace) -> int:
    from wukong_lint.cli.common import build_ruleset
    from wukong_lint.explain.report import explain, hook_event, judge
    from wukong_lint.hook.config_cache import hook_config
    from wukong_lint.util.errors import UsageError

    if (args.command_line is None) == (args.path is None):
        raise UsageError('explain: give a command line ("CMD") or --path PATH, not both')
    tool = args.tool or ("Bash" if args.path is None else "Read")
    if args.path is not None and tool in ("Bash",):
        raise UsageError("explain: --path goes with a file tool (--tool Read, Write, Edit)")
    cwd = os.path.abspath(args.cwd or os.getcwd())
    if not os.path.isdir(cwd):
        raise UsageError(f"explain: --cwd: no such folder: {args.cwd}")
    config, _ = hook_config(args.config, cwd)  # (the layers, as the hook reads them)
    ruleset = build_ruleset(args, config, details=False)
    data = hook_event(tool, args.command_line, args.path, cwd)
    verdict, findings = judge(data, config, ruleset, args.profile or config.profile, args.fail_on)
    explanation = explain(data, verdict, findings)
    from wukong_lint.engine.masking.redactor import Redactor

    redactor = Redactor(ruleset)  # (never print a secret the command line holds)
    text = explanation.to_json() + "\n" if args.format == "json" else explanation.to_text()
    sys.stdout.write(redactor.text(text))
    return 0
