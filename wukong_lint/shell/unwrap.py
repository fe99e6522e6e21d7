"""Wrappers: the command a wrapper command runs, from its words alone.

`unwrap(argv, stdin, resolve)` answers for one command what else it runs: `sudo -u x rm -rf
/` runs `rm -rf /`; `bash -c STRING`, `su -c STRING`, `env -S STRING`, `eval STRING`,
`watch STRING`, `ssh host STRING`, `git -c alias.x='!STRING' x` run a script (returned as
`(SCRIPT, text)`, parsed in turn by the walker); `python -c CODE`, `node -e CODE`, `awk
'BEGIN{system(...)}'`, `sed 'e CMD'`... run code (`(CODE, language, text)`, read by
interpreters.py). What each program runs is data: the code-runner registry
(shell/runners.yaml, read by shell/runners.py); this module keeps the walker's entry point
and the readers of `git`'s global options, `find`, `xargs` and `parallel`, whose targets
come from elsewhere (find's start paths, a pipeline's producer): the walker fills them in,
see `find_parts`, `xargs_parts` and `parallel_parts`.

Options are read the way each program reads them (the options that take a value are listed
per program in the registry), so that `env -P /usr/bin git reset --hard` runs `git`, not
`/usr/bin`.
"""

from __future__ import annotations

import os
from typing import Any

from wukong_lint.shell import runner_registry as runners
from wukong_lint.shell.runner_registry import CODE, SCRIPT, UNSEEN, language_of
from wukong_lint.shell.runners import extract

__all__ = ["CODE", "SCRIPT", "UNSEEN"]


def _names_of(how: str, **extra: Any) -> frozenset[str]:
    return frozenset(
        name
        for spec in runners.DATA["programs"]
        if spec["how"] == how and all(spec.get(k, False) == v for k, v in extra.items())
        for name in spec["names"]
    )


def _values_of(name: str) -> frozenset[str]:
    spec = runners.PROGRAMS.get(name) or {}
    return frozenset(spec.get("value_options", ()))


SHELLS = _names_of("shell", source=False)
# wrapper -> options that take a value (the wrapped command starts after its options)
VALUE_OPTIONS: dict[str, frozenset[str]] = {name: _values_of(name) for name in _names_of("wrapper")}
FIND_RUNS = tuple((runners.PROGRAMS.get("find") or {}).get("runs_options", ()))
FIND_FILTERS = frozenset((runners.PROGRAMS.get("find") or {}).get("filters", ()))
XARGS_VALUES = _values_of("xargs")
PARALLEL_VALUES = _values_of("parallel")
GIT_GLOBAL_VALUES = _values_of("git")
# every program that may run more than itself: the walker asks `unwrap` only of these
_UNWRAPPED = runners.NAMES


def interpreter(name: str) -> str | None:
    """The language of an interpreter program name (`python3.12` -> python), or None."""
    return language_of(name)


def after_options(args: tuple[str, ...], takes_value: frozenset[str]) -> tuple[str, ...]:
    """The words after a wrapper's options (`--` ends them; `--opt=value` is one word)."""
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            return args[i + 1 :]
        if not arg.startswith("-") or arg == "-":
            return args[i:]
        if arg in takes_value:
            i += 2
            continue
        i += 1
    return ()


def runs_stdin(argv: tuple[str, ...]) -> bool:
    """A shell reading its script from stdin: no -c and no script file argument."""
    args = argv[1:]
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--" or arg == "-s" or arg == "-":
            return True
        if arg in ("-o", "+o", "-O", "+O"):
            i += 2
            continue
        if arg.startswith(("-", "+")):
            if "c" in arg.lstrip("-+") and not arg.startswith("--"):
                return False
            i += 1
            continue
        return False
    return True


def unwrap(
    argv: tuple[str, ...], stdin: str | None = None, resolve: Any = None
) -> list[tuple[str, ...]]:
    """The commands a wrapper command runs (empty for a plain command): see
    shell/runners.py. `stdin` is what the command reads on its stdin when the line shows
    it, `resolve(word)` what a `<(...)` word prints. find, xargs and parallel are left to
    the walker (their targets come from elsewhere)."""
    if not argv:
        return []
    name = os.path.basename(argv[0].rstrip("/")) or argv[0]
    if name in ("find", "xargs", "parallel"):
        return []
    return extract(argv, stdin, resolve)


def git_normalised(argv: tuple[str, ...]) -> tuple[tuple[str, ...], str | None]:
    """`git -C dir -c k=v --no-pager -- reset --hard` as `git reset --hard`, and the folder
    it runs in (`-C`, `--work-tree`) or None."""
    args = argv[1:]
    folder = None
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            i += 1
            break
        if not arg.startswith("-"):
            break
        if arg in GIT_GLOBAL_VALUES:
            if arg in ("-C", "--work-tree") and i + 1 < len(args):
                folder = args[i + 1] if folder is None else os.path.join(folder, args[i + 1])
            i += 2
            continue
        if arg.startswith("--work-tree="):
            folder = arg.split("=", 1)[1]
        i += 1
    if i == 0:
        return argv, None
    return (argv[0], *args[i:]), folder


class FindParts:
    __slots__ = ("deletes", "filtered", "name", "runs", "starts")

    def __init__(self) -> None:
        self.starts: list[str] = []
        self.filtered = False
        self.runs: list[tuple[str, ...]] = []
        self.deletes = False
        self.name = ""  # the -name / -iname pattern, when there is one

    def targets(self, under: str) -> list[str]:
        """What it acts on: its start paths, or (filtered) some files under them."""
        if not self.filtered:
            return list(self.starts)
        return [(s.rstrip("/") or "") + under + self.name for s in self.starts]


_FIND_EITHER = frozenset(["-o", "-or", "!", "-not", "\\!"])
_FIND_PATHS = frozenset(["-path", "-ipath", "-wholename", "-iwholename"])


def find_parts(args: tuple[str, ...]) -> FindParts:
    """Start paths, whether an expression narrows what is reached (-name, -mtime... : only
    some files), the commands of -exec/-execdir/-ok/-okdir (with `{}` still in them), and
    whether it has -delete."""
    parts = FindParts()
    either = False
    i = 0
    while i < len(args) and args[i] in ("-H", "-L", "-P", "-O", "-D"):
        i += 2 if args[i] in ("-D",) else 1
    while i < len(args) and not args[i].startswith(("-", "(", "!", "\\(")):
        parts.starts.append(args[i])
        i += 1
    if not parts.starts:
        parts.starts.append(".")
    while i < len(args):
        arg = args[i]
        if arg in FIND_RUNS:
            j = i + 1
            while j < len(args) and args[j] not in (";", "+", "\\;"):
                j += 1
            if j > i + 1:
                parts.runs.append(tuple(args[i + 1 : j]))
            i = j + 1
            continue
        if arg in FIND_FILTERS:
            parts.filtered = True
            if arg in ("-name", "-iname") and i + 1 < len(args) and args[i + 1] in ("*", "*.*"):
                parts.filtered = False  # -name '*' takes every file
            elif arg in ("-name", "-iname") and i + 1 < len(args) and not parts.name:
                parts.name = args[i + 1].replace("/", "")
            elif arg in _FIND_PATHS and i + 1 < len(args) and not parts.name:
                parts.name = args[i + 1]  # `-path '*/node_modules/.cache'`: kept whole
        elif arg == "-delete":
            parts.deletes = True
        elif arg in _FIND_EITHER:
            either = True
        i += 1
    if either:
        parts.name = ""  # `-name '*.pyc' -o -name '*.py'`: not only what one test names
    return parts


def xargs_parts(args: tuple[str, ...]) -> tuple[tuple[str, ...], str | None, bool, str | None]:
    """(the command xargs runs, its -I replacement string or None, -0, its -a file)."""
    replace = None
    arg_file = None
    nul = False
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            i += 1
            break
        if not arg.startswith("-") or arg == "-":
            break
        if arg in ("-0", "--null"):
            nul = True
        elif arg in ("-a", "--arg-file") and i + 1 < len(args):
            arg_file = args[i + 1]
        elif arg.startswith("--arg-file="):
            arg_file = arg.split("=", 1)[1]
        elif arg.startswith("-a") and len(arg) > 2 and not arg.startswith("--"):
            arg_file = arg[2:]
        elif arg in ("-I", "-J") and i + 1 < len(args):  # (-J: BSD's)
            replace = args[i + 1]
        elif arg == "--replace":  # (GNU: its value only after `=`)
            replace = "{}"
        elif arg.startswith("-I") and len(arg) > 2:
            replace = arg[2:]
        elif arg == "-i" or arg.startswith("--replace="):
            replace = arg.split("=", 1)[1] if "=" in arg else "{}"
        elif arg.startswith("-i") and len(arg) > 2:
            replace = arg[2:]
        if arg in XARGS_VALUES:
            i += 2
            continue
        i += 1
    rest = args[i:]
    return (rest or ("echo",)), replace, nul, arg_file


def parallel_parts(args: tuple[str, ...]) -> tuple[tuple[str, ...], list[str] | None, bool]:
    """(the command parallel runs, its `:::` arguments or None (stdin), --dry-run)."""
    dry = any(a in ("--dry-run", "--dryrun") for a in args)
    if ":::" in args or "::::" in args:
        cut = min(args.index(m) for m in (":::", "::::") if m in args)
        head, tail = args[:cut], [a for a in args[cut + 1 :] if a not in (":::", "::::", ":::+")]
    else:
        head, tail = args, None
    command = after_options(head, PARALLEL_VALUES)
    return command, tail, dry
