"""The `path` rule kind: reads and writes of sensitive files by tool calls.

Accesses come from file tools (Read, Edit, Write, Grep, Glob... `file_path`/`path`) and from
parsed shell commands (redirections and the arguments of writing programs are writes, other
path-like arguments of programs that touch files are reads). Home directories are written as
`~` (`/home/alice/.ssh`, `$HOME/.ssh` and `/root/.ssh` all become `~/.ssh`).

    kind: path
    targets: ['/etc/*']      # globs; a glob without `/` matches the file name
    except: ['/etc/os-release']
    access: [write]          # read, write, list (default read and write: `ls`, `stat`,
                             # `find` only list a folder or a file's name, see _LISTERS)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from typing import Any

from wukong_lint.engine.matchers import Hit
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.engine.scope import in_scope
from wukong_lint.model import Unit
from wukong_lint.model.events import EDIT_TOOLS, event_paths
from wukong_lint.shell.unwrap import VALUE_OPTIONS
from wukong_lint.util.star_globs import any_glob

# Programs whose arguments are not files.
_NOT_FILES = frozenset(
    [
        "echo",
        "printf",
        "true",
        "false",
        "export",
        "alias",
        "unalias",
        "set",
        "unset",
        "declare",
        "local",
        "readonly",
        "type",
        "which",
        "hash",
        "help",
        "man",
        "test",
        "[",
        "[[",
        "sleep",
        "kill",
        "pkill",
        "pgrep",
        "ps",
        "date",
        "whoami",
        "id",
        "uname",
    ]
)
# Programs that write the files they are given (all arguments, or the last one).
_WRITERS_ALL = frozenset(
    [
        "rm",
        "rmdir",
        "unlink",
        "touch",
        "chmod",
        "chown",
        "chgrp",
        "truncate",
        "shred",
        "tee",
        "mkdir",
        "ln",
    ]
)
_WRITERS_LAST = frozenset(["cp", "mv", "install", "rsync", "scp"])
# Programs that show what a folder holds or a file's name, size and mode, never its content:
# `ls ~/.ssh` lists, it does not read a key (access "list").
_LISTERS = frozenset(["ls", "dir", "vdir", "tree", "stat", "du", "file", "exa", "eza", "lsd",
                     "find",
                     # they use a key without printing it (`ssh -i ~/.ssh/id_ed25519 host`)
                     "ssh", "ssh-add", "ssh-copy-id", "autossh", "mosh"])  # fmt: skip
# Wrappers whose words are another command (recorded by shell.py as a command of its own).
_WRAPPERS = frozenset(VALUE_OPTIONS) | frozenset(["xargs", "watch", "doas"])
_HOME = re.compile(r"^(?:\$HOME|\$\{HOME\}|/home/[^/]+|/Users/[^/]+|/root)(?=/|$)")


def normalize(path: str) -> str:
    path = path.strip().strip("'\"")
    path = _HOME.sub("~", path)
    while "//" in path:
        path = path.replace("//", "/")
    return path


def _path_like(arg: str) -> bool:
    if "://" in arg or not arg or arg.startswith("-") or "\n" in arg or len(arg) > 4096:
        return False
    return "/" in arg or arg.startswith(("~", ".", "$HOME", "${HOME}")) or "." in arg


def shell_accesses(command: str) -> list[tuple[str, str]]:
    from wukong_lint.shell.parse import WRITE_REDIRECTS, parse, split_options

    try:
        script = parse(command)
    except Exception:
        return []
    found: list[tuple[str, str]] = []
    for cmd in script.commands:
        for op, target in cmd.redirects:
            found.append((target, "write" if op in WRITE_REDIRECTS else "read"))
        name = cmd.name
        if name in _NOT_FILES or name in _WRAPPERS:
            continue  # (a wrapper's command is recorded on its own: `env ls ~/.ssh` lists)
        options, positional = split_options(cmd.argv)
        if name == "git":
            if not positional or positional[0] not in ("add", "rm", "mv", "checkout", "restore"):
                continue
            if positional[0] == "rm" and "--cached" in options:
                continue  # untracks, the file stays as it is (the fix for a committed .env)
            positional = positional[1:]
        if name == "sed" and any(o.startswith("-i") or o == "--in-place" for o in options):
            found += [(a, "write") for a in positional[1:] if _path_like(a)]
            continue
        if name == "dd":
            for arg in positional:
                if arg.startswith("of="):
                    found.append((arg[3:], "write"))
                elif arg.startswith("if="):
                    found.append((arg[3:], "read"))
            continue
        for index, arg in enumerate(positional):
            if not _path_like(arg):
                continue
            writes = name in _WRITERS_ALL or (
                name in _WRITERS_LAST and index == len(positional) - 1 and index > 0
            )
            mode = "write" if writes else "list" if name in _LISTERS else "read"
            found.append((arg, mode))
    return found


# command line -> its accesses: a transcript runs the same commands many times
_SHELL_ACCESSES: dict[str, list[tuple[str, str]]] = {}


def accesses(unit: Unit) -> list[tuple[str, str]]:
    event = getattr(unit, "event", None)
    if event is None or event.kind != "call":
        return []
    # Every path rule asks the same question of the same call: answer it once per unit.
    known = getattr(unit, "accesses", None)
    if known is not None:
        return known
    if event.command is not None:
        found = _SHELL_ACCESSES.get(event.command)
        if found is None:
            if len(_SHELL_ACCESSES) >= 4096:
                _SHELL_ACCESSES.clear()
            found = _SHELL_ACCESSES[event.command] = shell_accesses(event.command)
    else:
        mode = "write" if event.tool in EDIT_TOOLS else "read"
        found = [(p, mode) for p in event_paths(event)]
    unit.accesses = found  # type: ignore[attr-defined]  # an EventUnit has a __dict__
    return found


@functools.cache
def _globs(patterns: tuple[str, ...]) -> Callable[[str], bool]:
    """Whether a path matches any of `patterns`: the whole path, or its last part for a
    pattern without `/` (`*.pem`), or the folder itself for `folder/*` (`~/.ssh/*` covers
    `~/.ssh`). Compiled once per pattern list: a scan asks it hundreds of thousands of times."""
    if not patterns:
        return lambda path: False
    # (fnmatch's semantics without compiling its regexes in every run: star_globs.py)
    whole = any_glob(patterns)
    names = [p for p in patterns if "/" not in p]
    name = any_glob(names) if names else None
    folders = frozenset(p[:-2] for p in patterns if "/" in p and p.endswith("/*"))

    def test(path: str) -> bool:
        if whole(path):
            return True
        trimmed = path.rstrip("/")
        if name is not None and name(trimmed.rsplit("/", 1)[-1]):
            return True
        return trimmed in folders

    return test


_TESTS: dict[int, tuple[Any, Callable[[str], bool], Callable[[str], bool]]] = {}


def _tests(params: dict[str, Any]) -> tuple[Callable[[str], bool], Callable[[str], bool]]:
    """The target and except tests of a rule's parameters, looked up once per rule."""
    found = _TESTS.get(id(params))
    if found is None or found[0] is not params:
        found = _TESTS[id(params)] = (
            params,
            _globs(tuple(params["targets"])),
            _globs(tuple(params["except"])),
        )
    return found[1], found[2]


def _normalized(unit: Unit) -> list[tuple[str, str, str]]:
    """(as written, normalized, mode) of every access of a unit, computed once per unit."""
    if getattr(unit, "event", None) is None:
        return []
    known = getattr(unit, "normalized_accesses", None)
    if known is None:
        known = [(raw, normalize(raw), mode) for raw, mode in accesses(unit)]
        unit.normalized_accesses = known  # type: ignore[attr-defined]
    return known


def match_path(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    params = rule.params or {}
    if "scope" in params and not in_scope(params["scope"], unit):
        return
    targets, excepted = _tests(params)
    seen = set()
    for raw, path, mode in _normalized(unit):
        if mode not in params["access"] or not targets(path):
            continue
        if excepted(path) or (path, mode) in seen:
            continue
        seen.add((path, mode))
        start = unit.text.find(raw)
        if start < 0:
            start, end = 0, 0
        else:
            end = start + len(raw)
        yield Hit(start, end, start, end, f"{mode} {path}")


def _accesses_any(unit: Unit) -> bool:
    return bool(accesses(unit))


# Shared by every path rule: the engine skips them all at once on units that touch no path.
match_path.gate = _accesses_any  # type: ignore[attr-defined]
# Only tool calls access paths (asked once per event signature, see RuleSet._event_plan).
match_path.accepts = lambda rule, event: event.kind == "call"  # type: ignore[attr-defined]


def _memo_key(unit: Unit) -> tuple[Any, ...] | None:
    """What a path rule's hits on a call depend on besides its signature (tool, agent): the
    paths it accesses, and the text their offsets point into. Small texts only: the memo
    holds its keys."""
    event = getattr(unit, "event", None)
    if event is None or len(unit.text) > 2048:
        return None
    if event.command is not None:
        return (event.command, unit.text)
    return (unit.text, tuple(event_paths(event)))


match_path.memo_key = _memo_key  # type: ignore[attr-defined]
