"""Every program that runs code is a shell: what a command runs besides itself, read from
the code-runner registry (shell/runners.yaml, compiled to runners.json).

`extract(argv, stdin, resolve)` answers for one command what else it runs, as items the
walker (shell/walker.py, through shell/unwrap.py) judges in turn exactly as if typed:

- `(SCRIPT, text)`: a shell script (`bash -c`, `ssh host CMD`, `git -c alias.x='!CMD'`,
  `tar --to-command=CMD`, an editor's `:!CMD`...);
- `(CODE, language, text)`: interpreter code (`python -c`, `awk 'BEGIN{system(...)}'`,
  `sed 'e CMD'`, `vim -c 'lua ...'`), read by shell/interpreters.py;
- a plain argv tuple: a command run without a shell (`sudo rm -rf /`, `watch -x ...`);
- `(UNSEEN, reason, program)`: code the line runs but does not show (`python3 <(generate)`,
  `sed e` on a file's lines): the `unseen-script` rule asks.

`stdin` is what the command reads on its stdin when the line says it (a heredoc, a
here-string, `echo ... |`), and `resolve(word)` what a process substitution `<(...)` prints
when that is literal. Files on disk (`bash x.sh`, `make`, `npm test`) are not read here: the
hook reads them (shell/script_runs.py lists them, hook/scripts.py reads them).

The registry is data (shell/runner_registry.py reads it); this module only knows the kinds
of extraction (`how`), shell/runner_tools.py those of git, containers, make and just.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

from wukong_lint.shell import runner_tools
from wukong_lint.shell.runner_registry import (
    _NOT_COMMANDS,
    CODE,
    DATA,
    ENVIRONMENT,
    FETCHERS,
    NAMES,
    PROGRAMS,
    SCRIPT,
    STDIN_WORDS,
    UNSEEN,
    Item,
    Resolve,
    _table,
    _utf16_base64,
    content,
    language_of,
    main,
    scan,
    spec_of,
    split_words,
)

__all__ = ["CODE", "DATA", "NAMES", "PROGRAMS", "SCRIPT", "UNSEEN", "assignment_runs",
           "extract", "language_of", "spec_of", "split_words"]  # fmt: skip

_PIPE_PROGRAM = {"python": "python3", "node": "node", "perl": "perl", "ruby": "ruby",
                 "php": "php"}  # fmt: skip
# tmux key names dropped from `send-keys` words (the rest is typed into the pane's shell)
_KEYS = re.compile(r"(?i)(enter|kpenter|c-m|c-j|escape|tab|space|bspace|c-[a-z]|m-[a-z]|"
                   r"up|down|left|right|home|end|npage|ppage|f\d+)")  # fmt: skip


# -- what a command runs --------------------------------------------------------------------


def extract(
    argv: tuple[str, ...], stdin: str | None = None, resolve: Resolve | None = None
) -> list[Item]:
    """What `argv` runs besides itself (see the module docstring); [] for most programs."""
    if not argv:
        return []
    name = os.path.basename(argv[0].rstrip("/")) or argv[0]
    spec = spec_of(name)
    if spec is None:
        return []
    return run(spec, name, argv[1:], stdin, resolve)


def run(
    spec: dict[str, Any],
    name: str,
    args: tuple[str, ...],
    stdin: str | None,
    resolve: Resolve | None,
) -> list[Item]:
    """What a program of registry entry `spec` runs with the words `args`."""
    subcommands = spec.get("subcommands")
    if subcommands:
        head = scan(spec, args)
        if head.index < len(args):
            sub = subcommands.get(args[head.index])
            if sub is not None:
                rest = args[head.index + 1 :]
                return head.items + run(sub, name, rest, stdin, resolve)
    how = spec["how"]
    reader = _HOWS.get(how)
    if reader is not None:
        return reader(spec, name, args, stdin, resolve)
    return runner_tools.run(spec, name, args, stdin, resolve)


def _wrapper(
    spec: dict[str, Any], name: str, args: tuple[str, ...], stdin: str | None, resolve: Any
) -> list[Item]:
    found = scan(spec, args)
    if found.lookup:
        return []
    items = list(found.items)
    rest = args[found.index :]
    if spec.get("script_anywhere"):  # runuser -l USER -c SCRIPT
        more = scan(spec, rest, anywhere=True).items
        if more:
            return items + more
    if spec.get("assignments"):
        while rest and "=" in rest[0] and not rest[0].startswith("="):
            variable, _, value = rest[0].partition("=")
            items += assignment_runs(variable, value)
            rest = rest[1:]
    skip = spec.get("skip", 0)
    if skip:
        rest = rest[skip:]
        if rest and rest[0].startswith("-"):  # flock LOCK -c CMD: options after the lock
            more = scan(spec, rest)
            items += more.items
            rest = rest[more.index :]
    groups = spec.get("groups")
    if groups and rest:  # coproc [NAME] { CMD; }: the parser reads the group's words as ours
        at = 1 if len(rest) > 1 and rest[1] in groups and rest[0] not in groups else 0
        if rest[at] in groups:
            rest = rest[at + 1 :]
    if rest and rest[-1] == ";":  # sem ... ";"
        rest = rest[:-1]
    if rest:
        items.append(tuple(rest))
    return items


def _options(
    spec: dict[str, Any], name: str, args: tuple[str, ...], stdin: str | None, resolve: Any
) -> list[Item]:
    found = scan(spec, args, anywhere=True)
    return [] if found.lookup else found.items


def _script(
    spec: dict[str, Any], name: str, args: tuple[str, ...], stdin: str | None, resolve: Any
) -> list[Item]:
    found = scan(spec, args)
    if found.lookup:
        return []
    items = list(found.items)
    rest = args[found.index :]
    skip = spec.get("skip", 0)
    if skip:
        rest = rest[skip:]
        if rest[:1] == ("--",):
            rest = rest[1:]
    if not rest:
        return items
    if found.run_argv:
        return [*items, tuple(rest)]
    if spec.get("first"):
        return [*items, (SCRIPT, rest[0])] if not rest[0].startswith("-") else items
    if spec.get("keys"):
        rest = tuple(w for w in rest if not _KEYS.fullmatch(w))
    return [*items, (SCRIPT, " ".join(rest))] if rest else items


def _shell(
    spec: dict[str, Any], name: str, args: tuple[str, ...], stdin: str | None, resolve: Any
) -> list[Item]:
    """`sh -c SCRIPT`, `bash <(...)`, `bash -s <<< ...`, `source /dev/stdin`."""
    if spec.get("source"):
        target = args[0] if args else None
        return _script_of(target, name, stdin, resolve) if target else []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            i += 2
            continue
        if arg.startswith("-") and not arg.startswith("--") and "c" in arg[1:]:
            rest = _after(args[i + 1 :], frozenset({"-o", "-O", "+o", "+O"}))
            # the words after the script are its $0, $1... (`sh -c 'rm -rf "$1"' _ ~`)
            return [(SCRIPT, rest[0], *rest[1:])] if rest else []
        if arg in ("-s", "--", "-"):
            return _script_of("-", name, stdin, resolve)
        if not arg.startswith(("-", "+")):
            return _script_of(arg, name, stdin, resolve)
        i += 1
    return _script_of("-", name, stdin, resolve)


def _script_of(target: str, name: str, stdin: str | None, resolve: Resolve | None) -> list[Item]:
    """A shell script read from `target` (a file word, `-`, `<(...)`): its text when the
    line shows it. A file on disk is the hook's (shell/script_runs.py)."""
    text = content(target, stdin, resolve)
    if text is None:
        return []
    piped = _substitution(text)
    if piped is not None:  # `bash <<< "$(curl URL)"`: the download, piped into the shell
        return [(SCRIPT, f"{piped} | {name if name not in ('source', '.') else 'sh'}")]
    return [(SCRIPT, text)]


def _substitution(text: str) -> str | None:
    """The command of a text that is one command substitution (`$(curl -s URL)`)."""
    text = text.strip()
    if text.startswith("$(") and text.endswith(")") and text.count("$(") == 1:
        return text[2:-1].strip()
    if text.startswith("`") and text.endswith("`") and text.count("`") == 2:
        return text[1:-1].strip()
    return None


def _after(args: tuple[str, ...], takes_value: frozenset[str]) -> tuple[str, ...]:
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            return args[i + 1 :]
        if not arg.startswith("-") or arg == "-":
            return args[i:]
        i += 2 if arg in takes_value else 1
    return ()


def _interpreter(
    spec: dict[str, Any], name: str, args: tuple[str, ...], stdin: str | None, resolve: Any
) -> list[Item]:
    """Code from code options, the first word (awk, sed), `+cmd` (vim), a process
    substitution, or stdin."""
    language = spec.get("language") or "python"
    plus = spec.get("plus_code", False)
    found = scan(spec, args, anywhere=plus)
    if found.lookup:
        return []
    items = list(found.items)
    if found.module:  # python -m MODULE: a module's code, not the line's
        return items
    codes = list(found.codes)
    positional = [a for a in args[found.index :]] if not plus else []
    if plus:
        codes += [a[1:] for a in args if _plus_command(a)]
    if spec.get("code_arg") and not codes and not found.files and positional:
        codes.append(positional.pop(0))
    for code in codes:
        items += _code(language, name, code, resolve)
    for file in found.files:
        text = content(file, stdin, resolve)
        items += _code(language, name, text, resolve) if text is not None else []
    if codes or found.files:
        return items
    reads_stdin = spec.get("stdin_code", False) or name in spec.get("stdin_code_names", ())
    if any(a in spec.get("stdin_code_when", ()) for a in args):
        reads_stdin = True
    if positional:
        first = positional[0]
        if first in STDIN_WORDS or first.startswith("<("):
            text = content(first, stdin, resolve)
            if text is not None:
                return items + _code(language, name, text, resolve)
            if first.startswith("<("):
                return items + _unknown_code(language, first[2:-1], name)
        if not plus and not spec.get("data_args"):
            return items  # a script file: the hook reads it
    if reads_stdin and stdin is not None:
        items += _code(language, name, stdin, resolve)
    return items


def _plus_command(word: str) -> bool:
    """vim's `+cmd` (not `+42`, a line number, nor `+/pattern`, a search)."""
    return len(word) > 1 and word[0] == "+" and not word[1].isdigit() and word[1] != "/"


def _code(language: str, name: str, code: str | None, resolve: Any) -> list[Item]:
    if not code:
        return []
    piped = _substitution(code)
    if piped is not None:  # `python3 -c "$(curl -s URL)"`: downloaded code
        return [(SCRIPT, f"{piped} | {_PIPE_PROGRAM.get(language, 'sh')}")]
    if code.startswith("<(") and code.endswith(")"):
        return _unknown_code(language, code[2:-1], name)
    return [(CODE, language, code)]


def _unknown_code(language: str, producer: str, name: str) -> list[Item]:
    """Code read from a command's output the line does not show: downloaded code when the
    command is a network fetch, else code the hook cannot judge."""
    words = producer.split()
    if words and os.path.basename(words[0]) in FETCHERS:
        return [(SCRIPT, f"{producer} | {_PIPE_PROGRAM.get(language, 'sh')}")]
    return [(UNSEEN, "command-output", name)]


def _windows(
    spec: dict[str, Any], name: str, args: tuple[str, ...], stdin: str | None, resolve: Any
) -> list[Item]:
    """`powershell -Command ...` / `cmd /c ...`: the rest of the words are a script."""
    scripts = _table(spec, "script_options")
    encoded = _table(spec, "encoded_options")
    for i, arg in enumerate(args):
        lower = arg.lower()
        if lower in scripts and i + 1 < len(args):
            return [(SCRIPT, " ".join(args[i + 1 :]))]
        if lower in encoded and i + 1 < len(args):
            decoded = _utf16_base64(args[i + 1])
            return [(SCRIPT, decoded)] if decoded else []
    return []


def _applet(
    spec: dict[str, Any], name: str, args: tuple[str, ...], stdin: str | None, resolve: Any
) -> list[Item]:
    return [args] if args and not args[0].startswith("-") else []


def _rm_like(
    spec: dict[str, Any], name: str, args: tuple[str, ...], stdin: str | None, resolve: Any
) -> list[Item]:
    paths = tuple(a for a in args if not a.startswith("-"))
    return [("rm", "-rf", *paths)] if paths else []


def _nothing(
    spec: dict[str, Any], name: str, args: tuple[str, ...], stdin: str | None, resolve: Any
) -> list[Item]:
    return []


_HOWS: dict[str, Callable[..., list[Item]]] = {
    "wrapper": _wrapper,
    "options": _options,
    "script": _script,
    "shell": _shell,
    "interpreter": _interpreter,
    "windows": _windows,
    "applet": _applet,
    "rm-like": _rm_like,
    "none": _nothing,
    # find, xargs and parallel take their targets from elsewhere: shell/walker.py
    "find": _nothing,
    "xargs": _nothing,
    "parallel": _nothing,
    # packages: the hook reads package.json (shell/script_runs.py)
    "packages": _nothing,
}


def assignment_runs(name: str, value: str) -> list[Item]:
    """What a variable assignment runs later (`GIT_SSH_COMMAND='cmd'`, `PAGER=...`): the
    value as a script, judged where it is set."""
    variable = ENVIRONMENT.get(name)
    if variable is None or variable["how"] != "script":
        return []
    for prefix in variable.get("strip", ()):
        if value.startswith(prefix):
            value = value[len(prefix) :]
            break
    if value.strip().lower() in _NOT_COMMANDS:
        return []
    return [(SCRIPT, value)]


if __name__ == "__main__":  # (python -m wukong_lint.shell.runners --write)
    raise SystemExit(main())


def lines_run(
    command: tuple[str, ...], token: str | None, producer: tuple[str, ...] | None
) -> list[Item]:
    """`... | xargs -I{} sh -c '{}'`: each input line is a script, so the producer is piped
    into a shell (`curl URL | xargs -I{} sh -c '{}'` is `curl URL | sh`)."""
    if not producer or not command or os.path.basename(command[0]) not in _SHELL_NAMES:
        return []
    script = next((w for i, w in enumerate(command[1:-1], 1) if w.startswith("-")
                   and "c" in w[1:] and not w.startswith("--")), None)  # fmt: skip
    if script is None:
        return []
    body = command[command.index(script) + 1] if command.index(script) + 1 < len(command) else ""
    if not (
        (token and body.strip() in (token, f'"{token}"', f"'{token}'")) or body.strip() == '"$@"'
    ):
        return []
    from wukong_lint.shell.runner_tools import shell_join

    return [(SCRIPT, shell_join(list(producer)) + " | " + os.path.basename(command[0]))]


_SHELL_NAMES = frozenset(["sh", "bash", "zsh", "dash", "ksh", "ash"])
