"""`wukong-lint config show`: the effective configuration and where it came from."""

from __future__ import annotations

import argparse

from wukong_lint.cli import common


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("config", help="show the effective configuration")
    actions = parser.add_subparsers(
        dest="config_command", metavar="ACTION", prog="wukong-lint config"
    )
    show = actions.add_parser("show", help="print the effective configuration (YAML)")
    show.add_argument("--config", metavar="FILE", help="config file (default: found upwards)")
    show.set_defaults(handler=run)
    parser.set_defaults(handler=run)


def effective(config) -> dict:
    """The config as the keys of a config file, with defaults filled in."""
    return {
        "fail-on": config.fail_on or "high",
        "select": list(config.select),
        "ignore": list(config.ignore),
        "per-path-ignores": {glob: list(names) for glob, names in config.per_path_ignores},
        "rule-dirs": list(config.rule_dirs),
        "builtin-rules": config.builtin_rules,
        "rule-params": config.rule_params or {},
        "profile": config.profile,
        "protocol-version": config.protocol_version or "auto",
        "baseline": config.baseline,
        "allow-comments": list(config.allow_comments),
        "exclude": list(config.exclude),
    }


def run(args: argparse.Namespace) -> int:
    import yaml

    from wukong_lint.util.errors import UsageError

    if getattr(args, "config_command", None) != "show":
        raise UsageError("config: expected: show")
    config = common.load_config(args)
    if config.path:
        common.warn_unmatched_globs(config)
        print(f"# from {config.path}")
    else:
        print("# no config file found: defaults")
    print(yaml.safe_dump(effective(config), sort_keys=False, allow_unicode=True), end="")
    return 0
