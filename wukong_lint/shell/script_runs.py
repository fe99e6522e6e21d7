"""The files a command line runs, and the text to judge for each: a script is judged when
it runs (issue 26).

`runs(script)` lists, from the parsed line alone (no file is read here: the shell model
stays pure), every file a command would run: `bash x.sh`, `sh ./x.sh`, `./x.sh`, `source
x.sh`, `python x.py`, `node x.js`, `awk -f`, `sed -f`, `make [TARGET]` (the makefile),
`just RECIPE`, `npm test` / `npm run X` / `yarn X` (package.json's scripts, with their
pre/post scripts), `git commit` (the hooks git runs, in `core.hooksPath` when the line sets
it), a git alias, `xargs -a FILE`, `ssh host bash -s < FILE`. A file the same line writes
first is known from the line: its text when the line shows it (`cat > x.py <<EOF`), else
`unseen` with why (`curl -o x.sh URL && sh x.sh`: downloaded).

`judged_text(run, text)` turns a file's text into the shell text judged as if typed: a
shell script is itself; a makefile, the recipes of the targets made; a justfile, the
recipes; package.json, the scripts run; interpreter code, what the interpreter model finds
it runs (shell/interpreters.py, as a program: its computed calls are not asked about). The
hook (hook/scripts.py) reads the files and judges the texts; a file it cannot read is asked
about.
"""

from __future__ import annotations

import posixpath
from typing import Any, NamedTuple

from wukong_lint.shell.model import _printed, program_name
from wukong_lint.shell.runner_registry import (
    CODE,
    FETCHERS,
    SCRIPT,
    STDIN_WORDS,
    language_of,
    scan,
    spec_of,
    split_words,
)

_CONTAINERS = frozenset(["docker", "podman", "nerdctl", "kubectl", "oc", "docker-compose",
                         "podman-compose", "finch", "ssh", "autossh", "mosh"])  # fmt: skip
# where system programs live: running one is not running a script of the project
_SYSTEM_DIRS = ("/usr/", "/bin/", "/sbin/", "/lib/", "/opt/homebrew/", "/nix/store/",
                "/System/", "/Library/", "/snap/")  # fmt: skip
MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
JUSTFILES = ("justfile", "Justfile", ".justfile", "JUSTFILE")
_VENV_MAKERS = frozenset(["virtualenv", "pyvenv"])
_ARCHIVERS = frozenset(["tar", "gtar", "bsdtar", "unzip", "7z", "git", "cp", "rsync", "mv"])


class Run(NamedTuple):
    kind: str  # sh, exec (by its #! line), a language, make, just, npm, git, git-alias, args
    path: str  # the file word as written ('' when found by name: make, just, npm, git)
    cwd: str  # the command's folder: "." the project root, "?" unknown, or a path word
    names: tuple[str, ...]  # make targets, just recipes, package scripts, git hooks
    start: int  # the span of the command in the parsed text
    end: int
    program: str  # what runs it, for messages
    content: str | None = None  # the text the same line wrote into the file
    unseen: str | None = None  # why its text cannot be seen (the same line downloaded it)
    extra: tuple[str, ...] = ()  # xargs -a: the command; git: the hooks folder; alias args
    args: tuple[str, ...] | None = None  # a script's `$1`...: the words the line passes it


def runs(script: Any) -> list[Run]:
    """The files the commands of `script` (a shell.parse.Script) would run, in order."""
    found: list[Run] = []
    written: dict[str, tuple[str | None, str | None]] = {}  # path -> (text, unseen reason)
    folders: dict[str, str | None] = {}  # a folder the line fills -> unseen reason (None: trusted)
    for command in script.commands:
        if any(w in _CONTAINERS for w in command.via):
            continue  # (a container's or another host's files are not here to read)
        for run in _runs_of(command):
            found.append(_known(run, written, folders))
        _track_writes(command, written, folders)
    return found


def writes(script: Any) -> list[tuple[str, str]]:
    """(path word, text) of each file the line writes with text it shows (`cat > x.sh
    <<EOF`, `printf '...' > .git/hooks/pre-commit`, `echo ... >> Makefile`): judged as
    written by the hook, as a Write of that text would be."""
    written: dict[str, tuple[str | None, str | None]] = {}
    folders: dict[str, str | None] = {}
    for command in script.commands:
        if not any(w in _CONTAINERS for w in command.via):
            _track_writes(command, written, folders)
    return [(path, text) for path, (text, _) in written.items() if text]


def _runs_of(command: Any) -> list[Run]:
    argv = command.argv
    name = command.name
    cwd = command.cwd
    span = (command.start, command.end)
    if not argv or (name in _CONTAINERS and name not in ("ssh", "autossh", "mosh")):
        return []
    spec = spec_of(name)
    how = spec["how"] if spec is not None else None
    if name in ("ssh", "autossh", "mosh"):  # ssh host bash -s < FILE: FILE runs there
        return [Run("sh", t, cwd, (), *span, name) for op, t in command.redirects if op == "<"]
    if how == "shell":
        return _shell_runs(command, spec, cwd, span)
    if how == "packages" or name == "bun":
        return _package_runs(command, cwd, span)
    if "/" in argv[0] and not argv[0].startswith(_SYSTEM_DIRS) and spec is None:
        if argv[0].startswith(("$", "`")):
            return []  # (a program read from a value: the shell model's)
        return [Run("exec", argv[0], cwd, (), *span, name, args=argv[1:])]
    if how == "interpreter":
        return _interpreter_runs(command, spec, cwd, span)
    if how == "make":
        return _make_runs(command, spec, cwd, span)
    if how == "just":
        return _just_runs(command, spec, cwd, span)
    if how == "git":
        return _git_runs(command, spec, cwd, span)
    if how == "xargs":
        return _xargs_runs(command, spec, cwd, span)
    if name in ("at", "batch"):
        found = scan(spec, argv[1:], anywhere=True) if spec else None
        return [Run("sh", f, cwd, (), *span, name) for f in (found.files if found else [])]
    return []


def _shell_runs(command: Any, spec: Any, cwd: str, span: tuple[int, int]) -> list[Run]:
    argv, name = command.argv, command.name
    if spec.get("source"):
        target = argv[1] if len(argv) > 1 else ""
        if target and target not in STDIN_WORDS and not target.startswith("<("):
            return [Run("sh", target, cwd, (), *span, name, args=argv[2:])]
        return []
    args = argv[1:]
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            i += 2
            continue
        if arg.startswith("-") and not arg.startswith("--") and "c" in arg[1:]:
            return []
        if arg in ("-s", "--", "-"):
            break
        if not arg.startswith(("-", "+")):
            if arg in STDIN_WORDS or arg.startswith("<("):
                break
            return [Run("sh", arg, cwd, (), *span, name, args=args[i + 1 :])]
        i += 1
    # reading its script from stdin: a file redirected into it (`bash < x.sh`)
    return [Run("sh", t, cwd, (), *span, name) for op, t in command.redirects if op == "<"]


def _interpreter_runs(command: Any, spec: Any, cwd: str, span: tuple[int, int]) -> list[Run]:
    argv, name = command.argv, command.name
    language = spec.get("language") or "python"
    subcommands = spec.get("subcommands") or {}
    args = argv[1:]
    if name == "deno":
        if args[:1] != ("run",):
            return []
        args = args[1:]
    found = scan(spec, args, anywhere=bool(spec.get("plus_code")))
    if found.lookup or found.module:
        return []
    runs = [
        Run(language, f, cwd, (), *span, name)
        for f in found.files
        if f not in STDIN_WORDS and not f.startswith("<(")
    ]
    if found.codes or found.files or spec.get("code_arg") or spec.get("data_args"):
        return runs
    positional = args[found.index :]
    if positional and positional[0] in subcommands:
        return runs
    first = positional[0] if positional else None
    if (
        first
        and first not in STDIN_WORDS
        and not first.startswith("<(")
        and not spec.get("plus_code")
    ):
        runs.append(Run(language, first, cwd, (), *span, name))
    return runs


def _folder(spec: Any, args: tuple[str, ...], options: tuple[str, ...], cwd: str) -> str:
    """The folder a `-C DIR` / `--directory=DIR` option moves a build tool to."""
    for i, word in enumerate(args):
        option, equals, value = word.partition("=")
        if option in options and (equals or i + 1 < len(args)):
            target = value if equals else args[i + 1]
            return target if cwd in (".", "") or target.startswith(("/", "~")) else (
                posixpath.join(cwd, target) if cwd != "?" else "?"
            )  # fmt: skip
    return cwd


def _make_runs(command: Any, spec: Any, cwd: str, span: tuple[int, int]) -> list[Run]:
    from wukong_lint.shell.runner_tools import make_targets

    args = command.argv[1:]
    found = scan(spec, args, anywhere=True)
    if found.lookup or found.codes:
        return []  # (--eval: the line's own makefile, judged by the walker)
    targets = tuple(make_targets(spec, args))
    cwd = _folder(spec, args, ("-C", "--directory"), cwd)
    files = [f for f in found.files if f not in STDIN_WORDS and not f.startswith("<(")]
    if found.files and not files:
        return []  # -f <(...) / -f -: judged on the line
    if files:
        return [Run("make", f, cwd, targets, *span, command.name) for f in files]
    return [Run("make", "", cwd, targets, *span, command.name)]


def _just_runs(command: Any, spec: Any, cwd: str, span: tuple[int, int]) -> list[Run]:
    from wukong_lint.shell.runner_tools import just_names

    args = command.argv[1:]
    found = scan(spec, args, anywhere=True)
    if found.lookup or found.items:
        return []  # (--command CMD: judged by the walker)
    names = tuple(just_names(spec, args))
    cwd = _folder(spec, args, ("-d", "--working-directory"), cwd)
    files = [f for f in found.files if f not in STDIN_WORDS and not f.startswith("<(")]
    if found.files and not files:
        return []
    if files:
        return [Run("just", f, cwd, names, *span, "just") for f in files]
    return [Run("just", "", cwd, names, *span, "just")]


def _package_runs(command: Any, cwd: str, span: tuple[int, int]) -> list[Run]:
    from wukong_lint.shell.runner_tools import package_scripts

    args = command.argv[1:]
    names = package_scripts(command.name, args)
    if not names:
        if command.name != "bun":
            return []
        files = [a for a in args if not a.startswith("-")]
        if files[:1] == ["run"]:
            files = files[1:]
        if files and "." in files[0] and "://" not in files[0]:  # bun x.ts, bun run x.ts
            return [Run("node", files[0], cwd, (), *span, "bun")]
        return []
    cwd = _folder(None, args, ("--prefix", "-C", "--dir", "--cwd"), cwd)
    return [Run("npm", "package.json", cwd, tuple(names), *span, command.name)]


def _git_runs(command: Any, spec: Any, cwd: str, span: tuple[int, int]) -> list[Run]:
    argv = command.argv  # (normalised: git's global options dropped)
    if len(argv) < 2 or argv[1].startswith("-"):
        return []
    sub, rest = argv[1], argv[2:]
    builtins = frozenset(spec.get("builtins", ()))
    if sub not in builtins:
        return [Run("git-alias", "", cwd, (sub,), *span, "git", extra=tuple(rest))]
    hooks = list(spec.get("hooks", {}).get(sub, ()))
    if sub == "commit" and "--amend" not in rest:
        hooks = [h for h in hooks if h != "post-rewrite"]
    skips = "--no-verify" in rest or (
        sub != "push" and any(w in spec.get("no_verify", ()) for w in rest)
    )
    if skips:
        hooks = [h for h in hooks if h not in spec.get("verified_hooks", ())]
    if not hooks:
        return []
    return [Run("git", "", cwd, tuple(hooks), *span, "git")]


def _xargs_runs(command: Any, spec: Any, cwd: str, span: tuple[int, int]) -> list[Run]:
    from wukong_lint.shell.unwrap import xargs_parts

    runner, _, _, arg_file = xargs_parts(command.argv[1:])
    if arg_file is None or arg_file in STDIN_WORDS or arg_file.startswith("<("):
        return []
    return [Run("args", arg_file, cwd, (), *span, "xargs", extra=tuple(runner))]


# -- files the same line writes -------------------------------------------------------------


def _key(path: str, cwd: str) -> str:
    if cwd in (".", "") or path.startswith(("/", "~", "$")):
        return posixpath.normpath(path)
    return posixpath.normpath(posixpath.join(cwd, path))


def _known(run: Run, written: dict[str, Any], folders: dict[str, str | None]) -> Run:
    """A run of a file the line wrote before: with the text it wrote, or why it is unseen."""
    if not run.path:
        return run
    key = _key(run.path, run.cwd)
    if key in written:
        text, reason = written[key]
        return run._replace(content=text, unseen=reason if text is None else None)
    for folder, reason in folders.items():
        if key.startswith(folder.rstrip("/") + "/"):
            if reason is None:  # a virtual environment the line made: its own scripts
                return run._replace(kind="trusted")
            return run._replace(unseen=reason)
    return run


def _track_writes(command: Any, written: dict[str, Any], folders: dict[str, str | None]) -> None:
    """What a command writes, for the commands after it on the line."""
    name, argv, cwd = command.name, command.argv, command.cwd
    fetched = name in FETCHERS or any(p in FETCHERS for p in command.stdin_from)
    printed = _printed(command)
    for op, target in command.redirects:
        if op in (">", ">>", ">|", "&>", "&>>") and target:
            key = _key(target, cwd)
            if printed is not None and not fetched:
                before = written.get(key, ("", None))[0] if op.endswith(">>") else ""
                text = None if before is None else before + printed + "\n"
                written[key] = (text, None if text is not None else "written")
            else:
                written[key] = (None, "downloaded" if fetched else "written")
    if name == "tee":
        for word in argv[1:]:
            if not word.startswith("-"):
                written[_key(word, cwd)] = (None, "downloaded" if fetched else "written")
    if name in ("curl", "wget"):
        _track_download(argv, cwd, written, folders)
    elif name in _ARCHIVERS:
        _track_copy(name, argv, cwd, written, folders, fetched)
    elif (language_of(name) == "python" and "venv" in argv[1:3]) or name in _VENV_MAKERS:
        targets = [w for w in argv[1:] if not w.startswith("-") and w != "venv"]
        for target in targets[-1:]:
            folders[_key(target, cwd)] = None
    elif name == "uv" and argv[1:2] == ("venv",):
        targets = [w for w in argv[2:] if not w.startswith("-")] or [".venv"]
        folders[_key(targets[-1], cwd)] = None


def _track_download(
    argv: tuple[str, ...], cwd: str, written: dict[str, Any], folders: dict[str, str | None]
) -> None:
    args = list(argv[1:])
    urls = [a for a in args if "://" in a]
    for i, word in enumerate(args):
        option, equals, value = word.partition("=")
        if option in ("-o", "--output", "-O", "--output-document") and (
            equals or i + 1 < len(args)
        ):
            target = value if equals else args[i + 1]
            if word == "-O" and argv[0].endswith("curl"):  # curl -O: the URL's file name
                continue
            written[_key(target, cwd)] = (None, "downloaded")
        elif option in ("-P", "--directory-prefix", "--output-dir") and (
            equals or i + 1 < len(args)
        ):
            folders[_key(value if equals else args[i + 1], cwd)] = "downloaded"
        elif word.startswith("-o") and len(word) > 2 and not word.startswith("--"):
            written[_key(word[2:], cwd)] = (None, "downloaded")
    if any(w in ("-O", "--remote-name", "--remote-name-all") for w in args) or (
        argv[0].endswith("wget")
        and not any(w.startswith(("-O", "--output-document")) for w in args)
    ):
        for url in urls:
            base = posixpath.basename(url.split("?")[0].rstrip("/")) or "index.html"
            written[_key(base, cwd)] = (None, "downloaded")
    for i, word in enumerate(args):
        bundle = word.startswith("-") and not word.startswith("--") and len(word) > 2
        if bundle and word.endswith("o") and i + 1 < len(args):
            # a bundle ending in o takes the next word: curl -fsSLo install.sh URL
            written[_key(args[i + 1], cwd)] = (None, "downloaded")


def _track_copy(
    name: str,
    argv: tuple[str, ...],
    cwd: str,
    written: dict[str, Any],
    folders: dict[str, str | None],
    fetched: bool,
) -> None:
    """tar -x -C DIR, unzip -d DIR, git clone URL DIR, cp/mv/rsync SRC DST: files whose text
    the line does not show."""
    args = [a for a in argv[1:]]
    reason = (
        "downloaded"
        if fetched or any("://" in a or a.startswith("git@") for a in args)
        else "written"
    )
    if name in ("tar", "gtar", "bsdtar"):
        for i, word in enumerate(args):
            if word in ("-C", "--directory") and i + 1 < len(args):
                folders[_key(args[i + 1], cwd)] = reason
            elif word.startswith("--directory="):
                folders[_key(word.split("=", 1)[1], cwd)] = reason
        if not any(w in ("-C", "--directory") or w.startswith("--directory=") for w in args):
            folders[_key(".", cwd)] = reason
    elif name == "unzip":
        for i, word in enumerate(args):
            if word == "-d" and i + 1 < len(args):
                folders[_key(args[i + 1], cwd)] = reason
    elif name == "git" and args[:1] == ["clone"]:
        positional = [a for a in args[1:] if not a.startswith("-")]
        if len(positional) >= 2:
            folders[_key(positional[1], cwd)] = "downloaded"
        elif positional:
            base = posixpath.basename(positional[0].rstrip("/"))
            folders[_key(base.removesuffix(".git"), cwd)] = "downloaded"
    elif name in ("cp", "mv", "rsync", "7z"):
        positional = [a for a in args if not a.startswith("-")]
        if len(positional) >= 2:
            written[_key(positional[-1], cwd)] = (None, reason)
            folders[_key(positional[-1], cwd)] = reason


# -- the text judged ------------------------------------------------------------------------


def judged_text(run: Run, text: str) -> str:
    """The shell text that running `text` (the content of `run`'s file) amounts to, judged
    as if typed ('' when it runs nothing)."""
    from wukong_lint.shell import runner_tools

    kind = run.kind
    if kind == "exec":
        kind = shebang_kind(text)
    if kind == "sh":
        return prologue(run.path, run.args) + text
    if kind == "make":
        return runner_tools.make_recipes(text, list(run.names))
    if kind == "just":
        return items_text(runner_tools.just_recipes(text, list(run.names)))
    if kind == "npm":
        return runner_tools.package_text(text, list(run.names))[0]
    if kind == "args":
        return runner_tools.shell_join([*run.extra, *split_words(text)[:256]])
    if kind in ("binary", "trusted"):
        return ""
    return items_text([(CODE, kind, text)], program=True)


def prologue(path: str, args: tuple[str, ...] | None) -> str:
    """What a shell script's text is judged after: its `$0` is its path and its `$1`... the
    words the line passes it (`BASH_ARGV0=x.sh; set -- ARGS`), so that `rm -rf "$1"` in `bash
    clean.sh build` removes `build`, `cd "$(dirname "$0")"` is the script's folder, and `"$@"`
    without arguments is nothing (the command model's unknown-is-not-safe rules ask about
    what the line does not tell)."""
    if args is None:
        return ""
    from wukong_lint.shell.runner_tools import shell_join

    head = f"BASH_ARGV0={shell_join([path])}; " if path else ""
    return f"{head}set -- {shell_join(list(args[:64]))}\n" if args else f"{head}set --\n"


def shebang_kind(text: str) -> str:
    """How a file run directly is read: by its `#!` line (sh when it has none, as the shell
    runs a text file without one); `binary` for a program."""
    if "\0" in text[:8192]:
        return "binary"
    if not text.startswith("#!"):
        return "sh"
    words = text.split("\n", 1)[0][2:].split()
    if words and words[0].endswith("/env"):
        words = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
    program = program_name(words[0]) if words else "sh"
    # (a shell, or a program the model does not read as code: its text is read as shell)
    return language_of(program) or "sh"


def items_text(items: list[tuple[str, ...]], program: bool = False, depth: int = 0) -> str:
    """Shell model items (shell/runners.py) as shell text: scripts as they are, argv
    quoted, code through the interpreter model (as a program when `program`)."""
    from wukong_lint.shell.interpreters import commands
    from wukong_lint.shell.runner_tools import shell_join

    lines: list[str] = []
    for item in items[:2000]:
        if not item:
            continue
        if item[0] == SCRIPT:
            lines.append(item[1])
        elif item[0] == CODE:
            if depth < 4:
                found = commands(item[1], item[2], program=program)
                lines.append(items_text(found, program, depth + 1))
        else:
            lines.append(shell_join(list(item)))
    return "\n".join(line for line in lines if line)
