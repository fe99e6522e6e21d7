"""A shell command-line parser for checks: what programs run, with which words, fed by what.

Built on tree-sitter-bash (MIT), so quotes, `;`/`&&`/`||`, pipes, subshells, command and
process substitution, heredocs and function definitions are parsed as bash parses them. On
top of the syntax tree it unwraps the wrappers that run another command (`sudo`, `env`,
`xargs`, `find -exec`, `timeout`, `nohup`, `bash -c STRING`, a heredoc fed to a shell...), so
that `sudo env X=1 rm -rf /` yields `rm` with its arguments.

`parse(text)` returns a `Script`: every command that would run (including nested ones) with
its unquoted words, write redirections, the programs feeding its stdin through a pipeline,
the programs run inside substitutions in its arguments, the wrappers it ran under, and its
span in `text`. Words inside quotes stay one word and are never taken for commands, so
`echo "rm -rf /"` yields only `echo`. Reused for shell scripts, Dockerfiles and CI files.
"""

from __future__ import annotations

import contextlib
import functools
import os
from typing import Any, NamedTuple

_PARSER: Any = None
MAX_DEPTH = 6  # nested `bash -c` / heredoc-to-shell levels followed

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish", "busybox"})
WRITE_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>", ">&"})


class Command(NamedTuple):
    argv: tuple[str, ...]  # unquoted words, argv[0] as written
    start: int  # span in the text given to parse()
    end: int
    redirects: tuple[tuple[str, str], ...] = ()  # (operator, target)
    stdin_from: tuple[str, ...] = ()  # programs of earlier stages of its pipeline
    substitutions: tuple[str, ...] = ()  # programs run by $(...), `...`, <(...) in its words
    via: tuple[str, ...] = ()  # wrappers it runs under, outermost first
    heredoc: str | None = None

    @property
    def name(self) -> str:
        return program_name(self.argv[0]) if self.argv else ""


class Function(NamedTuple):
    name: str
    start: int
    end: int
    calls_itself: bool  # its body pipes into itself or runs itself in the background


class Script(NamedTuple):
    commands: tuple[Command, ...]
    functions: tuple[Function, ...]


@functools.lru_cache(maxsize=4096)
def program_name(word: str) -> str:
    return os.path.basename(word.rstrip("/")) or word


def _parser() -> Any:
    global _PARSER
    if _PARSER is None:
        import tree_sitter

        from wukong_lint.extensions import load_extension

        # the grammar's extension alone: the package's __init__ imports importlib.resources
        binding = load_extension("tree_sitter_bash", "_binding")
        if binding is None:
            import tree_sitter_bash as binding  # type: ignore[no-redef]
        _PARSER = tree_sitter.Parser(tree_sitter.Language(binding.language()))
    return _PARSER


def _unescape(text: str) -> str:
    if "\\" not in text:
        return text
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            if text[i + 1] != "\n":
                out.append(text[i + 1])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _word(node: Any) -> str:
    """The value of a shell word with quotes removed; expansions keep their source text."""
    kind = node.type
    text = node.text.decode("utf-8", "replace")
    if kind == "raw_string":
        return text[1:-1]
    if kind == "string":
        return _unescape(text[1:-1]) if text.endswith('"') and len(text) >= 2 else text
    if kind == "ansi_c_string":
        return text[2:-1]
    if kind == "concatenation":
        return "".join(_word(child) for child in node.children)
    if kind == "word":
        return _unescape(text)
    return text


class _Walker:
    def __init__(self, source: bytes, text: str, depth: int, span: tuple[int, int] | None) -> None:
        self.source = source
        self.ascii = len(source) == len(text)
        self.depth = depth
        self.span = span  # nested scripts report the span of the word they came from
        self.commands: list[Command] = []
        self.functions: list[Function] = []

    def pos(self, byte: int) -> int:
        if self.ascii:
            return byte
        return len(self.source[:byte].decode("utf-8", "replace"))

    def where(self, node: Any) -> tuple[int, int]:
        if self.span is not None:
            return self.span
        return self.pos(node.start_byte), self.pos(node.end_byte)

    # -- traversal -------------------------------------------------------------------------
    def visit(self, node: Any, stdin_from: tuple[str, ...] = ()) -> list[str]:
        """Record the commands under `node`; return the program names it runs."""
        kind = node.type
        if kind == "comment" or kind == "heredoc_body":
            return []
        if kind == "command":
            return self.command(node, (), stdin_from, None)
        if kind == "redirected_statement":
            return self.redirected(node, stdin_from)
        if kind == "pipeline":
            names: list[str] = []
            for child in node.children:
                if child.type in ("|", "|&"):
                    continue
                names += self.visit(child, stdin_from + tuple(names))
            return names
        if kind == "function_definition":
            return self.function(node)
        names = []
        for child in node.children:
            names += self.visit(child, stdin_from)
        return names

    def function(self, node: Any) -> list[str]:
        name_node = node.child_by_field_name("name") or node.children[0]
        name = name_node.text.decode("utf-8", "replace")
        body = node.child_by_field_name("body") or node.children[-1]
        calls_itself = _self_call(body, name)
        start, end = self.where(node)
        self.functions.append(Function(name, start, end, calls_itself))
        return self.visit(body)

    def redirected(self, node: Any, stdin_from: tuple[str, ...]) -> list[str]:
        body = node.children[0] if node.children else None
        redirects: list[tuple[str, str]] = []
        heredoc = None
        names: list[str] = []
        for child in node.children[1:]:
            if child.type == "file_redirect":
                op, target = "", ""
                for part in child.children:
                    if part.type in ("file_descriptor",):
                        continue
                    if not part.is_named:
                        op = part.type
                    else:
                        target = _word(part)
                        names += self.substitutions_in(part)
                redirects.append((op, target))
            elif child.type == "heredoc_redirect":
                for part in child.children:
                    if part.type == "heredoc_body":
                        heredoc = part.text.decode("utf-8", "replace")
                    elif part.is_named and part.type not in ("heredoc_start", "heredoc_end"):
                        names += self.visit(part, stdin_from)
            elif child.type == "herestring_redirect":
                for part in child.children:
                    if part.is_named:
                        heredoc = _word(part)
            else:
                names += self.visit(child, stdin_from)
        if body is None:
            return names
        if body.type == "command":
            return self.command(body, tuple(redirects), stdin_from, heredoc) + names
        before = len(self.commands)
        names = self.visit(body, stdin_from) + names
        if redirects:  # `a | b > out`: the redirection belongs to the last stage
            for index in range(len(self.commands) - 1, before - 1, -1):
                if not self.commands[index].via:
                    cmd = self.commands[index]
                    self.commands[index] = cmd._replace(redirects=cmd.redirects + tuple(redirects))
                    break
        return names

    def substitutions_in(self, node: Any) -> list[str]:
        """Visit command/process substitutions inside a word; return the programs they run."""
        names: list[str] = []
        stack = [node]
        while stack:
            current = stack.pop()
            if current.type in ("command_substitution", "process_substitution"):
                for child in current.children:
                    names += self.visit(child)
                continue
            stack.extend(reversed(current.children))
        return names

    def command(
        self,
        node: Any,
        redirects: tuple[tuple[str, str], ...],
        stdin_from: tuple[str, ...],
        heredoc: str | None,
    ) -> list[str]:
        words: list[str] = []
        subs: list[str] = []
        for child in node.children:
            kind = child.type
            if kind == "variable_assignment":
                subs += self.substitutions_in(child)
                continue
            if kind == "file_redirect":
                op, target = "", ""
                for part in child.children:
                    if not part.is_named:
                        op = part.type
                    elif part.type != "file_descriptor":
                        target = _word(part)
                redirects = (*redirects, (op, target))
                continue
            if kind in ("herestring_redirect", "comment"):
                continue
            if kind == "command_name":
                child = child.children[0] if child.children else child
            subs += self.substitutions_in(child)
            words.append(_word(child))
        start, end = self.where(node)
        return self.emit(tuple(words), start, end, redirects, stdin_from, tuple(subs), (), heredoc)

    def emit(
        self,
        argv: tuple[str, ...],
        start: int,
        end: int,
        redirects: tuple[tuple[str, str], ...],
        stdin_from: tuple[str, ...],
        subs: tuple[str, ...],
        via: tuple[str, ...],
        heredoc: str | None,
    ) -> list[str]:
        if not argv:
            return []
        self.commands.append(Command(argv, start, end, redirects, stdin_from, subs, via, heredoc))
        name = program_name(argv[0])
        names = [name]
        inner_via = (*via, name)
        for inner in unwrap(argv):
            if inner and inner[0] == "\0script":
                if self.depth < MAX_DEPTH:
                    nested = parse_script(inner[1], self.depth + 1, (start, end))
                    for cmd in nested.commands:
                        self.commands.append(
                            cmd._replace(
                                via=inner_via + cmd.via, stdin_from=stdin_from + cmd.stdin_from
                            )
                        )
                        names.append(cmd.name)
                    self.functions.extend(nested.functions)
                continue
            names += self.emit(inner, start, end, (), stdin_from, subs, inner_via, None)
        if heredoc is not None and name in SHELLS and _runs_stdin(argv) and self.depth < MAX_DEPTH:
            nested = parse_script(heredoc, self.depth + 1, (start, end))
            for cmd in nested.commands:
                self.commands.append(cmd._replace(via=inner_via + cmd.via))
                names.append(cmd.name)
        return names


def _self_call(body: Any, name: str) -> bool:
    """Does a function body pipe into its own name or start itself in the background?"""
    stack = [body]
    while stack:
        node = stack.pop()
        if node.type == "pipeline":
            calls = [c for c in node.children if c.type == "command"]
            if any(_command_name(c) == name for c in calls):
                return True
        if node.type == "&" and any(
            _command_name(sibling) == name
            for sibling in (node.parent.children if node.parent else [])
            if sibling.type == "command"
        ):
            return True
        stack.extend(node.children)
    return False


def _command_name(node: Any) -> str:
    for child in node.children:
        if child.type == "command_name":
            return child.text.decode("utf-8", "replace")
    return ""


def _runs_stdin(argv: tuple[str, ...]) -> bool:
    """A shell reading its script from stdin: no -c and no script file argument."""
    for arg in argv[1:]:
        if arg == "--":
            return True
        if arg.startswith("-"):
            if "c" in arg.lstrip("-") and not arg.startswith("--"):
                return False
            continue
        return False
    return True


# -- wrappers ----------------------------------------------------------------------------------

# wrapper -> options that take a value (the wrapped command starts after its options)
_VALUE_OPTIONS: dict[str, frozenset[str]] = {
    "sudo": frozenset(
        [
            "-u",
            "-g",
            "-h",
            "-p",
            "-C",
            "-D",
            "-r",
            "-t",
            "-U",
            "-T",
            "--user",
            "--group",
            "--host",
            "--prompt",
        ]
    ),
    "doas": frozenset(["-u", "-C"]),
    "env": frozenset(["-u", "-C", "--unset", "--chdir"]),
    "nice": frozenset(["-n", "--adjustment"]),
    "ionice": frozenset(["-c", "-n", "-p", "-t"]),
    "timeout": frozenset(["-s", "-k", "--signal", "--kill-after"]),
    "stdbuf": frozenset(["-i", "-o", "-e"]),
    "xargs": frozenset(
        [
            "-a",
            "-d",
            "-E",
            "-e",
            "-I",
            "-i",
            "-L",
            "-l",
            "-n",
            "-P",
            "-s",
            "--arg-file",
            "--delimiter",
        ]
    ),
    "nohup": frozenset(),
    "time": frozenset(["-f", "-o"]),
    "exec": frozenset(["-a"]),
    "command": frozenset(),
    "builtin": frozenset(),
    "setsid": frozenset(),
    "unbuffer": frozenset(),
    "chrt": frozenset(),
    "taskset": frozenset(),
    "flock": frozenset(["-w", "-E", "-c"]),
    "caffeinate": frozenset(["-t", "-w"]),
}


def unwrap(argv: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The commands a wrapper command runs (empty for a plain command).

    A script string (`bash -c STRING`, `su -c STRING`, `env -S STRING`) comes back as
    `("\\0script", STRING)` to be parsed in turn.
    """
    name = program_name(argv[0])
    args = argv[1:]
    if name in SHELLS:
        for i, arg in enumerate(args):
            if arg.startswith("-") and not arg.startswith("--") and "c" in arg[1:]:
                rest = [a for a in args[i + 1 :] if not a.startswith("-")]
                return [("\0script", rest[0])] if rest else []
            if not arg.startswith("-"):
                return []
        return []
    if name == "su":
        for i, arg in enumerate(args):
            if arg in ("-c", "--command") and i + 1 < len(args):
                return [("\0script", args[i + 1])]
        return []
    if name == "find":
        found = []
        i = 0
        while i < len(args):
            if args[i] in ("-exec", "-execdir", "-ok", "-okdir"):
                j = i + 1
                while j < len(args) and args[j] not in (";", "+", "\\;"):
                    j += 1
                if j > i + 1:
                    found.append(tuple(args[i + 1 : j]))
                i = j
            i += 1
        return found
    if name == "watch":
        rest = _after_options(args, frozenset(["-n", "-d", "--interval"]))
        return [("\0script", " ".join(rest))] if rest else []
    if name not in _VALUE_OPTIONS:
        return []
    if name == "command" and args and args[0] in ("-v", "-V"):
        return []  # a lookup, not a run
    if name == "env":
        for i, arg in enumerate(args):
            if arg in ("-S", "--split-string") and i + 1 < len(args):
                return [("\0script", args[i + 1])]
    rest = _after_options(args, _VALUE_OPTIONS[name])
    if name == "env":
        while rest and "=" in rest[0] and not rest[0].startswith("="):
            rest = rest[1:]
    if name == "timeout" and rest:
        rest = rest[1:]  # the duration
    if name in ("chrt", "taskset") and rest:
        rest = rest[1:]
    return [tuple(rest)] if rest else []


def _after_options(args: tuple[str, ...], takes_value: frozenset[str]) -> tuple[str, ...]:
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


# -- entry points --------------------------------------------------------------------------------

_CACHE: tuple[str, Script] | None = None
_SELECTED: tuple[str, Any, Script] | None = None
_JOINED = str.maketrans("", "", "\\'\"")  # quotes and backslashes, removed


def parse_script(
    text: str, depth: int = 0, span: tuple[int, int] | None = None, select: Any = None
) -> Script:
    """Parse `text`; with `select` (a compiled regex), only the top-level statements in
    which it finds something are walked (the tree is built whole: tree-sitter is fast, walking
    it in Python is not). The regex sees a statement with its quotes, backslashes and line
    continuations removed, so `'r'm` and `r\\m` still show the `rm` they run."""
    source = text.encode("utf-8", "surrogatepass")
    tree = _parser().parse(source)
    walker = _Walker(source, text, depth, span)
    with contextlib.suppress(RecursionError):  # nested deeper than the stack: what was found
        if select is None:
            walker.visit(tree.root_node)
        else:
            # a selector may answer for spans of the text from one look at all of it (byte
            # offsets are character offsets in ASCII text, the only kind it takes)
            spans = getattr(select, "spans", None)
            search_span = spans(text) if spans is not None else None
            if search_span is None:
                search_span = _piece_search(source, select.search)
            for child in tree.root_node.children:
                _walk_selected(walker, child, search_span)
    return Script(tuple(walker.commands), tuple(walker.functions))


def _piece_search(source: bytes, search: Any) -> Any:
    """`search` on the text of a byte span, its quotes, backslashes and line continuations
    removed."""

    def search_span(start: int, end: int) -> bool:
        piece = source[start:end].decode("utf-8", "replace")
        return search(piece.replace("\\\n", "").translate(_JOINED))  # type: ignore[no-any-return]

    return search_span


def _walk_selected(walker: _Walker, node: Any, search_span: Any) -> None:
    """Walk `node` if `search_span` finds something in its text; an `a && b || c` list is
    looked into part by part (a Dockerfile's `RUN apt-get ... && rm -rf ...` chain, say)."""
    if not search_span(node.start_byte, node.end_byte):
        return
    if node.type != "list":
        walker.visit(node)
        return
    for child in node.children:
        if child.is_named:
            _walk_selected(walker, child, search_span)


def parse(text: str, select: Any = None) -> Script:
    """Parse a command line or script (the last result is cached: several rules ask)."""
    global _CACHE, _SELECTED
    if select is not None:
        if _SELECTED is not None and _SELECTED[1] is select and _SELECTED[0] == text:
            return _SELECTED[2]
        script = parse_script(text, select=select)
        _SELECTED = (text, select, script)
        return script
    if _CACHE is not None and _CACHE[0] == text:
        return _CACHE[1]
    script = parse_script(text)
    _CACHE = (text, script)
    return script


def split_options(
    argv: tuple[str, ...], value_options: frozenset[str] = frozenset()
) -> tuple[list[str], list[str]]:
    """(options, positional arguments) of a command's words after the program name."""
    options: list[str] = []
    positional: list[str] = []
    args = argv[1:]
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            positional += args[i + 1 :]
            break
        if arg.startswith("-") and arg != "-":
            options.append(arg)
            if arg in value_options and i + 1 < len(args):
                i += 1
        else:
            positional.append(arg)
        i += 1
    return options, positional
