"""`wukong-lint config`: `show` the effective configuration and where it came from;
`approve` a project config that loosens the guarded categories, for the live hook (as
`direnv allow`: the file's path and the SHA-256 of its content, kept in the user's config
folder), list and revoke approvals. See config/approvals.py and config/loosening.py."""

from __future__ import annotations

import argparse
import os

from wukong_lint.cli import common


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "config", help="show the configuration; approve a project config for the live hook"
    )
    actions = parser.add_subparsers(
        dest="config_command", metavar="ACTION", prog="wukong-lint config"
    )
    show = actions.add_parser("show", help="print the effective configuration (YAML or JSON)")
    show.add_argument("--config", metavar="FILE", help="config file (default: found upwards)")
    show.add_argument(
        "--format",
        choices=("yaml", "json"),
        default="yaml",
        help="yaml (default, with a `# from FILE` line) or json ({source, config})",
    )
    show.set_defaults(handler=run)
    approve = actions.add_parser(
        "approve",
        help="let the live hook apply this project config although it loosens the security "
        "checks (run it yourself, never through the agent)",
        description="Record that the live hook may apply FILE (default: the project config "
        "found from here) as written, although it loosens the guarded categories "
        "(dangerous-command, sensitive-path, secret, guard-integrity; the 戒 categories "
        "under profile wukong). The approval holds for this exact content: any change "
        "needs a new approval. Kept in $XDG_CONFIG_HOME/wukong-lint/approved.json.",
    )
    approve.add_argument("file", nargs="?", metavar="FILE", help="the config file to approve")
    what = approve.add_mutually_exclusive_group()
    what.add_argument("--list", action="store_true", help="list the approvals and exit")
    what.add_argument(
        "--revoke", action="store_true", help="remove the approvals of FILE (or with --all)"
    )
    approve.add_argument("--all", action="store_true", help="with --revoke: every approval")
    approve.set_defaults(handler=run)
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
        **({"approvals": config.approvals} if config.approvals is not None else {}),
    }


def run(args: argparse.Namespace) -> int:
    from wukong_lint.util.errors import UsageError

    command = getattr(args, "config_command", None)
    if command == "approve":
        return _approve(args)
    if command != "show":
        raise UsageError("config: expected: show or approve")
    import yaml

    config = common.load_config(args)
    if config.path:
        common.warn_unmatched_globs(config)
    if getattr(args, "format", "yaml") == "json":
        import json

        shown = {"source": config.path, "config": effective(config)}
        print(json.dumps(shown, ensure_ascii=False, indent=2))
        return 0
    if config.path:
        print(f"# from {config.path}")
    else:
        print("# no config file found: defaults")
    print(yaml.safe_dump(effective(config), sort_keys=False, allow_unicode=True), end="")
    return 0


def _approve(args: argparse.Namespace) -> int:
    from wukong_lint.config import approvals, layers
    from wukong_lint.config.loosening import describe, guarded, loosenings
    from wukong_lint.config.project import find_config, load_config
    from wukong_lint.util.errors import UsageError

    if args.all and not args.revoke:
        raise UsageError("config approve: --all goes with --revoke")
    if args.list:
        return _list(approvals.load())
    path = args.file or find_config(os.getcwd())
    if args.revoke:
        if args.all:
            print(f"revoked {approvals.revoke(None)} approval(s)")
            return 0
        if not path:
            raise UsageError("config approve --revoke: no config file found here; name one")
        count = approvals.revoke(path)
        print(f"revoked {count} approval(s) of {os.path.abspath(path)}")
        return 0
    if not path:
        raise UsageError("config approve: no config file found here; name one")
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as err:
        raise UsageError(f"config approve: cannot read {path}: {err.strerror or err}") from None
    config = load_config(path, data)  # (a broken file is refused with its error)
    common.build_ruleset(argparse.Namespace(), config, details=False)  # (and a name typo)
    managed_path = layers.managed_config_path()
    if managed_path and load_config(managed_path).approvals is False:
        raise UsageError(
            f"config approve: the managed config {managed_path} forbids approvals "
            "(approvals: false); the hook ignores a project config's loosening"
        )
    found = loosenings(config, guarded(True))
    full = os.path.abspath(path)
    if not found:
        print(f"{full} does not loosen the guarded categories: the hook applies it as it is")
        return 0
    try:
        record = approvals.approve(path, data, config, describe(found))
    except OSError as err:
        raise UsageError(f"config approve: cannot write the approval: {err}") from None
    print(f"approved {full} (sha256 {record['sha256'][:12]}): it loosens {describe(found)}")
    print("the live hook applies it while its content stays this one")
    return 0


def _list(records: list[dict]) -> int:
    from wukong_lint.config.approvals import approvals_path, content_digest

    if not records:
        print(f"no approvals (in {approvals_path()})")
        return 0
    for record in records:
        path = record["path"]
        try:
            with open(path, "rb") as handle:
                state = (
                    "current" if content_digest(handle.read()) == record["sha256"] else "changed"
                )
        except OSError:
            state = "missing"
        when = record.get("approved_at", "?")
        print(f"{path}  sha256 {record['sha256'][:12]}  {when}  {state}")
        if record.get("loosens"):
            print(f"    loosens {record['loosens']}")
    return 0
