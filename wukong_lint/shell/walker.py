"""The walk of a tree-sitter-bash tree into the commands that would run (`_Walker`), and
the flat reading of a text nested deeper than the walk can follow. shell/parse.py holds the
entry points (`parse`, `parse_script`) and the module docstring tells what the model reads."""

from __future__ import annotations

import re
from typing import Any

from wukong_lint.shell import dirs
from wukong_lint.shell import unknown as shell_unknown
from wukong_lint.shell.bindings import BINDERS, bind
from wukong_lint.shell.expand import (
    MAX_VALUE,
    POSITIONAL,
    expand,
    expand_one,
    forget,
    get_array,
    set_array,
)
from wukong_lint.shell.flat import MAX_SEGMENTED, flat_text, segments
from wukong_lint.shell.model import (  # the records, re-exported: shell.Command...
    MAX_PRODUCER_WORDS,
    Command,
    Function,
    _dumped,
    _fed,
    _printed,
    _Producer,
    _tree,
    parse_source,
    program_name,
)
from wukong_lint.shell.nodes import (  # (re-exported: the older home of these helpers)
    _self_call,
    list_parts,
)
from wukong_lint.shell.path_reasoning import ARGUMENT, change_dir, known_path
from wukong_lint.shell.runner_registry import ENVIRONMENT, spec_of
from wukong_lint.shell.runners import assignment_runs
from wukong_lint.shell.runs import _RUNS_MORE, MAX_DEPTH, MAX_PRINTED, Runs, _quoted, listed
from wukong_lint.shell.unknown import unseen_stdin
from wukong_lint.shell.unwrap import CODE, SCRIPT, git_normalised, interpreter
from wukong_lint.shell.words import backquoted, joined_by_continuation, literal, unescape
from wukong_lint.shell.words import word as _word

MAX_FEEDERS = 256  # distinct programs of a pipeline's earlier stages handed to a stage
MAX_EXPANSIONS = 64  # function and alias calls expanded per parse
MAX_LOOP_VALUES = 16  # a `for` loop's body is walked once per literal value, up to these


class _Walker(Runs):
    def __init__(
        self,
        source: bytes,
        text: str,
        depth: int,
        span: tuple[int, int] | None,
        parent: _Walker | None = None,
    ) -> None:
        self.source = source
        self.ascii = len(source) == len(text)
        # (what most texts lack, so that most words skip the work)
        self.continued = b"\\\n" in source  # line continuations between words
        self.nul = b"\0" in source  # NUL bytes, which bash drops
        self.depth = depth
        self.span = span  # nested scripts report the span of the word they came from
        self.base = 0  # the character offset of `source` in the text (a piece of a long one)
        self.commands: list[Command] = []
        self.functions: list[Function] = []
        self.cwd = parent.cwd if parent else "."
        self.env: dict[str, str] = dict(parent.env) if parent else {}
        self.aliases: dict[str, str] = dict(parent.aliases) if parent else {}
        self.bodies: dict[str, Any] = {}  # function name -> body node (of this tree)
        self.expanding: set[str] = set(parent.expanding) if parent else set()
        self.budget = parent.budget if parent else [MAX_EXPANSIONS]
        self.producer: _Producer | None = None  # what feeds the next command's stdin
        self.last_top: Command | None = None  # the last command recorded by command()
        self.error = False
        self.deep = False  # nested deeper than followed somewhere (read flat, or not at all)
        # (what the whole line shares: the command substitutions left to work out)
        self.printing = parent.printing if parent else [MAX_PRINTED]

    def pos(self, byte: int) -> int:
        if self.ascii:
            return byte
        return len(self.source[:byte].decode("utf-8", "replace"))

    def where(self, node: Any) -> tuple[int, int]:
        if self.span is not None:
            return self.span
        return self.base + self.pos(node.start_byte), self.base + self.pos(node.end_byte)

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
            return self.pipeline(node, stdin_from)
        if kind == "function_definition":
            return self.function(node)
        if kind == "list":
            return self.chain(node, stdin_from)
        if kind == "for_statement":
            return self.loop(node, stdin_from)
        if kind == "variable_assignment":
            self.assign(node)
            return self.substitutions_in(node)
        if kind == "declaration_command":
            return self.declare(node)
        names: list[str] = []
        if kind == "ERROR" and node.text[:1] == b"{" and node.text[1:2] not in b" \t\n}":
            # `{rm,-rf,~}`: not a group (no blank after `{`) but a word bash brace-expands;
            # the parser gives up on it where a command starts
            from wukong_lint.shell.path_reasoning import expand_braces

            text = node.text.decode("utf-8", "replace")
            head, _, rest = text.partition(" ")
            start, end = self.where(node)
            line = " ".join(expand_braces(head)) + (" " + rest if rest else "")
            names += self.nested(line, start, end, (), stdin_from)
        if kind == "command_substitution" and node.text[:1] == b"`" and b"\\" in node.text:
            start, end = self.where(node)  # `...\`...\`...`: bash removes the escapes first
            text = backquoted(node.text.decode("utf-8", "replace"))
            return names + self.nested(text, start, end, (), stdin_from)
        if kind == "subshell":  # its cd and assignments stay inside it
            saved = self.cwd, dict(self.env)
            for child in node.children:
                names += self.visit(child, stdin_from)
            self.cwd, self.env = saved
            return names
        for child in node.children:
            names += self.visit(child, stdin_from)
        return names

    def chain(self, node: Any, stdin_from: tuple[str, ...]) -> list[str]:
        """`a && b || c ...`: tree-sitter nests such a list to the left, one level per
        operator; walked as the flat sequence it is (a chain of 1,000 `true &&` before an
        `rm -rf /` must not end the walk on the interpreter's recursion limit)."""
        names: list[str] = []
        for child in list_parts(node):
            names += self.visit(child, stdin_from)
        return names

    def loop(self, node: Any, stdin_from: tuple[str, ...]) -> list[str]:
        """`for d in /usr /var; do rm -rf "$d"; done`: the body once per value (a few of
        them: the words of the list, expanded; what a `$(find ...)` or `$(ls ...)` lists), the
        variable bound to it; else once with the variable unknown."""
        variable = node.child_by_field_name("variable")
        body = node.child_by_field_name("body")
        value_nodes = node.children_by_field_name("value")
        values: list[str] = []
        for value in value_nodes:
            if value.type == "command_substitution":
                listing = self.listing(value)
                if listing is not None:
                    values += listing
                    continue
            values += expand(value, self)
        if not value_nodes and b" in " not in node.text[:200]:  # `for f; do`: over "$@"
            values = get_array(self.env, "@") or []
            if POSITIONAL not in self.env:
                values = ["$@"]
        if not values and variable is not None:
            # a loop over nothing (`for f in "$@"` with no argument): its body never runs,
            # what its list runs does (`for f in $(rm -rf ~)`)
            return [name for value in value_nodes for name in self.substitutions_in(value)]
        if (
            variable is None
            or body is None
            or not 0 < len(values) <= MAX_LOOP_VALUES
            or not all(literal(v) or known_path(v) for v in values)
        ):
            if variable is not None:
                forget(self.env, variable.text.decode("utf-8", "replace"))
            names: list[str] = []
            for child in node.children:
                names += self.visit(child, stdin_from)
            return names
        name = variable.text.decode("utf-8", "replace")
        names = []
        for value in value_nodes:
            names += self.substitutions_in(value)
        for one in values:
            self.env.pop(name + "[]", None)
            self.env[name] = one
            names += self.visit(body, stdin_from)
        return names

    def listing(self, node: Any) -> list[str] | None:
        """The paths a `$(find ...)`, `$(ls ...)`, `$(git ls-files)` substitution lists (as
        the path reasoning reads them: `./\0*` for some files under `.`), or None."""
        text = node.text.decode("utf-8", "replace")
        if not text.startswith("$(") or not text.endswith(")"):
            return None
        inner = text[2:-1]
        source = inner.encode("utf-8", "surrogatepass")
        walker = _Walker(source, inner, MAX_DEPTH, (0, 0), self)
        try:
            walker.visit(_tree(source).root_node)
        except RecursionError:
            return None
        if len(walker.commands) != 1:
            return None
        return listed(walker.commands[0].argv) or None

    def pipeline(self, node: Any, stdin_from: tuple[str, ...]) -> list[str]:
        names: list[str] = []
        # the programs of earlier stages, each once, the most recent last (a pipeline of
        # 20,000 stages must not hand each stage all the names before it: quadratic)
        feeders: dict[str, None] = {}
        producer, self.producer = self.producer, None
        words: tuple[str, ...] = producer.words if producer else ()
        for child in node.children:
            if child.type in ("|", "|&"):
                continue
            self.last_top = None
            self.producer = producer
            stage = self.visit(child, stdin_from + tuple(feeders))
            names += stage
            for name in stage:
                feeders.pop(name, None)
                feeders[name] = None
            while len(feeders) > MAX_FEEDERS:  # what fed the later stages is not known whole
                del feeders[next(iter(feeders))]
                self.error = True
            self.producer = None
            top = self.last_top if child.type in ("command", "redirected_statement") else None
            if top is None and child.type == "declaration_command":
                # `export -p | ...`, `declare -x | ...`: the environment, as `env` prints it
                top = Command(tuple(_word(c, self.env) for c in child.children), 0, 0)
            if top is None:
                producer = None
                continue
            words = (words + top.argv[1:] + _dumped(top))[-MAX_PRODUCER_WORDS:]
            producer = _Producer(top.argv, _printed(top), words)
        return names

    def assign(self, node: Any, nameref: bool = False) -> None:
        """`X=value`, `a=(x y)`, `a+=(z)`, `a[1]=x`, `declare -n r=HOME`: the value as far
        as the line tells it (an unknown part keeps its source text, `$(date)`, which reads
        as unknown wherever it is used)."""
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        self.assignment_runs(node)
        index = None
        if name_node.type == "subscript":  # a[1]=x
            inner = name_node.child_by_field_name("name")
            found = name_node.child_by_field_name("index")
            index = found.text.decode("utf-8", "replace") if found is not None else None
            name_node = inner if inner is not None else name_node
        name = name_node.text.decode("utf-8", "replace")
        value_node = node.child_by_field_name("value")
        operator = name_node.next_sibling if name_node.type != "subscript" else None
        append = (operator is not None and operator.type == "+=") or (
            index is not None and b"+=" in node.text
        )
        if value_node is not None and value_node.type == "array":
            items = [w for child in value_node.children if child.is_named
                     for w in expand(child, self)]  # fmt: skip
            old = get_array(self.env, name) if append else None
            set_array(self.env, name, (old or []) + items)
            return
        value = "" if value_node is None else expand_one(value_node, self)
        if nameref and literal(value) and value:
            value = "$" + value  # `$r` is `$HOME`: its value, whatever it is
        if index is not None:
            # (arrays are never exported: one the line did not set starts empty)
            items = get_array(self.env, name)
            if items is None:
                items = [self.env[name]] if name in self.env else []
            if not index.isdigit() or int(index) > len(items) + 64:
                forget(self.env, name)
                return
            at = int(index)
            items = items + [""] * (at + 1 - len(items))
            items[at] = value
            set_array(self.env, name, items)
            return
        old_value = self.env.get(name) if append else ""
        if old_value is None or len(old_value) + len(value) >= MAX_VALUE:
            forget(self.env, name)  # (appended to a value the line does not give)
        else:
            self.env.pop(name + "[]", None)
            self.env[name] = old_value + value
            if name == "BASH_ARGV0":  # (bash 5: assigning it sets `$0`)
                self.env["0"] = old_value + value

    def declare(self, node: Any) -> list[str]:
        """`declare`, `local`, `export`, `readonly`, `typeset`: their assignments (`-n`
        makes a name a reference to another variable)."""
        nameref = any(
            child.type == "word" and child.text.startswith(b"-") and b"n" in child.text
            for child in node.children
        )
        names: list[str] = []
        for child in node.children:
            if child.type == "variable_assignment":
                self.assign(child, nameref)
                names += self.substitutions_in(child)
            elif child.type in ("command_substitution", "process_substitution"):
                names += self.substitutions_in(child)
            elif child.type == "variable_name" and not nameref:
                pass  # `local x`: declared, its value unchanged
        return names

    def assignment_runs(self, node: Any) -> None:
        """A variable some program runs as a command (`GIT_SSH_COMMAND=...`, `PAGER=...`,
        the code-runner registry's `environment`): its value is judged where it is set."""
        name_node = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        if name_node is None or value_node is None:
            return
        name = name_node.text.decode("utf-8", "replace")
        if name not in ENVIRONMENT:
            return
        start, end = self.where(node)
        for item in assignment_runs(name, _word(value_node, self.env)):
            self.nested(item[1], start, end, (name,), ())

    def function(self, node: Any) -> list[str]:
        name_node = node.child_by_field_name("name") or node.children[0]
        name = name_node.text.decode("utf-8", "replace")
        body = node.child_by_field_name("body") or node.children[-1]
        # (a body calls itself through a pipe or `&` only if both show in its text: most
        # functions are not walked a second time for it)
        piece = self.source[body.start_byte : body.end_byte]
        calls_itself = (
            (b"|" in piece or b"&" in piece)
            and name.encode("utf-8", "surrogatepass") in piece
            and _self_call(body, name)
        )
        start, end = self.where(node)
        self.functions.append(Function(name, start, end, calls_itself))
        self.bodies[name] = body
        self.expanding.add(name)
        saved = self.cwd, dict(self.env)
        # its `$1`... are what a call passes: where it is defined, arguments the rules do not
        # take for paths the line does not give (a call walks the body again with them)
        set_array(self.env, "@", [ARGUMENT])
        for number in range(2, 10):
            self.env[str(number)] = ARGUMENT
        try:
            return self.visit(body)
        finally:
            self.cwd, self.env = saved
            self.expanding.discard(name)

    def redirected(self, node: Any, stdin_from: tuple[str, ...]) -> list[str]:
        body = node.child_by_field_name("body")
        redirects: list[tuple[str, str]] = []
        heredoc = None
        extra: list[str] = []
        words_with_subs: list[Any] = []
        after: list[Any] = []  # what follows a heredoc start on its line: `cat <<EOF | sh`
        for child in node.children:
            if body is not None and child == body:
                continue
            if child.type == "file_redirect":
                op, target, first = "", "", True
                for part in child.children:
                    if part.type == "file_descriptor":
                        continue
                    if not part.is_named:
                        op = part.type
                        continue
                    words_with_subs.append(part)
                    if first:
                        target, first = _word(part, self.env), False
                    else:  # `git >/dev/null reset --hard`: words after the target are args
                        extra.append(_word(part, self.env))
                redirects.append((op, target))
            elif child.type == "heredoc_redirect":
                for part in child.children:
                    if part.type == "heredoc_body":
                        heredoc = part.text.decode("utf-8", "replace")
                    elif part.is_named and part.type not in ("heredoc_start", "heredoc_end"):
                        after.append(part)
            elif child.type == "herestring_redirect":
                for part in child.children:
                    if part.is_named:
                        heredoc = expand_one(part, self)
                        words_with_subs.append(part)
            elif child.is_named:
                after.append(child)
        if heredoc is None and redirects:
            heredoc = self.stdin_file(redirects)
        names: list[str] = []
        self.last_top = None
        if body is None:
            if redirects:  # `> /etc/passwd`: a redirection alone truncates its target
                start, end = self.where(node)
                names += self.emit((":",), start, end, tuple(redirects), stdin_from, (), (), None)
                self.last_top = self.commands[-1] if self.commands else None
        elif body.type == "command":
            names += self.command(body, tuple(redirects), stdin_from, heredoc, tuple(extra))
        elif body.type == "list" and extra and list_parts(body)[-1].type == "command":
            # `cd . && git >/dev/null reset --hard`: the parser gives the redirection (and the
            # words after it) to the whole list; bash gives them to its last command
            parts = list_parts(body)
            for part in parts[:-1]:
                names += self.visit(part, stdin_from)
            names += self.command(parts[-1], tuple(redirects), stdin_from, heredoc, tuple(extra))
        else:
            before = len(self.commands)
            names += self.visit(body, stdin_from)
            if redirects:  # `a | b > out`: the redirection belongs to the last stage
                for index in range(len(self.commands) - 1, before - 1, -1):
                    if not self.commands[index].via:
                        cmd = self.commands[index]
                        self.commands[index] = cmd._replace(
                            redirects=cmd.redirects + tuple(redirects)
                        )
                        break
        top = self.last_top
        for part in words_with_subs:
            names += self.substitutions_in(part)
        for part in after:
            if part.type == "pipeline" and top is not None:
                self.producer = _Producer(top.argv, _printed(top), top.argv[1:])
                names += self.visit(part, (*stdin_from, top.name))
            else:
                names += self.visit(part, stdin_from)
            self.producer = None
        self.last_top = top
        return names

    def substitutions_in(self, node: Any) -> list[str]:
        """Visit command/process substitutions inside a word; return the programs they run."""
        names: list[str] = []
        stack = [node]
        while stack:
            current = stack.pop()
            if current.type in ("command_substitution", "process_substitution"):
                # (a subshell: its cd and assignments do not outlive it)
                saved = self.producer, self.cwd, dict(self.env)
                self.producer = None
                names += self.visit(current)
                self.producer, self.cwd, self.env = saved
                continue
            stack.extend(reversed(current.children))
        return names

    def command(
        self,
        node: Any,
        redirects: tuple[tuple[str, str], ...],
        stdin_from: tuple[str, ...],
        heredoc: str | None,
        extra: tuple[str, ...] = (),
    ) -> list[str]:
        producer, self.producer = self.producer, None
        words: list[str] = []
        subs: list[str] = []
        prefix: list[Any] = []  # `IFS=, read ...`: assignments for this command only
        prev_end = -1
        inside = len(self.commands)  # the commands of its $(...) are recorded from here
        quoted: list[int] = []  # the words whose `$` is quoted text (shell/dirs.py)
        restore = None
        for child in node.children:
            kind = child.type
            if kind == "variable_assignment":
                subs += self.substitutions_in(child)
                prefix.append(child)
                self.assignment_runs(child)
                named = child.child_by_field_name("name")
                if named is not None and named.text.startswith(b"T"):  # (TMPDIR, TMP, TEMP)
                    value = self.assignments([child])
                    restore = dirs.prefix_temp(self.env, value) or restore
                continue
            if kind == "file_redirect":
                op, target, first = "", "", True
                for part in child.children:
                    if not part.is_named:
                        op = part.type
                    elif part.type != "file_descriptor":
                        if part.type != "word":  # (`> "$(mktemp)"`: what it runs)
                            subs += self.substitutions_in(part)
                        if first:
                            target, first = _word(part, self.env), False
                        else:
                            extra = (*extra, _word(part, self.env))
                redirects = (*redirects, (op, target))
                continue
            if kind == "herestring_redirect":
                for part in child.children:
                    if part.is_named:
                        subs += self.substitutions_in(part)
                        heredoc = expand_one(part, self)
                continue
            if kind == "comment":
                continue
            if kind == "command_name":
                child = child.children[0] if child.children else child
                kind = child.type
            subs += self.substitutions_in(child)
            if kind == "word":  # (most words: as written; a node's text is costly, read once)
                raw = child.text
                if b"{" in raw:
                    values = expand(child, self)
                else:
                    values = [unescape(raw.decode("utf-8", "replace"))]
            else:
                values = expand(child, self)
            if self.nul:
                values = [value.replace("\0", "") for value in values]
            if words and values:  # (`--arg-file=<(echo ~)`, `rm '$TMPDIR'`: shell/dirs.py)
                dirs.joined_or_literal(child, words, values, quoted)
            if not self.continued:
                words += values
                continue
            if words and values and joined_by_continuation(self.source, prev_end, child.start_byte):
                words[-1] += values.pop(0)  # `re\<newline>set`
            words += values
            prev_end = child.end_byte
        words += extra
        for name in restore or ():
            self.env.pop(name, None)
        dirs.as_relative(words, quoted)
        if not words:
            return subs
        if heredoc is None and redirects:
            heredoc = self.stdin_file(redirects)
        start, end = self.where(node)
        index = len(self.commands)
        argv = tuple(words)
        # what its substitutions read is data it takes in, as from a pipe: `curl -d "$(env)"`,
        # `wget --post-data="$(cat .env)"`
        fed = _fed(self.commands[inside:index]) if subs and index > inside else ()
        env = self.env
        if prefix:  # `X=rm bash -c '$X -rf ~'`: what it runs has them in its environment
            self.env = {**env, **self.assignments(prefix)}
        try:
            names = self.emit(
                argv, start, end, redirects, stdin_from, tuple(subs), (), heredoc, producer, fed
            )
        finally:
            self.env = env
        if len(self.commands) > index:
            self.last_top = self.commands[index]
        if argv[0] in _TRACKED or argv[0] in ("builtin", "command"):
            self.track(argv)
        elif argv[0] in BINDERS:
            stdin = heredoc
            if stdin is None and producer is not None:
                stdin = producer.text
                if stdin is None:  # `find . | while read f`: the paths it lists
                    stdin = "\n".join(listed(producer.argv)) or None
            bind(self.env, argv, stdin, self.assignments(prefix))
        return names + subs  # (`cat <(curl URL) | sh`: what its substitutions run feeds on)

    def assignments(self, nodes: list[Any]) -> dict[str, str]:
        """The values of the assignments written before a command (`IFS=, read ...`)."""
        found: dict[str, str] = {}
        for node in nodes:
            name_node = node.child_by_field_name("name")
            value_node = node.child_by_field_name("value")
            if name_node is not None:
                value = "" if value_node is None else expand_one(value_node, self)
                found[name_node.text.decode("utf-8", "replace")] = value
        return found

    def stdin_file(self, redirects: tuple[tuple[str, str], ...] | list[tuple[str, str]]
                   ) -> str | None:  # fmt: skip
        """What a `< <(echo ...)` redirection feeds a command, when the line tells."""
        for op, target in redirects:
            if op == "<" and target.startswith("<(") and target.endswith(")"):
                return self.printed_by("$" + target[1:])
        return None

    def track(self, argv: tuple[str, ...]) -> None:
        """What a command changes for the rest of the line: its folder, its aliases."""
        dirs.track(self, argv)

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
        producer: _Producer | None = None,
        fed: tuple[str, ...] = (),
    ) -> list[str]:
        if not argv:
            return []
        name = program_name(argv[0])
        cwd = self.cwd
        given = argv  # (what `inner` reads: git's `-c` values run too)
        if name == "git":
            argv, folder = git_normalised(argv)
            if folder is not None:
                cwd = change_dir(cwd, folder)
        if heredoc is None and producer is not None:
            heredoc = producer.text
        stdin_args = (producer.words if producer is not None else ()) + fed
        program = shell_unknown.program_marker(argv[0]) if _SUSPECT(argv[0]) else None
        unknown: tuple[str, ...] = (program,) if program is not None else ()
        index = len(self.commands)
        self.commands.append(
            Command(argv, start, end, redirects, stdin_from, subs, via, heredoc, cwd,
                    stdin_args, unknown) if unknown else
            Command(argv, start, end, redirects, stdin_from, subs, via, heredoc, cwd, stdin_args)
        )  # fmt: skip
        names = [name]
        if (
            heredoc is None
            and name not in _RUNS_MORE
            and not self.aliases
            and not self.bodies
            and not program
            and (name[:1] not in _INTERPRETER_INITIALS or interpreter(name) is None)
        ):
            return names  # (most commands: nothing more runs)
        if self.depth >= MAX_DEPTH:
            if self.inner(name, given, producer, heredoc):
                self.error = self.deep = True  # it runs more than is followed
            return names
        inner_via = (*via, name)
        if not via and name in self.aliases and name not in self.expanding:
            names += self.expand_alias(name, argv, start, end, inner_via, stdin_from)
        if name in self.bodies and name not in self.expanding:
            names += self.expand_function(name, argv, start, end, inner_via)
        if argv[0].startswith(("$(", "`")) and self.budget[0] > 0:
            # `$(echo rm -rf /)` as a command (`eval "$(echo ...)"` comes here too): the
            # words it prints run
            printed = self.printed_by(argv[0])
            if printed is not None:
                self.budget[0] -= 1
                text = printed + " " + " ".join(_quoted(a) for a in argv[1:])
                names += self.nested(text, start, end, inner_via, stdin_from)
        default = _DEFAULT_PROGRAM.match(argv[0]) if program else None
        if default is not None:  # `${CMD:-rm} -rf ~`: rm, when CMD is empty
            names += self.emit((default.group(1), *argv[1:]), start, end, redirects,
                               stdin_from, subs, via, heredoc, producer, fed)  # fmt: skip
        items = self.inner(name, given, producer, heredoc)
        spec = spec_of(name) if items else None
        more = self.unknown_of(self.commands[index], unseen_stdin(producer, stdin_from), items)
        if more:
            self.commands[index] = self.commands[index]._replace(unknown=unknown + more)
        env = self.env
        if spec is not None and spec.get("assignments"):  # `env X=rm sh -c '$X -rf ~'`
            self.env = dict(env)
            for word in argv[1:]:
                if _ASSIGNED(word):
                    self.env.__setitem__(*word.split("=", 1))
                elif not word.startswith("-"):
                    break
        here = self.cwd  # (`env -C / rm -rf etc`: what it runs, runs there)
        self.cwd = dirs.chdir_of(here, argv, spec.get("chdir_options") if spec else None)
        try:
            names += self.run_items(items, start, end, stdin_from, subs, inner_via)
        finally:
            self.env, self.cwd = env, here
        return names

    def run_items(self, items: list[Any], start: int, end: int, stdin_from: tuple[str, ...],
                  subs: tuple[str, ...], inner_via: tuple[str, ...]) -> list[str]:  # fmt: skip
        """Walk what a command runs besides itself (its registry items)."""
        names: list[str] = []
        cwd = self.cwd  # (`os.chdir('/')` in code moves the code's later calls, not the line)
        for item in items:
            if item and item[0] == SCRIPT:
                names += self.nested(item[1], start, end, inner_via, stdin_from, item[2:])
            elif item and item[0] == CODE:
                from wukong_lint.shell.interpreters import commands as code_commands

                pending = list(code_commands(item[1], item[2]))
                rounds = 0
                while pending:
                    found = pending.pop(0)
                    if found[0] == SCRIPT:
                        names += self.nested(found[1], start, end, inner_via, stdin_from)
                    elif found[0] == CODE:  # exec('...') of a literal string: code again
                        rounds += 1
                        if rounds <= 4:
                            pending += code_commands(found[1], found[2])
                    elif found[0] == "cd":
                        self.cwd = change_dir(self.cwd, found[1])
                    else:
                        names += self.emit(found, start, end, (), stdin_from, (), inner_via, None)
            else:
                names += self.emit(item, start, end, (), stdin_from, subs, inner_via, None)
        self.cwd = cwd
        return names

    def nested(
        self, text: str, start: int, end: int, via: tuple[str, ...], stdin_from: tuple[str, ...],
        args: tuple[str, ...] | None = None,
    ) -> list[str]:  # fmt: skip
        """Walk a script string (`bash -c`, `eval`, a heredoc fed to a shell...) and record its
        commands as run under `via`, at the span of the word it came from; `args` are its
        `$0 $1...` (`bash -c '"$@"' _ rm -rf ~`), None when it shares the line's."""
        if not text:
            return []
        if self.depth >= MAX_DEPTH:
            self.error = self.deep = True  # nested deeper than followed: not judged whole
            return []
        source = text.encode("utf-8", "surrogatepass")
        walker = _Walker(source, text, self.depth + 1, (start, end), self)
        if args is not None:
            for key in [k for k in walker.env if k in _POSITIONAL]:
                del walker.env[key]
            if args:
                walker.env["0"] = args[0]
            set_array(walker.env, "@", list(args[1:]))
        tree = _tree(source)
        try:
            walker.visit(tree.root_node)
        except RecursionError:  # deeper than the stack: its flat reading
            walker = flat_walk(text, self.depth + 1, (start, end), self) or walker
            walker.error = walker.deep = True
        else:
            if tree.root_node.has_error and not walker.deep and len(text) <= MAX_SEGMENTED:
                walker.commands += rescued(text, self.depth + 1, (start, end), walker.commands)
        self.error = self.error or walker.error
        self.deep = self.deep or walker.deep
        names = []
        for cmd in walker.commands:
            self.commands.append(
                cmd._replace(via=via + cmd.via, stdin_from=stdin_from + cmd.stdin_from)
            )
            names.append(cmd.name)
        self.functions.extend(walker.functions)
        return names


_TRACKED = dirs.TRACKED
_POSITIONAL = frozenset(["@[]", "@", "*", "#", *map(str, range(1, 10))])
# a program word that may not name its program (an expansion, a glob, an empty word)
_ASSIGNED = re.compile(r"[A-Za-z_]\w*=").match  # `NAME=value`
_SUSPECT = re.compile(r"[^\w./+:@%,=~-]|^$").search
_DEFAULT_PROGRAM = re.compile(r"\$\{[A-Za-z_]\w*:?-([A-Za-z0-9_./+-]+)\}$")
_INTERPRETER_INITIALS = frozenset("pnbdr")  # python, pypy, perl, php, node, bun, deno, ruby


def flat_walk(text: str, depth: int, span: tuple[int, int] | None,
              parent: _Walker | None = None) -> _Walker | None:  # fmt: skip
    """The commands of `text` read flat (shell/flat.py: its nesting and the reserved words
    of compound commands removed), for a text nested deeper than the walk can follow; None
    when even that reading is too deep."""
    flat = flat_text(text)
    source = flat.encode("utf-8", "surrogatepass")
    walker = _Walker(source, flat, depth, span, parent)
    walker.error = walker.deep = True
    try:
        tree = parse_source(source)
        walker.visit(tree.root_node)
    except RecursionError:
        return None
    if tree.root_node.has_error and len(source) <= MAX_SEGMENTED:
        # the parser's error recovery can swallow the commands after an error whole
        # (`[ -d ~ ] && rm -rf ~` is one ERROR): each command of the flat text alone
        seen = {command.argv for command in walker.commands}
        for at, segment in segments(flat):
            part = _Walker(segment.encode("utf-8", "surrogatepass"), segment, depth, span, walker)
            part.base = walker.base + at
            try:
                part.visit(parse_source(part.source).root_node)
            except RecursionError:
                continue
            walker.commands += [c for c in part.commands if c.argv not in seen]
    return walker


def rescued(text: str, depth: int, span: tuple[int, int] | None, found: list[Command],
            parent: _Walker | None = None) -> list[Command]:  # fmt: skip
    """The commands of a text that does not parse as shell which its flat reading shows and
    the walk of its error-ridden tree lost (`((((rm -rf ~))))`, a group left open, a test
    the parser misreads): their programs named (a word of a broken line is no unknown
    program)."""
    flat = flat_walk(text, depth, span, parent)
    if flat is None:
        return []
    seen = {command.argv for command in found}
    return [
        command._replace(unknown=())
        for command in flat.commands
        if command.argv not in seen and not command.unknown
    ]
