"""Repository-relative paths for reports read by code hosts (SARIF, GitHub annotations).

A report's paths are as given on the command line (relative to the current folder) for file
scans, and repository-relative for `--staged` / `--diff`. GitHub needs repository-relative
paths, so those renderers take a `prefix`: the current folder relative to the repository
root ("" at the root, or for git scans).
"""

from __future__ import annotations

import os
import posixpath
from urllib.parse import quote


def repo_prefix(cwd: str | None = None) -> str:
    """The current folder relative to its git work tree's root ("" at the root or outside git)."""
    cwd = os.path.abspath(cwd or os.curdir)
    from wukong_lint.util import gitproc

    try:
        code, out, _ = gitproc.run(["-C", cwd, "rev-parse", "--show-prefix"])
    except OSError:
        return ""
    if code != 0:
        return ""
    return os.fsdecode(out).strip().rstrip("/")


def repo_path(path: str, prefix: str = "") -> str:
    """`path` relative to the repository root, with forward slashes; absolute when the path
    is absolute or leaves the repository."""
    path = path.replace(os.sep, "/")
    if posixpath.isabs(path):
        return path
    joined = posixpath.normpath(posixpath.join(prefix, path) if prefix else path)
    if joined == ".." or joined.startswith("../"):
        return os.path.abspath(path).replace(os.sep, "/")
    return joined


def to_uri(path: str, prefix: str = "") -> str:
    """A SARIF artifact URI: repository-relative and percent-encoded, or a file:// URI."""
    rel = repo_path(path, prefix)
    # the name's bytes, percent-encoded (a name that is not UTF-8: bad%FF.env)
    raw = rel.encode("utf-8", "surrogateescape")
    if rel.startswith("/"):
        return "file://" + quote(raw)
    return quote(raw)
