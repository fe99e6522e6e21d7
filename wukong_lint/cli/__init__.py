"""Command line: argument parsing only; the work is done by library functions. Each
sub-command with options of its own lives in a module of this package (COMMAND_MODULES).

Layer: the top. May import every package; nothing imports it.

Exit codes: 0 nothing at or above --fail-on; 1 findings at or above it; 2 usage, config or
input error (one line on stderr, never a traceback).
"""

from __future__ import annotations

import os
import sys

from wukong_lint import __version__
from wukong_lint.native import status as native_status
from wukong_lint.util.errors import UsageError, WukongError

# typing costs ~3 ms to import: the pre-commit path starts git before anything imports it
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import Any

    from wukong_lint.util.gitproc import StagedGit

SEVERITY_NAMES = ("low", "medium", "high", "critical")
_TRANSCRIPTS = "wukong_lint.sources.transcripts"

# Sub-commands that live in their own modules (each has `add_parser(subparsers)`, which
# registers the parser and its handler). Keep their heavy imports inside the handler.
COMMAND_MODULES: dict[str, str] = {
    "anchors": "wukong_lint.cli.anchors",
    "baseline": "wukong_lint.cli.baseline",
    "completion": "wukong_lint.cli.completion",
    "config": "wukong_lint.cli.config_cmd",
    "doctor": "wukong_lint.cli.doctor_cmd",
    "explain": "wukong_lint.cli.explain_cmd",
    "hook": "wukong_lint.cli.hook",
    "install": "wukong_lint.cli.install_cmd",
    "log": "wukong_lint.cli.log_cmd",
    "merge": "wukong_lint.cli.merge_cmd",
    "redact": "wukong_lint.cli.redact",
}
BUILTIN_COMMANDS = ("check", "rules")

# What the pre-commit hook runs (.pre-commit-hooks.yaml), parsed without argparse: importing
# it (with gettext and locale) and defining the parser cost ~4 ms on every commit. The
# namespace is the one argparse makes (a test compares them).
PRE_COMMIT_WORDS = ["check", "--staged"]
# ... and what the hook runs now: `check --pre-commit FILE...` (see precommit.py)
PRE_COMMIT_FLAG = "--pre-commit"
_CHECK_DEFAULTS: dict[str, Any] = {
    "command": "check",
    "paths": [],
    "staged": False,
    "pre_commit": False,
    "diff": None,
    "history": False,
    "agent_history": None,
    "since": None,
    "allow_empty_range": False,
    "format": "text",
    "lang": "zh",
    "output": None,
    "fail_on": None,
    "config": None,
    "baseline": None,
    "rules": [],
    "select": [],
    "ignore": [],
    "no_builtin_rules": False,
    "no_decode": False,
    "jobs": 0,
    "profile": None,
    "agents": None,
    "protocol_version": None,
    "transcript_format": None,
    "exit_zero": False,
    "quiet": False,
    "color": "auto",
    "stdin_filename": None,
    "allow_skipped": False,
    "stale_ignores": "warn",
    "allow_rule_timeouts": False,
    "no_archives": False,
    "archive_depth": 2,
    "archive_max_mb": 256,
    "shard": None,
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

            words: list[str] | None = None  # the command line (set on the top-level one)

            def error(self, message: str) -> None:  # type: ignore[override]
                from wukong_lint.cli.usage_errors import parser_error

                raise parser_error(self, message, self.words)

        _parser_class = Parser
    return _parser_class


def _version_action() -> Any:
    import argparse

    class Version(argparse.Action):
        """`--version`: the build (native.py) and the secret regex engine
        (engine/multimatch.py: Hyperscan, or why not), found only when asked (importing
        Hyperscan costs milliseconds)."""

        def __call__(self, parser: Any, namespace: Any, values: Any, option: Any = None) -> None:
            from wukong_lint.engine.multimatch import engine_status

            # (the build in its own brackets: CI and users grep for "(compiled (mypyc))")
            print(f"wukong-lint {__version__} ({native_status()}) (secrets: {engine_status()})")
            parser.exit()

    return Version


def _build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with `only`, just that sub-command's (argparse spends ~1 ms per parser it
    defines, and `check --staged` runs on every commit)."""
    parser = _parser_type()(prog="wukong-lint", description="Policy linter for AI-agent work.")
    # (and whether the hottest modules run compiled: native.py)
    import argparse

    # (SUPPRESS: like argparse's own version action, it leaves the namespace alone)
    parser.add_argument(
        "--version", action=_version_action(), nargs=0, default=argparse.SUPPRESS,
        help="show the version, the build and the secret engine, then exit",
    )  # fmt: skip
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
    check.add_argument(
        "paths", nargs="*", metavar="PATH", help="files or folders (default: .); -: standard input"
    )
    what = check.add_mutually_exclusive_group()
    what.add_argument("--staged", action="store_true", help="only lines added in the git index")
    what.add_argument(
        PRE_COMMIT_FLAG,
        action="store_true",
        help="the pre-commit hook: in a git commit the staged lines of the PATHs, "
        "otherwise (pre-commit run --all-files/--files, CI) the PATHs whole",
    )
    what.add_argument(
        "--diff",
        metavar="BASE..HEAD",
        help="lines added by each commit of a range (BASE..HEAD, BASE...HEAD, or REV: REV..HEAD)",
    )
    what.add_argument(
        "--history", action="store_true", help="every line ever added, with its commit"
    )
    from wukong_lint.cli.agent_history import add_argument

    add_argument(check)
    check.add_argument(
        "--since",
        metavar="REV",
        help="with --history: only commits after REV; with --agent-history: only sessions "
        "modified in the last DURATION (7d, 12h, 30m, 2w)",
    )
    check.add_argument(
        "--allow-empty-range",
        action="store_true",
        help="with --diff: a range without commits is not an error",
    )
    check.add_argument(
        "--format",
        choices=("text", "concise", "json", "sarif", "github", "junit", "jie"),
        default="text",
        help="concise: one `path:line:col: severity rule-id message` line per finding; "
        "jie: the 戒关检查 report (Markdown)",
    )
    check.add_argument(
        "--lang", choices=("zh", "en"), default="zh", help="language of --format jie"
    )
    check.add_argument(
        "-o", "--output", metavar="FILE", help="write the report to FILE (-: standard output)"
    )
    check.add_argument(
        "--fail-on", choices=SEVERITY_NAMES, default=None, help="default: config, else high"
    )
    from wukong_lint.cli.check_options import add_output_options

    add_output_options(check)
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
        "--no-decode",
        action="store_true",
        help="search secrets only as written: no decoded (base64, hex, escapes...) or joined views",
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
        "--protocol-version",
        metavar="VERSION",
        help="the 戒 protocol version transcripts are judged by: auto (default: what each "
        "session shows), jie-2026-01, jie-current (rules/protocol/*.yaml)",
    )
    check.add_argument(
        "--transcript-format", choices=("auto", "claude", "codex", "openai", "react")
    )
    check.add_argument(
        "--allow-rule-timeouts",
        action="store_true",
        help="exit as if complete when a rule ran out of time (default: exit 2)",
    )
    from wukong_lint.cli.check_options import add_archive_options, add_shard_option

    add_archive_options(check)
    add_shard_option(check)
    check.set_defaults(handler=_cmd_check)


def _add_rules(sub: argparse._SubParsersAction) -> None:
    rules = sub.add_parser("rules", help="list, show or test rules")
    rules_sub = rules.add_subparsers(
        dest="rules_command",
        metavar="ACTION",
        parser_class=_parser_type(),
        prog="wukong-lint rules",
    )
    r_list = rules_sub.add_parser("list", help="table of rules, sorted by id")
    r_list.add_argument("--format", choices=("text", "json"), default="text")
    r_list.add_argument("--category", action="append", default=[], help="only this category")
    r_list.add_argument("--kind", action="append", default=[], help="only rules of this kind")
    on_off = r_list.add_mutually_exclusive_group()
    on_off.add_argument(
        "--enabled", action="store_const", const=True, dest="enabled", help="only rules on"
    )
    on_off.add_argument(
        "--disabled", action="store_const", const=False, dest="enabled", help="only rules off"
    )
    r_show = rules_sub.add_parser("show", help="docs and examples of one rule")
    r_show.add_argument("rule_id")
    r_test = rules_sub.add_parser("test", help="run the examples of rules")
    r_test.add_argument("dirs", nargs="*", metavar="DIR")
    r_test.add_argument("--strict", action="store_true", help="rules tagged todo-examples fail too")
    r_test.add_argument(
        "--examples",
        metavar="DIR",
        help="example files <rule id>.txt (# ruleid: / # ok: annotations); default for the "
        "built-in rules: tests/fixtures/secrets/examples of a checkout",
    )
    for p in (r_list, r_show, r_test):
        p.add_argument("--rules", action="append", default=[], metavar="DIR")
    from wukong_lint.cli.rules_extra import add_actions

    add_actions(rules_sub)  # rules docs, rules import-gitleaks
    rules.set_defaults(handler=_cmd_rules)


def _split(values: list[str]) -> list[str]:
    return [v.strip() for value in values for v in value.split(",") if v.strip()]


def _load(args: Any, *, builtin: bool = True):
    from wukong_lint.engine.loader import load_rules

    return load_rules(tuple(args.rules), builtin=builtin)


def _cmd_check(args: argparse.Namespace) -> int:
    if args.pre_commit:
        from wukong_lint.sources.precommit import configure

        configure(args)
    if args.since and not (args.history or args.agent_history):
        raise UsageError("check: --since needs --history or --agent-history")
    if args.agent_history and (args.staged or args.diff or args.history or args.pre_commit):
        raise UsageError("check: --agent-history reads files: not with --staged/--diff/--history")
    if args.allow_empty_range and not args.diff:
        raise UsageError("check: --allow-empty-range needs --diff")
    if (args.staged or args.diff or args.history) and args.paths:
        raise UsageError("check: give PATHs or --staged/--diff/--history, not both")
    if args.jobs < 0:
        raise UsageError("check: --jobs must be 1 or more")
    if args.stdin_filename and "-" not in args.paths:
        raise UsageError("check: --stdin-filename needs `-` (standard input) as a PATH")
    if args.archive_depth < 1 or args.archive_max_mb < 1:
        raise UsageError("check: --archive-depth and --archive-max-mb must be 1 or more")
    if args.shard is not None:
        from wukong_lint.cli.check_options import parse_shard_option

        parse_shard_option(args)
    from wukong_lint.sources import archives  # (every source that reads files imports it)

    # set on every run: a process running several checks (tests) must not keep the last's
    archives.configure(
        not args.no_archives,
        archives.Limits(depth=args.archive_depth, budget=args.archive_max_mb << 20),
    )
    started = None
    thresholds = None
    if args.staged:
        # git reads the index while the scanner is imported and the rules load
        from wukong_lint.util.gitproc import start_staged

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
    from wukong_lint.cli import common
    from wukong_lint.engine.scan import Scanner
    from wukong_lint.model import Severity

    config = common.load_config(args)
    args.profile = args.profile or config.profile  # the command line wins over the config
    version = args.protocol_version or config.protocol_version
    if version is not None:
        from wukong_lint.protocol.versions import check_setting

        version = check_setting(version)  # (exit 2 on an unknown one, with the nearest)
    if (args.profile or args.agents or args.transcript_format or version is not None
            or _TRANSCRIPTS in sys.modules):  # fmt: skip
        from wukong_lint.sources import transcripts  # (options of an earlier run are reset)

        if args.agents and not os.path.isdir(args.agents):
            raise UsageError(f"check: --agents: no such folder: {args.agents}")
        transcripts.configure(args.profile, args.agents, args.transcript_format, version)
        transcripts.check_named_fit(args.paths)  # a forced format must fit a named file
    from wukong_lint.report import CONTEXT_FORMATS

    if started is not None:
        from wukong_lint.sources.git import prepare_staged

        prepare_staged(started)  # cat-file, if needed, starts while the rules load
    # docs and examples of the rules: only the SARIF, GitHub and JUnit renderers get rules
    ruleset = common.build_ruleset(args, config, details=args.format in CONTEXT_FORMATS)
    from wukong_lint.engine.loader import INTEGRITY_NOTES

    for note in INTEGRITY_NOTES:  # a rule cache that did not match its files: rebuilt
        print(f"wukong-lint: warning: {note}", file=sys.stderr)
    scanner = Scanner(ruleset)
    # the config's `exclude` globs and the named inputs (see sources/named.py)
    excluded = common.exclude_filter(config, args) if config.exclude else None
    named = None
    history: list[tuple[str, str]] = []
    from wukong_lint.suppression import stale

    comments: list[stale.Comment] = []  # inline ignores (--stale-ignores)
    if not args.staged and config.path:
        common.warn_unmatched_globs(config)
    if args.staged:
        from wukong_lint.sources.git import staged_units

        units = staged_units(started=started)
        if args.pre_commit:
            from wukong_lint.sources.precommit import only_files

            units = only_files(units, args.pre_commit_files)
        if args.stale_ignores != "off":
            units = stale.watch_units(units, comments)
        scanner.scan(common.without(units, excluded))
    elif args.diff:
        from wukong_lint.runner.ranges import scan_range

        scan_range(scanner, args, excluded)
    elif args.history:
        from wukong_lint.runner.parallel import default_jobs, scan_stream
        from wukong_lint.sources.history import history_units

        keep = args.shard.holds if args.shard else None  # (a commit by its sha)
        units = common.without(history_units(args.since, keep=keep), excluded)
        scan_stream(scanner, units, args.jobs or default_jobs())
    else:
        from wukong_lint.runner.parallel import default_jobs, scan_paths
        from wukong_lint.sources.named import collect

        # (the pre-commit hook handed no file: there is nothing to scan, not the folder)
        given = args.paths or ([] if args.pre_commit else ["."])
        if args.agent_history:
            from wukong_lint.cli import agent_history

            seconds = agent_history.since_seconds("check", args.since)
            history = agent_history.roots("check", args.agent_history)
            given = args.paths + [path for _, path in history]
        named = collect(given, stdin_filename=args.stdin_filename, excluded=excluded)
        if history:
            named.files = agent_history.select(named.files, seconds)
        if args.shard:
            from wukong_lint.runner.shard import select_files

            named.files = select_files(named.files, given, args.shard)
        try:
            from wukong_lint.report.progress import attach

            sessions = agent_history.count_sessions(named.files) if history else 0
            bar = attach(scanner, named.files, sessions)
            scan_paths(scanner, named.files, args.jobs or default_jobs())
            if bar:
                bar.close()
        finally:
            named.close()
        scanner.errors += named.problems
        args.scanned_files = named.files  # -o never replaces one of them (common.emit)
        if args.stale_ignores != "off":
            comments = stale.comments_of_files(named.files)
        if not args.shard or args.shard.index == 1:
            # (named binary files: every shard sees them; shard 1 counts them, so that the
            # shards' counts add up to the whole scan's)
            scanner.skipped += named.skipped
    report = common.postfilter(scanner.report(), config, args)
    if report.findings or report.errors:  # a file named after a secret, an error quoting one
        from wukong_lint.engine.masking.masker import mask_report, masker_for

        report = mask_report(report, masker_for(ruleset))
    if args.shard:
        from wukong_lint.model import ShardInfo

        report = report._replace(shard=ShardInfo(args.shard.count, (args.shard.index,)))
    fail_on = args.fail_on or config.fail_on or "high"
    context = common.render_context(args, ruleset, args.format)
    if args.format == "junit":
        context["fail_on"] = Severity.parse(fail_on)
    if args.format == "jie":  # the 戒关检查 report: its status follows the verdicts
        context = {"lang": args.lang, "fail_on": fail_on}
    notes = list(named.notes) if named else []
    if named and getattr(args, "agent_history", None):
        from wukong_lint.cli.agent_history import session_notes

        notes += session_notes(named.files, history, report.findings)
    common.emit(report, args, context, notes=notes)
    stale_lines = stale.check_warnings(args, config, ruleset, report, comments)
    for line in stale_lines:
        print(f"wukong-lint: warning: {line}", file=sys.stderr)
    if named and named.problems and not args.allow_skipped:
        return 2  # a named input was not scanned: never a pass (--allow-skipped: a warning)
    incomplete = common.incomplete_scan(report, args.allow_skipped, args.allow_rule_timeouts)
    if incomplete:
        print(f"wukong-lint: error: {incomplete}", file=sys.stderr)
        return 2
    if (args.staged or args.diff or args.history) and not args.allow_skipped:
        from wukong_lint.engine.scan import is_rule_timeout
        from wukong_lint.sources.archives import is_archive_limit

        # A blob git could not give (a partial clone never fetches) or a unit a rule failed
        # on: part of the change was not scanned, so the run cannot pass. An archive's limit
        # (a zip bomb's member not read) is a warning, as in a folder scan.
        if any(not (is_rule_timeout(error) or is_archive_limit(error)) for error in report.errors):
            return 2
    if args.exit_zero:
        return 0
    if stale_lines and args.stale_ignores == "fail":
        return 1
    return 1 if report.failing(Severity.parse(fail_on)) else 0


def _cmd_rules(args: argparse.Namespace) -> int:
    if args.rules_command == "list":
        from wukong_lint.cli.rules_list import engines, filtered, render

        ruleset = _load(args)
        rules = filtered(ruleset.rules, _split(args.category), _split(args.kind), args.enabled)
        sys.stdout.write(render(rules, args.format, engines(ruleset, rules)))
        return 0
    if args.rules_command == "show":
        ruleset = _load(args)
        rule = ruleset.by_id.get(args.rule_id)
        if rule is None:
            from wukong_lint.cli.rules_list import unknown_rule

            raise UsageError(unknown_rule(args.rule_id, list(ruleset.by_id)))
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
        from pathlib import Path

        from wukong_lint.runner.examples import builtin_examples_dir, example_problems

        dirs = args.dirs + args.rules
        from types import SimpleNamespace

        ruleset = _load(SimpleNamespace(rules=dirs), builtin=not dirs)
        examples = Path(args.examples) if args.examples else None
        if examples is None and not dirs:
            examples = builtin_examples_dir()
        problems, todo = [], []  # todo: examples marked to be written (import-gitleaks)
        for rule in ruleset.rules:
            found = example_problems(rule, ruleset, explain=True, examples_dir=examples)
            pending = "todo-examples" in rule.tags and not args.strict
            (todo if pending else problems).extend(found)
        for problem in problems:
            print(problem)
        for problem in todo:
            print(f"{problem} (examples to be written: fails with --strict)")
        n = len(ruleset.rules)
        extra = f", {len(todo)} example(s) to be written" if todo else ""
        print(f"{n} rule{'s' if n != 1 else ''} tested, {len(problems)} problem(s){extra}.")
        return 1 if problems else 0
    raise UsageError("rules: expected one of: list, show ID, test [DIR]")


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:  # a process of its own (not a caller's): `re` compiles once per install
        from wukong_lint.util.re_snapshot import install

        install()
    words = list(sys.argv[1:] if argv is None else argv)
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    if encoding.lower() not in ("utf-8", "utf8") and hasattr(sys.stdout, "reconfigure"):
        # an ASCII or C-locale stdout: what it cannot take is escaped, never a crash (a
        # report is converted first: engine/masking/printable.py)
        sys.stdout.reconfigure(errors="backslashreplace")
    parser = None
    hook_files = None  # `check --pre-commit FILE...` is parsed without argparse too
    quick = None  # ... and the live hook's plain options (once per tool call)
    if words[:1] == ["hook"]:
        from wukong_lint.cli.hook import quick_args

        quick = quick_args(words[1:])
    if quick is not None:
        pass  # (parsed)
    elif words[:2] == ["check", PRE_COMMIT_FLAG] and not any(w[:1] == "-" for w in words[2:]):
        hook_files = words[2:]
    elif words != PRE_COMMIT_WORDS:
        command = next((w for w in words if not w.startswith("-")), None)
        known = command in BUILTIN_COMMANDS or command in COMMAND_MODULES
        parser = _build_parser(command if known else None)
    try:
        if quick is not None:
            args = quick
        elif parser is None:
            from types import SimpleNamespace

            fresh = {k: list(v) if isinstance(v, list) else v for k, v in _CHECK_DEFAULTS.items()}
            if hook_files is None:
                args: Any = SimpleNamespace(**{**fresh, "staged": True})
            else:
                args = SimpleNamespace(**{**fresh, "pre_commit": True, "paths": hook_files})
            args.handler = _cmd_check
        else:
            parser.words = words
            args = parser.parse_args(words)
        handler = getattr(args, "handler", None)
        if handler is None:
            assert parser is not None
            parser.print_help(sys.stderr)
            return 2
        code = int(handler(args))
        command = getattr(args, "command", None)
        if argv is None and command in ("check", "hook"):
            # (the hook runs once per tool call: teardown is ~15% of it; a long transcript's
            # check ~25 ms of freeing its findings and modules)
            _exit_now(code)
        return code
    except WukongError as err:
        usage = getattr(err, "usage", None)
        if usage:
            print(usage, file=sys.stderr)
        print(f"wukong-lint: error: {err}", file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        print("wukong-lint: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`) before the whole report reached it: the run did
        # not deliver what was asked, so it never reads as a pass (fail closed).
        try:
            print("wukong-lint: error: the output was closed before the report was written",
                  file=sys.stderr)  # fmt: skip
            sys.stderr.close()
        except OSError:
            pass  # stderr went away too
        _quiet_stdout()
        return 2
    except OSError as err:  # writing the report to a full disk, a closed terminal...
        print(f"wukong-lint: error: cannot write the report: {err.strerror or err}",
              file=sys.stderr)  # fmt: skip
        _quiet_stdout()
        return 2
    except Exception as err:  # a bug must still end with one line, not a traceback
        if os.environ.get("WUKONG_LINT_DEBUG"):
            raise
        print(
            f"wukong-lint: internal error: {type(err).__name__}: {err} "
            "(please report it; WUKONG_LINT_DEBUG=1 shows the traceback)",
            file=sys.stderr,
        )
        return 2


def _quiet_stdout() -> None:
    """stdout to /dev/null, so that the interpreter's final flush of what is left in its
    buffer (the same broken pipe or full disk) prints no second error at exit."""
    from wukong_lint.util.fsutil import stdout_to_devnull

    stdout_to_devnull()


def _exit_now(code: int) -> None:
    """End the process at once, skipping the interpreter's teardown (some 7 ms after a staged
    scan or a hook event: every module, tree-sitter's parsers, the rules; ~25 ms after a long
    transcript's check): once stdout and stderr are flushed and what is registered to run at
    exit has run (multiprocessing's, once a scan used worker processes), and only when no
    other thread is left to wait for. Otherwise return, to exit normally (a flush that fails,
    such as a closed pipe, is then reported as it always was)."""
    import atexit

    run_exit_functions = getattr(atexit, "_run_exitfuncs", None)
    if run_exit_functions is None:
        return
    # (threading not imported: no thread was started through it; importing it only to ask
    # costs a hook call ~1 ms)
    threading = sys.modules.get("threading")
    if threading is not None and any(
        t is not threading.main_thread() and not t.daemon for t in threading.enumerate()
    ):
        return  # (a thread the interpreter would wait for at exit)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:
        return
    run_exit_functions()  # (what the interpreter runs first when it exits)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:
        pass  # (the report was flushed above; an exit function's own output is its own)
    os._exit(code)
