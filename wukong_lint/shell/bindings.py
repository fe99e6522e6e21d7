"""Builtins that set variables from what the line shows: `read` (from a here-string, a pipe
whose content is known, `< <(echo ...)`), `mapfile` / `readarray`, `printf -v`, `set --`,
`shift`. `read -r c <<< "rm -rf $HOME"; $c` runs `rm -rf $HOME`: the walker binds `c` and
judges the command it gives. A variable read from input the line does not show is forgotten
(its old value would be a guess).
"""

from __future__ import annotations

import re

from wukong_lint.shell.expand import MAX_FIELDS, MAX_VALUE, forget, get_array, set_array
from wukong_lint.shell.printf import printf

BINDERS = frozenset(["read", "mapfile", "readarray", "printf", "set", "shift"])
_READ_VALUES = frozenset(["-a", "-d", "-p", "-n", "-N", "-t", "-u", "-i"])
_MAPFILE_VALUES = frozenset(["-d", "-n", "-O", "-s", "-u", "-C", "-c"])
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DEFAULT_IFS = " \t\n"


def bind(env: dict[str, str], argv: tuple[str, ...], stdin: str | None,
         prefix: dict[str, str]) -> None:  # fmt: skip
    """Apply what the builtin `argv` sets to `env`; `stdin` is what it reads when known,
    `prefix` the assignments written before it (`IFS=, read ...`)."""
    name = argv[0]
    if name == "read":
        _read(env, argv[1:], stdin, prefix.get("IFS", env.get("IFS", _DEFAULT_IFS)))
    elif name in ("mapfile", "readarray"):
        _mapfile(env, argv[1:], stdin)
    elif name == "printf" and len(argv) >= 3 and argv[1] == "-v":
        target = argv[2]
        if _NAME.fullmatch(target):
            text = printf(argv[3:])
            if text is None:
                forget(env, target)
            else:
                env[target] = text[:MAX_VALUE]
    elif name == "set":
        _set(env, argv[1:])
    elif name == "shift":
        items = get_array(env, "@")
        count = argv[1] if len(argv) > 1 else "1"
        if items is not None and count.isdigit():
            set_array(env, "@", items[int(count) :])


def _options(args: tuple[str, ...], values: frozenset[str]) -> tuple[dict[str, str], list[str]]:
    options: dict[str, str] = {}
    names: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            names += args[i + 1 :]
            break
        if arg.startswith("-") and len(arg) > 1 and not names:
            letters = arg[1:]
            for at, letter in enumerate(letters):
                option = "-" + letter
                if option in values:
                    value = letters[at + 1 :]
                    if not value and i + 1 < len(args):
                        i += 1
                        value = args[i]
                    options[option] = value
                    break
                options[option] = ""
            i += 1
            continue
        names.append(arg)
        i += 1
    return options, names


def split_fields(text: str, ifs: str, most: int | None = None) -> list[str]:
    """`text` split on IFS as `read` splits it: blanks of IFS around a field are dropped;
    with `most`, the last field keeps the rest of the text."""
    white = "".join(c for c in ifs if c in _DEFAULT_IFS)
    other = "".join(c for c in ifs if c not in _DEFAULT_IFS)
    if not ifs:
        return [text]
    text = text.strip(white) if white else text
    blanks = f"[{re.escape(white)}]*" if white else ""
    parts = [f"{blanks}[{re.escape(other)}]{blanks}"] if other else []
    if white:
        parts.append(f"[{re.escape(white)}]+")
    separator = re.compile("|".join(parts))
    fields: list[str] = []
    rest = text
    while rest and len(fields) < MAX_FIELDS:
        if most is not None and len(fields) == most - 1:
            fields.append(rest)
            return fields
        match = separator.search(rest)
        if match is None:
            fields.append(rest)
            return fields
        fields.append(rest[: match.start()])
        rest = rest[match.end() :]
    return fields


def _read(env: dict[str, str], args: tuple[str, ...], stdin: str | None, ifs: str) -> None:
    options, names = _options(args, _READ_VALUES)
    array = options.get("-a")
    targets = [n for n in names if _NAME.fullmatch(n)] or ([] if array else ["REPLY"])
    if stdin is None:
        for target in targets + ([array] if array else []):
            forget(env, target)
        return
    delimiter = options.get("-d", "\n")
    line = stdin.split(delimiter[:1], 1)[0] if delimiter else stdin.split("\0", 1)[0]
    if "-r" not in options:
        line = re.sub(r"\\(.)", r"\1", line.replace("\\\n", ""))
    if array:
        if _NAME.fullmatch(array):
            set_array(env, array, split_fields(line, ifs))
        return
    fields = split_fields(line, ifs, len(targets))
    for index, target in enumerate(targets):
        env.pop(target + "[]", None)
        env[target] = (fields[index] if index < len(fields) else "")[:MAX_VALUE]


def _mapfile(env: dict[str, str], args: tuple[str, ...], stdin: str | None) -> None:
    options, names = _options(args, _MAPFILE_VALUES)
    target = names[0] if names else "MAPFILE"
    if not _NAME.fullmatch(target):
        return
    if stdin is None:
        forget(env, target)
        return
    delimiter = options.get("-d", "\n")[:1] or "\0"
    lines = stdin.split(delimiter)
    if lines and lines[-1] == "":
        lines.pop()
    if "-t" not in options:
        lines = [line + delimiter for line in lines]
    set_array(env, target, lines)


def _set(env: dict[str, str], args: tuple[str, ...]) -> None:
    """`set -- a b c` (or `set a b c`): the positional parameters."""
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            set_array(env, "@", list(args[i + 1 :]))
            return
        if arg.startswith(("-", "+")) and arg not in ("-", "+"):
            # (`set -euo pipefail`: `o` takes the next word, an option's name)
            i += 2 if "o" in arg[1:] else 1
            continue
        set_array(env, "@", list(args[i:]))
        return
