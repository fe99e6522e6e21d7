"""Git as a source: staged changes and commit ranges, as units of added lines.

Plain `git` is used rather than a library: one `git diff` process gives the changed files and
their hunks, one `git cat-file --batch` gives the new contents, and the git CLI honours
`GIT_INDEX_FILE` (set when `git commit -a` runs hooks with a temporary index). The processes
are started by `util/gitproc.py` (no `subprocess` import on the pre-commit path); `check
--staged` starts both before loading its rules and hands them to `staged_units`.
"""

import os
import re
from collections.abc import Callable, Iterator
from itertools import chain
from typing import NamedTuple, TypeVar

from wukong_lint.model import ScanError, Source, Unit
from wukong_lint.secrets.file_names import KEYSTORE_SUFFIXES
from wukong_lint.sources.archives import blob_units, is_archive_path
from wukong_lint.util import gitproc
from wukong_lint.util.errors import InputError
from wukong_lint.util.gitproc import DIFF_OPTIONS, StagedGit
from wukong_lint.util.text import Skipped, decode

NULL_SHA = "0" * 40
_HUNK = re.compile(rb"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", re.MULTILINE)
REGULAR_MODES = {"100644", "100755"}
T = TypeVar("T")


class GitNotFound(InputError):
    """git is not installed (or not on PATH): its own message, not "not a git repository"."""

    MESSAGE = "git not found: --staged, --diff and --history need git on PATH"

    def __init__(self, message: str = MESSAGE) -> None:  # (an argument: unpickled in a worker)
        super().__init__(message)


def run_git(args: list[str], cwd: str | None = None, stdin: bytes | None = None) -> bytes:
    try:
        result = gitproc.run(args, cwd, stdin)
    except FileNotFoundError:
        raise GitNotFound() from None
    return _output(args, result)


def git_error(args: list[str] | tuple[str, ...], stderr: bytes) -> InputError:
    """The error of a failed git command: its first fatal/error line (else its first line),
    with any secret in it masked (a ref or path can be named like a token)."""
    lines = [ln.strip() for ln in stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
    line = next((ln for ln in lines if ln.startswith(("fatal:", "error:"))), None)
    line = line or (lines[0] if lines else "failed")
    from wukong_lint.engine.masking.free_text import mask_secrets

    return InputError(f"git {args[0]}: {mask_secrets(line[:500])}")


def _output(args: list[str] | tuple[str, ...], result: tuple[int, bytes, bytes]) -> bytes:
    code, out, err = result
    if code != 0:
        raise git_error(args, err)
    return out


def repo_root(cwd: str | None = None) -> str:
    """The top of the work tree, or the git folder of a bare repository."""
    try:
        out = run_git(["rev-parse", "--show-toplevel"], cwd)
    except GitNotFound:
        raise
    except InputError as err:
        here = os.path.abspath(cwd or os.curdir)
        try:
            out = run_git(["rev-parse", "--is-bare-repository", "--absolute-git-dir"], cwd)
        except InputError:
            out = b""
        flag, _, git_dir = out.decode("utf-8", "surrogateescape").partition("\n")
        if flag == "true" and git_dir.strip():
            return git_dir.strip()
        reason = str(err)
        if "not a git repository" in reason:
            raise InputError(f"not a git repository: {here}") from None
        # a repository git will not read (owned by another user: safe.directory, a
        # broken .git): say why
        raise InputError(f"not a usable git repository: {here}: {reason}") from None
    return out.decode("utf-8", "surrogateescape").strip()


class Change(NamedTuple):
    status: str  # A, M, R, C, T, D, U...
    old_mode: str
    new_mode: str
    new_sha: str
    path: str  # the new path
    added: frozenset[int]
    binary_in_git: bool  # git printed "Binary files ... differ" for it
    # an added file's whole content, as its patch shows it (None: read the blob from git)
    content: bytes | None = None


def _parse_raw(data: bytes) -> tuple[list[tuple[str, str, str, str, str]], int]:
    """Entries (status, old_mode, new_mode, new_sha, path) and the offset where patches start."""
    entries = []
    pos = 0
    while pos < len(data) and data[pos : pos + 1] == b":":
        end = data.index(b"\0", pos)
        meta = data[pos + 1 : end].decode("ascii").split()
        old_mode, new_mode, _old_sha, new_sha, status = meta[:5]
        pos = end + 1
        paths = []
        for _ in range(2 if status[0] in "RC" else 1):
            end = data.index(b"\0", pos)
            paths.append(os.fsdecode(data[pos:end]))
            pos = end + 1
        entries.append((status[0], old_mode, new_mode, new_sha, paths[-1]))
    while pos < len(data) and data[pos : pos + 1] == b"\0":
        pos += 1
    return entries, pos


def _sections(patch: bytes) -> list[bytes]:
    """The patch of each file: from each line that starts with `diff --git `."""
    return [patch[a:b] for a, b in _section_bounds(patch, 0)]


def _section_bounds(data: bytes, offset: int) -> list[tuple[int, int]]:
    """(start, end) of each file's patch in data[offset:], found with bytes.find (a
    multi-line regex tries every position, ~10x slower)."""
    starts = [offset] if data.startswith(b"diff --git ", offset) else []
    at = data.find(b"\ndiff --git ", offset)
    while at >= 0:
        starts.append(at + 1)
        at = data.find(b"\ndiff --git ", at + 1)
    return list(zip(starts, [*starts[1:], len(data)][: len(starts)], strict=True))


def _added_lines(section: bytes) -> frozenset[int]:
    added: set[int] = set()
    at = section.find(b"\n@@ ")  # hunk headers: the only lines of a patch that start so
    while at >= 0:
        match = _HUNK.match(section, at + 1)
        if match is not None:
            start = int(match.group(1))
            count = int(match.group(2)) if match.group(2) is not None else 1
            added.update(range(start, start + count))
        at = section.find(b"\n@@ ", at + 1)
    return frozenset(added)


def parse_diff(data: bytes) -> list[Change]:
    """Parse `git diff --raw -z -p -U0` output into changes with their added line numbers."""
    try:
        entries, offset = _parse_raw(data)
    except (ValueError, IndexError) as err:  # includes UnicodeDecodeError
        raise InputError(f"unexpected git diff output: {err}") from None
    # Unmerged entries have no `diff --git` section of their own.
    entries = [e for e in entries if e[0] != "U"]
    bounds = _section_bounds(data, offset)  # one file's patch copied at a time
    if len(bounds) != len(entries):
        raise InputError(
            f"unexpected git diff output ({len(entries)} files, {len(bounds)} patches)"
        )
    changes = []
    for (status, old_mode, new_mode, new_sha, path), (start, end) in zip(
        entries, bounds, strict=True
    ):
        section = data[start:end]
        binary = b"\nBinary files " in section or section.startswith(b"Binary files ")
        added = _added_lines(section)
        content = _added_file_content(section) if status == "A" and not binary else None
        changes.append(Change(status, old_mode, new_mode, new_sha, path, added, binary, content))
    return changes


def _added_file_content(section: bytes) -> bytes | None:
    """The content of an added file from its -U0 patch, where every line is a `+` line (so
    that `git cat-file` need not read the blob again); None when the patch is not exactly
    one hunk from line 1 whose `+` lines are as many as its header says (an empty file,
    say): the blob is then read from git."""
    start = section.find(b"\n@@ ")
    if start < 0 or section.find(b"\n@@ ", start + 1) >= 0:
        return None
    match = _HUNK.match(section, start + 1)
    body = section.find(b"\n", start + 1) + 1
    if match is None or not body or not section.startswith(b"@@ -0,0 +1", start + 1):
        return None
    count = int(match.group(2)) if match.group(2) is not None else 1
    lines = section[body:]  # "+line\n" each, maybe then "\ No newline at end of file\n"
    marker = lines.rfind(b"\n\\")
    if marker >= 0:  # the last line has no newline: the marker must be the patch's last line
        if lines.find(b"\n", marker + 1) != len(lines) - 1:
            return None
        lines, end = lines[:marker], b""
    elif lines.endswith(b"\n"):
        lines, end = lines[:-1], b"\n"
    else:
        return None
    # every line a + line: as many line breaks as breaks followed by +, count - 1 of each
    breaks = lines.count(b"\n")
    if not lines.startswith(b"+") or breaks != count - 1 or lines.count(b"\n+") != breaks:
        return None
    return lines[1:].replace(b"\n+", b"\n") + end


def read_blobs(
    shas: list[str], cwd: str | None = None, started: gitproc.GitProcess | None = None
) -> dict[str, bytes]:
    """Contents of many blobs with a single `git cat-file --batch` (`started`: one already
    running, waiting for the names)."""
    if not shas:
        if started is not None:
            started.close()
        return {}
    unique = list(dict.fromkeys(shas))
    request = "\n".join(unique).encode() + b"\n"
    if started is not None:
        out = _output(["cat-file"], started.communicate(request))
        started.forget_output()  # (`out` goes when this returns)
    else:
        out = run_git(["cat-file", "--batch"], cwd, stdin=request)
    blobs: dict[str, bytes] = {}
    pos = 0
    for sha in unique:
        header_end = out.index(b"\n", pos)
        header = out[pos:header_end].split()
        pos = header_end + 1
        if len(header) < 3 or header[-1] in (b"missing", b"ambiguous"):
            continue
        size = int(header[2])
        blobs[sha] = out[pos : pos + size]
        pos += size + 1
    return blobs


def staged_args(cwd: str | None = None) -> list[str]:
    """`git diff` arguments for the index against HEAD; git itself compares with the empty
    tree when there is no commit yet, so this costs no extra process."""
    return ["--cached"]


def range_args(spec: str, cwd: str | None = None) -> list[str]:
    """`git diff` arguments for `BASE..HEAD` (the two commits) or `BASE...HEAD` (since their
    merge base, as a pull request shows it); a single revision means `REV..HEAD`."""
    three_dot = "..." in spec
    base, _, head = spec.partition("..." if three_dot else "..")
    head = head or "HEAD"
    for rev in (base, head):
        if not rev or rev.startswith("-"):
            from wukong_lint.engine.masking.free_text import mask_secrets

            raise InputError(mask_secrets(f"bad range {spec!r}: expected BASE..HEAD"))
        try:
            run_git(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], cwd)
        except GitNotFound:
            raise
        except InputError:
            from wukong_lint.engine.masking.free_text import mask_secrets

            raise InputError(mask_secrets(f"unknown revision {rev!r} in {spec!r}")) from None
    return [f"{base}...{head}"] if three_dot else [base, head]


def diff_changes(args: list[str], cwd: str | None = None) -> list[Change]:
    return parse_diff(run_git(["diff", *DIFF_OPTIONS, *args, "--"], cwd))


def _full_diff_lines(change: Change, base_args: list[str], cwd: str | None) -> frozenset[int]:
    """Added lines of a file git treats as binary (e.g. `-diff` in .gitattributes) but is text."""
    out = run_git(["diff", *DIFF_OPTIONS, "--text", *base_args, "--", change.path], cwd)
    _, offset = _parse_raw(out)
    sections = _sections(out[offset:])
    return _added_lines(sections[0]) if sections else frozenset()


def change_units(
    changes: list[Change],
    base_args: list[str],
    cwd: str | None = None,
    commit: str | None = None,
    cat_file: gitproc.GitProcess | None = None,
) -> Iterator[Unit | ScanError | Skipped]:
    wanted = _regular(changes)
    blobs = read_blobs([c.new_sha for c in wanted if c.content is None], cwd, cat_file)
    for change in wanted:
        data = change.content if change.content is not None else blobs.get(change.new_sha)
        if data is None:
            yield ScanError(change.path, f"cannot read blob {change.new_sha[:12]} from git")
            continue
        text = decode(data)
        if text is None:
            if is_archive_path(change.path):  # its members, whole (sources/archives.py)
                yield from blob_units(data, change.path, commit)
                continue
            if data and change.path.lower().endswith(KEYSTORE_SUFFIXES):
                # a keystore added or changed: a unit without text, reported by its name
                source = Source(kind="diff", commit=commit)
                yield Unit(change.path, "", source, added_lines=frozenset([1]), size=len(data))
                continue
            yield Skipped(change.path, "binary", len(data))
            continue
        added = change.added
        if change.binary_in_git:
            added = _full_diff_lines(change, base_args, cwd)
        if not added:
            yield Skipped(change.path, "no added lines", len(data))
            continue
        source = Source(kind="diff", commit=commit)
        yield Unit(change.path, text, source, added_lines=added, size=len(data))


def change_summary(changes: list[Change], commit: str | None = None) -> list[Unit]:
    """The change as a whole, for `change` rules (a large-scale change): one unit holding
    every path the change touches, one a line (deleted, renamed, binary files and submodules
    count too). It is not a file: its path is the repository root, and it adds nothing to
    the files and bytes of the stats."""
    if not changes:
        return []
    text = "\n".join(c.path for c in changes) + "\n"
    return [Unit(".", text, Source(kind="change", commit=commit), size=0)]


def _in_repository(cwd: str | None, action: Callable[[], T]) -> T:
    """Run a git action; if it fails outside a repository, say that rather than what git
    said (outside a repository `git diff --cached` complains about its options). Checking
    only on failure keeps the pre-commit path at two git processes."""
    try:
        return action()
    except InputError:
        repo_root(cwd)  # raises "not a git repository" when that is the reason
        raise


def _has_work_tree(cwd: str | None) -> None:
    """Raise when the repository is bare: with no index, its "staged change" deletes every
    file (asked only of a change that adds nothing)."""
    out = run_git(["rev-parse", "--is-bare-repository"], cwd)
    if out.strip() == b"true":
        raise InputError("--staged needs a work tree: this is a bare repository")


def _needs_blobs(changes: list[Change]) -> bool:
    return any(c.content is None for c in _regular(changes))


def _regular(changes: list[Change]) -> list[Change]:
    """The changes whose new content is a file to scan (not deleted, a link or a submodule)."""
    return [
        c
        for c in changes
        if c.status != "D" and c.new_mode in REGULAR_MODES and c.new_sha != NULL_SHA
    ]


def prepare_staged(started: StagedGit) -> None:
    """Before the rules load: start `git cat-file --batch` for the blobs the scan will read,
    unless the diff has already ended and every file it adds shows its content in its patch
    (a commit of new files). When the diff is still running, cat-file is started anyway."""
    if started.diff.ended():
        code, out, _ = started.diff.communicate()
        if code == 0:
            try:
                started.changes = parse_diff(out)
            except InputError:
                started.changes = None  # staged_units says so
            else:
                started.diff.forget_output()
            if started.changes is not None and not _needs_blobs(started.changes):
                return
    started.start_cat_file()


def staged_units(
    cwd: str | None = None, started: StagedGit | None = None
) -> Iterator[Unit | ScanError | Skipped]:
    """Units of the lines the index adds; `started`: the git processes `gitproc.start_staged`
    started for this (in the current folder), whose output is read instead of running git."""
    args = staged_args(cwd)
    if started is None:
        changes = _in_repository(cwd, lambda: diff_changes(args, cwd))
        if all(c.status == "D" for c in changes):
            _has_work_tree(cwd)
        return chain(change_units(changes, args, cwd), change_summary(changes))
    diff = started.diff
    try:
        changes = started.changes
        if changes is None:
            changes = _in_repository(
                cwd, lambda: parse_diff(_output(diff.args, diff.communicate()))
            )
            diff.forget_output()
        started.changes = None  # the caller's to keep or drop
        if all(c.status == "D" for c in changes):
            _has_work_tree(cwd)
    except BaseException:
        started.close()
        raise
    units = change_units(changes, args, cwd, cat_file=started.cat_file)
    return chain(units, change_summary(changes))


def range_units(spec: str, cwd: str | None = None) -> Iterator[Unit | ScanError | Skipped]:
    args = _in_repository(cwd, lambda: range_args(spec, cwd))
    changes = diff_changes(args, cwd)
    return chain(change_units(changes, args, cwd), change_summary(changes))
