"""Where the rest of a line runs, and which of a command's words are literal `$` text: the
walker's state changes of `cd`, `pushd`, `popd` (also as `builtin cd`, `command cd`), the
previous folder (`cd -`) and the directory stack; the words a path program takes as a
relative name because their `$` was quoted (`rm -rf '$TMPDIR/x'`); and a temporary-folder
variable that a command's own prefix assignment sets (`TMPDIR=/etc rm -rf $TMPDIR/x`); a
Windows drive path written without quotes (`rd /s /q C:\\Users\\dev`) kept as written.

The folder is a path word that shell/path_reasoning.py resolves (`change_dir`): "." the
project root, "?" unknown. The previous folder and the stack are kept in the walker's
variables under names no shell variable can have, so that a subshell's `cd` stays in it as
its variables do.
"""

from __future__ import annotations

import re
from typing import Any

from wukong_lint.shell.path_reasoning import TEMP, change_dir, classify

TRACKED = frozenset(["cd", "pushd", "popd", "alias", "unset"])
_OLD = "\x1fOLDPWD"  # the folder before the last cd (bash's $OLDPWD, as a cwd word)
_STACK = "\x1fDIRSTACK"  # pushd's stack, most recent last, NUL-separated cwd words
# the temporary-folder variables path_reasoning reads as temp (`$TMPDIR/x` is /tmp/x)
TEMP_VARIABLES = frozenset(["TMPDIR", "TMP", "TEMP", "RUNNER_TEMP"])
# what a word holding the caller's value of such a variable becomes, when the command's own
# prefix assigns it (`TMPDIR=/etc rm -rf $TMPDIR/x`): bash expands the words before the
# assignment takes effect, so the path is the caller's value, and the line shows its author
# meant another one: not known to be temporary (a substitution path_reasoning cannot read)
CALLERS_VALUE = "$(:caller)"
# programs whose arguments are paths: a quoted `$` in one is part of a relative name
PATH_PROGRAMS = frozenset(["rm", "rmdir", "unlink", "shred", "srm", "mv", "cp", "truncate",
                           "chmod", "chown", "chgrp", "find", "touch", "mkdir", "ln", "dd",
                           "tee", "install", "rsync", "wipe"])  # fmt: skip
_DRIVE = re.compile(r"[A-Za-z]:[^/]").match
_WINDOWS_PATH = re.compile(r"[A-Za-z]:\\[^\s'\"$`]*$").match
_EXPANDING = frozenset(["simple_expansion", "expansion", "command_substitution",
                        "process_substitution", "arithmetic_expansion"])  # fmt: skip


def tracked(argv: tuple[str, ...]) -> tuple[str, ...] | None:
    """The words of a state-changing builtin (`cd`, `pushd`, `popd`, `alias`, `unset`), also
    when run through `builtin` or `command` (`builtin cd /`); None for anything else
    (`command -v cd` only looks it up)."""
    i = 0
    while i < len(argv) and argv[i] in ("builtin", "command"):
        i += 1
        if i < len(argv) and argv[i] == "--":
            i += 1
        elif i < len(argv) and argv[i].startswith("-") and argv[i - 1] == "command":
            if any(c in argv[i] for c in "vV"):
                return None
            i += 1  # `command -p cd`: the default PATH, still the builtin
    rest = argv[i:]
    return rest if rest and rest[0] in TRACKED else None


def track(walker: Any, argv: tuple[str, ...]) -> None:
    """What a command changes for the rest of the line (the walker's `cwd`, `env`,
    `aliases`): its folder, its aliases, the variables it unsets."""
    found = tracked(argv)
    if found is None:
        return
    name = found[0]
    if name in ("cd", "pushd", "popd"):
        walker.cwd = move(walker.cwd, walker.env, found)
    elif name == "alias":
        for arg in found[1:]:
            alias, sep, value = arg.partition("=")
            if sep and alias:
                walker.aliases[alias] = value
    elif name == "unset":
        for arg in found[1:]:
            walker.env.pop(arg, None)


def chdir_of(cwd: str, argv: tuple[str, ...], options: list[str] | None) -> str:
    """The folder a wrapper runs its command in: `env -C DIR`, `env --chdir=DIR`, `sudo -D
    DIR` (its `options`, read up to its first word that is no option), else `cwd`."""
    if not options:
        return cwd
    found = None
    args = argv[1:]
    for index, arg in enumerate(args):
        if arg == "--" or not arg.startswith("-"):
            break
        name, eq, value = arg.partition("=")
        if name in options and eq:
            found = value
        elif arg in options and index + 1 < len(args):
            found = args[index + 1]
        elif arg[:2] in options and len(arg) > 2 and not arg.startswith("--"):
            found = arg[2:]  # `-C/`
    return cwd if found is None else change_dir(cwd, found)


def _stack(env: dict[str, str]) -> list[str]:
    found = env.get(_STACK)
    return found.split("\0") if found else []


def move(cwd: str, env: dict[str, str], argv: tuple[str, ...]) -> str:
    """The folder after a `cd`, `pushd` or `popd` (`argv` without `builtin`), with the
    previous folder and the stack updated in `env`."""
    name = argv[0]
    args = [a for a in argv[1:] if not (a.startswith("-") and a not in ("-",))]
    stack = _stack(env)
    if name == "popd":
        if args and args[0].startswith("+"):
            return cwd  # `popd +1`: drops an entry of the stack, stays
        new = stack.pop() if stack else "?"
        if any(a.startswith("-") and a[1:].isdigit() for a in argv[1:]):
            new = "?"  # `popd -0`: which entry goes depends on more than the line tells
    elif name == "pushd" and not args:
        new = stack.pop() if stack else "?"  # swaps the two top folders
        stack.append(cwd)
    elif args and args[0][:1] == "+" and name == "pushd":
        new = "?"  # `pushd +2`: a rotation of the stack
        stack.append(cwd)
    else:
        target = args[0] if args else None
        new = env.get(_OLD, "?") if target == "-" else change_dir(cwd, target)
        if name == "pushd":
            stack.append(cwd)
    env[_OLD] = cwd
    if stack:
        env[_STACK] = "\0".join(stack[-16:])
    else:
        env.pop(_STACK, None)
    return new


def joined_or_literal(node: Any, words: list[str], values: list[str], literal: list[int]) -> None:
    """A command's next word node and its values: a process substitution written right
    after a word is part of it (`--arg-file=<(echo ~)`, one word to bash; the parser gives
    two), a word whose `$` is quoted text is noted in `literal` (its index in `words`), and a
    Windows drive path keeps its backslashes."""
    before = node.prev_sibling
    if (
        node.type == "process_substitution"
        and before is not None
        and (before.end_byte == node.start_byte)
    ):
        words[-1] += values.pop(0)
        return
    if "$" in values[0] and literal_dollar(node, values):
        literal.append(len(words))
    elif node.type == "word" and len(values) == 1 and _DRIVE(values[0]):
        # `rd /s /q C:\Users\dev`: bash would drop the backslashes, but a drive path is for
        # PowerShell or cmd, which keep them (the rules read Windows paths as written)
        raw = node.text.decode("utf-8", "replace")
        if _WINDOWS_PATH(raw):
            values[0] = raw


def literal_dollar(node: Any, values: list[str]) -> bool:
    """Did a word's `$` come from quoted or escaped text (`'$TMPDIR/x'`, `\\$HOME`), not
    from an expansion? (Then the word is a name with a `$` in it, not a variable.)"""
    if not any(value.startswith("$") for value in values):
        return False
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in _EXPANDING:
            return False
        stack.extend(current.children)
    return True


def as_relative(words: list[str], literal: list[int]) -> None:
    """A path program's words that start with a literal `$` named as the relative paths they
    are (`rm -rf '$TMPDIR/x'` deletes `./$TMPDIR/x` of the folder it runs in)."""
    from wukong_lint.shell.model import program_name

    if not literal or not words or program_name(words[0]) not in PATH_PROGRAMS:
        return
    for index in literal:
        if 0 < index < len(words) and words[index].startswith("$"):
            words[index] = "./" + words[index]


def prefix_temp(env: dict[str, str], assigned: dict[str, str]) -> dict[str, str] | None:
    """The variables to restore after a command whose prefix assigns a temporary-folder
    variable the line did not set before a value that is not a temporary folder
    (`TMPDIR=/etc rm -rf $TMPDIR/x`: its words get `CALLERS_VALUE`); None when none.
    (`TMPDIR=/tmp/x rm -rf $TMPDIR` keeps reading the caller's value as temporary.)"""
    saved: dict[str, str] | None = None
    for name, value in assigned.items():
        if name in TEMP_VARIABLES and name not in env and classify(value) != TEMP:
            saved = saved if saved is not None else {}
            env[name] = CALLERS_VALUE
            saved[name] = ""
    return saved
