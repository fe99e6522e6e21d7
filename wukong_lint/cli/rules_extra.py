"""`wukong-lint rules docs` and `wukong-lint rules import-gitleaks`.

    wukong-lint rules docs [-o docs/rules.md] [--check]
    wukong-lint rules import-gitleaks .gitleaks.toml -o DIR

Imported while the parser is built (pre-commit path): heavy imports stay in the handlers.
"""

from __future__ import annotations

import argparse
import sys

DOCS_PATH = "docs/rules.md"


def add_actions(rules_sub: argparse._SubParsersAction) -> None:
    docs = rules_sub.add_parser("docs", help="write the rule reference (Markdown)")
    docs.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: stdout)")
    docs.add_argument(
        "--check", action="store_true", help="exit 1 if FILE is not what the rules generate"
    )
    docs.set_defaults(handler=run_docs)
    imp = rules_sub.add_parser(
        "import-gitleaks", help="convert a gitleaks config (.gitleaks.toml) into a rule pack"
    )
    imp.add_argument("file", metavar="FILE")
    imp.add_argument("-o", "--output", metavar="DIR", required=True, help="folder for the rules")
    imp.set_defaults(handler=run_import_gitleaks)


def run_docs(args: argparse.Namespace) -> int:
    from wukong_lint.cli.ruledocs import render_markdown
    from wukong_lint.engine.loader import load_rules
    from wukong_lint.util.errors import UsageError

    text = render_markdown(load_rules(()).rules)
    if args.check:
        path = args.output if args.output not in (None, "", "-") else DOCS_PATH
        try:
            with open(path, encoding="utf-8") as handle:
                current = handle.read()
        except OSError as err:
            raise UsageError(f"cannot read {path}: {err.strerror or err}") from None
        if current != text:
            print(f"{path} is out of date: run `wukong-lint rules docs -o {path}`", file=sys.stderr)
            return 1
        return 0
    if args.output and args.output != "-":  # (`-o -`: standard output, as for every -o)
        from wukong_lint.util.fsutil import atomic_write_text

        try:
            atomic_write_text(args.output, text)
        except OSError as err:
            raise UsageError(f"cannot write {args.output}: {err.strerror or err}") from None
    else:
        sys.stdout.write(text)
    return 0


def run_import_gitleaks(args: argparse.Namespace) -> int:
    from wukong_lint.migrate.gitleaks import import_file

    result = import_file(args.file, args.output)
    for line in result.messages():
        print(line)
    if not result.written:  # a migration that kept no rule is no migration: never exit 0
        print(f"wukong-lint: error: {args.file}: no rule could be converted", file=sys.stderr)
        return 2
    return 0
