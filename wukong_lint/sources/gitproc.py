"""Git processes without the `subprocess` module, for the pre-commit path.

Importing `subprocess` costs about as much as a git process runs (it brings in threading,
signal and selectors), and `check --staged` runs on every commit. Here git is started with
`os.posix_spawnp` and its pipes are read with `select.poll`; where that is not available
(Windows, a standard stream closed) the same thing is done with `subprocess`.

`start_staged()` lets `check --staged` start its two git processes (`git diff --cached` and
`git cat-file --batch`) before it imports the scanner and loads the rules, so that git works
while Python does; `sources/git.py` then reads their output.
"""

from __future__ import annotations

import os

# Options that make `git diff` output independent of the user's configuration.
DIFF_OPTIONS = (
    "--raw",
    "-z",
    "-p",
    "-U0",
    "-M",
    "--no-abbrev",
    "--no-ext-diff",
    "--no-textconv",
    "--no-color",
    "--no-relative",
    "--ignore-submodules=none",
    "--src-prefix=a/",
    "--dst-prefix=b/",
)
STAGED_DIFF = ("diff", *DIFF_OPTIONS, "--cached", "--")
_CHUNK = 1 << 16
DIFF_PIPE_SIZE = 1 << 20  # the default limit for unprivileged users (/proc/sys/fs/pipe-max-size)


def _default_signals() -> tuple[int, ...]:
    """The signals `subprocess` resets to their default in a child (Python ignores SIGPIPE)."""
    import _signal

    return tuple(
        getattr(_signal, name)
        for name in ("SIGPIPE", "SIGXFZ", "SIGXFSZ")
        if hasattr(_signal, name)
    )


class GitProcess:
    """A running `git ARGS` with its stdout and stderr (and, if asked, stdin) on pipes."""

    def __init__(self, args: list[str] | tuple[str, ...], cwd: str | None = None, *,
                 stdin: bool = False, buffer: int = 0) -> None:  # fmt: skip
        """`buffer`: the size to ask for the stdout pipe (Linux), for a process whose output
        is read late: git writes that much before it waits for a reader."""
        self.args = ["git", *args]
        self.buffer = buffer
        self.proc = None  # a subprocess.Popen when posix_spawn could not be used
        self.pid = 0
        self.fds: dict[str, int] = {}
        self.result: tuple[int, bytes, bytes] | None = None
        if cwd is None and hasattr(os, "posix_spawnp"):
            self._spawn(stdin)
        if not self.pid:
            import subprocess

            self.proc = subprocess.Popen(
                self.args,
                cwd=cwd,
                stdin=subprocess.PIPE if stdin else None,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )

    def _spawn(self, stdin: bool) -> None:
        pipes = {"stdout": os.pipe(), "stderr": os.pipe()}
        if stdin:
            pipes["stdin"] = os.pipe()
        if self.buffer:
            _grow_pipe(pipes["stdout"][0], self.buffer)
        if any(fd < 3 for pair in pipes.values() for fd in pair):
            # a standard stream of ours is closed: dup2 onto it would be lost; subprocess
            # knows how to handle that
            for pair in pipes.values():
                os.close(pair[0])
                os.close(pair[1])
            return
        actions = [
            (os.POSIX_SPAWN_DUP2, pipes["stdout"][1], 1),
            (os.POSIX_SPAWN_DUP2, pipes["stderr"][1], 2),
        ]
        if stdin:
            actions.append((os.POSIX_SPAWN_DUP2, pipes["stdin"][0], 0))
        try:
            self.pid = os.posix_spawnp(
                "git",
                self.args,
                os.environ,
                file_actions=actions,
                setsigdef=_default_signals(),
            )
        finally:
            os.close(pipes["stdout"][1])
            os.close(pipes["stderr"][1])
            if stdin:
                os.close(pipes["stdin"][0])
            if not self.pid:  # spawning failed: nothing to read
                os.close(pipes["stdout"][0])
                os.close(pipes["stderr"][0])
                if stdin:
                    os.close(pipes["stdin"][1])
        self.fds = {"stdout": pipes["stdout"][0], "stderr": pipes["stderr"][0]}
        if stdin:
            self.fds["stdin"] = pipes["stdin"][1]
            os.set_blocking(self.fds["stdin"], False)

    def communicate(self, data: bytes = b"") -> tuple[int, bytes, bytes]:
        """Write `data` to its stdin (if it has one), read its output until it ends:
        (exit code, stdout, stderr). Called once; later calls return the same."""
        if self.result is not None:
            return self.result
        if self.proc is not None:
            out, err = self.proc.communicate(data if self.proc.stdin is not None else None)
            self.result = (self.proc.returncode, out, err)
            return self.result
        import select

        poller = select.poll()
        chunks: dict[int, list[bytes]] = {self.fds["stdout"]: [], self.fds["stderr"]: []}
        for fd in chunks:
            poller.register(fd, select.POLLIN)
        stdin = self.fds.pop("stdin", None)
        view = memoryview(data)
        offset = 0
        if stdin is not None:
            if data:
                poller.register(stdin, select.POLLOUT)
            else:
                os.close(stdin)
                stdin = None
        open_fds = len(chunks) + (stdin is not None)
        while open_fds:
            for fd, _ in poller.poll():
                if fd == stdin:
                    try:
                        offset += os.write(fd, view[offset : offset + _CHUNK])
                    except BlockingIOError:
                        continue
                    except OSError:  # it stopped reading (exited): what it said tells why
                        offset = len(data)
                    if offset >= len(data):
                        poller.unregister(fd)
                        os.close(fd)
                        stdin = None
                        open_fds -= 1
                    continue
                chunk = os.read(fd, _CHUNK)
                if chunk:
                    chunks[fd].append(chunk)
                else:
                    poller.unregister(fd)
                    os.close(fd)
                    open_fds -= 1
        self.fds = {}
        _, status = os.waitpid(self.pid, 0)
        out, err = (b"".join(c) for c in chunks.values())
        self.result = (os.waitstatus_to_exitcode(status), out, err)
        return self.result

    def close(self) -> None:
        """End it if its output was never read (a run that stopped early)."""
        if self.result is not None:
            return
        if self.proc is not None:
            for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                if stream is not None:
                    stream.close()
            self.proc.wait()
        else:
            for fd in self.fds.values():
                os.close(fd)  # git sees EOF on stdin, or dies of SIGPIPE writing
            self.fds = {}
            os.waitpid(self.pid, 0)
        self.result = (-1, b"", b"")


def _grow_pipe(fd: int, size: int) -> None:
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, size)
    except (ImportError, AttributeError, OSError):
        pass  # not Linux, or over the user's limit: git waits for the reader sooner


class StagedGit:
    """`git diff --cached` and a `git cat-file --batch` waiting for blob names, started early."""

    def __init__(self) -> None:
        # read only once the rules are loaded: room for a large diff meanwhile (a pipe holds
        # 64 KB by default, ~30 small files' worth of -U0 patches)
        self.diff = GitProcess(STAGED_DIFF, buffer=DIFF_PIPE_SIZE)
        try:
            self.cat_file = GitProcess(["cat-file", "--batch"], stdin=True)
        except BaseException:
            self.diff.close()
            raise

    def close(self) -> None:
        self.diff.close()
        self.cat_file.close()


def start_staged() -> StagedGit | None:
    """Start the git processes of a staged scan; None if git cannot be started (the scan then
    runs git the ordinary way and reports why it fails, at the usual point)."""
    try:
        return StagedGit()
    except OSError:
        return None


def run(
    args: list[str], cwd: str | None = None, stdin: bytes | None = None
) -> tuple[int, bytes, bytes]:
    """Run `git ARGS` to completion: (exit code, stdout, stderr). Raises FileNotFoundError
    when git is not installed."""
    return GitProcess(args, cwd, stdin=stdin is not None).communicate(stdin or b"")
