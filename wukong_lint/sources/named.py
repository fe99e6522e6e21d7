"""The paths named on the command line: never skipped in silence.

- `-` is standard input (`--stdin-filename NAME` sets the path used for rules and output);
  `/dev/stdin`, `<(...)` (a `/dev/fd/N` pipe), named pipes and character devices are read as
  streams, up to MAX_STREAM_BYTES (the rest is not scanned, and that is an error).
- A named symbolic link is scanned: its target (a file or a folder), under the name given.
  A broken link, a socket or a block device is refused with a message.
- A named file that cannot be read is an error: the run ends non-zero unless the user
  passed `--allow-skipped`.
- A named binary file is skipped with a note (pre-commit hands binaries too: not a failure).
- Folders are listed by sources/files.py, which skips FIFOs, sockets and devices without
  opening them.

A stream is copied to a private temporary file, so every reader (transcripts, memory-bank
files, plain text) takes it as it takes a file; the file is removed when the scan ends.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from collections.abc import Callable

from wukong_lint.model import ScanError
from wukong_lint.sources.files import BINARY_SUFFIXES, iter_paths
from wukong_lint.util.errors import InputError
from wukong_lint.util.text import BINARY_SNIFF, UTF16_BOMS

STDIN = "-"
MAX_STREAM_BYTES = 64 << 20
_READ = 1 << 20


def max_stream_bytes() -> int:
    """The stream size limit (WUKONG_LINT_MAX_STREAM_BYTES moves it)."""
    try:
        return max(1, int(os.environ.get("WUKONG_LINT_MAX_STREAM_BYTES", MAX_STREAM_BYTES)))
    except ValueError:
        return MAX_STREAM_BYTES


class NamedInputs:
    """What to scan for the named paths, and what could not or need not be scanned."""

    def __init__(self) -> None:
        self.files: list[tuple[str, str]] = []  # (path to read, display path)
        self.problems: list[ScanError] = []  # named inputs not (fully) scanned
        self.notes: list[str] = []  # named inputs skipped on purpose (binary files)
        self.skipped = 0
        self._tmpdir: str | None = None

    def close(self) -> None:
        if self._tmpdir is not None:
            import shutil

            shutil.rmtree(self._tmpdir, ignore_errors=True)
            self._tmpdir = None

    def spool(self, handle: object, display: str) -> None:
        """Copy a stream (a binary file object) to a temporary file."""
        if self._tmpdir is None:
            import tempfile

            self._tmpdir = tempfile.mkdtemp(prefix="wukong-lint-stream-")
        target = os.path.join(self._tmpdir, f"stream-{len(self.files)}")
        limit = max_stream_bytes()
        copied, more = 0, False
        from wukong_lint.util.fsutil import atomic_writer

        with atomic_writer(target) as out:
            while copied < limit:
                chunk = _read(handle, min(_READ, limit - copied))
                if not chunk:
                    break
                out.write(chunk)
                copied += len(chunk)
            else:
                more = bool(_read(handle, 1))
        if more:
            mib = limit / (1 << 20)
            self.problems.append(
                ScanError(display, f"stream longer than {mib:g} MiB: only its start was scanned")
            )
        if display.endswith(BINARY_SUFFIXES) or _is_binary(target) is True:
            self.skipped += 1
            self.notes.append(f"{display}: binary data, not scanned")
            return
        self.files.append((target, display))


def _read(handle: object, size: int) -> bytes:
    return handle.read(size) or b""  # type: ignore[attr-defined,no-any-return]


def _is_binary(path: str) -> bool | OSError:
    """Whether a regular file is binary (as read_file decides it), or why it cannot be read."""
    if path.endswith(BINARY_SUFFIXES):
        return True
    try:
        with open(path, "rb") as handle:
            head = handle.read(BINARY_SNIFF)
    except OSError as err:
        return err
    return b"\0" in head and not head.startswith(UTF16_BOMS)


def _display(given: str) -> str:
    return os.path.normpath(given).replace(os.sep, "/")


def collect(
    paths: list[str],
    *,
    stdin_filename: str | None = None,
    excluded: Callable[[str], bool] | None = None,
) -> NamedInputs:
    """Sort the named paths out. Raises InputError for a path that does not exist (and for
    `-` named twice)."""
    if paths.count(STDIN) > 1:
        raise InputError("standard input (-) can be named only once")
    missing = [p for p in paths if p != STDIN and not os.path.lexists(p)]
    if missing:
        raise InputError(f"no such file or directory: {missing[0]}")
    named = NamedInputs()
    try:
        seen: set[str] = set()
        for given in paths:
            _collect_one(named, given, stdin_filename, excluded, seen)
        _standalone_subagents(named)
    except BaseException:
        named.close()
        raise
    return named


def subagent_session(path: str) -> str | None:
    """The session file `<session>.jsonl` a Claude Code sub-agent transcript
    `<session>/subagents/agent-*.jsonl` belongs to (whether it exists or not), or None when
    `path` is no sub-agent transcript."""
    folder, name = os.path.split(os.path.abspath(path))
    if not (name.startswith("agent-") and name.endswith(".jsonl")):
        return None
    if os.path.basename(folder) != "subagents":
        return None
    return os.path.dirname(folder) + ".jsonl"


def _standalone_subagents(named: NamedInputs) -> None:
    """Sub-agent transcripts to read on their own: the ones whose session file is not
    scanned in this run (a session file reads its sub-agents' files itself, which must then
    not be read twice). Their paths go to the transcript readers' options (forked workers
    inherit them); a note says whether the parent session gives them context."""
    import sys

    environment = sys.modules.get("wukong_lint.sources.transcripts.environment")
    if environment is not None:  # (an earlier run's, in the same process)
        environment.OPTIONS["standalone"] = frozenset()
    parents: dict[str, list[tuple[str, str]]] = {}
    for full, display in named.files:
        parent = subagent_session(full)
        if parent is not None:
            parents.setdefault(parent, []).append((full, display))
    if not parents:
        return
    scanned = {os.path.abspath(full) for full, _ in named.files}
    alone: set[str] = set()
    for parent, subs in parents.items():
        if parent in scanned:
            continue  # read with their session, as a folder of sessions is
        alone.update(os.path.abspath(full) for full, _ in subs)
        shown = os.path.dirname(os.path.dirname(subs[0][1])) + ".jsonl"  # as the user named it
        count = f"{len(subs)} sub-agent transcript(s) of session {shown}"
        if os.path.isfile(parent):
            named.notes.append(f"{count}: read with that session for context")
        else:
            named.notes.append(f"{count}: session file not found, read alone")
    from wukong_lint.sources.transcripts.environment import OPTIONS

    OPTIONS["standalone"] = frozenset(alone)


def _collect_one(
    named: NamedInputs,
    given: str,
    stdin_filename: str | None,
    excluded: Callable[[str], bool] | None,
    seen: set[str],
) -> None:
    if given == STDIN:
        display = _display(stdin_filename) if stdin_filename else STDIN
        if excluded is not None and excluded(display):
            named.notes.append(f"{display}: excluded by the config, not scanned")
            return
        if sys.stdin is None:
            named.problems.append(ScanError(display, "standard input is closed: not scanned"))
            return
        if sys.stdin.isatty():  # a forgotten pipe: say why nothing happens
            print("wukong-lint: reading standard input (end it with Ctrl-D)", file=sys.stderr)
        try:
            named.spool(sys.stdin.buffer, display)
        except (OSError, ValueError) as err:  # ValueError: stdin closed
            why = getattr(err, "strerror", None) or str(err)
            named.problems.append(ScanError(display, f"cannot read: {why}: not scanned"))
        return
    display = _display(given)
    try:
        mode = os.stat(given).st_mode  # follows a named symlink: its target is scanned
    except OSError as err:
        if os.path.islink(given):
            broken = err.errno == errno.ENOENT
            why = "broken symbolic link" if broken else f"symbolic link: {err.strerror}"
        else:
            why = f"cannot read: {err.strerror or err}"
        named.problems.append(ScanError(display, f"{why}: not scanned"))
        return
    if stat.S_ISDIR(mode):
        before = len(named.files)
        for full, shown in iter_paths([given], follow_named=True):
            if shown not in seen and (excluded is None or not excluded(shown)):
                seen.add(shown)
                named.files.append((full, shown))
        if len(named.files) == before:  # "0 files scanned" deserves a why
            named.notes.append(f"{display}: no file to scan in this folder")
        return
    if display in seen:
        return
    seen.add(display)
    if excluded is not None and excluded(display):
        # named, but the config says no: said, not failed (pre-commit names every file)
        named.notes.append(f"{display}: excluded by the config, not scanned")
        return
    if stat.S_ISREG(mode):
        full = os.path.realpath(given) if os.path.islink(given) else given
        binary = _is_binary(full)
        if isinstance(binary, OSError):
            why = binary.strerror or str(binary)
            named.problems.append(ScanError(display, f"cannot read: {why}: not scanned"))
        elif binary:
            named.skipped += 1
            named.notes.append(f"{display}: binary file, not scanned")
        else:
            named.files.append((full, display))
        return
    if stat.S_ISFIFO(mode) or stat.S_ISCHR(mode):
        try:
            with open(given, "rb", buffering=0) as stream:  # read() returns what is there
                named.spool(stream, display)
        except OSError as err:
            why = err.strerror or str(err)
            named.problems.append(ScanError(display, f"cannot read: {why}: not scanned"))
        return
    kind = "a socket" if stat.S_ISSOCK(mode) else "a block device" if stat.S_ISBLK(mode) else None
    named.problems.append(ScanError(display, f"{kind or 'not a file'}: not scanned"))
