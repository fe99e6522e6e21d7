"""The walk of a tree-sitter-bash tree into the commands that would run (`_Walker`), and
the flat reading of a text nested deeper than the walk can follow. shell/parse.py holds the
entry points (`parse`, `parse_script`) and the module docstring tells what the model reads."""

from __future__ import annotations

import re
from typing import Any

from wukong_lint.shell import unwrap as shell_unwrap
from wukong_lint.shell.model import (  # the records, re-exported: shell.Command...
    _DELETERS,
    MAX_PRODUCER_WORDS,
    Command,
    Function,
    _dumped,
    _fed,
    _has_glob,
    _printed,
    _Producer,
    _replace,
    _tree,
    parse_source,
    program_name,
)
from wukong_lint.shell.path_reasoning import STDIN, UNDER, change_dir, known_path
from wukong_lint.shell.runner_registry import ENVIRONMENT
from wukong_lint.shell.runners import assignment_runs, lines_run
from wukong_lint.shell.unwrap import (
    CODE,
    SCRIPT,
    UNSEEN,
    find_parts,
    git_normalised,
    interpreter,
    parallel_parts,
    runs_stdin,
    unwrap,
    xargs_parts,
)
from wukong_lint.shell.words import joined_by_continuation, literal
from wukong_lint.shell.words import word as _word

MAX_DEPTH = 6  # nested `bash -c` / heredoc-to-shell / interpreter levels followed
MAX_FEEDERS = 256  # distinct programs of a pipeline's earlier stages handed to a stage
MAX_EXPANSIONS = 64  # function and alias calls expanded per parse
MAX_LOOP_VALUES = 16  # a `for` loop's body is walked once per literal value, up to these


class _Walker:
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
        names: list[str] = []
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
        """`for d in /usr /var; do rm -rf "$d"; done`: the body once per literal value (a
        few of them), the variable bound to it; else once with the variable unknown."""
        variable = node.child_by_field_name("variable")
        body = node.child_by_field_name("body")
        values = [_word(v, self.env) for v in node.children_by_field_name("value")]
        if (
            variable is None
            or body is None
            or not 0 < len(values) <= MAX_LOOP_VALUES
            or not all(literal(v) or known_path(v) for v in values)
        ):
            if variable is not None:
                self.env.pop(variable.text.decode("utf-8", "replace"), None)
            names: list[str] = []
            for child in node.children:
                names += self.visit(child, stdin_from)
            return names
        name = variable.text.decode("utf-8", "replace")
        names = []
        for value in node.children_by_field_name("value"):
            names += self.substitutions_in(value)
        for value in values:
            self.env[name] = value
            names += self.visit(body, stdin_from)
        return names

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

    def assign(self, node: Any) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        self.assignment_runs(node)
        name = name_node.text.decode("utf-8", "replace")
        value_node = node.child_by_field_name("value")
        value = "" if value_node is None else _word(value_node, self.env)
        if literal(value) and len(value) < 4096:
            self.env[name] = value
        else:
            self.env.pop(name, None)

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
                        heredoc = _word(part, self.env)
                        words_with_subs.append(part)
            elif child.is_named:
                after.append(child)
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
                saved, self.producer = self.producer, None
                for child in current.children:
                    names += self.visit(child)
                self.producer = saved
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
        prev_end = -1
        inside = len(self.commands)  # the commands of its $(...) are recorded from here
        for child in node.children:
            kind = child.type
            if kind == "variable_assignment":
                subs += self.substitutions_in(child)
                self.assignment_runs(child)
                continue
            if kind == "file_redirect":
                op, target, first = "", "", True
                for part in child.children:
                    if not part.is_named:
                        op = part.type
                    elif part.type != "file_descriptor":
                        if first:
                            target, first = _word(part, self.env), False
                        else:
                            extra = (*extra, _word(part, self.env))
                redirects = (*redirects, (op, target))
                continue
            if kind == "herestring_redirect":
                for part in child.children:
                    if part.is_named:
                        heredoc = _word(part, self.env)
                continue
            if kind == "comment":
                continue
            if kind == "command_name":
                child = child.children[0] if child.children else child
            subs += self.substitutions_in(child)
            value = _word(child, self.env)
            if self.nul:
                value = value.replace("\0", "")
            if not self.continued:
                words.append(value)
                continue
            if words and joined_by_continuation(self.source, prev_end, child.start_byte):
                words[-1] += value  # `re\<newline>set`
            else:
                words.append(value)
            prev_end = child.end_byte
        words += extra
        if not words:
            return subs
        start, end = self.where(node)
        index = len(self.commands)
        argv = tuple(words)
        # what its substitutions read is data it takes in, as from a pipe: `curl -d "$(env)"`,
        # `wget --post-data="$(cat .env)"`
        fed = _fed(self.commands[inside:index]) if subs and index > inside else ()
        names = self.emit(
            argv, start, end, redirects, stdin_from, tuple(subs), (), heredoc, producer, fed
        )
        if len(self.commands) > index:
            self.last_top = self.commands[index]
        if argv[0] in _TRACKED:
            self.track(argv)
        return names

    def track(self, argv: tuple[str, ...]) -> None:
        """What a command changes for the rest of the line: its folder, its aliases."""
        name = argv[0]
        if name in ("cd", "pushd"):
            targets = [a for a in argv[1:] if not a.startswith("-") or a == "-"]
            self.cwd = change_dir(self.cwd, targets[0] if targets else None)
        elif name == "popd":
            self.cwd = "?"
        elif name == "alias":
            for arg in argv[1:]:
                alias, sep, value = arg.partition("=")
                if sep and alias:
                    self.aliases[alias] = value
        elif name == "unset":
            for arg in argv[1:]:
                self.env.pop(arg, None)

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
        self.commands.append(
            Command(argv, start, end, redirects, stdin_from, subs, via, heredoc, cwd, stdin_args)
        )
        names = [name]
        if (
            heredoc is None
            and name not in _RUNS_MORE
            and not self.aliases
            and not self.bodies
            and argv[0][:1] not in _SUBSTITUTED
            and (name[:1] not in _INTERPRETER_INITIALS or interpreter(name) is None)
        ):
            return names  # (most commands: nothing more runs)
        if self.depth >= MAX_DEPTH:
            if self.inner(name, given, producer, heredoc):
                self.error = True  # it runs more than is followed: not judged whole
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
        for item in self.inner(name, given, producer, heredoc):
            if item and item[0] == SCRIPT:
                names += self.nested(item[1], start, end, inner_via, stdin_from)
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
                    else:
                        names += self.emit(found, start, end, (), stdin_from, (), inner_via, None)
            else:
                names += self.emit(item, start, end, (), stdin_from, subs, inner_via, None)
        return names

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
            command, replace, _, arg_file = xargs_parts(args)
            targets = self.targets_from(producer)
            if producer is None and heredoc is not None:  # xargs rm -rf <<< '/ /home'
                targets = heredoc.split()[:MAX_PRODUCER_WORDS] or [STDIN]
            if arg_file is not None:  # xargs -a <(echo /): the file's words
                printed = self.printed_by("$" + arg_file[1:]) if arg_file[:2] == "<(" else None
                targets = printed.split() if printed is not None else [STDIN]
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
            if any("{" in w for w in command):
                return [_replace(command, "{}", targets)]
            return [command + tuple(targets)]
        # (the registry reads stdin and `<(...)` for shells, interpreters, make, ed...)
        items = unwrap(argv, heredoc, self.resolve)
        if heredoc is not None and name in _SCHEDULERS:
            items.append((SCRIPT, heredoc))  # (`at now <<< 'cmd'`: run later, still run)
        return items

    def resolve(self, word: str) -> str | None:
        """What a process substitution `<(...)` prints, when it is literal."""
        return self.printed_by("$" + word[1:]) if word.startswith("<(") else None

    def printed_by(self, word: str) -> str | None:
        """What a command substitution prints when it is one echo/printf of known words."""
        inner = word[2:-1] if word.startswith("$(") and word.endswith(")") else word.strip("`")
        source = inner.encode("utf-8", "surrogatepass")
        walker = _Walker(source, inner, MAX_DEPTH, (0, 0), self)
        try:
            walker.visit(_tree(source).root_node)
        except RecursionError:
            return None
        if len(walker.commands) != 1:
            return None
        return _printed(walker.commands[0])

    def targets_from(self, producer: _Producer | None) -> list[str]:
        """The arguments xargs or parallel reads from its producer: literal words, the start
        paths of a find, what an ls lists; else a stand-in for unknown input."""
        if producer is None:
            return [STDIN]
        if producer.text is not None:
            return producer.text.replace("\0", " ").split()[:MAX_PRODUCER_WORDS]
        pname = program_name(producer.argv[0])
        if pname == "find":
            parts = find_parts(producer.argv[1:])
            return parts.targets(UNDER)
        if pname in ("git", "grep", "rg", "ag", "fd", "fdfind", "locate"):
            # `git ls-files | xargs rm`, `grep -l x | xargs rm`: some files of the project
            return ["." + UNDER]
        if pname == "ls":
            folders = [a for a in producer.argv[1:] if not a.startswith("-")] or ["."]
            return [a if _has_glob(a) else a.rstrip("/") + "/*" for a in folders]
        return [STDIN]

    def nested(
        self, text: str, start: int, end: int, via: tuple[str, ...], stdin_from: tuple[str, ...]
    ) -> list[str]:
        """Walk a script string (`bash -c`, `eval`, a heredoc fed to a shell...) and record its
        commands as run under `via`, at the span of the word it came from."""
        if not text:
            return []
        if self.depth >= MAX_DEPTH:
            self.error = True  # nested deeper than followed: not judged whole
            return []
        source = text.encode("utf-8", "surrogatepass")
        walker = _Walker(source, text, self.depth + 1, (start, end), self)
        tree = _tree(source)
        try:
            walker.visit(tree.root_node)
        except RecursionError:
            self.error = True
        self.error = self.error or walker.error
        names = []
        for cmd in walker.commands:
            self.commands.append(
                cmd._replace(via=via + cmd.via, stdin_from=stdin_from + cmd.stdin_from)
            )
            names.append(cmd.name)
        self.functions.extend(walker.functions)
        return names

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
        for number, arg in enumerate(argv[1:10], 1):
            env[str(number)] = arg
        env["@"] = env["*"] = " ".join(argv[1:])
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


def list_parts(node: Any) -> list[Any]:
    """The children of a left-nested `list` node (`a && b || c`), in order, as one level."""
    outers = []
    while node.type == "list" and node.children and node.children[0].type == "list":
        outers.append(node)
        node = node.children[0]
    parts = list(node.children)
    for outer in reversed(outers):
        parts += outer.children[1:]
    return parts


def _quoted(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


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


_runs_stdin = runs_stdin  # (the older name)
_RUNS_MORE = shell_unwrap._UNWRAPPED | {"find", "xargs", "parallel"}
_TRACKED = frozenset(["cd", "pushd", "popd", "alias", "unset"])
_SCHEDULERS = frozenset(["at", "batch"])  # they run the script on their stdin later
_SUBSTITUTED = ("$", "`")
_INTERPRETER_INITIALS = frozenset("pnbdr")  # python, pypy, perl, php, node, bun, deno, ruby
_VALUE_OPTIONS = shell_unwrap.VALUE_OPTIONS


# -- entry points --------------------------------------------------------------------------------

_JOINED = str.maketrans("", "", "\\'\"")  # quotes and backslashes, removed


# Grouping that nests: `$(` and `(`/`)`, backticks, `{ }` groups (not `${VAR}`), double
# quotes; each character becomes a space or a newline, so offsets stay those of the original
# text, and variables (`$HOME`, `${HOME}`) stay what they are.
_NESTING = re.compile(r'\$\(|[()`"]|(?<!\$)\{(?=\s)|(?<=[\s;&|])\}')


def _flatten(match: re.Match[str]) -> str:
    found = match.group()
    return " " * len(found) if found == '"' else " \n" if found == "$(" else "\n"


def _flat_walk(text: str, depth: int, span: tuple[int, int] | None) -> _Walker | None:
    """The commands of `text` with its nesting removed, for a text nested deeper than the
    walk can follow: bash runs `( ( … rm -rf / … ) )` a thousand levels deep, so "too deep to
    judge" must not mean "allowed". Reading every nested command as a top-level one may see
    more than runs (a quoted word in the depths), never less."""
    flat = _NESTING.sub(_flatten, text)
    source = flat.encode("utf-8", "surrogatepass")
    walker = _Walker(source, flat, depth, span)
    walker.error = True
    try:
        walker.visit(parse_source(source).root_node)
    except RecursionError:
        return None
    return walker


def _piece_search(source: bytes, search: Any) -> Any:
    """`search` on the text of a byte span, its quotes, backslashes and line continuations
    removed."""

    def search_span(start: int, end: int) -> bool:
        piece = source[start:end].decode("utf-8", "replace")
        return search(piece.replace("\\\n", "").translate(_JOINED))  # type: ignore[no-any-return]

    return search_span


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
