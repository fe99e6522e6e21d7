"""What a command runs besides itself, for the walker (shell/walker.py): the commands of
`find -exec`, `xargs`, `parallel`, wrappers (shell/unwrap.py), a heredoc or a pipe fed to a
shell or an interpreter, a process substitution given to one as its script
(`sh <(echo ...)`, `source <(...)`, `python3 <(...)`), and what a command substitution
prints when that can be told (`$(echo ~)`, `$(printf '\\x72\\x6d')`, `$(which rm)`,
`$(cd ~ && pwd)`). Also what the line does not show of it (shell/unknown.py): code read from
a pipe of unknown content.

`Runs` is a base class of `_Walker`: its methods read the walker's state (`env`, `cwd`,
`depth`, the budgets).
"""

from __future__ import annotations

import re

from wukong_lint.shell import unknown as shell_unknown
from wukong_lint.shell import unwrap as shell_unwrap
from wukong_lint.shell.expand import set_array
from wukong_lint.shell.model import (
    _DELETERS,
    MAX_PRODUCER_WORDS,
    Command,
    _has_glob,
    _printed,
    _Producer,
    _replace,
    _tree,
    program_name,
)
from wukong_lint.shell.path_reasoning import STDIN, UNDER
from wukong_lint.shell.runners import lines_run
from wukong_lint.shell.unwrap import (
    CODE,
    SCRIPT,
    SHELLS,
    UNSEEN,
    find_parts,
    interpreter,
    parallel_parts,
    runs_stdin,
    unwrap,
    xargs_parts,
)
from wukong_lint.shell.words import backquoted, literal

MAX_DEPTH = 6  # nested `bash -c` / heredoc-to-shell / interpreter levels followed
MAX_PRINTED = 256  # command substitutions whose output is worked out, per parse
_RUNS_MORE = shell_unwrap._UNWRAPPED | {"find", "xargs", "parallel", "source", "."}
_SCHEDULERS = frozenset(["at", "batch"])  # they run the script on their stdin later
_SOURCES = frozenset(["source", "."])
# the first word of a command substitution whose output may be told (else: not walked)
_PRINTING = re.compile(
    r"(?:\$\(|`)\s*(?:[A-Za-z_]\w*=\S*\s+)*(?:builtin\s+|command\s+(?!-))?"
    r"(?:echo|printf|which|command|type|cat|cd|pushd|pwd|realpath|readlink|dirname|basename"
    r"|whereis|ls|find|true\b|:|\$|'|\")"
)
# stages after a listing that print some of its lines (`ls ~/.ssh/id_* | head -1`)
_SUBSET_FILTERS = frozenset(["head", "tail", "sort", "uniq", "shuf", "grep", "egrep", "fgrep"])
_FINDS = frozenset(["find", "gfind", "bfs"])
_QUIET = frozenset(["cd", "pushd", "popd", "true", ":"])  # (cd prints nothing: no CDPATH)
_LOOKUPS = frozenset(["which", "whereis"])
_PATH_OF = frozenset(["realpath", "readlink", "dirname", "basename"])


class Runs:
    """The part of the walker that tells what a command runs besides itself."""

    # (the walker's state, set by _Walker.__init__)
    env: dict[str, str]
    cwd: str
    depth: int
    printing: list[int]

    def inner(
        self, name: str, argv: tuple[str, ...], producer: _Producer | None, heredoc: str | None
    ) -> list[tuple[str, ...]]:
        """What a command runs besides itself (see shell_unwrap.py)."""
        if heredoc is None and name not in _RUNS_MORE and interpreter(name) is None:
            return []  # (most commands run nothing else)
        args = argv[1:]
        if name == "find":
            parts = find_parts(args)
            targets = parts.targets(UNDER)
            items = [_replace(run, "{}", targets) for run in parts.runs]
            if not parts.filtered:  # every file below: `find . -exec rm {} \;` is rm -r
                items = [
                    (*run[:1], "-r", *run[1:]) if program_name(run[0]) in _DELETERS else run
                    for run in items
                ]
            if parts.deletes:
                items.append(("rm", "-f" if parts.filtered else "-r", *targets))
            return items
        if name == "xargs":
            command, replace, nul, arg_file = xargs_parts(args)
            targets = self.targets_from(producer)
            if producer is None and heredoc is not None:  # xargs rm -rf <<< '/ /home'
                targets = heredoc.split()[:MAX_PRODUCER_WORDS] or [STDIN]
            if arg_file is not None:  # xargs -a <(echo /): the file's words
                printed = self.printed_by("$" + arg_file[1:]) if arg_file[:2] == "<(" else None
                targets = printed.replace("\0", " ").split() if printed is not None else [STDIN]
            if _bare_shell(command):  # `echo 'rm -rf /x' | xargs -0 bash -c`: its input
                text = producer.text if producer is not None and nul else None
                scripts = [text.strip("\0\n")] if text else targets[:1]  # (-0: one item)
                return [(SCRIPT, t) for t in scripts if t != STDIN]
            if (
                producer is not None
                and producer.text is None
                and program_name(producer.argv[0]) in _FINDS
                and program_name(command[0]) in _DELETERS
                and not find_parts(producer.argv[1:]).filtered
            ):  # `find ~ -type f | xargs rm -f`: every file below, as `find -exec rm` is rm -r
                command = (command[0], "-r", *command[1:])
            fed = lines_run(command, replace, producer.argv if producer else None)
            if replace:
                return [_replace(command, replace, targets), *fed]
            return [command + tuple(targets), *fed]
        if name == "parallel":
            command, tail, dry = parallel_parts(args)
            if not command and tail and not dry:  # `parallel ::: CMD...`: each is a command
                return [
                    (SCRIPT, t) if literal(t) else (UNSEEN, "command-output", "parallel")
                    for t in tail[:MAX_PRODUCER_WORDS]
                ]
            if dry or not command:
                return []
            targets = tail if tail is not None else self.targets_from(producer)
            if len(command) == 1 and " " in command[0] and literal(command[0]):
                # `parallel 'rm -rf {}' ::: /usr`: one word, run by a shell
                return [(SCRIPT, _filled(command[0], t)) for t in targets[:MAX_PRODUCER_WORDS]]
            if any("{" in w for w in command):
                return [_replace(command, "{}", targets)]
            return [command + tuple(targets)]
        # (the registry reads stdin and `<(...)` for shells, interpreters, make, ed...)
        items = unwrap(argv, heredoc, self.resolve)
        if heredoc is not None and name in _SCHEDULERS:
            items.append((SCRIPT, heredoc))  # (`at now <<< 'cmd'`: run later, still run)
        return items

    def resolve(self, word: str) -> str | None:
        """What a process substitution `<(...)` prints, when the line tells it."""
        return self.printed_by("$" + word[1:]) if word.startswith("<(") else None

    def unknown_of(
        self,
        command: Command,
        fed: bool,
        items: list[tuple[str, ...]],
    ) -> tuple[str, ...]:
        """What the line does not show of a command that may run more (see shell/unknown.py):
        code a shell or an interpreter reads from a pipe of unknown content (`fed`) or a file
        the line does not name (`< "$f"`, `< <(cat x)`), code that is one expansion."""
        name = command.name
        lang = interpreter(name)
        runs_code = name in SHELLS or name in _SOURCES or lang is not None
        if not (runs_code or items):
            return ()  # (`sudo ls`, `docker ps`: nothing it runs is unseen)
        found: list[str] = []
        fed = fed or any(
            (op == "<" and (shell_unknown.unresolved(target) or not target))
            or (op == "<&" and target not in ("-", "0"))  # `bash <&3`: another descriptor
            for op, target in command.redirects
        )
        reads_stdin = (name in SHELLS and runs_stdin(command.argv)) or (
            lang is not None and shell_unknown.reads_code_from_stdin(name, command.argv[1:])
        )
        if command.heredoc is None and fed and reads_stdin:
            found.append(shell_unknown.marker(shell_unknown.CODE, "its stdin"))
        for item in items:
            code = item[2] if item[:1] == (CODE,) and len(item) > 2 else None
            if item[:1] == (SCRIPT,) and len(item) > 1:
                code = item[1]
            if code is None:
                continue
            if STDIN in code:  # `xargs -I{} sh -c '{}'`: the script is what the pipe sends
                found.append(shell_unknown.marker(shell_unknown.CODE, "its stdin"))
            elif item[0] == CODE and shell_unknown.whole_expansion(code):
                found.append(shell_unknown.marker(shell_unknown.CODE, code.strip()))
        return tuple(found)

    def printed_by(self, word: str) -> str | None:
        """What a command substitution prints, when its commands say: one echo/printf of
        known words, a lookup of a program (`which rm`, `command -v rm`: the program), the
        path of a known path (`realpath ../..`, `dirname ~/x`), `pwd` after `cd` (`cd ~ &&
        pwd`), `cat` of a here-string or heredoc; for a listing of one place (`ls ~/.ssh/id_*
        | head -1`, `find ~/.aws -type f`), the files it may list (a glob, or the place with
        path_reasoning.UNDER)."""
        if not _PRINTING.match(word) or self.depth >= MAX_DEPTH or self.printing[0] <= 0:
            return None
        self.printing[0] -= 1
        if word.startswith("$(") and word.endswith(")"):
            inner = word[2:-1]
        elif word.startswith("`") and word.endswith("`") and len(word) > 1:
            inner = backquoted(word)
        else:
            return None
        source = inner.encode("utf-8", "surrogatepass")
        walker = type(self)(source, inner, self.depth + 1, (0, 0), self)  # type: ignore[call-arg]
        walker.printing = self.printing
        try:
            walker.visit(_tree(source).root_node)
        except RecursionError:
            return None
        commands = [c for c in walker.commands if not c.via]
        if not commands:
            return None
        while commands[0].name in _QUIET and len(commands) > 1:
            commands = commands[1:]
        if commands[0].name in _QUIET and commands[0].name not in ("pushd", "popd"):
            return ""  # `$(cd build)`: nothing (pushd and popd print the stack)
        first, *after = commands
        if all(c.name in _SUBSET_FILTERS for c in after) and first.name in ("ls", "find"):
            paths = listed(first.argv)  # some of the paths it lists: one place, or unknown
            return paths[0] if len(paths) == 1 else None
        if after:
            return None
        return _prints(first)

    def targets_from(self, producer: _Producer | None) -> list[str]:
        """The arguments xargs or parallel reads from its producer: literal words, the start
        paths of a find, what an ls lists; else a stand-in for unknown input."""
        if producer is None:
            return [STDIN]
        if producer.text is not None:
            return producer.text.replace("\0", " ").split()[:MAX_PRODUCER_WORDS]
        return listed(producer.argv) or [STDIN]

    def expand_alias(
        self, name: str, argv: tuple[str, ...], start: int, end: int, via: tuple[str, ...],
        stdin_from: tuple[str, ...],
    ) -> list[str]:  # fmt: skip
        if self.budget[0] <= 0:
            return []
        self.budget[0] -= 1
        self.expanding.add(name)
        try:
            text = self.aliases[name] + " " + " ".join(_quoted(a) for a in argv[1:])
            return self.nested(text, start, end, via, stdin_from)
        finally:
            self.expanding.discard(name)

    def expand_function(
        self, name: str, argv: tuple[str, ...], start: int, end: int, via: tuple[str, ...]
    ) -> list[str]:
        """A call of a function defined earlier: its body again, with `$1`... bound."""
        if self.budget[0] <= 0:
            return []
        self.budget[0] -= 1
        saved = self.env, self.span, self.cwd
        env = dict(self.env)
        set_array(env, "@", list(argv[1:]))
        self.env, self.span = env, (start, end)
        self.expanding.add(name)
        before = len(self.commands)
        try:
            names = self.visit(self.bodies[name])
        finally:
            self.expanding.discard(name)
            self.env, self.span, self.cwd = saved
        for index in range(before, len(self.commands)):
            cmd = self.commands[index]
            self.commands[index] = cmd._replace(via=via + cmd.via)
        return names


def _filled(script: str, target: str) -> str:
    """parallel's one-word command with its argument: in place of `{}`, else after it."""
    quoted = _quoted(target) if target != STDIN else target
    return script.replace("{}", quoted) if "{}" in script else script + " " + quoted


def _bare_shell(command: tuple[str, ...]) -> bool:
    """`bash -c` with no script: xargs's first input word is the script."""
    return len(command) == 2 and program_name(command[0]) in SHELLS and command[1] == "-c"


def _quoted(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


def listed(argv: tuple[str, ...]) -> list[str]:
    """The paths a listing command prints: the start paths of a find, what an ls lists, some
    files of the project for git, grep, fd... (empty: not a listing)."""
    if not argv:
        return []
    pname = program_name(argv[0])
    if pname == "find":
        parts = find_parts(argv[1:])
        return parts.targets(UNDER)
    if pname == "git" and "ls-files" in argv:
        # `git ls-files -z '*.orig' | xargs rm`: the project's files of that name
        names = [a for a in argv[argv.index("ls-files") + 1 :] if not a.startswith("-")]
        name = names[0].rsplit("/", 1)[-1] if len(names) == 1 else ""
        if name not in ("", "*", ".") and names[0][: -len(name)].strip("*/") == "":
            return ["." + UNDER + name]
    if pname in ("git", "grep", "rg", "ag", "fd", "fdfind", "locate"):
        # `git ls-files | xargs rm`, `grep -l x | xargs rm`: some files of the project
        return ["." + UNDER]
    if pname == "ls":
        folders = [a for a in argv[1:] if not a.startswith("-")] or ["."]
        return [a if _has_glob(a) else a.rstrip("/") + "/*" for a in folders]
    return []


def _looked_up(args: list[str]) -> str | None:
    """The path a lookup (`which rm`, `command -v wukong-lint`) prints: the program in a
    folder of PATH. Run, it is that program (its name decides); written or deleted, it is an
    installed program (`chmod -x "$(command -v wukong-lint)"` writes the guard's own
    executable)."""
    if not args:
        return None
    return args[0] if "/" in args[0] else "/usr/local/bin/" + args[0]


def _prints(command: Command) -> str | None:
    """What one command of a substitution prints, when its words say."""
    name = command.name
    args = [a for a in command.argv[1:] if not a.startswith("-")]
    if name in _LOOKUPS or (name == "command" and command.argv[1:2] in (("-v",), ("-V",))):
        return _looked_up(args)
    if name == "type" and any(o in command.argv[1:] for o in ("-P", "-p", "-t", "-a")):
        return _looked_up(args)
    if name in _PATH_OF:
        if not args:
            return None
        if name == "dirname":
            head = args[0].rstrip("/").rsplit("/", 1)
            return head[0] or "/" if len(head) > 1 else "."
        if name == "basename":
            return args[0].rstrip("/").rsplit("/", 1)[-1]
        return args[0]  # realpath, readlink -f: the same place
    if name == "pwd":
        return command.cwd if command.cwd not in (".", "?") else "$PWD"
    return _printed(command)
