"""What the command model cannot tell about a command, recorded on it (`Command.unknown`)
so that rules can ask instead of allowing: unknown is not safe.

Each entry is "kind:what", `what` being the words that could not be resolved:

- `program`: the program word is an expansion the line does not give (`$x`, `"${a[@]}"`,
  `$(cat f)`, `/bin/r?`): anything could run;
- `code`: a shell or an interpreter runs code the line does not show: its stdin is a pipe
  of unknown content (`some-tool | sh`, `cat "$F" | sh`, `python3 < "$F"`), or its code is
  one expansion (`python3 -c "$CODE"`).

A file the line downloads or writes before it runs it is shell/script_runs.py's (the hook
reads what it can and asks about the rest).
"""

from __future__ import annotations

import posixpath
import re

from wukong_lint.shell.expand import unresolved
from wukong_lint.shell.model import _Producer, program_name
from wukong_lint.shell.runner_registry import STDIN_WORDS, scan, spec_of

PROGRAM = "program"
CODE = "code"
_PLAIN = re.compile(r"[\w./+:@%,=~-]+")
_HIDING = frozenset("*?[()`$")  # a glob, or a part of an expansion the line does not give
_ONE_EXPANSION = re.compile(
    r"\s*(?:\$[A-Za-z_]\w*|\$\{[^}]*\}|\$\(.*\)|`[^`]*`|\$[0-9@*])\s*", re.S
)


def marker(kind: str, what: str) -> str:
    return f"{kind}:{what[:80]}"


def program_marker(argv0: str) -> str | None:
    """`program:WORD` when the program word is not known: an expansion or a glob in its file
    name (`$x`, `$(cat f)`, `/???/?m`); a folder given by a variable names no other program
    (`"$VIRTUAL_ENV/bin/python"` runs python, `"$(go env GOPATH)/bin/lint"` runs lint). None
    for a known program."""
    if _PLAIN.fullmatch(argv0) or argv0 in ("[", "[["):
        return None  # (most program words: letters, digits, `/ . _ - + :`)
    name = posixpath.basename(argv0.rstrip("/")) or argv0
    if (
        not argv0
        or unresolved(name)
        or argv0.startswith("<(")
        or any(c in _HIDING for c in name)  # (`$(cat /tmp/x)`: its last part is `x)`)
    ):
        return marker(PROGRAM, argv0 or '""')
    return None


def whole_expansion(text: str) -> bool:
    """Is a script or code text one expansion the line does not give (`"$CODE"`)?"""
    return _ONE_EXPANSION.fullmatch(text) is not None


def reads_code_from_stdin(name: str, args: tuple[str, ...]) -> bool:
    """Does an interpreter of the code-runner registry read its program from stdin (no code
    option, no script file, no module: `python3`, `python3 -`, `node < x`)?"""
    spec = spec_of(name)
    if spec is None or spec.get("how") != "interpreter":
        return False
    found = scan(spec, args)
    if found.lookup or found.module or found.codes or found.files:
        return False
    positional = args[found.index :]
    if positional:
        return positional[0] in STDIN_WORDS
    return bool(
        spec.get("stdin_code", False)
        or name in spec.get("stdin_code_names", ())
        or any(a in spec.get("stdin_code_when", ()) for a in args)
    )


def unseen_stdin(producer: _Producer | None, stdin_from: tuple[str, ...]) -> bool:
    """Is a command fed by a pipe whose content the line does not show? (`cat FILE |` and
    `< FILE` name the file: the rules judge where it lies, as for `bash FILE`.)"""
    if producer is None:
        return bool(stdin_from)
    if producer.text is not None:
        return False
    args = [a for a in producer.argv[1:] if not a.startswith("-")]
    return not (
        program_name(producer.argv[0]) == "cat" and args and all(not unresolved(a) for a in args)
    )
