"""A commit range (`check --diff BASE..HEAD`, `BASE...HEAD`, `REV`), scanned commit by commit.

The range's net diff is not enough: a secret added in one commit and removed in a later one
is gone from the net diff but stays in the history that gets merged or pushed. So every
commit the range brings (`git rev-list BASE..HEAD`: the commits reachable from HEAD and not
from BASE, which is what a pull request or a push adds for both range forms) is scanned on
its own, against its parent, with the whole new file as context and the commit's added lines
as the lines that count; each finding carries the commit that added the line.

Commits are read in batches: one `git diff-tree --stdin` process gives the changes and hunks
of up to BATCH commits, one `git cat-file --batch` their new file contents, so memory stays
bounded by a batch whatever the length of the range. A merge commit is scanned for the lines
it adds itself (in none of its parents: a conflict resolution can add a secret too), not for
the lines it brings from one side, which were added, and are scanned, in that side's commits.

An unknown revision is an error (exit 2), and so is a range without any commit (`HEAD..HEAD`,
a range written the wrong way round): "nothing to scan" must never read as "clean". The
change as a whole (for `change` rules such as the large-change check) is the range's net
diff: BASE..HEAD compares the two commits, BASE...HEAD starts from their merge base.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import NamedTuple

from wukong_lint.model import ScanError, Source, Unit
from wukong_lint.sources.archives import blob_units, is_archive_path
from wukong_lint.sources.git import (
    Change,
    _full_diff_lines,
    _in_repository,
    _parse_raw,
    _regular,
    diff_changes,
    parse_diff,
    range_args,
    read_blobs,
    run_git,
)
from wukong_lint.util.errors import InputError
from wukong_lint.util.gitproc import DIFF_OPTIONS
from wukong_lint.util.text import Skipped, decode

BATCH = 64  # commits per diff-tree / cat-file pair
_HEADER = re.compile(rb"(?:^|(?<=[\n\0]))([0-9a-f]{40}(?:[0-9a-f]{24})?)\0")

Item = Unit | ScanError | Skipped


class Range(NamedTuple):
    spec: str  # as the user wrote it
    diff_args: list[str]  # `git diff` arguments of the net change
    base: str  # full commit ids
    head: str
    commits: list[tuple[str, tuple[str, ...]]]  # (commit, parents), oldest first


def resolve(spec: str, cwd: str | None = None) -> Range:
    """The range's revisions and its commits; InputError for an unknown revision."""
    args = _in_repository(cwd, lambda: range_args(spec, cwd))
    if len(args) == 1:
        base, _, head = args[0].partition("...")
    else:
        base, head = args
    # (range_args checked both: they are commits, and neither starts with "-")
    shas = run_git(["rev-parse", f"{base}^{{commit}}", f"{head}^{{commit}}"], cwd)
    base_sha, head_sha = shas.decode("ascii", "replace").split()
    out = run_git(
        ["rev-list", "--reverse", "--topo-order", "--parents", f"{base_sha}..{head_sha}", "--"],
        cwd,
    )
    commits = []
    for line in out.decode("ascii", "replace").splitlines():
        sha, *parents = line.split()
        commits.append((sha, tuple(parents)))
    return Range(spec, args, base_sha, head_sha, commits)


def empty_range_message(rng: Range) -> str:
    if len(rng.diff_args) == 1:
        base, _, head = rng.diff_args[0].partition("...")
    else:
        base, head = rng.diff_args
    why = (
        f"{base} and {head} are the same commit"
        if rng.base == rng.head
        else f"every commit of {head} is already in {base}: is the range the wrong way round?"
    )
    return (
        f"--diff {rng.spec}: the range has no commits, so nothing was scanned ({why}); "
        "use --allow-empty-range if that is expected"
    )


def range_units(spec: str, cwd: str | None = None, *, allow_empty: bool = False) -> Iterator[Item]:
    """Units of the lines each commit of the range adds, then the range's net change."""
    rng = resolve(spec, cwd)
    if not rng.commits and not allow_empty:
        raise InputError(empty_range_message(rng))
    return _units(rng, cwd)


def _units(rng: Range, cwd: str | None) -> Iterator[Item]:
    own = [(sha, parents) for sha, parents in rng.commits if len(parents) <= 1]
    for start in range(0, len(own), BATCH):
        yield from _batch(own[start : start + BATCH], cwd)
    for sha, parents in rng.commits:
        if len(parents) > 1:
            yield from merge_units(sha, parents, cwd)
    from wukong_lint.sources.range_messages import message_units

    yield from message_units([sha for sha, _ in rng.commits], cwd)  # as --history does
    yield from net_change(rng.diff_args, cwd)


def merge_units(sha: str, parents: tuple[str, ...], cwd: str | None) -> Iterator[Item]:
    """The lines a merge commit adds of its own: in none of its parents (what a conflict
    resolution writes; a combined diff's added lines). The lines it brings from one side
    were added, and are scanned, in that side's commits."""
    kept: dict[str, Change] = {}
    added: dict[str, set[int]] = {}
    for number, parent in enumerate(parents):
        changes = {c.path: c for c in _regular(diff_changes([parent, sha], cwd))}
        lines = {
            path: set(_full_diff_lines(c, [parent, sha], cwd) if c.binary_in_git else c.added)
            for path, c in changes.items()
        }
        if number == 0:
            kept, added = changes, lines
        else:  # a file the merge takes whole from this parent adds nothing of its own
            added = {path: found & lines[path] for path, found in added.items() if path in lines}
    wanted = [kept[path] for path, found in added.items() if found]
    if not wanted:
        return
    blobs = read_blobs([c.new_sha for c in wanted], cwd)
    for change in wanted:
        data = blobs.get(change.new_sha)
        if data is None:
            yield ScanError(change.path, f"cannot read blob {change.new_sha[:12]} from git")
            continue
        text = decode(data)
        if text is None:
            if is_archive_path(change.path):  # its members, whole (sources/archives.py)
                yield from blob_units(data, change.path, sha)
                continue
            yield Skipped(change.path, "binary", len(data))
            continue
        lines = frozenset(added[change.path])
        yield Unit(change.path, text, Source(kind="diff", commit=sha), added_lines=lines,
                   size=len(data))  # fmt: skip


def _split(out: bytes, shas: list[str]) -> Iterator[tuple[str, bytes]]:
    """(commit, its raw + patch output) from `git diff-tree --stdin` output. A commit that
    changes nothing prints nothing; headers are taken only in the order the commits were
    given, so a file whose name looks like a commit id cannot be taken for one."""
    order = {sha.encode(): i for i, sha in enumerate(shas)}
    found: list[tuple[int, int, str]] = []  # (header start, body start, commit)
    last = -1
    for match in _HEADER.finditer(out):
        index = order.get(match.group(1))
        if index is not None and index > last:
            found.append((match.start(), match.end(), shas[index]))
            last = index
    for i, (_, body, sha) in enumerate(found):
        end = found[i + 1][0] if i + 1 < len(found) else len(out)
        yield sha, out[body:end]


_empty_tree: dict[str | None, str] = {}


def _parent_args(sha: str, parents: tuple[str, ...], cwd: str | None) -> list[str]:
    """`git diff` arguments of one commit against its parent (the empty tree for a root)."""
    if parents:
        return [parents[0], sha]
    if cwd not in _empty_tree:
        tree = run_git(["hash-object", "-t", "tree", "--stdin"], cwd, stdin=b"")
        _empty_tree[cwd] = tree.decode("ascii").strip()
    return [_empty_tree[cwd], sha]


def _batch(commits: list[tuple[str, tuple[str, ...]]], cwd: str | None) -> Iterator[Item]:
    shas = [sha for sha, _ in commits]
    parents = dict(commits)
    request = ("\n".join(shas) + "\n").encode()
    out = run_git(["diff-tree", "--stdin", "--root", "-r", *DIFF_OPTIONS], cwd, stdin=request)
    per_commit: list[tuple[str, list[Change]]] = []
    for sha, section in _split(out, shas):
        per_commit.append((sha, parse_diff(section)))
    del out
    wanted = [c.new_sha for _, changes in per_commit for c in _regular(changes)]
    blobs = read_blobs([s for s in wanted if s], cwd)
    for sha, changes in per_commit:
        source = Source(kind="diff", commit=sha)
        for change in _regular(changes):
            data = change.content if change.content is not None else blobs.get(change.new_sha)
            if data is None:
                yield ScanError(change.path, f"cannot read blob {change.new_sha[:12]} from git")
                continue
            text = decode(data)
            if text is None:
                if is_archive_path(change.path):  # its members, whole (sources/archives.py)
                    yield from blob_units(data, change.path, sha)
                    continue
                yield Skipped(change.path, "binary", len(data))
                continue
            added = change.added
            if change.binary_in_git:
                added = _full_diff_lines(change, _parent_args(sha, parents[sha], cwd), cwd)
            if not added:
                yield Skipped(change.path, "no added lines", len(data))
                continue
            yield Unit(change.path, text, source, added_lines=added, size=len(data))


def net_change(diff_args: list[str], cwd: str | None = None) -> list[Unit]:
    """The range as a whole (for `change` rules): every path its net diff touches, one a
    line, on the path `.`; nothing when it touches no file."""
    out = run_git(
        ["diff", "--raw", "-z", "-M", "--no-abbrev", "--no-ext-diff", "--no-textconv",
         "--no-color", "--no-relative", "--ignore-submodules=none", *diff_args, "--"],
        cwd,
    )  # fmt: skip
    try:
        entries, _ = _parse_raw(out)
    except (ValueError, IndexError) as err:
        raise InputError(f"unexpected git diff output: {err}") from None
    paths = [path for status, *_, path in entries if status != "U"]
    if not paths:
        return []
    return [Unit(".", "\n".join(paths) + "\n", Source(kind="change"), size=0)]


def endpoints(spec: str, cwd: str | None = None) -> tuple[str, str]:
    """The commits a range's change goes from and to: (BASE, HEAD) for `BASE..HEAD`, (their
    merge base, HEAD) for `BASE...HEAD` (BASE when they have none)."""
    args = range_args(spec, cwd)
    base, _, head = args[0].partition("...") if len(args) == 1 else (args[0], "", args[1])
    shas = run_git(["rev-parse", f"{base}^{{commit}}", f"{head}^{{commit}}"], cwd)
    base_sha, head_sha = shas.decode("ascii", "replace").split()
    if len(args) == 1:
        # (unrelated histories have no merge base: then compare with BASE itself)
        with contextlib.suppress(InputError):
            base_sha = run_git(["merge-base", base_sha, head_sha], cwd).decode().strip()
    return base_sha, head_sha
