"""Every line ever added in a repository's history, with the commit that added it.

One `git log -p -U0` stream is read line by line (no process per commit or file, memory flat
in the size of the history): each commit's added lines of a file become one unit whose
`line_numbers` say where each line sits in that commit's version of the file.
Merge commits show no diff of their own (their lines were added by the commits they merge).
Each commit's message is a unit too (path MESSAGE_PATH): a secret pasted into a message is
as public as one in a file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator

from wukong_lint.model import ScanError, Source, Unit
from wukong_lint.sources.archives import blob_units, is_archive_path
from wukong_lint.sources.git import GitNotFound, git_error, read_blobs, repo_root, run_git
from wukong_lint.util import gitproc
from wukong_lint.util.errors import InputError
from wukong_lint.util.text import Skipped

LOG_OPTIONS = (
    "log",
    "-p",
    "-U0",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    # files that attributes mark binary (`* -diff`: a way to hide every line from a scan)
    # are diffed as text; truly binary ones are dropped at their first line holding a NUL
    "--text",
    "--no-renames",
    "--no-relative",
    "--inter-hunk-context=0",
    "--encoding=UTF-8",
    "--format=format:%x00commit %H%n%B%x00end",
    "--src-prefix=a/",
    "--dst-prefix=b/",
)
MESSAGE_PATH = "(commit message)"
_END = b"\x00end"
_HUNK = re.compile(rb"^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@")
_ESCAPES = {b"a": 7, b"b": 8, b"t": 9, b"n": 10, b"v": 11, b"f": 12, b"r": 13, b'"': 34, b"\\": 92}

Item = Unit | ScanError | Skipped


def unquote_path(raw: bytes) -> str:
    """A path as git prints it in a patch header: C-quoted when it has special bytes."""
    if not raw.startswith(b'"'):
        return os.fsdecode(raw)
    body, out, i = raw[1:-1], bytearray(), 0
    while i < len(body):
        byte = body[i : i + 1]
        if byte == b"\\" and i + 1 < len(body):
            nxt = body[i + 1 : i + 2]
            if nxt.isdigit():
                out.append(int(body[i + 1 : i + 4], 8))
                i += 4
                continue
            out.append(_ESCAPES.get(nxt, nxt[0]))
            i += 2
            continue
        out += byte
        i += 1
    return os.fsdecode(bytes(out))


class _FileAdds:
    """Added lines of one file in one commit."""

    def __init__(self, commit: str, path: str) -> None:
        self.commit = commit
        self.path = path
        self.lines: list[str] = []
        self.numbers: list[int] = []
        self.size = 0

    def unit(self) -> Unit:
        return Unit(
            self.path,
            "\n".join(self.lines),
            Source(kind="diff", commit=self.commit),
            size=self.size,
            line_numbers=tuple(self.numbers),
        )


def _message_unit(commit: str, lines: list[bytes]) -> Unit | None:
    data = b"".join(lines)
    text = data.decode("utf-8", "replace").rstrip("\r\n")
    if not text.strip():
        return None
    numbers = tuple(range(1, text.count("\n") + 2))
    return Unit(MESSAGE_PATH, text, Source(kind="diff", commit=commit), size=len(data),
                line_numbers=numbers)  # fmt: skip


def parse_log(
    stream: Iterator[bytes],
    archives: list[tuple[str, str]] | None = None,
    keep: Callable[[str], bool] | None = None,
) -> Iterator[Item]:
    """Units from the output of `git log -p -U0` with LOG_OPTIONS, read line by line: each
    commit's message (between its `\\0commit SHA` line and `\\0end`), then its added lines.
    An archive a commit adds or changes is appended to `archives` as (commit, path): its
    members are read from its blob afterwards (`archive_units`), not from the patch.
    `keep(sha)` false: that commit is passed over whole (`check --history --shard K/N`)."""
    commit = ""
    current: _FileAdds | None = None
    message: list[bytes] | None = None  # the message being read
    next_line = 0
    passing = False  # inside a commit `keep` refused: its lines are read past
    for raw in stream:
        if passing and not raw.startswith(b"\x00commit "):
            continue
        if message is not None and not raw.startswith(b"\x00commit "):
            end = raw.find(_END)
            if end < 0:
                message.append(raw)
                continue
            message.append(raw[:end])  # (a message without a final newline)
            unit = _message_unit(commit, message)
            message = None
            if unit is not None:
                yield unit
            continue
        if raw.startswith(b"\x00commit "):
            if current is not None and current.lines:
                yield current.unit()
            if message:  # (no end marker: output git does not print)
                unit = _message_unit(commit, message)
                if unit is not None:
                    yield unit
            current = None
            commit = raw[8:].strip().decode("ascii", "replace")
            passing = keep is not None and not keep(commit)
            message = None if passing else []
            continue
        if raw.startswith(b"diff --git "):
            if current is not None and current.lines:
                yield current.unit()
            current = None
            continue
        if raw.startswith(b"+++ "):
            # git ends a path holding a space with a tab, for patch tools
            target = raw[4:].rstrip(b"\r\n").removesuffix(b"\t")
            if target != b"/dev/null":
                path = unquote_path(target)
                path = path[2:] if path.startswith("b/") else path
                if archives is not None and is_archive_path(path):
                    archives.append((commit, path))
                    current = None  # (its bytes as patch lines are not text)
                    continue
                current = _FileAdds(commit, path)
            continue
        if raw.startswith(b"Binary files ") and current is None:
            continue
        if current is None:
            continue
        if raw.startswith(b"@@"):
            match = _HUNK.match(raw)
            if match:
                next_line = int(match.group(1))
            continue
        if raw.startswith(b"+"):
            text = raw[1:].rstrip(b"\n")
            if text.endswith(b"\r"):
                text = text[:-1]
            if b"\0" in text:  # a binary file that git diffed as text: skip it
                current = None
                continue
            current.lines.append(text.decode("utf-8", "replace"))
            current.numbers.append(next_line)
            current.size += len(raw)
            next_line += 1
    if current is not None and current.lines:
        yield current.unit()
    if message:  # the stream ended inside a message (a killed git): what was read
        unit = _message_unit(commit, message)
        if unit is not None:
            yield unit


def history_units(
    since: str | None = None, cwd: str | None = None, keep: Callable[[str], bool] | None = None
) -> Iterator[Item]:
    """Lines added in the history reachable from any ref (or in `since..HEAD`), and the
    commits' messages. A bare repository works (its git folder is the root); an unborn HEAD
    (an orphan branch being started) does not stop the scan of the other refs. With `keep`,
    only the commits whose sha it accepts (a shard of the history)."""
    root = repo_root(cwd)
    if since:
        try:
            run_git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], root)
        except GitNotFound:
            raise
        except InputError:
            raise InputError("--history --since: HEAD has no commits yet") from None
        try:
            run_git(["rev-parse", "--verify", "--quiet", f"{since}^{{commit}}"], root)
        except GitNotFound:
            raise
        except InputError:
            from wukong_lint.engine.masking.free_text import mask_secrets

            raise InputError(mask_secrets(f"unknown revision {since!r} for --since")) from None
        revisions = [f"{since}..HEAD"]
    else:
        revisions = ["--all"]  # every ref; an unborn HEAD is skipped, no refs: no output
    if keep is None:
        yield from _log_units([*LOG_OPTIONS, *revisions, "--"], root, None, None)
        return
    # A shard's commits are listed first, and git diffs only those: each shard reading the
    # whole `git log -p` would make N shards cost far more than the one scan.
    listed = run_git(["rev-list", *revisions, "--"], root).split()
    selected = b"".join(sha + b"\n" for sha in listed if keep(sha.decode("ascii")))
    if not selected:
        return  # (none: `git log --stdin` given no commit would show HEAD's history)
    import tempfile

    with tempfile.TemporaryFile() as wanted:
        wanted.write(selected)
        wanted.seek(0)
        log = [*LOG_OPTIONS, "--no-walk=unsorted", "--stdin", "--"]
        yield from _log_units(log, root, keep, wanted)


def _log_units(
    log: list[str], root: str, keep: Callable[[str], bool] | None, wanted: object
) -> Iterator[Item]:
    """The units of one `git log` (see `history_units`)."""
    import tempfile

    args = ["-C", root, *log]
    # git's messages go to a file, not a pipe nobody reads while the patches stream (a
    # repository with many broken refs would fill it and stop git: a hang)
    with tempfile.TemporaryFile() as errors:
        try:
            proc = gitproc.popen(args, stderr=errors, stdin=wanted if keep else None)
        except FileNotFoundError:
            raise GitNotFound() from None
        assert proc.stdout is not None
        archives: list[tuple[str, str]] = []
        try:
            yield from parse_log(iter(proc.stdout.readline, b""), archives, keep)
        finally:
            proc.stdout.close()
            code = proc.wait()
        if code != 0:
            errors.seek(0)
            raise git_error(["log"], errors.read(64 * 1024))
    yield from archive_units(archives, root)


_ARCHIVE_BATCH = 16  # archive blobs asked of git at a time (each up to its size in memory)


def archive_units(archives: list[tuple[str, str]], root: str) -> Iterator[Item]:
    """The members of each archive blob (commit, path) the history added or changed."""
    for start in range(0, len(archives), _ARCHIVE_BATCH):
        batch = archives[start : start + _ARCHIVE_BATCH]
        names = [f"{commit}:{path}" for commit, path in batch if "\n" not in path]
        blobs = read_blobs(names, root)
        for commit, path in batch:
            data = blobs.get(f"{commit}:{path}")
            if data is None:
                yield ScanError(path, f"cannot read blob {commit[:12]}:{path} from git")
                continue
            yield from blob_units(data, path, commit)
