"""What `check` and `baseline` share: config, rule set, selection, the suppression stage,
and how `check` prints its report.

On the pre-commit path: every import that costs more than a few stat calls is done lazily.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from wukong_lint.config.project import Config

if TYPE_CHECKING:
    import argparse

# `-o -` names standard output for every command that takes -o (never a file named "-").
STDOUT = "-"


def split(values: list[str] | None) -> list[str]:
    return [v.strip() for value in values or () for v in value.split(",") if v.strip()]


def load_config(args: argparse.Namespace) -> Config:
    from wukong_lint.config.project import resolve_config

    return resolve_config(getattr(args, "config", None))


def build_ruleset(args: argparse.Namespace, config: Config, *, details: bool = True) -> Any:
    """The rules that run: built-in (unless turned off) + the config's and --rules packs,
    with `rule-params` applied and --select/--ignore merged with the config's. Without
    `details`, the rules' docs and examples are left empty (see `load_rules`)."""
    from wukong_lint.engine.loader import load_rules
    from wukong_lint.util.errors import UsageError

    no_builtin = getattr(args, "no_builtin_rules", False) or not config.builtin_rules
    dirs = (*config.rule_dirs, *getattr(args, "rules", ()))
    if no_builtin and not dirs:
        raise UsageError("check: --no-builtin-rules needs --rules DIR (or rule-dirs in config)")
    ruleset = load_rules(tuple(dirs), builtin=not no_builtin, details=details)
    # what the report prints is masked by every secret rule, whatever runs (masking.py)
    masks = ruleset.secret_rules()
    if no_builtin:
        masks = load_rules((), details=False).secret_rules() + masks
    cli_select = split(getattr(args, "select", None))
    cli_ignore = split(getattr(args, "ignore", None))
    if cli_select or cli_ignore or config.path:  # a typo must not turn the rules off
        from wukong_lint.config.selectors import validate_selection

        validate_selection(ruleset.rules, select=cli_select, ignore=cli_ignore, config=config)
    if config.rule_params:
        from wukong_lint.config.project import apply_rule_params
        from wukong_lint.engine.rules import RuleSet

        ruleset = RuleSet(apply_rule_params(ruleset.rules, config))
    ruleset.mask_rules = masks
    select, ignore = config.selection(cli_select, cli_ignore)
    if select or ignore:
        from wukong_lint.engine.selection import is_selected

        selected = ruleset.select(lambda rule: is_selected(rule, select, ignore))
    else:  # what is_selected decides for empty lists: the rules that are on
        selected = ruleset.select(lambda rule: rule.enabled)
    if not selected.rules:  # a scan that checks nothing must not pass
        from wukong_lint.config.selectors import require_rules

        require_rules(selected.rules, select, ignore, dirs)
    selected.allow_comments = config.allow_comments
    selected.decode = not getattr(args, "no_decode", False)
    return selected


def postfilter(
    report: Any, config: Config, args: argparse.Namespace, *, use_baseline: bool = True
) -> Any:
    """The suppression stage after the scan: baseline and the config's per-path ignores."""
    baseline_file = (getattr(args, "baseline", None) or config.baseline) if use_baseline else None
    if not baseline_file and not config.per_path_ignores:
        return report
    base_dir = scan_base_dir(args)
    from wukong_lint.suppression import baseline, filtering

    loaded = baseline.load(baseline_file) if baseline_file else None
    return filtering.apply(
        report,
        baseline=baseline.keys(loaded) if loaded else None,
        baseline_hash=baseline.finding_hasher(loaded) if loaded else None,
        baseline_root=os.path.dirname(os.path.abspath(baseline_file or ".")),
        path_ignores=config.per_path_ignores,
        config_root=config.root,
        base_dir=base_dir,
    )


def scan_base_dir(args: argparse.Namespace) -> str:
    """The folder the report's relative paths start from: the repository root for git scans."""
    if _git_scan(args):
        from wukong_lint.sources.git import repo_root

        return repo_root()
    return os.getcwd()


def render_context(args: argparse.Namespace, ruleset: Any, fmt: str) -> dict[str, Any]:
    """What the SARIF, GitHub and JUnit renderers need beyond the report."""
    from wukong_lint.report import CONTEXT_FORMATS

    if fmt not in CONTEXT_FORMATS:
        return {}
    from wukong_lint.report.paths import repo_prefix

    return {"rules": ruleset.rules, "prefix": "" if _git_scan(args) else repo_prefix()}


def _git_scan(args: argparse.Namespace) -> bool:
    """Whether the report's paths are repository-relative (staged, range and history scans)."""
    return bool(
        getattr(args, "staged", False)
        or getattr(args, "diff", None)
        or getattr(args, "history", False)
    )


def add_scan_options(parser: argparse.ArgumentParser) -> None:
    """The rule and config options of `check`, for commands that scan the same way."""
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or folders (default: .)")
    parser.add_argument("--config", metavar="FILE", help="config file (default: found upwards)")
    parser.add_argument("--rules", action="append", default=[], metavar="DIR")
    parser.add_argument("--select", action="append", default=[], metavar="RULE_OR_CATEGORY")
    parser.add_argument("--ignore", action="append", default=[], metavar="RULE_OR_CATEGORY")
    parser.add_argument("--no-builtin-rules", action="store_true")
    parser.add_argument("--no-decode", action="store_true")
    parser.add_argument("--jobs", type=int, default=0, metavar="N")


def scan_paths_report(args: argparse.Namespace, ruleset: Any) -> Any:
    """A folder scan of `args.paths` (default: the current folder), as `check` does it."""
    from wukong_lint.engine.scan import Scanner
    from wukong_lint.runner.parallel import default_jobs, scan_paths
    from wukong_lint.sources.files import iter_paths
    from wukong_lint.util.errors import UsageError

    if args.jobs < 0:
        raise UsageError("--jobs must be 1 or more")
    scanner = Scanner(ruleset)
    scan_paths(scanner, list(iter_paths(args.paths or ["."])), args.jobs or default_jobs())
    return scanner.report()


def incomplete_scan(report: Any, allow_skipped: bool, allow_rule_timeouts: bool) -> str | None:
    """Why a report's scan cannot pass (exit 2), from its errors: inputs not (fully) scanned
    (out of memory, unreadable; unless `allow_skipped`), rules that ran out of time (unless
    `allow_rule_timeouts`). None: nothing of that (fail closed: `check` and `merge`)."""
    if not report.errors:
        return None
    from wukong_lint.engine.scan import is_out_of_memory, is_rule_timeout, is_unread

    if not allow_skipped:
        for why, test in (("out of memory", is_out_of_memory), ("unreadable", is_unread)):
            unscanned = sum(1 for error in report.errors if test(error))
            if unscanned:
                return (
                    f"{unscanned} input(s) not scanned: {why} (listed in the report's errors; "
                    "--allow-skipped accepts that)"
                )
    if not allow_rule_timeouts:
        timeouts = sum(1 for error in report.errors if is_rule_timeout(error))
        if timeouts:  # a rule did not see all of the text
            return (
                f"{timeouts} rule time-out(s): the scan is incomplete "
                "(--allow-rule-timeouts accepts that)"
            )
    return None


def use_color(choice: str | None, stream: Any) -> bool:
    """`--color`: `always` / `never` win; `auto` (the default) honours NO_COLOR (no colour
    when set and not empty), then FORCE_COLOR (colour when set, not empty and not `0`),
    then whether `stream` is a terminal."""
    if choice in ("always", "never"):
        return choice == "always"
    if os.environ.get("NO_COLOR", ""):
        return False
    force = os.environ.get("FORCE_COLOR", "")
    if force and force != "0":
        return True
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def emit(report: Any, args: Any, context: dict[str, Any], *, notes: Any = ()) -> None:
    """Print or write the report as `check` does: warnings for the inputs not scanned (and,
    unless --quiet, notes on the named inputs skipped on purpose) on stderr; the report on
    stdout or into `-o FILE`, and then a one-line summary on stderr (unless --quiet)."""
    import sys

    from wukong_lint.report import render
    from wukong_lint.util.errors import UsageError

    quiet = bool(getattr(args, "quiet", False))
    if report.errors or notes:
        from wukong_lint.engine.masking.printable import printable  # names come from the files

        for error in report.errors:
            where = printable(f"{error.path}: {error.message}")
            print(f"wukong-lint: warning: {where}", file=sys.stderr)
        if not quiet:
            for note in notes:
                print(f"wukong-lint: note: {printable(str(note))}", file=sys.stderr)
    fmt = args.format
    if args.output and args.output != STDOUT:  # (`-o -`: standard output, as gitleaks, jq)
        from wukong_lint.cli.output_guard import overwrites_tracked_file
        from wukong_lint.util.fsutil import atomic_write_text, atomic_writer, is_input

        scanned = getattr(args, "scanned_files", ())  # a folder scan's files (cli.py)
        if is_input(args.output, getattr(args, "paths", None) or []) or (
            overwrites_tracked_file(args.output, scanned)
        ):
            raise UsageError(f"-o {args.output} is one of the files scanned; not overwriting it")
        try:
            if fmt == "json":  # written as it is encoded: no copy of the whole report
                from wukong_lint.report.json_report import encoded_chunks

                with atomic_writer(args.output) as handle:
                    for chunk in encoded_chunks(report):
                        handle.write(chunk)
            else:
                atomic_write_text(args.output, render(report, fmt, quiet=quiet, **context))
        except OSError as err:
            raise UsageError(f"cannot write {args.output}: {err.strerror or err}") from None
        if not quiet:
            from wukong_lint.report.text import summary_line

            print(f"{summary_line(report)} Report: {args.output}", file=sys.stderr)
    else:
        color = fmt == "text" and use_color(getattr(args, "color", None), sys.stdout)
        text = render(report, fmt, color=color, quiet=quiet, **context)
        if not sys.stdout.encoding or sys.stdout.encoding.lower() not in ("utf-8", "utf8"):
            from wukong_lint.engine.masking.printable import (
                for_stream,  # an ASCII or C-locale stdout
            )

            text = for_stream(text, fmt, sys.stdout.encoding)
        sys.stdout.write(text)
        # flushed here, so that a reader that went away or a full disk is this run's error
        # (cli.main: exit 2), not a message at interpreter exit after the exit code was set
        sys.stdout.flush()


def exclude_filter(config: Config, args: Any) -> Any:
    """Whether a report path is under the config's `exclude` globs (a callable)."""
    from wukong_lint.config.path_globs import PathFilter

    return PathFilter(config.exclude, config.root, scan_base_dir(args))


def without(items: Any, excluded: Any) -> Any:
    """The items of a source (units, errors, skips) whose path is not excluded."""
    if excluded is None:
        return items
    return (item for item in items if not excluded(item.path))


def warn_unmatched_globs(config: Config) -> None:
    """A warning for each `per-path-ignores` / `exclude` glob that matches no file of the
    project (a typo there silently suppresses nothing)."""
    import sys

    globs = [glob for glob, _ in config.per_path_ignores] + list(config.exclude)
    if not globs:
        return
    from wukong_lint.config.path_globs import unmatched

    for glob in unmatched(globs, config.root):
        key = "exclude" if glob in config.exclude else "per-path-ignores"
        print(
            f"wukong-lint: warning: {config.path}: {key}: {glob!r} matches no file",
            file=sys.stderr,
        )
