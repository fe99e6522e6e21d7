"""`wukong-lint anchors fmt|new|add|compact|hints`.

This module is imported on every start of the command line (to register the sub-command),
so it defines parsers only; the work is imported inside the handlers.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator

from wukong_lint.util.errors import InputError, UsageError
from wukong_lint.util.walk import walk


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    anchors = subparsers.add_parser(
        "anchors", help="format and maintain anchors.md and memory-bank MACHINE_BLOCK indexes"
    )
    sub = anchors.add_subparsers(
        dest="anchors_command",
        metavar="ACTION",
        parser_class=type(anchors),
        prog="wukong-lint anchors",
    )
    fmt = sub.add_parser("fmt", help="canonical layout + index block, in place (lossless)")
    fmt.add_argument("files", nargs="*", metavar="FILE")
    fmt.add_argument("--check", action="store_true", help="write nothing; diff and exit 1")
    fmt.add_argument(
        "--force", action="store_true", help="overwrite a hand-edited MACHINE_BLOCK index"
    )

    new = sub.add_parser("new", help="append a full-form anchor template with the next free ID")
    new.add_argument("type", metavar="TYPE", help="D C I P M U CK DN")
    new.add_argument("title")
    new.add_argument("--file", metavar="FILE", help="the anchors file (default: anchors.md)")

    add = sub.add_parser("add", help="write candidate anchors (threshold, merge, conflicts)")
    add.add_argument("--from", dest="source", required=True, metavar="CANDIDATES.json")
    add.add_argument("--file", metavar="FILE", help="the anchors file (default: anchors.md)")
    add.add_argument("--dry-run", action="store_true", help="say what would happen only")

    lint = sub.add_parser(
        "lint", help="the anchor and memory-bank rules on FILEs (default: the anchors files)"
    )
    lint.add_argument("files", nargs="*", metavar="FILE")
    lint.add_argument("--format", choices=("text", "concise", "json"), default="text")
    lint.add_argument(
        "--fail-on", choices=("low", "medium", "high", "critical"), default="low",
        help="lowest severity that fails (exit 1; default: low)",
    )  # fmt: skip
    lint.add_argument("--rules", action="append", default=[], metavar="DIR")

    compact = sub.add_parser("compact", help="render anchors in the compact form")
    compact.add_argument("files", nargs="*", metavar="FILE")
    compact.add_argument("--ids", nargs="+", default=[], metavar="ID")
    compact.add_argument("--max-chars", type=int, default=500, metavar="N")

    hints = sub.add_parser("hints", help="T1 / T2 inertia hints for a sub-agent")
    hints.add_argument("files", nargs="*", metavar="FILE")
    stage = hints.add_mutually_exclusive_group(required=True)
    stage.add_argument("--stage", choices=("t1", "t2"))
    stage.add_argument(
        "--avatar",
        metavar="AVATAR",
        help="the hints seed 001 gives this avatar: 眼 舌 T1, 意 T2, 身 鼻 both, 耳 none "
        "(also eye ear nose tongue body mind)",
    )
    hints.add_argument("--keywords", nargs="*", default=[], metavar="WORD")
    hints.add_argument("--limit", type=int, default=5, metavar="N")

    anchors.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    command = args.anchors_command
    if command == "fmt":
        return _fmt(args)
    if command == "new":
        return _new(args)
    if command == "add":
        return _add(args)
    if command in ("compact", "hints"):
        return _render(args)
    if command == "lint":
        return _lint(args)
    raise UsageError("anchors: expected one of: fmt, new, add, lint, compact, hints")


def _lint(args: argparse.Namespace) -> int:
    from wukong_lint.cli.anchors_lint import lint

    files = _expand(args.files)
    if not files:
        message = ("no anchors files found (anchors.md, .wukong/context/anchors.md, "
                   "memory-bank/); name the files")  # fmt: skip
        print(f"wukong-lint: anchors lint: {message}", file=sys.stderr)
        return 2
    text, code = lint(files, args.format, args.fail_on, tuple(args.rules))
    sys.stdout.write(text)
    return code


BOM = "\ufeff"


def _read(path: str) -> str:
    """The text of a file; a UTF-8 byte-order mark stays as its first character (U+FEFF),
    so that writing the text back keeps it. Callers that parse use `_split_bom`."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder") from None
    except OSError as err:
        raise InputError(f"cannot read {path}: {err.strerror or err}") from None
    if b"\0" in data[:8192]:
        raise InputError(f"{path}: not a text file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not valid UTF-8") from None


def _split_bom(text: str) -> tuple[str, str]:
    """(the byte-order mark or "", the text after it)."""
    return (BOM, text[1:]) if text.startswith(BOM) else ("", text)


def _write(path: str, text: str) -> None:
    from wukong_lint.util.fsutil import atomic_write_text

    try:
        atomic_write_text(path, text, contained=True)  # never through a symlink
    except OSError as err:
        raise InputError(f"cannot write {path}: {err.strerror or err}") from None


def _expand(files: list[str]) -> list[str]:
    from wukong_lint.anchors.ops import default_files

    if not files:
        return default_files()
    result = []
    for path in files:
        if os.path.isdir(path):
            for base, dirs, names in walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                found = [os.path.join(base, n) for n in sorted(names) if n.endswith(".md")]
                result += [p for p in found if not os.path.islink(p)]  # never read through
        elif not os.path.exists(path):
            raise InputError(f"no such file: {path}")
        else:
            result.append(path)
    return result


def _fmt(args: argparse.Namespace) -> int:
    from wukong_lint.anchors.linediff import unified_diff
    from wukong_lint.anchors.ops import fmt_file_text

    files = _expand(args.files)
    if not files:
        print("wukong-lint: anchors fmt: no anchors files found", file=sys.stderr)
        return 0
    status = 0
    changed = 0
    for path in files:
        bom, text = _split_bom(_read(path))
        result = fmt_file_text(path, text, args.force)
        if not result.ok:
            print(f"wukong-lint: anchors fmt: {path}: {result.refused}", file=sys.stderr)
            status = max(status, 1)
            continue
        if result.text == text:
            continue
        changed += 1
        status = max(status, 1) if args.check else status
        if args.check:
            diff = unified_diff(  # near-linear: difflib's took 406 s on 5 MB
                text.splitlines(keepends=True),
                result.text.splitlines(keepends=True),
                f"a/{path}",
                f"b/{path}",
            )
            for line in diff:
                sys.stdout.write(line if line.endswith("\n") else line + "\n")
        else:
            _write(path, bom + result.text)
            print(f"formatted {path}")
    if args.check and changed:
        print(f"{changed} file(s) would be reformatted", file=sys.stderr)
    # As a pre-commit fixer, a rewritten file fails the commit: pre-commit sees the change.
    return status


def _target(path: str | None) -> str:
    from wukong_lint.anchors.ops import default_files

    if path:
        return path
    found = [p for p in default_files() if os.path.basename(p) == "anchors.md"]
    return found[0] if found else "anchors.md"


def _new(args: argparse.Namespace) -> int:
    from wukong_lint.anchors.ops import insert_anchor, new_file_text
    from wukong_lint.anchors.parse import TYPES

    kind = args.type.upper()
    if kind not in TYPES:
        raise UsageError(f"anchors new: unknown type {args.type!r} (one of {' '.join(TYPES)})")
    title = " ".join(args.title.split())
    if not title:
        raise UsageError("anchors new: the title is empty")
    path = _target(args.file)
    with _locked(path):  # read-modify-write: a concurrent writer waits
        bom, text = _split_bom(_read(path) if os.path.exists(path) else "")
        created = not text
        text = text or new_file_text(_has_cjk(title))
        text, anchor_id = insert_anchor(text, kind, title)
        _write_formatted(path, text, bom, created)
    print(f"added [{anchor_id}] {title} to {path}")
    return 0


@contextlib.contextmanager
def _locked(path: str) -> Iterator[None]:
    from wukong_lint.util.filelock import LockTimeout, locked
    from wukong_lint.util.fsutil import check_target

    try:  # refused before the lock file is made beside it (a symlinked folder leads outside)
        check_target(path, contained=True)
    except OSError as err:
        raise InputError(f"cannot write {path}: {err.strerror or err}") from None
    try:
        cm = locked(path)
        cm.__enter__()
    except LockTimeout as err:
        raise InputError(str(err)) from None
    except OSError as err:
        raise InputError(f"cannot lock {path}: {err.strerror or err}") from None
    try:
        yield
    except BaseException:
        if not cm.__exit__(*sys.exc_info()):
            raise
    else:
        cm.__exit__(None, None, None)


def _write_formatted(path: str, text: str, bom: str = "", created: bool = False) -> None:
    """Write `text` with its index regenerated (a file this command creates is formatted
    whole; an existing one changes only in the new lines and the index block); an index
    that cannot be updated is said, and the anchor is written all the same."""
    from wukong_lint.anchors.index_update import refresh_index
    from wukong_lint.anchors.ops import fmt_file_text

    if created:
        formatted = fmt_file_text(path, text, False)
        text, refused = formatted.text, formatted.refused
    else:
        text, refused = refresh_index(text)
    if refused:
        print(f"wukong-lint: warning: {path}: index not updated: {refused}", file=sys.stderr)
    _write(path, bom + text)


def _has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def _add(args: argparse.Namespace) -> int:
    import json

    from wukong_lint.anchors.ops import parse_candidates

    raw = _split_bom(sys.stdin.read() if args.source == "-" else _read(args.source))[1]
    try:
        candidates = parse_candidates(json.loads(raw))
    except json.JSONDecodeError as err:
        raise InputError(f"{args.source}: invalid JSON: {err.msg} at line {err.lineno}") from None
    except ValueError as err:
        raise InputError(f"{args.source}: {err}") from None
    path = _target(args.file)
    with _locked(path):  # read-modify-write: a concurrent writer waits
        return _add_locked(args, path, candidates)


def _add_locked(args: argparse.Namespace, path: str, candidates: list) -> int:
    from wukong_lint.anchors.ops import add_candidates, new_file_text

    chinese = any(_has_cjk(c.title) for c in candidates)
    bom, text = _split_bom(_read(path) if os.path.exists(path) else "")
    created = not text
    text = text or new_file_text(chinese)
    text, outcomes = add_candidates(text, candidates)
    for o in outcomes:
        if o.action == "added":
            print(f"added [{o.anchor_id}] {o.title}")
        elif o.action == "merged":
            print(f"merged into [{o.anchor_id}]: {o.title}")
        elif o.action == "conflict":
            print(f"conflict with [{o.anchor_id}], marked ⚠️ 待验证: {o.title}")
        else:
            print(f"skipped: {o.title} ({o.reason})")
    if args.dry_run or not any(o.action != "skipped" for o in outcomes):
        return 0
    _write_formatted(path, text, bom, created)
    return 0


def _avatar_stages(avatar: str) -> list[str]:
    from wukong_lint.anchors.ops import avatar_stages

    stages = avatar_stages(avatar)
    if stages is None:
        raise UsageError(f"anchors hints: unknown avatar {avatar!r} (one of 眼 耳 鼻 舌 身 意, "
                         "eye ear nose tongue body mind)")  # fmt: skip
    return stages


def _render(args: argparse.Namespace) -> int:
    from wukong_lint.anchors.parse import parse

    docs = [parse(_split_bom(_read(p))[1]) for p in _expand(args.files)]
    if args.anchors_command == "hints":
        from wukong_lint.anchors.ops import hints

        if args.limit < 1:
            raise UsageError("anchors hints: --limit must be 1 or more")
        words = [w for k in args.keywords for w in k.split(",") if w.strip()]
        stages = [args.stage] if args.stage else _avatar_stages(args.avatar)
        if not stages:
            print(f"wukong-lint: anchors hints: {args.avatar} gets no inertia hint (seed 001: "
                  "requirements analysis carries no history)", file=sys.stderr)  # fmt: skip
            return 0
        from wukong_lint.engine.masking.free_text import mask_output  # anchors may quote a secret

        out = [hints(docs, s, [w.strip() for w in words], args.limit) for s in stages]
        sys.stdout.write(mask_output("\n".join(out)))
        return 0
    from wukong_lint.anchors.compact import compact_anchors

    if args.max_chars < 1:
        raise UsageError("anchors compact: --max-chars must be 1 or more")
    wanted = {i for k in args.ids for i in k.split(",") if i}
    parts, left_out = [], []
    budget = args.max_chars
    seen: set[str] = set()
    for doc in docs:
        chosen = [a for a in doc.anchors if (not wanted or a.id in wanted) and a.id not in seen]
        seen |= {a.id for a in chosen}
        text, missing = compact_anchors(doc, chosen, budget)
        if text:
            parts.append(text)
            budget -= len(text) + 2
        left_out += missing
    unknown = sorted(wanted - seen)
    if unknown:
        print(f"wukong-lint: warning: no anchor {', '.join(unknown)}", file=sys.stderr)
    if parts:
        from wukong_lint.engine.masking.free_text import mask_output

        print(mask_output("\n\n".join(parts)))
    if left_out:
        print(f"wukong-lint: {len(left_out)} anchor(s) left out to stay within "
              f"{args.max_chars} characters: {', '.join(left_out)}", file=sys.stderr)  # fmt: skip
    return 0
