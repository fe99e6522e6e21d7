"""An exclusive lock per anchors file, held across read-modify-write (`anchors new/add`).

Two agents running `anchors new` on one file at once would otherwise both read the old text
and the second rename would drop the first one's anchor. The lock is a separate file beside
the target (`.anchors.md.lock`): the target itself is replaced by a rename on every write, so
a lock on it would guard an inode nobody reads any more.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from collections.abc import Iterator

# how long a writer waits for another one before giving up with a clear message
TIMEOUT_SECONDS = 30.0


class LockTimeout(Exception):
    pass


def lock_path(path: str) -> str:
    folder, name = os.path.split(os.path.abspath(path))
    return os.path.join(folder, f".{name}.lock")


@contextlib.contextmanager
def locked(path: str, timeout: float = TIMEOUT_SECONDS) -> Iterator[None]:
    """Hold the lock of `path` for the block. The lock file is left in place (removing it
    would race with a waiter that has it open); it is empty and harmless."""
    from wukong_lint.util.fsutil import open_lock_file

    target = lock_path(path)
    fd = open_lock_file(target)
    try:
        try:
            import fcntl
        except ImportError:  # no flock (Windows): an exclusive create, polled
            os.close(fd)
            fd = -1
            with _exclusive_file(target + "x", timeout):
                yield
            return
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as err:
                if err.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    raise
                if time.monotonic() > deadline:
                    raise LockTimeout(f"{path}: another wukong-lint is writing it") from None
                time.sleep(0.01)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        if fd >= 0:
            os.close(fd)


@contextlib.contextmanager
def _exclusive_file(target: str, timeout: float) -> Iterator[None]:
    deadline = time.monotonic() + timeout
    while True:
        from wukong_lint.util.fsutil import open_lock_file

        try:
            os.close(open_lock_file(target, exclusive=True))
            break
        except FileExistsError:
            if time.monotonic() > deadline:
                raise LockTimeout(f"{target}: another wukong-lint is writing it") from None
            time.sleep(0.01)
    try:
        yield
    finally:
        os.unlink(target)
