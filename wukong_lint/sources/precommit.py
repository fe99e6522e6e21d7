"""`check --pre-commit FILE...`: what the `wukong-lint` pre-commit hook runs.

pre-commit hands a hook the files it should check, and does so in two different situations:

- inside `git commit` (the git hook pre-commit installs): the staged files. Only the lines
  the commit adds matter there; an old secret elsewhere in a touched file must not block an
  unrelated commit.
- `pre-commit run --all-files`, `--files F…`, a plain `pre-commit run`, pre-commit.ci and CI
  jobs: the files themselves. The index is usually clean there, so a scan of staged lines
  would scan nothing and pass (how a secret committed with `--no-verify` used to go through).

pre-commit itself says nothing about which one it is. git does: it runs every commit hook
(`pre-commit`, `pre-merge-commit`, `commit -a`'s temporary index too) with `GIT_INDEX_FILE`
set, and nothing else sets it. So:

- `PRE_COMMIT_FROM_REF` and `PRE_COMMIT_TO_REF` set (`pre-commit run --from-ref A --to-ref
  B`, the `pre-push` stage): the commits of `A...B`, as `check --diff`, limited to the files;
- else `GIT_INDEX_FILE` set: the staged added lines of the files (as `check --staged`);
- else: the files, whole (as `check FILE...`).

pre-commit splits a long file list over several runs of the hook (command-line length,
4 KB at the least on POSIX). A staged change as a whole (the large-change check) is then
reported by the run that holds the first of the staged files, not by every run.
"""

from __future__ import annotations

import os

# on the pre-commit path: typing and collections.abc cost milliseconds to import
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Any

# below this many bytes of arguments pre-commit never splits the file list (its smallest
# limit on POSIX is 4096 bytes, for the whole command line)
UNSPLIT_ARGS = 3000


def configure(args: Any) -> str:
    """Turn `check --pre-commit FILE...` into the scan it stands for; returns the mode
    (`range`, `staged` or `files`)."""
    files = [_normal(p) for p in args.paths]
    args.pre_commit_files = files
    source, target = os.environ.get("PRE_COMMIT_FROM_REF"), os.environ.get("PRE_COMMIT_TO_REF")
    if source and target:
        args.diff, args.allow_empty_range, args.paths = f"{source}...{target}", True, []
        return "range"
    if os.environ.get("GIT_INDEX_FILE"):
        args.staged, args.paths = True, []
        return "staged"
    return "files"


def _normal(path: str) -> str:
    return os.path.normpath(path).replace(os.sep, "/")


def only_files(items: Iterable[Any], files: list[str]) -> Iterator[Any]:
    """The units of a staged change or range that belong to the files pre-commit handed
    over (all of them when it handed none), and the change as a whole once (see above)."""
    if not files:
        yield from items
        return
    wanted = set(files)
    for item in items:
        source = getattr(item, "source", None)
        if source is not None and source.kind == "change":
            if _reports_change(item.text, files, wanted):
                yield item
        elif item.path in wanted:
            yield item


def _reports_change(text: str, files: list[str], wanted: set[str]) -> bool:
    """Whether this run reports the change as a whole: always when the list cannot have been
    split; else when no other file that pre-commit could hand over (one that still exists:
    deleted files are never handed over) sorts before this run's first file."""
    if sum(len(os.fsencode(f)) + 1 for f in files) < UNSPLIT_ARGS:
        return True
    first = os.fsencode(files[0])
    return not any(
        os.fsencode(path) < first and os.path.lexists(path)
        for path in text.splitlines()
        if path and path not in wanted
    )
