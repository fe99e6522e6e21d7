"""The config's path globs (`per-path-ignores`, `exclude`), relative to the config file.

A glob matches a path relative to the config's folder, or the path's basename when it has no
`/` (as rule `paths` do). Written the way people write them in other tools' configs:

- `tests/` (a trailing slash) and `tests` when that is a folder: everything under it;
- `./tests/*`: the same as `tests/*`;
- `**/fixtures/*`: also `fixtures/*` at the top (`*` already crosses `/`).

Imported only when a config has such globs: never on the pre-commit path without a config.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence

from wukong_lint.engine.rules import _glob

# A project this big is not listed to look for a glob's match: the warning is not worth it.
MAX_LISTED = 200_000


def expand(pattern: str, root: str) -> tuple[str, ...]:
    """The glob forms that `pattern` stands for (see the module docs)."""
    glob = pattern.strip().replace(os.sep, "/")
    while glob.startswith("./"):
        glob = glob[2:]
    if glob in ("", ".", "/"):
        return ("*",)
    forms = []
    if glob.endswith("/"):
        glob = glob.rstrip("/") + "/*"
    elif not any(c in glob for c in "*?[") and os.path.isdir(os.path.join(root, glob)):
        forms.append(glob)  # a file of that name elsewhere, as a literal glob matches
        glob = glob + "/*"
    forms.append(glob)
    if glob.startswith("**/"):
        forms.append(glob[3:])
    return tuple(dict.fromkeys(forms))


def compile_globs(patterns: Iterable[str], root: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(pattern as written, its forms) for each pattern."""
    return tuple((p, expand(p, root)) for p in patterns)


def matches(rel: str, forms: Sequence[str]) -> bool:
    return any(_glob(rel, form) for form in forms)


def relative_to(path: str, base_dir: str, root: str) -> str:
    """A report path (relative to `base_dir`, or absolute) relative to `root`, with `/`."""
    full = os.path.normpath(os.path.join(base_dir, path))
    return os.path.relpath(full, root).replace(os.sep, "/")


class PathFilter:
    """Whether a report path (relative to `base_dir`) falls under the config's globs."""

    def __init__(self, patterns: Iterable[str], root: str, base_dir: str) -> None:
        self.root = os.path.abspath(root)
        self.base_dir = os.path.abspath(base_dir)
        self.globs = compile_globs(patterns, self.root)

    def __call__(self, path: str) -> bool:
        if path == "-":  # standard input without --stdin-filename: no path to match
            return False
        rel = relative_to(path, self.base_dir, self.root)
        return any(matches(rel, forms) for _, forms in self.globs)


def _project_files(root: str) -> Iterator[str]:
    """Files under `root`, relative to it: git's listing (tracked and untracked, not
    ignored), or a walk outside git."""
    from wukong_lint.util import gitproc

    try:
        code, out, _ = gitproc.run(
            ["-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"]
        )
    except OSError:
        code, out = -1, b""
    if code == 0:
        yield from (os.fsdecode(p) for p in out.split(b"\0") if p)
        return
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".git"]
        rel = os.path.relpath(folder, root)
        for name in files:
            yield name if rel == "." else f"{rel}/{name}".replace(os.sep, "/")


def _on_disk(forms: Sequence[str], root: str) -> bool:
    """Whether the literal part of a glob (up to its first wildcard) names something that
    exists: git's listing leaves out ignored files, which a named path still scans."""
    for form in forms:
        literal = form.split("*", 1)[0].split("?", 1)[0].split("[", 1)[0]
        if literal == form or "/" in literal:
            target = literal if literal == form else literal.rsplit("/", 1)[0]
            if target and os.path.exists(os.path.join(root, target)):
                return True
    return False


def unmatched(patterns: Iterable[str], root: str) -> list[str]:
    """The patterns that match no file of the project under `root` (in the given order)."""
    pending = {p: f for p, f in compile_globs(patterns, root) if not _on_disk(f, root)}
    if not pending:
        return []
    for count, rel in enumerate(_project_files(root)):
        if count >= MAX_LISTED:
            return []
        for pattern, forms in list(pending.items()):
            if matches(rel, forms):
                del pending[pattern]
        if not pending:
            return []
    return list(pending)
