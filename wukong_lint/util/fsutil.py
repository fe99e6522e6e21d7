"""File writing that never leaves a half-written file behind, and never writes where the path
does not lead plainly.

Every file the tool writes (reports, baselines, anchors files, redacted transcripts, rule
packs, caches) goes through `atomic_writer`: the data goes to a hidden temporary file beside
the target, then is renamed over it. It refuses to write through a symbolic link (renaming
over the link would replace it with a regular file; writing through it would change a file
elsewhere, outside the repository), refuses a read-only target, and never gives the new file
setuid/setgid bits. A temporary file left by a killed run is removed by the next write to
the same folder. Refusals are OSErrors with a `strerror` that says why: every caller already
reports `cannot write PATH: REASON`.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import time
from collections.abc import Callable, Iterator
from typing import BinaryIO

# Temporary files: `.NAME.wukong-PID-RANDOM.tmp`, so that a stale one (its process is gone)
# is told from one being written by a run still going.
_TMP_TAG = ".wukong-"
_TMP_SUFFIX = ".tmp"
_STALE_AGE = 24 * 3600  # a temporary file this old is stale whatever its process


def atomic_write_bytes(
    path: str | os.PathLike[str], data: bytes, *, contained: bool = False, mode: int | None = None
) -> None:
    """Write `data` to a temporary file beside `path`, then rename it over `path`."""
    with atomic_writer(path, contained=contained, mode=mode) as handle:
        handle.write(data)


def atomic_write_text(
    path: str | os.PathLike[str], text: str, *, contained: bool = False, mode: int | None = None
) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), contained=contained, mode=mode)


def refuse(path: str, reason: str, code: int = errno.EPERM) -> OSError:
    return OSError(code, reason, path)


def check_target(path: str, *, contained: bool = False) -> os.stat_result | None:
    """The target's lstat (None: it does not exist yet), or an OSError saying why it must not
    be written: a symbolic link, a read-only file, or (`contained`) a path that leads through
    a symlinked folder (checked below the current folder for a relative or inner path)."""
    if contained:
        for folder in _folders_to_check(path):
            with contextlib.suppress(FileNotFoundError):
                if stat.S_ISLNK(os.lstat(folder).st_mode):
                    raise refuse(path, f"{folder} is a symbolic link; not writing through it")
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(info.st_mode):
        with contextlib.suppress(OSError):
            target = os.stat(path)
            if not (stat.S_ISREG(target.st_mode) or stat.S_ISDIR(target.st_mode)):
                return target  # a link to a device or pipe (/dev/stdout): written in place
        raise refuse(path, "is a symbolic link; not writing through it", errno.ELOOP)
    if stat.S_ISREG(info.st_mode) and not info.st_mode & 0o222:
        raise refuse(path, "the file is read-only; not replacing it", errno.EACCES)
    return info


def _system_stream(path: str) -> bool:
    """/dev/stdout, /dev/fd/N, /proc/self/fd/N...: links to whatever the stream is (a file
    the shell redirected to, too); written in place, as the user asked."""
    return os.path.isabs(path) and path.startswith(("/dev/", "/proc/")) and os.path.exists(path)


def _folders_to_check(path: str) -> list[str]:
    """The folders between the current folder and `path` (for an absolute path outside the
    current folder: none, the user named the place)."""
    path = os.path.normpath(path)
    if os.path.isabs(path):
        here = os.getcwd()
        rel = os.path.relpath(path, here)
        if rel.startswith(os.pardir):
            return []
        path = rel
    parts = path.split(os.sep)[:-1]
    return [os.path.join(*parts[: i + 1]) for i in range(len(parts)) if parts[i] != os.pardir]


def clean_stale_temporaries(folder: str) -> int:
    """Remove the tool's temporary files in `folder` whose process is gone (a killed write),
    or that are a day old; the number removed."""
    removed = 0
    try:
        names = os.listdir(folder or ".")
    except OSError:
        return 0
    now = time.time()
    for name in names:
        if not (name.startswith(".") and _TMP_TAG in name and name.endswith(_TMP_SUFFIX)):
            continue
        pid_text = name.rsplit(_TMP_TAG, 1)[1].split("-", 1)[0]
        full = os.path.join(folder, name)
        try:
            info = os.lstat(full)
            alive = pid_text.isdigit() and _alive(int(pid_text))
            if stat.S_ISREG(info.st_mode) and (not alive or now - info.st_mtime > _STALE_AGE):
                os.unlink(full)
                removed += 1
        except OSError:
            continue
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's process: leave its file
    return True


SETTLE_ROUNDS = 100  # `settle` rounds before a file that keeps changing is given up


@contextlib.contextmanager
def atomic_writer(
    path: str | os.PathLike[str],
    *,
    contained: bool = False,
    settle: Callable[[BinaryIO], bool] | None = None,
    preserve: bool = False,
    mode: int | None = None,
) -> Iterator[BinaryIO]:
    """A binary file handle whose content replaces `path` only when the block succeeds: the
    data goes to a temporary file beside `path` (same file system), synced, given the mode
    the file has (or would get; `mode` when given: 0o600 for a private file) without
    setuid/setgid, then renamed over it. A failure
    leaves `path` untouched. A path that is not a regular file (a device, a pipe) is written
    as it is. See `check_target` for what is refused, and `contained`.

    `settle(handle)`, asked after the block and again until it says True (at most
    SETTLE_ROUNDS times), right before the rename: whether the source the data came from is
    unchanged, having written what it gained meanwhile (a session an agent appends to, which
    `redact --in-place` rewrites). `preserve`: the new file keeps the target's modification
    time and owner as they are at the rename. `mode`: the new file's mode (else the
    target's)."""
    path = os.fspath(path)
    info = None if _system_stream(path) else check_target(path, contained=contained)
    if _system_stream(path) or (
        info is not None and not stat.S_ISREG(info.st_mode) and not stat.S_ISDIR(info.st_mode)
    ):
        # a device or pipe (`-o /dev/null`, `-o /dev/stdout`): written in place; renaming a
        # file over it would replace the device itself (as root, /dev/null became a file)
        with open(path, "wb") as handle:
            yield handle
        return
    folder, name = os.path.split(path)
    clean_stale_temporaries(folder or ".")
    import tempfile  # (here: its import, with shutil and random, costs the hook ~3 ms)

    fd, tmp = tempfile.mkstemp(
        prefix=f".{name}{_TMP_TAG}{os.getpid()}-", suffix=_TMP_SUFFIX, dir=folder or "."
    )
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            for _ in range(SETTLE_ROUNDS if settle is not None else 1):
                handle.flush()
                os.fsync(handle.fileno())
                if settle is None or settle(handle):
                    break
            else:
                raise refuse(path, "it kept changing while it was rewritten; left as it was",
                             errno.EBUSY)  # fmt: skip
            if mode is not None:
                os.chmod(tmp, mode & 0o777)
            elif info is not None:
                os.chmod(tmp, info.st_mode & 0o777)  # never setuid/setgid/sticky
            else:
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(tmp, 0o666 & ~umask)
            if preserve and info is not None:
                now = os.stat(path)
                with contextlib.suppress(OSError):  # (only root may give a file away)
                    if (now.st_uid, now.st_gid) != (os.getuid(), os.getgid()):
                        os.chown(tmp, now.st_uid, now.st_gid)
                os.utime(tmp, ns=(now.st_atime_ns, now.st_mtime_ns))
        check_target(path, contained=contained)  # (not made a link while we wrote)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def append_bytes(path: str, data: bytes) -> None:
    """Append `data` to an existing regular file in one write (O_APPEND: after whatever
    another writer appended; whole lines stay whole). Refuses a symbolic link."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0))
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def is_input(output: str, inputs: list[str]) -> bool:
    """Whether writing `output` would overwrite one of the files named as `inputs`."""
    try:
        out = os.stat(output)
    except OSError:
        return False
    if not stat.S_ISREG(out.st_mode):
        return False
    for given in inputs:
        with contextlib.suppress(OSError):
            info = os.stat(given)
            if (info.st_dev, info.st_ino) == (out.st_dev, out.st_ino):
                return True
    return False


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


def open_lock_file(path: str, exclusive: bool = False) -> int:
    """A file descriptor on a lock file of this tool (`anchors new/add`: util/filelock.py):
    never through a symlink (O_NOFOLLOW), empty, 0644. `exclusive`: fail with
    FileExistsError when it exists (the lock itself, where flock is missing)."""
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    if exclusive:
        flags |= os.O_EXCL
    return os.open(path, flags, 0o644)


def stdout_to_devnull() -> None:
    """Point file descriptor 1 at /dev/null (cli.main, once the report could not be written:
    the interpreter's flush at exit must not fail a second time). Never raises."""
    import sys

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def read_regular(path: str, limit: int) -> bytes | None:
    """The bytes of a regular file, at most `limit` + 1 of them (more than `limit`: too
    large), or None when `path` is not a regular file. Opened without blocking: a FIFO put in
    the file's place between a check and the open does not hang the reader (the hook reads
    scripts an agent may have planted). Raises OSError when it cannot be read."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def append_record(path: str, line: str, max_size: int) -> bool:
    """Append one line to a record log (the hook's audit log) with a single O_APPEND write,
    so that hooks running in parallel never interleave half lines; never through a symlink,
    private (0600). False, with nothing written, once the file holds `max_size` bytes (the
    log is capped, not rotated: each day has a file of its own). Raises OSError."""
    data = line.encode("utf-8", "backslashreplace")
    if not data.endswith(b"\n"):
        data += b"\n"
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o600)
    try:
        if os.fstat(fd).st_size + len(data) > max_size:
            return False
        written = os.write(fd, data)
        return written == len(data)
    finally:
        os.close(fd)
