"""Files and folders as a source.

A folder inside a git work tree is listed with `git ls-files` (tracked files plus untracked
files that are not ignored), so `.gitignore` is honoured exactly as git does it. Outside git the
folder is walked, skipping `.git` directories. Symbolic links are never followed.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator

from wukong_lint.model import ScanError, Source, Unit
from wukong_lint.secrets.file_names import KEYSTORE_SUFFIXES
from wukong_lint.util.errors import InputError
from wukong_lint.util.text import BINARY_SNIFF, Skipped, decode, is_binary

# Never text: skipped without opening them.
BINARY_SUFFIXES = (
    ".pyc", ".pyo", ".so", ".dylib", ".dll", ".exe", ".o", ".a", ".lib", ".class", ".jar",
    ".whl", ".zip", ".gz", ".tgz", ".bz2", ".xz", ".zst", ".7z", ".rar", ".png", ".jpg",
    ".jpeg", ".gif", ".webp", ".ico", ".bmp", ".tiff", ".pdf", ".woff", ".woff2", ".ttf",
    ".otf", ".eot", ".mp3", ".mp4", ".wav", ".ogg", ".mov", ".avi", ".sqlite", ".db",
    ".npy", ".npz", ".pkl", ".parquet",
)  # fmt: skip


def _display(base: str, rel: str) -> str:
    joined = rel if base in (".", "./", "") else os.path.join(base, rel)
    return os.path.normpath(joined).replace(os.sep, "/")


def _git_listing(folder: str) -> list[str] | None:
    """Paths under `folder` (relative to it) that git would consider, or None outside git."""
    from wukong_lint.util import gitproc

    try:
        code, out, _ = gitproc.run(
            ["-C", folder, "ls-files", "-z", "--cached", "--others", "--exclude-standard"]
        )
    except FileNotFoundError:
        return None
    if code != 0:
        return None
    paths = [os.fsdecode(p) for p in out.split(b"\0") if p]
    if not paths and _is_ignored(folder):
        return None  # the user named an ignored folder explicitly: scan it as a plain folder
    # Deduplicate (ls-files repeats unmerged paths) while keeping git's order.
    return list(dict.fromkeys(paths))


def _is_ignored(folder: str) -> bool:
    from wukong_lint.util import gitproc

    parent, name = os.path.split(os.path.abspath(folder))
    return gitproc.run(["-C", parent, "check-ignore", "-q", "--", name])[0] == 0


def _walk(folder: str) -> Iterator[str]:
    """Regular files under `folder` (relative paths, sorted, depth first), skipping `.git`
    directories and symbolic links. The directory entries' types answer without a `stat`
    per file. Iterative: a folder nested thousands deep is no RecursionError."""
    stack = [(folder, "")]
    while stack:
        path, prefix = stack.pop()
        try:
            with os.scandir(path) as scan:
                entries = sorted(scan, key=lambda e: e.name)
        except OSError:
            continue
        subdirs = []
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != ".git":
                        subdirs.append(entry)
                    continue
                if not entry.is_file(follow_symlinks=False):
                    continue  # symlinks; FIFOs, sockets, devices: opening one could hang
            except OSError:
                continue
            yield prefix + entry.name
        stack += [(e.path, prefix + e.name + os.sep) for e in reversed(subdirs)]


def read_file(path: str, display: str) -> Unit | ScanError | Skipped:
    if os.path.islink(path):
        return Skipped(display, "symbolic link")
    if path.endswith(BINARY_SUFFIXES):
        return Skipped(display, "binary")
    try:
        with open(path, "rb") as handle:
            # Sniff first: most binary files are rejected without reading them whole.
            head = handle.read(BINARY_SNIFF)
            if is_binary(head):
                return _binary(display, os.fstat(handle.fileno()).st_size)
            # read again from the start rather than `head + rest`: one copy of a big file
            handle.seek(0)
            data = handle.read()
    except IsADirectoryError:
        return Skipped(display, "directory")
    except OSError as err:
        return ScanError(display, f"cannot read: {err.strerror or err}")
    text = decode(data)
    if text is None:
        return _binary(display, len(data))
    return Unit(display, text, Source(kind="file"), size=len(data))


def _real_folder(given: str, rel: str, known: dict[str, bool]) -> bool:
    """Whether folder `rel` under `given` and every folder on the way is a real folder, not
    a symbolic link (git lists the paths of its index: a work tree can have replaced one of
    their folders by a link leading outside). One lstat per folder, remembered."""
    answer = known.get(rel)
    if answer is None:
        parent = os.path.dirname(rel)
        try:
            mode = os.lstat(os.path.join(given, rel)).st_mode
            answer = stat.S_ISDIR(mode) and _real_folder(given, parent, known)
        except OSError:
            answer = False
        known[rel] = answer
    return answer


def _binary(display: str, size: int) -> Unit | Skipped:
    """A binary file is skipped, except a keystore (`.p12`, `.jks`...), which is a unit
    without text so that `secret.keystore-file` reports it by its name."""
    if size and display.lower().endswith(KEYSTORE_SUFFIXES):
        return Unit(display, "", Source(kind="file"), size=size)
    return Skipped(display, "binary", size)


def iter_paths(paths: list[str], follow_named: bool = False) -> Iterator[tuple[str, str]]:
    """(filesystem path, display path) for every file to scan under the given paths
    (`follow_named`: a given path that is a symlink to a folder is listed too)."""
    missing = [p for p in paths if not os.path.lexists(p)]
    if missing:
        raise InputError(f"no such file or directory: {missing[0]}")
    seen: set[str] = set()
    for given in paths:
        if os.path.isdir(given) and (follow_named or not os.path.islink(given)):
            listing = _git_listing(given)
            real_dirs: dict[str, bool] = {"": True}
            for rel in listing if listing is not None else _walk(given):
                full = os.path.join(given, rel)
                if listing is not None:  # (a walk yields regular files only)
                    if not _real_folder(given, os.path.dirname(rel), real_dirs):
                        continue  # listed by git under a folder that is a symlink
                    try:
                        mode = os.lstat(full).st_mode
                    except OSError:
                        continue  # deleted from the work tree
                    if not stat.S_ISREG(mode):
                        continue  # symlinks, submodules, FIFOs, sockets, devices
                display = _display(given, rel)
                if display not in seen:
                    seen.add(display)
                    yield full, display
        else:
            display = _display(given, "")
            if display not in seen:
                seen.add(display)
                yield given, display
