"""`wukong-lint install AGENT` / `uninstall AGENT`: the hook registration in an agent's
configuration (wukong_lint/install/registration.py does the merging)."""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

AGENTS = ("claude-code", "codex", "cursor", "copilot", "gemini")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    for name, text in (
        ("install", "register the live hook in an agent's configuration"),
        ("uninstall", "remove the hook registration that install added"),
    ):
        parser = subparsers.add_parser(name, help=text)
        parser.add_argument("agent", choices=AGENTS, metavar="AGENT", help=", ".join(AGENTS))
        scope = parser.add_mutually_exclusive_group()
        scope.add_argument(
            "--project", action="store_true", help="the project's configuration (current folder)"
        )
        scope.add_argument("--user", action="store_true", help="the user's configuration (default)")
        scope.add_argument(
            "--plugin",
            metavar="DIR",
            help="claude-code: a plugin folder (.claude-plugin/plugin.json, hooks/hooks.json)",
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="print the change as a diff, write nothing"
        )
        if name == "install":
            parser.add_argument("--profile", choices=("generic", "wukong"), default=None)
            parser.add_argument(
                "--hygiene",
                action="store_true",
                help="also register the agent's session-end event, at which the hook masks the "
                "secrets of the session file in place (claude-code, gemini: SessionEnd; "
                "cursor: sessionEnd; codex: Stop)",
            )
            parser.add_argument(
                "--executable",
                metavar="PATH",
                help="the wukong-lint the agent runs (default: this installation, absolute)",
            )
        parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from wukong_lint.agents import adapter
    from wukong_lint.install import registration as reg
    from wukong_lint.util.errors import UsageError

    agent = adapter(args.agent)
    installing = args.command == "install"
    command = None
    if installing:
        command = reg.hook_command(reg.executable(args.executable), args.agent, args.profile,
                                   args.hygiene)  # fmt: skip
    if args.plugin:
        if args.agent != "claude-code":
            raise UsageError(f"{args.command}: --plugin is for claude-code only")
        return _plugin(args, agent, command)
    scope = "project" if args.project else "user"
    path = reg.config_path(agent, scope, os.getcwd(), os.path.expanduser("~"))
    data, before = reg.load(path)
    if installing:
        if args.hygiene and not agent.HYGIENE_EVENTS:
            raise UsageError(f"install: --hygiene: {args.agent}'s session-end event names no "
                             "session file to clean")  # fmt: skip
        after_data = reg.add(agent, data, command, args.hygiene)
    else:
        after_data = reg.remove(data)
        if before is None or not reg.registered(data):
            print(f"wukong-lint: {args.agent}: no wukong-lint hook in {path}; nothing to do")
            return 0
    after: str | None = reg.render(after_data)
    if not installing and set(after_data) <= {"version"}:
        after = None  # (nothing left in it but the format's version: as before install)
    if before is not None and after is not None and after_data == data:
        print(f"wukong-lint: {args.agent}: already registered in {path}; nothing to do")
        return 0
    if args.dry_run:
        sys.stdout.write(reg.diff(path, before, after))
        return 0
    backup = reg.write(path, before, after)
    events = ", ".join((*agent.EVENTS, *(agent.HYGIENE_EVENTS if installing and args.hygiene
                                         else ())))  # fmt: skip
    what = f"registered for {events}" if installing else "removed"
    print(f"wukong-lint: {args.agent}: hook {what} in {path}")
    if backup:
        print(f"wukong-lint: the previous file is kept as {backup}")
    if installing:
        print("wukong-lint: check it with `wukong-lint doctor`")
    return 0


def _plugin(args: argparse.Namespace, agent: object, command: str | None) -> int:
    import contextlib
    import json

    from wukong_lint.install import registration as reg

    folder = os.path.abspath(args.plugin)
    if args.command == "uninstall":  # (our two files only, then the folders they leave empty)
        files = list(reg.plugin_files(folder, agent, "").keys())
        present = [path for path in files if os.path.isfile(path)]
        if not present:
            print(f"wukong-lint: no wukong-lint plugin in {folder}; nothing to do")
            return 0
        for path in present:
            if args.dry_run:
                print(f"would remove {path}")
            else:
                reg.write(path, None, None)  # (our own file: no backup to leave behind)
        if not args.dry_run:
            for path in files:
                with contextlib.suppress(OSError):
                    os.rmdir(os.path.dirname(path))
            print(f"wukong-lint: removed the plugin's files from {folder}")
        return 0
    assert command is not None
    for path, data in reg.plugin_files(folder, agent, command, args.hygiene).items():
        _, before = reg.load(path)
        after = json.dumps(data, indent=2) + "\n"
        if args.dry_run:
            sys.stdout.write(reg.diff(path, before, after))
        elif after != before:
            reg.write(path, before, after)
    if not args.dry_run:
        print(f"wukong-lint: Claude Code plugin written to {folder} "
              f"(add it with `claude --plugin-dir {folder}` or a marketplace)")  # fmt: skip
    return 0
