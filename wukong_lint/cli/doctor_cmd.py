"""`wukong-lint doctor`: is the live hook wired into each agent found, and does it fire?
(the checks: wukong_lint/install/doctor.py)"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "doctor", help="check the hook of every agent found: registered, runs, denies, allows"
    )
    parser.add_argument(
        "--agent",
        action="append",
        choices=("claude-code", "codex", "cursor", "copilot", "gemini"),
        help="only this agent (repeatable; default: every agent found)",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from wukong_lint.agents import NAMES
    from wukong_lint.install.doctor import check, environment

    project = os.getcwd()
    agents = tuple(args.agent) if args.agent else NAMES
    found = check(project, os.path.expanduser("~"), agents) + environment(project)
    problems = [f for f in found if not f.ok]
    if args.format == "json":
        import json

        print(json.dumps([f._asdict() for f in found], indent=2, ensure_ascii=False))
        return 1 if problems else 0
    if not any(f.agent in agents for f in found):
        print("wukong-lint doctor: no agent found (run `wukong-lint install claude-code`)")
    for f in found:
        if f.ok:
            print(f"ok       {f.agent}: {f.text}")
    for f in problems:
        print(f"PROBLEM  {f.agent}: {f.text}; fix: {f.fix}")
    summary = f"{len(problems)} problem(s)" if problems else "ok"
    print(f"wukong-lint doctor: {summary}")
    return 1 if problems else 0
