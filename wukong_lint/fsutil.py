"""File writing that never leaves a half-written file behind."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from typing import BinaryIO


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write `data` to a temporary file beside `path`, then rename it over `path`."""
    with atomic_writer(path) as handle:
        handle.write(data)


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


@contextlib.contextmanager
def atomic_writer(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A binary file handle whose content replaces `path` only when the block succeeds: the
    data goes to a temporary file beside `path` (same file system), synced, given the mode
    the file has (or would get), then renamed over it. A failure leaves `path` untouched.
    A path that is not a regular file (a device, a pipe) is written as it is."""
    path = os.fspath(path)
    try:
        special = not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        special = False
    if special:
        # a device or pipe (`-o /dev/null`, `-o /dev/stdout`): written in place; renaming a
        # file over it would replace the device itself (as root, /dev/null became a file)
        with open(path, "wb") as handle:
            yield handle
        return
    folder, name = os.path.split(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder or ".")
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        if os.path.exists(path):
            os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def append_log(path: str, lines: list[str], max_size: int) -> None:
    """Append lines to a log file of this tool (the hook's diagnostics): never through a
    symlink (O_NOFOLLOW), private (0600); past `max_size` the log moves to `PATH.1` and starts
    over, so it never grows without bound. Appends are not atomic: a log, not a report."""
    try:
        if os.path.getsize(path) > max_size:
            os.replace(path, path + ".1")
    except OSError:
        pass  # no log yet
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o600)
    with os.fdopen(fd, "a", encoding="utf-8", errors="backslashreplace") as handle:
        handle.writelines(f"{line}\n" for line in lines)
