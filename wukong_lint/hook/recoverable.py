"""Recoverability by git, for the live hook (issue 31): deleting project files that git can
give back is no loss.

The command rules ask before a command deletes or truncates project files
(`dangerous-command.rm-project-files`): they may hold work that was never committed. Where
the hook runs, the repository is the one the command will run in, so git can tell: when every
path the line deletes is tracked and unmodified (or does not exist: nothing to lose), the
finding is lowered to `low` and the call allowed; an untracked, modified, staged or ignored
file (but build output and caches), a submodule, or anything git cannot tell in time keeps
the ask. Paths outside the project are never lowered (their deny and ask rules stand).

Asked only for a PreToolUse call whose only confirm-tier findings are that rule, whose
deletes are plain `rm`/`unlink`/`rmdir`/`shred`/`truncate`/`git rm` of literal paths inside
the project (no glob, variable or substitution; no `find -delete`, `tar --remove-files`,
`rsync` on the line), at most two git processes on the named paths only (`git ls-files
--stage` and `git status --porcelain`, started together), each killed past `TIMEOUT`. Never
in scans of files, diffs or transcripts: there the repository is not in the state the
command ran in.
"""

from __future__ import annotations

import os
from typing import Any

from wukong_lint.model import Finding, Severity

RULES = frozenset(["dangerous-command.rm-project-files"])
TIMEOUT = 0.5  # seconds per git process (a few milliseconds in a usual repository)
MAX_PATHS = 64
_DELETERS = frozenset(["rm", "unlink", "rmdir", "shred", "truncate"])
# programs on the line that delete what a pattern or option selects: not told path by path
_SELECTORS = frozenset(["find", "gfind", "bfs", "tar", "bsdtar", "gtar", "rsync", "xargs",
                        "parallel"])  # fmt: skip
_TRUNCATE_VALUES = frozenset(["-s", "--size", "-r", "--reference"])  # (truncate's options)
_UNTOLD = "\0"  # a path word standing for paths the line does not tell
NOTE = " (recoverable: git has every file it deletes, tracked and unmodified)"


def soften(data: dict[str, Any], findings: list[Finding], units: list[Any]) -> list[Finding]:
    """`findings` with the asks of RULES lowered to low when git can give back what the
    call deletes (see the module docstring)."""
    asked = [f for f in findings if f.severity >= Severity.MEDIUM]
    if (
        data.get("hook_event_name") != "PreToolUse"
        or not asked
        or any(f.rule_id not in RULES for f in asked)
    ):
        return findings
    cwd = data.get("cwd")
    commands = [getattr(u.event, "command", None) for u in units if getattr(u, "event", None)]
    if not isinstance(cwd, str) or not os.path.isabs(cwd) or len(commands) != 1:
        return findings
    if commands[0] is None or not os.path.isdir(cwd):
        return findings
    paths = deleted_paths(commands[0], cwd)
    if not paths or not recoverable(cwd, paths):
        return findings
    return [
        f._replace(severity=Severity.LOW, message=f.message + NOTE) if f.rule_id in RULES else f
        for f in findings
    ]


def deleted_paths(command: str, root: str) -> list[str] | None:
    """The project paths (relative to `root`) a line deletes, or None when they cannot all
    be told as literal paths inside the project."""
    from wukong_lint.shell.parse import parse
    from wukong_lint.shell.path_reasoning import DISPOSABLE, PROJECT, SECRET, classify, resolve

    script = parse(command)
    if script.error or script.partial or script.deep:
        return None
    found: list[str] = []
    for cmd in script.commands:
        if cmd.unknown or cmd.name in _SELECTORS:
            return None
        words = _targets(cmd)
        if words is None:
            continue
        for word in words:
            if any(c in word for c in "*?[]{}$`\\\0") or word.startswith(("<(", ">(")):
                return None
            if classify(word, cmd.cwd, root) not in (PROJECT, DISPOSABLE, SECRET):
                return None
            path = resolve(word, cmd.cwd, root)
            if path is None or not (path + "/").startswith(root.rstrip("/") + "/"):
                return None
            found.append(os.path.relpath(path, root))
    return found[:MAX_PATHS] if len(found) <= MAX_PATHS else None


def _targets(cmd: Any) -> list[str] | None:
    """The path words of one deleting command (None: it deletes nothing)."""
    argv = cmd.argv
    if cmd.name == "git":
        rest = [a for a in argv[1:] if a != "--"]
        if not rest or rest[0] != "rm":
            return None
        if any(a.startswith("--pathspec") for a in rest):
            return [_UNTOLD]  # (the paths are in a file)
        argv = ("git-rm", *rest[1:])
    elif cmd.name not in _DELETERS:
        return None
    values = _TRUNCATE_VALUES if cmd.name == "truncate" else frozenset()
    words: list[str] = []
    skip = False
    ended = False
    for word in argv[1:]:
        if skip:
            skip = False
        elif not ended and word == "--":
            ended = True
        elif not ended and word.startswith("-") and word != "-":
            skip = word in values
        else:
            words.append(word)
    return words


def recoverable(root: str, paths: list[str]) -> bool:
    """Whether git has every file under `paths` (relative to `root`) as committed or staged,
    unmodified in the work tree: ask git about those paths only, in a bounded time."""
    existing = [p for p in dict.fromkeys(paths) if os.path.lexists(os.path.join(root, p))]
    if not existing:
        return True  # nothing there to delete
    from wukong_lint.util.gitproc import GitProcess

    pathspec = ["--", *existing]
    try:
        listing = GitProcess(["--literal-pathspecs", "-C", root, "ls-files", "-z", "--stage",
                              *pathspec])  # fmt: skip
        status = GitProcess(["--literal-pathspecs", "-C", root, "status", "--porcelain=v1",
                             "-z", "--untracked-files=normal", "--ignored=traditional",
                             "--no-renames", *pathspec])  # fmt: skip
    except OSError:  # git is not installed
        return False
    listed = listing.communicate_within(TIMEOUT)
    states = status.communicate_within(TIMEOUT)
    if listed is None or states is None or listed[0] != 0 or states[0] != 0:
        return False
    tracked = [entry for entry in listed[1].split(b"\0") if entry]
    if any(entry.startswith(b"160000 ") for entry in tracked):
        return False  # a submodule: its own work is not in this repository
    names = {entry.split(b"\t", 1)[-1].decode("utf-8", "surrogateescape") for entry in tracked}
    for path in existing:
        inside = path.rstrip("/") + "/"
        known = path in names or any(n.startswith(inside) for n in names)
        if not known and not _empty_folder(os.path.join(root, path)):
            return False  # untracked: git has no copy
    return _only_regenerable(states[1], root)


def _empty_folder(path: str) -> bool:
    try:
        return os.path.isdir(path) and not os.path.islink(path) and not os.listdir(path)
    except OSError:
        return False


def _only_regenerable(porcelain: bytes, root: str) -> bool:
    """`git status --porcelain -z` of the paths: nothing changed, untracked or staged, and
    ignored entries only build output and caches (rebuilt on demand)."""
    from wukong_lint.shell.path_reasoning import DISPOSABLE, classify

    for entry in porcelain.split(b"\0"):
        if not entry:
            continue
        state, name = entry[:2], entry[3:].decode("utf-8", "surrogateescape")
        if state != b"!!" or classify(name.rstrip("/"), ".", root) != DISPOSABLE:
            return False
    return True
