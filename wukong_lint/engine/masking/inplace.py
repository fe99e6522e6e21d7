"""`redact --in-place`: a session file rewritten with its secrets masked, safely while the
agent may still be appending to it.

- Only complete lines are rewritten (each as `Redactor.line` does: a record holding a secret
  decoded, masked and written back as one JSON line, its ids untouched; other lines byte for
  byte). The new file replaces the old one atomically (util/fsutil.py `atomic_writer`),
  keeping its mode, owner and modification time.
- Right before the replace the file's inode and size are checked again: lines appended
  meanwhile are masked and added (`settle`), and a last line still being written is copied
  as it is once it stops growing (the writer's next append completes it in the new file).
  Bytes appended to the old file after that last check (a window of microseconds) are read
  from it once it is replaced and appended to the new one, whole lines in one write.
- A file rewritten whole by its writer (a pretty-printed JSON document) that changes while
  it is read is left as it was, with a message. A file nothing is masked in is not touched.
- A writer that keeps the file open (not reopening it by name for each append) goes on
  writing to the replaced file: stop such an agent before cleaning its current session.

The manifest says which lines changed and under which rules, never the secret."""

from __future__ import annotations

import errno
import os
import re
import shutil
import stat
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from wukong_lint.engine.masking.redactor import Redactor, _is_document, redact_to
from wukong_lint.util.fsutil import append_bytes, atomic_writer

_MARK = re.compile(rb"\[REDACTED:([\w.-]+)\]")
PARTIAL_WAIT = 0.01  # seconds between checks of a last line that is still being written


@dataclass(frozen=True)
class Change:
    """A line `redact` changed: the file, its line number and the rules whose secrets it
    masked there (never the secret)."""

    file: str
    line: int
    rules: tuple[str, ...]


@dataclass
class Outcome:
    path: str
    changes: list[Change] = field(default_factory=list)
    count: int = 0  # secrets masked
    errors: int = 0  # texts that hit a rule's time limit
    grew: int = 0  # lines appended while the file was rewritten (masked too)


class _Unchanged(Exception):
    """Nothing to mask: the rewrite is dropped and the file left untouched."""


def line_rules(before: bytes, after: bytes) -> tuple[str, ...]:
    """The rules of the markers a rewrite added to a line."""
    added = Counter(_MARK.findall(after))
    added.subtract(Counter(_MARK.findall(before)))
    return tuple(sorted(rule.decode() for rule, n in added.items() if n > 0))


class _Null:
    def write(self, data: bytes) -> int:
        return len(data)


class _Lines:
    """The complete lines of a file read from `pos` on, masked, written to `out`."""

    def __init__(self, path: str, source: BinaryIO, redactor: Redactor, outcome: Outcome) -> None:
        self.path, self.source, self.redactor, self.outcome = path, source, redactor, outcome
        self.pos = 0
        self.number = 0

    def pump(self, out: Any, size: int, partial: bool = False) -> int:
        """Mask and write the lines up to byte `size` (a last line without its end only when
        `partial`, as it is); the lines taken."""
        self.source.seek(self.pos)
        taken = 0
        while self.pos < size:
            raw = self.source.readline(size - self.pos)
            if not raw:
                break
            if not raw.endswith(b"\n"):
                if not partial:
                    break
                out.write(raw)  # (cut: the writer's next append completes it)
                self.pos += len(raw)
                break
            self.number += 1
            new = self.redactor.line(raw)
            if new != raw:
                rules = line_rules(raw, new)
                self.outcome.changes.append(Change(self.path, self.number, rules))
            out.write(new)
            self.pos += len(raw)
            taken += 1
        return taken


def redact_in_place(
    path: str, ruleset: Any, *, dry_run: bool = False, backup: str | None = None
) -> Outcome:
    """Mask the secrets of `path` in place (see above). Raises OSError for a file that
    cannot or must not be rewritten (a symbolic link, not a regular file, replaced or
    rewritten whole meanwhile)."""
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        raise OSError(errno.ELOOP, "is a symbolic link; not rewriting it", path)
    if not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EINVAL, "not a regular file", path)
    outcome = Outcome(path)
    redactor = Redactor(ruleset)
    with open(path, "rb") as source:
        head = source.read(65536).lstrip()
        if _is_document(head):
            _document(path, source, redactor, outcome, info, dry_run, backup)
        else:
            _jsonl(path, source, redactor, outcome, info, dry_run, backup)
    outcome.count, outcome.errors = redactor.count, redactor.errors
    return outcome


def _same(info: os.stat_result, now: os.stat_result) -> bool:
    return (info.st_ino, info.st_dev) == (now.st_ino, now.st_dev)


def _jsonl(path: str, source: BinaryIO, redactor: Redactor, outcome: Outcome,
           info: os.stat_result, dry_run: bool, backup: str | None) -> None:  # fmt: skip
    lines = _Lines(path, source, redactor, outcome)
    if dry_run:
        lines.pump(_Null(), os.fstat(source.fileno()).st_size, partial=True)
        return
    if backup:
        _backup(path, source, backup)
    state = {"size": -1}

    def settle(handle: BinaryIO) -> bool:
        now = os.stat(path)
        if not _same(info, now):
            raise OSError(errno.EBUSY, "replaced by another writer meanwhile; left as it was", path)
        if now.st_size == lines.pos:
            return True
        # lines appended since: masked and added; a last line being written is waited for,
        # and copied as it is once it stops growing
        outcome.grew += lines.pump(handle, now.st_size, partial=now.st_size == state["size"])
        if lines.pos < now.st_size:
            time.sleep(PARTIAL_WAIT)
        state["size"] = now.st_size
        return False

    try:
        with atomic_writer(path, settle=settle, preserve=True) as out:
            lines.pump(out, info.st_size)
            if not outcome.changes:
                raise _Unchanged
    except _Unchanged:
        return
    # Appends that reached the old file in the moment between the last check and the
    # replace: added to the new file (the writer reopens it by name for its next append).
    late = os.fstat(source.fileno()).st_size
    if late > lines.pos:
        from io import BytesIO

        tail = BytesIO()
        outcome.grew += lines.pump(tail, late, partial=True)
        append_bytes(path, tail.getvalue())


def _document(path: str, source: BinaryIO, redactor: Redactor, outcome: Outcome,
              info: os.stat_result, dry_run: bool, backup: str | None) -> None:  # fmt: skip
    """A pretty-printed JSON document (rewritten whole by its writer): masked whole; a
    change meanwhile leaves it as it was."""
    source.seek(0)
    before = source.read()
    from io import BytesIO

    clean = BytesIO()
    redact_to(path, clean, None, redactor)
    after = clean.getvalue()
    if after == before:
        return
    pairs = zip(before.split(b"\n"), after.split(b"\n"), strict=False)
    for number, (old, new) in enumerate(pairs, 1):
        if old != new:
            outcome.changes.append(Change(path, number, line_rules(old, new)))
    if dry_run:
        return
    if backup:
        _backup(path, source, backup)

    def settle(handle: BinaryIO) -> bool:
        now = os.stat(path)
        if not _same(info, now) or (now.st_size, now.st_mtime_ns) != (
            info.st_size,
            info.st_mtime_ns,
        ):
            raise OSError(errno.EBUSY, "rewritten by its writer meanwhile; left as it was", path)
        return True

    with atomic_writer(path, settle=settle, preserve=True) as out:
        out.write(after)


def backup_path(folder: str, path: str) -> str:
    """Where the original of `path` is kept under `folder`: its absolute path mirrored."""
    return os.path.join(folder, os.path.abspath(path).lstrip(os.sep))


def _backup(path: str, source: BinaryIO, folder: str) -> None:
    """A copy of the original, readable by its owner only (0600: it holds the secrets)."""
    target = backup_path(folder, path)
    os.makedirs(os.path.dirname(target), mode=0o700, exist_ok=True)
    source.seek(0)
    with atomic_writer(target, mode=0o600) as out:
        shutil.copyfileobj(source, out, 1 << 20)
