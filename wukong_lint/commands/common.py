"""What `check` and `baseline` share: config, rule set, selection, the suppression stage.

On the pre-commit path: every import that costs more than a few stat calls is done lazily.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from wukong_lint.config import Config

if TYPE_CHECKING:
    import argparse


def split(values: list[str] | None) -> list[str]:
    return [v.strip() for value in values or () for v in value.split(",") if v.strip()]


def load_config(args: argparse.Namespace) -> Config:
    from wukong_lint.config import resolve_config

    return resolve_config(getattr(args, "config", None))


def build_ruleset(args: argparse.Namespace, config: Config, *, details: bool = True) -> Any:
    """The rules that run: built-in (unless turned off) + the config's and --rules packs,
    with `rule-params` applied and --select/--ignore merged with the config's. Without
    `details`, the rules' docs and examples are left empty (see `load_rules`)."""
    from wukong_lint.engine.loader import load_rules
    from wukong_lint.errors import UsageError

    no_builtin = getattr(args, "no_builtin_rules", False) or not config.builtin_rules
    dirs = (*config.rule_dirs, *getattr(args, "rules", ()))
    if no_builtin and not dirs:
        raise UsageError("check: --no-builtin-rules needs --rules DIR (or rule-dirs in config)")
    ruleset = load_rules(tuple(dirs), builtin=not no_builtin, details=details)
    # what the report prints is masked by every secret rule, whatever runs (masking.py)
    masks = ruleset.secret_rules()
    if no_builtin:
        masks = load_rules((), details=False).secret_rules() + masks
    if config.rule_params:
        from wukong_lint.config import apply_rule_params
        from wukong_lint.engine.rules import RuleSet

        ruleset = RuleSet(apply_rule_params(ruleset.rules, config))
    ruleset.mask_rules = masks
    select, ignore = config.selection(
        split(getattr(args, "select", None)), split(getattr(args, "ignore", None))
    )
    if select or ignore:
        from wukong_lint.engine.selection import is_selected

        selected = ruleset.select(lambda rule: is_selected(rule, select, ignore))
    else:  # what is_selected decides for empty lists: the rules that are on
        selected = ruleset.select(lambda rule: rule.enabled)
    selected.allow_comments = config.allow_comments
    return selected


def postfilter(
    report: Any, config: Config, args: argparse.Namespace, *, use_baseline: bool = True
) -> Any:
    """The suppression stage after the scan: baseline and the config's per-path ignores."""
    baseline_file = (getattr(args, "baseline", None) or config.baseline) if use_baseline else None
    if not baseline_file and not config.per_path_ignores:
        return report
    base_dir = scan_base_dir(args)
    from wukong_lint import baseline, filtering

    return filtering.apply(
        report,
        baseline=baseline.keys(baseline.load(baseline_file)) if baseline_file else None,
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
    parser.add_argument("--jobs", type=int, default=0, metavar="N")


def scan_paths_report(args: argparse.Namespace, ruleset: Any) -> Any:
    """A folder scan of `args.paths` (default: the current folder), as `check` does it."""
    from wukong_lint.engine.parallel import default_jobs, scan_paths
    from wukong_lint.engine.scan import Scanner
    from wukong_lint.errors import UsageError
    from wukong_lint.sources.files import iter_paths

    if args.jobs < 0:
        raise UsageError("--jobs must be 1 or more")
    scanner = Scanner(ruleset)
    scan_paths(scanner, list(iter_paths(args.paths or ["."])), args.jobs or default_jobs())
    return scanner.report()
