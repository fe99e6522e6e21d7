"""Command line: argument parsing only; the work is done by library functions.

Exit codes: 0 nothing at or above --fail-on; 1 findings at or above it; 2 usage, config or
input error (one line on stderr, never a traceback).
"""

from __future__ import annotations

import os
import sys

from wukong_lint import __version__
from wukong_lint.errors import UsageError, WukongError

# typing costs ~3 ms to import: the pre-commit path starts git before anything imports it
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import Any

    from wukong_lint.sources.gitproc import StagedGit

SEVERITY_NAMES = ("low", "medium", "high", "critical")
_TRANSCRIPTS = "wukong_lint.sources.transcripts"

# Sub-commands that live in their own modules (each has `add_parser(subparsers)`, which
# registers the parser and its handler). Keep their heavy imports inside the handler.
COMMAND_MODULES: dict[str, str] = {
    "anchors": "wukong_lint.anchors.cli",
    "baseline": "wukong_lint.commands.baseline",
    "config": "wukong_lint.commands.config_cmd",
    "hook": "wukong_lint.commands.hook",
    "redact": "wukong_lint.commands.redact",
}
BUILTIN_COMMANDS = ("check", "rules")

# What the pre-commit hook runs (.pre-commit-hooks.yaml), parsed without argparse: importing
# it (with gettext and locale) and defining the parser cost ~4 ms on every commit. The
# namespace is the one argparse makes (a test compares them).
PRE_COMMIT_WORDS = ["check", "--staged"]
_CHECK_DEFAULTS: dict[str, Any] = {
    "command": "check",
    "paths": [],
    "staged": False,
    "diff": None,
    "history": False,
    "since": None,
    "format": "text",
    "output": None,
    "fail_on": None,
    "config": None,
    "baseline": None,
    "rules": [],
    "select": [],
    "ignore": [],
    "no_builtin_rules": False,
    "jobs": 0,
    "profile": None,
    "agents": None,
    "transcript_format": None,
    "allow_rule_timeouts": False,
}

_parser_class: Any = None


def _parser_type() -> Any:
    """The argparse parser class: errors are UsageErrors, and its formatter does not measure
    the terminal. Defined on first use: the pre-commit path never imports argparse."""
    global _parser_class
    if _parser_class is None:
        import argparse

        class Formatter(argparse.HelpFormatter):
            # argparse measures the terminal (importing shutil) whenever it builds a
            # formatter, which it does while the parser is being defined; help text only
            # needs a width when printed.
            def __init__(self, prog: str) -> None:
                try:
                    width = int(os.environ.get("COLUMNS", "100"))
                except ValueError:
                    width = 100
                super().__init__(prog, width=max(40, width) - 2)

        class Parser(argparse.ArgumentParser):
            def __init__(self, *args: object, **kwargs: object) -> None:
                kwargs.setdefault("formatter_class", Formatter)
                super().__init__(*args, **kwargs)  # type: ignore[arg-type]

            def error(self, message: str) -> None:  # type: ignore[override]
                raise UsageError(f"{self.prog}: {message}")

        _parser_class = Parser
    return _parser_class


def _build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with `only`, just that sub-command's (argparse spends ~1 ms per parser it
    defines, and `check --staged` runs on every commit)."""
    parser = _parser_type()(prog="wukong-lint", description="Policy linter for AI-agent work.")
    parser.add_argument("--version", action="version", version=f"wukong-lint {__version__}")
    # An explicit prog keeps argparse from measuring the terminal (importing shutil) at start-up.
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", parser_class=_parser_type(), prog="wukong-lint"
    )

    if only in (None, "check"):
        _add_check(sub)
    if only in (None, "rules"):
        _add_rules(sub)
    for name, module in COMMAND_MODULES.items():
        if only in (None, name):
            # the module adds its own sub-command: `add_parser(subparsers)` sets a `handler`
            import importlib

            importlib.import_module(module).add_parser(sub)
    return parser


def _add_check(sub: argparse._SubParsersAction) -> None:
    check = sub.add_parser("check", help="scan files, folders, staged changes or a commit range")
    check.add_argument("paths", nargs="*", metavar="PATH", help="files or folders (default: .)")
    what = check.add_mutually_exclusive_group()
    what.add_argument("--staged", action="store_true", help="only lines added in the git index")
    what.add_argument("--diff", metavar="BASE..HEAD", help="only lines added in a commit range")
    what.add_argument(
        "--history", action="store_true", help="every line ever added, with its commit"
    )
    check.add_argument("--since", metavar="REV", help="with --history: only commits after REV")
    check.add_argument(
        "--format", choices=("text", "json", "sarif", "github", "junit"), default="text"
    )
    check.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")
    check.add_argument(
        "--fail-on", choices=SEVERITY_NAMES, default=None, help="default: config, else high"
    )
    check.add_argument("--config", metavar="FILE", help="config file (default: found upwards)")
    check.add_argument("--baseline", metavar="FILE", help="report only findings not in FILE")
    check.add_argument(
        "--rules",
        action="append",
        default=[],
        metavar="DIR",
        help="extra rule files or folders (repeatable)",
    )
    check.add_argument("--select", action="append", default=[], metavar="RULE_OR_CATEGORY")
    check.add_argument("--ignore", action="append", default=[], metavar="RULE_OR_CATEGORY")
    check.add_argument(
        "--no-builtin-rules", action="store_true", help="use only the rules given with --rules"
    )
    check.add_argument(
        "--jobs",
        type=int,
        default=0,
        metavar="N",
        help="processes for folder, history and long transcript scans (default: one per core)",
    )
    check.add_argument(
        "--profile",
        choices=("generic", "wukong"),
        help="agent-boundary checks of transcripts (default: wukong when the repository has "
        ".wukong/ or the transcript spawns avatars)",
    )
    check.add_argument("--agents", metavar="DIR", help="Claude Code agent definitions (*.md)")
    check.add_argument(
        "--transcript-format", choices=("auto", "claude", "codex", "openai", "react")
    )
    check.add_argument(
        "--allow-rule-timeouts",
        action="store_true",
        help="exit as if complete when a rule ran out of time (default: exit 2)",
    )
    check.set_defaults(handler=_cmd_check)


def _add_rules(sub: argparse._SubParsersAction) -> None:
    rules = sub.add_parser("rules", help="list, show or test rules")
    rules_sub = rules.add_subparsers(
        dest="rules_command",
        metavar="ACTION",
        parser_class=_parser_type(),
        prog="wukong-lint rules",
    )
    r_list = rules_sub.add_parser("list", help="table of rules")
    r_show = rules_sub.add_parser("show", help="docs and examples of one rule")
    r_show.add_argument("rule_id")
    r_test = rules_sub.add_parser("test", help="run the examples of rules")
    r_test.add_argument("dirs", nargs="*", metavar="DIR")
    for p in (r_list, r_show, r_test):
        p.add_argument("--rules", action="append", default=[], metavar="DIR")
    from wukong_lint.commands.rules_extra import add_actions

    add_actions(rules_sub)  # rules docs, rules import-gitleaks
    rules.set_defaults(handler=_cmd_rules)


def _split(values: list[str]) -> list[str]:
    return [v.strip() for value in values for v in value.split(",") if v.strip()]


def _load(args: Any, *, builtin: bool = True):
    from wukong_lint.engine.loader import load_rules

    return load_rules(tuple(args.rules), builtin=builtin)


def _cmd_check(args: argparse.Namespace) -> int:
    if args.since and not args.history:
        raise UsageError("check: --since needs --history")
    if (args.staged or args.diff or args.history) and args.paths:
        raise UsageError("check: give PATHs or --staged/--diff/--history, not both")
    if args.jobs < 0:
        raise UsageError("check: --jobs must be 1 or more")
    started = None
    thresholds = None
    if args.staged:
        # git reads the index while the scanner is imported and the rules load
        from wukong_lint.sources.gitproc import start_staged

        started = start_staged()
        # A pre-commit run allocates a lot (imports, the rule cache, parse trees) and frees
        # little: the collector's frequent passes cost ~3 ms of a ~65 ms run. It still runs,
        # a hundred times less often (restored after: tests run many checks in one process).
        import gc

        thresholds = gc.get_threshold()
        gc.set_threshold(100_000, 50, 100)
    try:
        return _check(args, started)
    finally:
        if started is not None:
            started.close()
        if thresholds is not None:
            import gc

            gc.set_threshold(*thresholds)


def _check(args: argparse.Namespace, started: StagedGit | None) -> int:
    from wukong_lint.commands import common
    from wukong_lint.engine.scan import Scanner
    from wukong_lint.model import Severity

    config = common.load_config(args)
    args.profile = args.profile or config.profile  # the command line wins over the config
    if args.profile or args.agents or args.transcript_format or _TRANSCRIPTS in sys.modules:
        from wukong_lint.sources import transcripts  # (options of an earlier run are reset)

        if args.agents and not os.path.isdir(args.agents):
            raise UsageError(f"check: --agents: no such folder: {args.agents}")
        transcripts.configure(args.profile, args.agents, args.transcript_format)
    from wukong_lint.report import CONTEXT_FORMATS

    if started is not None:
        from wukong_lint.sources.git import prepare_staged

        prepare_staged(started)  # cat-file, if needed, starts while the rules load
    # docs and examples of the rules: only the SARIF, GitHub and JUnit renderers get rules
    ruleset = common.build_ruleset(args, config, details=args.format in CONTEXT_FORMATS)
    scanner = Scanner(ruleset)
    if args.staged:
        from wukong_lint.sources.git import staged_units

        scanner.scan(staged_units(started=started))
    elif args.diff:
        from wukong_lint.sources.git import range_units

        scanner.scan(range_units(args.diff))
    elif args.history:
        from wukong_lint.engine.parallel import default_jobs, scan_stream
        from wukong_lint.sources.history import history_units

        scan_stream(scanner, history_units(args.since), args.jobs or default_jobs())
    else:
        from wukong_lint.engine.parallel import default_jobs, scan_paths
        from wukong_lint.sources.files import iter_paths

        files = list(iter_paths(args.paths or ["."]))
        from wukong_lint.report.progress import attach

        bar = attach(scanner, files)
        scan_paths(scanner, files, args.jobs or default_jobs())
        if bar:
            bar.close()
    report = common.postfilter(scanner.report(), config, args)
    if report.findings or report.errors:  # a file named after a secret, an error quoting one
        from wukong_lint.masking import mask_report

        report = mask_report(report, ruleset.masker())
    context = common.render_context(args, ruleset, args.format)

    from wukong_lint.report import render

    if report.errors:
        from wukong_lint.report.safe import printable

        for error in report.errors:
            where = printable(f"{error.path}: {error.message}")
            print(f"wukong-lint: warning: {where}", file=sys.stderr)
    if args.output:
        from wukong_lint.fsutil import atomic_write_text, atomic_writer

        try:
            if args.format == "json":  # written as it is encoded: no copy of the whole report
                from wukong_lint.report.json_report import chunks

                with atomic_writer(args.output) as handle:
                    for chunk in chunks(report):
                        handle.write(chunk.encode("utf-8"))
            else:
                atomic_write_text(args.output, render(report, args.format, **context))
        except OSError as err:
            raise UsageError(f"cannot write {args.output}: {err.strerror or err}") from None
    else:
        color = args.format == "text" and sys.stdout.isatty() and "NO_COLOR" not in os.environ
        text = render(report, args.format, color=color, **context)
        if not sys.stdout.encoding or sys.stdout.encoding.lower() not in ("utf-8", "utf8"):
            from wukong_lint.report.safe import for_stream  # an ASCII or C-locale stdout

            text = for_stream(text, args.format, sys.stdout.encoding)
        sys.stdout.write(text)
    fail_on = args.fail_on or config.fail_on or "high"
    if report.errors and not args.allow_rule_timeouts:
        from wukong_lint.engine.scan import is_rule_timeout

        timeouts = sum(1 for error in report.errors if is_rule_timeout(error))
        if timeouts:  # fail closed: a rule did not see all of the text
            print(
                f"wukong-lint: error: {timeouts} rule time-out(s): the scan is incomplete "
                "(--allow-rule-timeouts accepts that)",
                file=sys.stderr,
            )
            return 2
    return 1 if report.failing(Severity.parse(fail_on)) else 0


def _cmd_rules(args: argparse.Namespace) -> int:
    if args.rules_command == "list":
        ruleset = _load(args)
        print(f"{'ID':<44} {'CATEGORY':<20} {'SEVERITY':<9} {'KIND':<8} ENABLED")
        for rule in ruleset.rules:
            state = "on" if rule.enabled else "off"
            severity = SEVERITY_NAMES[rule.severity - 1]
            print(f"{rule.id:<44} {rule.category:<20} {severity:<9} {rule.kind:<8} {state}")
        return 0
    if args.rules_command == "show":
        ruleset = _load(args)
        rule = ruleset.by_id.get(args.rule_id)
        if rule is None:
            raise UsageError(f"rules show: unknown rule {args.rule_id!r}")
        print(
            f"{rule.id}  ({rule.category}, {SEVERITY_NAMES[rule.severity - 1]}, kind {rule.kind})"
        )
        print(f"\n{rule.message}\n\n{rule.docs}\n")
        print("Matches:")
        for text in rule.examples_match:
            print(f"  {text}")
        print("Does not match:")
        for text in rule.examples_no_match:
            print(f"  {text}")
        return 0
    if args.rules_command == "test":
        from wukong_lint.engine.examples import example_problems

        dirs = args.dirs + args.rules
        from types import SimpleNamespace

        ruleset = _load(SimpleNamespace(rules=dirs), builtin=not dirs)
        problems = [p for rule in ruleset.rules for p in example_problems(rule)]
        for problem in problems:
            print(problem)
        n = len(ruleset.rules)
        print(f"{n} rule{'s' if n != 1 else ''} tested, {len(problems)} problem(s).")
        return 1 if problems else 0
    raise UsageError("rules: expected one of: list, show ID, test [DIR]")


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    if encoding.lower() not in ("utf-8", "utf8") and hasattr(sys.stdout, "reconfigure"):
        # an ASCII or C-locale stdout: what it cannot take is escaped, never a crash (a
        # report is converted first: report/safe.py)
        sys.stdout.reconfigure(errors="backslashreplace")
    parser = None
    if words != PRE_COMMIT_WORDS:
        command = next((w for w in words if not w.startswith("-")), None)
        known = command in BUILTIN_COMMANDS or command in COMMAND_MODULES
        parser = _build_parser(command if known else None)
    try:
        if parser is None:
            from types import SimpleNamespace

            fresh = {k: list(v) if isinstance(v, list) else v for k, v in _CHECK_DEFAULTS.items()}
            args: Any = SimpleNamespace(**{**fresh, "staged": True})
            args.handler = _cmd_check
        else:
            args = parser.parse_args(words)
        handler = getattr(args, "handler", None)
        if handler is None:
            assert parser is not None
            parser.print_help(sys.stderr)
            return 2
        code = int(handler(args))
        if argv is None and getattr(args, "command", None) == "check" and args.staged:
            _exit_now(code)
        return code
    except WukongError as err:
        print(f"wukong-lint: error: {err}", file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        print("wukong-lint: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); nothing more to say.
        sys.stderr.close()
        return 0
    except Exception as err:  # a bug must still end with one line, not a traceback
        if os.environ.get("WUKONG_LINT_DEBUG"):
            raise
        print(
            f"wukong-lint: internal error: {type(err).__name__}: {err} "
            "(please report it; WUKONG_LINT_DEBUG=1 shows the traceback)",
            file=sys.stderr,
        )
        return 2


def _exit_now(code: int) -> None:
    """End the process at once, skipping the interpreter's teardown (some 7 ms after a staged
    scan: every module, tree-sitter's parsers, the rules): once stdout and stderr are flushed,
    and only if nothing is registered to run at exit. Otherwise return, to exit normally
    (a flush that fails, such as a closed pipe, is then reported as it always was)."""
    import atexit

    pending = getattr(atexit, "_ncallbacks", None)
    if pending is None or pending():
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:
        return
    os._exit(code)
