"""The options of `check` about its inputs and its output conventions (exit status, quiet,
colour, standard input, skipped inputs). Imported only when the parser is built: the
pre-commit path (`check --staged`) never builds one."""

from __future__ import annotations

import argparse


def add_output_options(check: argparse.ArgumentParser) -> None:
    check.add_argument(
        "--exit-zero", action="store_true", help="exit 0 even when findings fail the run"
    )
    check.add_argument(
        "-q", "--quiet", action="store_true", help="print only findings and errors, no summary"
    )
    check.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour in text output (auto: on a terminal, honouring NO_COLOR and FORCE_COLOR)",
    )
    check.add_argument(
        "--stdin-filename",
        metavar="NAME",
        help="with `-` as PATH: the path that rules and the report use for standard input",
    )
    check.add_argument(
        "--allow-skipped",
        action="store_true",
        help="a named input that cannot be read, or a blob git cannot give in --staged/--diff/"
        "--history, is a warning only (default: exit 2)",
    )

    check.add_argument(
        "--stale-ignores",
        choices=("warn", "fail", "off"),
        default="warn",
        help="inline `wukong-lint: ignore` comments naming no rule or suppressing nothing: "
        "a warning line (default), fail (exit 1), or off",
    )


def add_archive_options(check: argparse.ArgumentParser) -> None:
    check.add_argument(
        "--no-archives",
        action="store_true",
        help="skip archives (.zip, .jar, .whl, .tar, .tar.gz, .tgz, .gz, .bz2, .xz) as binary "
        "files instead of scanning their members",
    )
    check.add_argument(
        "--archive-depth",
        type=int,
        default=2,
        metavar="N",
        help="levels of archives inside archives opened (default: 2)",
    )
    check.add_argument(
        "--archive-max-mb",
        type=int,
        default=256,
        metavar="MB",
        help="decompressed bytes read per archive, nested ones included (default: 256)",
    )


def add_shard_option(check: argparse.ArgumentParser) -> None:
    check.add_argument(
        "--shard",
        metavar="K/N",
        help="scan only part K of N (1-based) of a folder, --history (by commit) or "
        "--agent-history (by session) scan; the same item always lands in the same part, "
        "and `wukong-lint merge` joins the N reports",
    )


def parse_shard_option(args: argparse.Namespace) -> None:
    """`--shard K/N` as a Shard (exit 2 with the reason for a bad value or a scan that
    cannot be split)."""
    from wukong_lint.runner.shard import parse_shard
    from wukong_lint.util.errors import UsageError

    try:
        args.shard = parse_shard(args.shard)
    except ValueError as err:
        raise UsageError(f"check: --shard: {err}") from None
    if args.staged or args.pre_commit or args.diff:
        raise UsageError(
            "check: --shard splits folder, --history and --agent-history scans, not --staged/--diff"
        )
    if "-" in args.paths:
        raise UsageError("check: --shard: standard input (-) cannot be split")
