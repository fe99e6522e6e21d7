"""Every line ever added in a repository's history, with the commit that added it.

One `git log -p -U0` stream is read line by line (no process per commit or file, memory flat
in the size of the history): each commit's added lines of a file become one unit whose
`line_numbers` say where each line sits in that commit's version of the file.
Merge commits show no diff of their own (their lines were added by the commits they merge).
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator

from wukong_lint.errors import InputError
from wukong_lint.model import ScanError, Source, Unit
from wukong_lint.sources.git import repo_root, run_git
from wukong_lint.sources.text import Skipped

LOG_OPTIONS = (
    "log",
    "-p",
    "-U0",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--no-renames",
    "--format=format:%x00commit %H",
    "--src-prefix=a/",
    "--dst-prefix=b/",
)
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


def parse_log(stream: Iterator[bytes]) -> Iterator[Item]:
    """Units from the output of `git log -p -U0` with LOG_OPTIONS, read line by line."""
    commit = ""
    current: _FileAdds | None = None
    next_line = 0
    for raw in stream:
        if raw.startswith(b"\x00commit "):
            if current is not None and current.lines:
                yield current.unit()
            current = None
            commit = raw[8:].strip().decode("ascii", "replace")
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
                current = _FileAdds(commit, path[2:] if path.startswith("b/") else path)
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


def history_units(since: str | None = None, cwd: str | None = None) -> Iterator[Item]:
    """Lines added in the history reachable from any ref (or in `since..HEAD`)."""
    root = repo_root(cwd)
    try:
        run_git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], root)
    except InputError:
        if since:
            raise InputError("--history --since: the repository has no commits yet") from None
        return  # nothing has been committed: no history to scan
    if since:
        try:
            run_git(["rev-parse", "--verify", "--quiet", f"{since}^{{commit}}"], root)
        except InputError:
            raise InputError(f"unknown revision {since!r} for --since") from None
        revisions = [f"{since}..HEAD"]
    else:
        revisions = ["--all"]
    proc = subprocess.Popen(
        ["git", "-C", root, *LOG_OPTIONS, *revisions, "--"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    try:
        yield from parse_log(iter(proc.stdout.readline, b""))
    finally:
        proc.stdout.close()
        stderr = proc.stderr.read() if proc.stderr else b""
        code = proc.wait()
    if code != 0:
        message = stderr.decode("utf-8", "replace").strip().splitlines()
        raise InputError(f"git log: {message[0] if message else 'failed'}")
