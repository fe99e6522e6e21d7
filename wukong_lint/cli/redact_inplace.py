"""`wukong-lint redact --in-place PATH... [--agent-history [AGENT]] [--since D] [--dry-run]
[--backup DIR] [--manifest FILE]`: sessions, sub-agent files and folders cleaned where they
are (engine/masking/inplace.py says how a file an agent appends to stays whole). The
manifest (JSONL, one line per changed line: file, line, rules; never the secret) goes to
standard output or FILE."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from typing import Any

from wukong_lint.util.errors import UsageError

# files of a named folder that are cleaned: transcripts and the tool outputs kept beside them
CLEANED_SUFFIXES = (".jsonl", ".json", ".txt")


def _folder_files(folder: str) -> list[str]:
    found: list[str] = []
    for root, dirs, names in os.walk(folder):  # (symbolic links to folders are not followed)
        dirs.sort()
        for name in sorted(names):
            full = os.path.join(root, name)
            if name.endswith(CLEANED_SUFFIXES) and not os.path.islink(full):
                found.append(full)
    return found


def targets(paths: list[str]) -> list[str]:
    """The files to clean: each named file (a Claude Code session with its sub-agent files),
    the transcripts and text files of each named folder; each once, in order."""
    from wukong_lint.sources.transcripts.claude import subagent_files

    found: list[str] = []
    for path in paths:
        if os.path.isdir(path) and not os.path.islink(path):
            found += _folder_files(path)
        elif os.path.lexists(path):
            found.append(path)
            if path.endswith(".jsonl") and not os.path.islink(path):
                found += subagent_files(path)
        else:
            raise UsageError(f"redact: no such file: {path}")
    seen: set[str] = set()
    unique = []
    for path in found:
        key = os.path.abspath(path)
        if key not in seen:
            seen.add(key)
            unique.append(path)
    return unique


_RULESET: Any = None  # loaded before the workers are forked: they start with it compiled


def _clean(task: tuple[str, bool, str | None]) -> tuple[str, Any]:
    """One file cleaned (in a worker): its Outcome, or the OSError that stopped it."""
    from wukong_lint.engine.masking.inplace import redact_in_place

    path, dry_run, backup = task
    try:
        return path, redact_in_place(path, _RULESET, dry_run=dry_run, backup=backup)
    except OSError as err:
        return path, err


def _outcomes(files: list[str], args: argparse.Namespace) -> Iterator[tuple[str, Any]]:
    """Each file's outcome, in order; files are cleaned on --jobs forked processes (each
    file by one process: its rewrite and its checks stay together)."""
    import multiprocessing

    from wukong_lint.runner.parallel import default_jobs

    tasks = [(path, args.dry_run, args.backup) for path in files]
    jobs = min(args.jobs or default_jobs(), len(tasks))
    if jobs <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        yield from map(_clean, tasks)
        return
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        yield from pool.imap(_clean, tasks)


def run_in_place(args: argparse.Namespace) -> int:
    from wukong_lint.cli import agent_history
    from wukong_lint.engine.loader import load_rules

    if args.since and not args.agent_history:
        raise UsageError("redact: --since needs --agent-history")
    paths = list(args.paths)
    seconds = agent_history.since_seconds("redact", args.since)
    if args.agent_history:
        paths += [folder for _, folder in agent_history.roots("redact", args.agent_history)]
    if not paths:
        raise UsageError("redact: name the PATHs to clean (or --agent-history)")
    files = targets(paths)
    if seconds is not None:
        files = [f for f, _ in agent_history.select([(f, f) for f in files], seconds)]
    global _RULESET
    _RULESET = load_rules(tuple(args.rules), details=False)  # (masking reads no docs)
    manifest: list[str] = []
    count = errors = failed = changed_files = grew = 0
    for path, done in _outcomes(files, args):
        if isinstance(done, OSError):
            failed += 1
            where = done.filename or path
            print(f"wukong-lint: warning: {where}: {done.strerror or done}", file=sys.stderr)
            continue
        count, errors, grew = count + done.count, errors + done.errors, grew + done.grew
        changed_files += bool(done.changes)
        for change in done.changes:
            manifest.append(json.dumps({"file": change.file, "line": change.line,
                                        "rules": list(change.rules)}))  # fmt: skip
    text = "".join(line + "\n" for line in manifest)
    if args.manifest:
        from wukong_lint.util.fsutil import atomic_write_text

        try:
            atomic_write_text(args.manifest, text)
        except OSError as err:
            raise UsageError(f"redact: cannot write {args.manifest}: {err.strerror}") from None
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    if errors:
        print(f"wukong-lint: warning: {errors} text(s) hit a rule's time limit", file=sys.stderr)
    if failed and not count:
        print(f"wukong-lint: {failed} file(s) not cleaned", file=sys.stderr)
        return 2
    verb = "would be redacted" if args.dry_run else "redacted"
    also = f"; {grew} line(s) appended meanwhile, masked too" if grew else ""
    print(
        f"{count} secret(s) {verb} on {len(manifest)} line(s) of {changed_files} file(s) "
        f"({len(files)} file(s) read{also})",
        file=sys.stderr,
    )
    if failed:
        print(f"wukong-lint: {failed} file(s) not cleaned", file=sys.stderr)
        return 2
    return 0
