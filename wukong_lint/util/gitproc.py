"""Git processes without the `subprocess` module, for the pre-commit path.

Importing `subprocess` costs about as much as a git process runs (it brings in threading,
signal and selectors), and `check --staged` runs on every commit. Here git is started with
`os.posix_spawnp` and its pipes are read with `select.poll`; where that is not available
(Windows, a standard stream closed) the same thing is done with `subprocess`.

Every git process the tool starts gets its argv from `argv()` and its environment from
`environment()`: the one place where git is made immune to the repository it reads (see
HARDENING and `environment`), so that a scanned repository can never make git run a program,
fetch, or hide lines from the scan.

`start_staged()` lets `check --staged` start its two git processes (`git diff --cached` and
`git cat-file --batch`) before it imports the scanner and loads the rules, so that git works
while Python does; `sources/git.py` then reads their output.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Configuration given on git's command line wins over every file (the repository's
# .git/config, includes, the user's): nothing a repository sets may make git run a program,
# go on the network, check signatures or hide lines from the scan.
HARDENING = (
    "--no-pager",
    "-c", "core.fsmonitor=false",  # a program git runs to list changed files
    "-c", f"core.hooksPath={os.devnull}",  # e.g. post-index-change when an index is written
    "-c", "log.showSignature=false",  # runs gpg.program (or gpg.ssh.program)
    "-c", "protocol.allow=never",  # no transport at all: a lazy fetch of a missing object
    "-c", "credential.helper=",  # (an empty value clears the list)
    "-c", "gc.auto=0",  # reading commands never repack
    "-c", "maintenance.auto=false",
    # repository settings that would hide added lines from `git log -p` / `git diff`
    "-c", "log.showRoot=true",  # false: the first commit's lines are not shown
    "-c", "core.bigFileThreshold=512m",  # (git's default) larger files diff as binary
    "-c", "diff.interHunkContext=0",  # context lines between hunks read as added
    "-c", "i18n.logOutputEncoding=UTF-8",
)  # fmt: skip

# Git's location variables choose which repository, index and objects are read; they cannot
# make git run anything. Git sets them itself when it runs a hook (`git commit -a` gives the
# pre-commit hook a temporary GIT_INDEX_FILE, hooks of a linked worktree get GIT_DIR, a
# pre-receive hook its quarantine object directory), and a user who exports them means them:
# they are kept. Every other GIT_* variable is dropped unless named in WUKONG_LINT_GIT_ENV.
LOCATION_VARIABLES = frozenset({
    "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE",
    "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_QUARANTINE_PATH",
})  # fmt: skip
_PATH_VARIABLES = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
                   "GIT_COMMON_DIR")  # fmt: skip
# Set for every git process, whatever the environment holds.
FORCED_ENV = {
    "GIT_NO_LAZY_FETCH": "1",  # git >= 2.44: a missing object is an error, never a fetch
    "GIT_ALLOW_PROTOCOL": "none",  # overrides protocol.<name>.allow of any config (older git)
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_NO_REPLACE_OBJECTS": "1",  # scan the objects themselves, not refs/replace stand-ins
    "GIT_OPTIONAL_LOCKS": "0",  # a scan never writes the index
}
KEEP_ENV = "WUKONG_LINT_GIT_ENV"  # names (or NAME* prefixes) of other GIT_* variables to keep


# The one git command that may use the network: the GitHub Action's `git fetch` of commits a
# shallow checkout lacks, from `origin`. Only these transports, none of them a command the
# repository's config can choose (not ext::, whose URL is a shell command; ssh and the local
# transport's upload-pack set back to the standard programs).
FETCH_PROTOCOLS = "https:http:ssh:file"
FETCH_HARDENING = ("-c", "core.sshCommand=ssh", "-c", "remote.origin.uploadpack=git-upload-pack")


def argv(args: list[str] | tuple[str, ...], *, fetch: bool = False) -> list[str]:
    """The full argv of `git ARGS`, hardened (`fetch`: for a `git fetch origin`)."""
    return ["git", *HARDENING, *(FETCH_HARDENING if fetch else ()), *args]


def filter_overrides(cwd: str | None = None) -> list[str]:
    """`-c` options that turn off every filter driver the configuration defines (their
    names are the repository's to choose, so they are asked of git): for a command that
    checks files out (the Action's `git worktree add` of a base commit), where a smudge or
    process filter would run. Files are then written as stored."""
    try:
        code, out, _ = run(["config", "--name-only", "--get-regexp", r"^filter\."], cwd)
    except OSError:
        return []
    names = {line.rsplit(".", 1)[0] for line in os.fsdecode(out).splitlines() if code == 0}
    options: list[str] = []
    for name in sorted(names):  # filter.NAME (NAME may hold dots)
        for key, value in (("process", ""), ("smudge", ""), ("clean", ""), ("required", "false")):
            options += ["-c", f"{name}.{key}={value}"]
    return options


def environment(base: dict[str, str] | None = None, *, fetch: bool = False) -> dict[str, str]:
    """git's environment: `base` (the process's) without the GIT_* variables that make git
    run programs, read injected configuration or write trace files, with FORCED_ENV (and,
    for `fetch`, the transports a fetch from origin may use). The
    location variables are kept (made absolute, so that `-C DIR` does not move them)."""
    base = os.environ if base is None else base
    keep = [w for w in base.get(KEEP_ENV, "").replace(",", " ").split() if w]
    env = {}
    for name, value in base.items():
        if (
            name.startswith("GIT_")
            and name not in LOCATION_VARIABLES
            and not any(name == k or (k.endswith("*") and name.startswith(k[:-1])) for k in keep)
        ):
            continue
        if name in _PATH_VARIABLES and value and not os.path.isabs(value):
            value = os.path.abspath(value)
        env[name] = value
    env.update(FORCED_ENV)
    if fetch:
        env["GIT_ALLOW_PROTOCOL"] = FETCH_PROTOCOLS
    return env


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
        self.args = list(args)  # as given: error messages name args[0]
        self.argv = argv(args)
        self.env = environment()
        self.buffer = buffer
        self.proc = None  # a subprocess.Popen when posix_spawn could not be used
        self.pid = 0
        self.fds: dict[str, int] = {}
        self.result: tuple[int, bytes, bytes] | None = None
        self._poller = None  # reading: a select.poll, the output so far, pipes left open
        self._chunks: dict[int, list[bytes]] = {}
        self._open = 0
        self._input: tuple[int, memoryview, int] | None = None  # stdin: fd, data, offset
        if cwd is None and hasattr(os, "posix_spawnp"):
            self._spawn(stdin)
        if not self.pid:
            import subprocess

            self.proc = subprocess.Popen(
                self.argv,
                cwd=cwd,
                env=self.env,
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
                self.argv,
                self.env,
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
        self._start_reading()
        stdin = self.fds.pop("stdin", None)
        if stdin is not None:
            if data:
                import select

                self._input = (stdin, memoryview(data), 0)
                self._poller.register(stdin, select.POLLOUT)
            else:
                os.close(stdin)
        self._pump(None)
        _, status = os.waitpid(self.pid, 0)
        out, err = (b"".join(c) for c in self._chunks.values())
        self._chunks = {}
        self.result = (os.waitstatus_to_exitcode(status), out, err)
        return self.result

    def communicate_within(self, seconds: float) -> tuple[int, bytes, bytes] | None:
        """As `communicate` without stdin, but None when git has not ended within about
        `seconds` (it is then killed): for the live hook, which must not wait on a slow or
        locked repository."""
        if self.result is not None:
            return self.result
        if self.proc is not None:
            import subprocess

            try:
                out, err = self.proc.communicate(timeout=seconds)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.communicate()
                return None
            self.result = (self.proc.returncode, out, err)
            return self.result
        import time

        stdin = self.fds.pop("stdin", None)
        if stdin is not None:
            os.close(stdin)
        self._start_reading()
        deadline = time.monotonic() + seconds
        while not self._pump(max(1, int((deadline - time.monotonic()) * 1000))):
            if time.monotonic() >= deadline:
                import signal

                os.kill(self.pid, signal.SIGKILL)
                self.close()
                return None
        _, status = os.waitpid(self.pid, 0)
        out, err = (b"".join(c) for c in self._chunks.values())
        self._chunks = {}
        self.result = (os.waitstatus_to_exitcode(status), out, err)
        return self.result

    def forget_output(self) -> None:
        """Drop its stdout, once parsed (a large staged change: megabytes)."""
        if self.result is not None:
            self.result = (self.result[0], b"", self.result[2])

    def ended(self) -> bool:
        """Whether its output has ended, reading what its pipes hold without waiting (False
        when that cannot be known: a subprocess.Popen, or stdin not yet given)."""
        if self.result is not None:
            return True
        if self.proc is not None or "stdin" in self.fds:
            return False
        self._start_reading()
        return self._pump(0)

    def _start_reading(self) -> None:
        if self._poller is not None:
            return
        import select

        self._poller = select.poll()
        self._chunks = {self.fds["stdout"]: [], self.fds["stderr"]: []}
        for fd in self._chunks:
            self._poller.register(fd, select.POLLIN)
        self._open = len(self._chunks)

    def _pump(self, timeout: int | None) -> bool:
        """Handle the pipes' events until every pipe is closed (True), or, with a timeout,
        until none comes within it (False)."""
        while self._open or self._input is not None:
            events = self._poller.poll(timeout)
            if not events:
                return False
            for fd, _ in events:
                if self._input is not None and fd == self._input[0]:
                    self._write()
                    continue
                chunk = os.read(fd, _CHUNK)
                if chunk:
                    self._chunks[fd].append(chunk)
                else:
                    self._poller.unregister(fd)
                    self._close_fd(fd)
                    self._open -= 1
        return True

    def _close_fd(self, fd: int) -> None:
        os.close(fd)
        self.fds = {name: other for name, other in self.fds.items() if other != fd}

    def _write(self) -> None:
        fd, view, offset = self._input  # type: ignore[misc]
        try:
            offset += os.write(fd, view[offset : offset + _CHUNK])
        except BlockingIOError:
            return
        except OSError:  # it stopped reading (exited): what it said tells why
            offset = len(view)
        if offset < len(view):
            self._input = (fd, view, offset)
            return
        self._poller.unregister(fd)
        self._input = None
        os.close(fd)

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
            if self._input is not None:
                self.fds["stdin"] = self._input[0]
                self._input = None
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
    """`git diff --cached` started early, and `git cat-file --batch` for the blobs it names,
    started by `start_cat_file` (see `sources.git.prepare_staged`: not at all when the diff
    shows every added file's content itself)."""

    def __init__(self) -> None:
        # read only once the rules are loaded: room for a large diff meanwhile (a pipe holds
        # 64 KB by default, ~30 small files' worth of -U0 patches)
        self.diff = GitProcess(STAGED_DIFF, buffer=DIFF_PIPE_SIZE)
        self.cat_file: GitProcess | None = None
        self.changes: list | None = None  # the diff, parsed (by sources.git)

    def start_cat_file(self) -> None:
        import contextlib

        # if it cannot start, read_blobs runs it the ordinary way, and says what fails
        with contextlib.suppress(OSError):
            if self.cat_file is None:
                self.cat_file = GitProcess(["cat-file", "--batch"], stdin=True)

    def close(self) -> None:
        self.diff.close()
        if self.cat_file is not None:
            self.cat_file.close()


def start_staged() -> StagedGit | None:
    """Start the git processes of a staged scan; None if git cannot be started (the scan then
    runs git the ordinary way and reports why it fails, at the usual point)."""
    try:
        return StagedGit()
    except OSError:
        return None


def popen(args: list[str], stderr: Any = None, stdin: Any = None):
    """`git ARGS` as a subprocess.Popen with its stdout on a pipe, for output read as a
    stream (`--history`); `stderr`: a file for its messages; `stdin`: a file to read (else
    none). Raises FileNotFoundError when git is not installed."""
    import subprocess

    return subprocess.Popen(
        argv(args), stdin=subprocess.DEVNULL if stdin is None else stdin,
        stdout=subprocess.PIPE, stderr=stderr, env=environment(),
    )  # fmt: skip


def run(
    args: list[str], cwd: str | None = None, stdin: bytes | None = None
) -> tuple[int, bytes, bytes]:
    """Run `git ARGS` to completion: (exit code, stdout, stderr). Raises FileNotFoundError
    when git is not installed."""
    return GitProcess(args, cwd, stdin=stdin is not None).communicate(stdin or b"")
