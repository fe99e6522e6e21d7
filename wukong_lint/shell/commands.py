"""The `command` rule kind: dangerous shell commands, declared as data.

A rule lists one or more `match` blocks; a command that satisfies every condition of one
block is a hit. Conditions look at the parsed command (see shell.py), never at raw text, so a
quoted string or a commit message that mentions `rm -rf /` is not a command.

    kind: command
    match:
      - program: [rm]                    # program names (globs: mkfs.*), after unwrapping
        flags_any: [-r, -R, --recursive]  # one of these options (short bundles: -rf)
        args_any: ['/', '~', '/\\*']      # a positional argument fully matching a regex

A block may also ask for `subcommand`, `flags_all` (groups that must each be present),
`flags_none`, `args_none`, `stdin_from` (a pipeline feeds it from these programs),
`substitution_from` (a $(...) in its words runs these programs), `redirect_to` (it writes
to a file matching a regex), `via` (it runs under one of these wrappers) or
`recursive_function` (a function that pipes into itself: a fork bomb). `scope` limits the rule
to the main agent or to a profile (body-boundary rules use the same matcher).

In a long script only the statements that may hold a match are walked: those naming one of a
block's programs (or the programs of its `stdin_from` / `substitution_from`), or one of its
`words` when it declares them (a block for any program writing to `~/.bashrc`, say).
"""

from __future__ import annotations

import fnmatch
import re
from bisect import bisect_left
from collections.abc import Iterator
from typing import Any, NamedTuple

from wukong_lint.engine.matchers import Hit
from wukong_lint.engine.patterns import compile_pattern
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.engine.scope import in_scope  # (also imported from here by other kinds)
from wukong_lint.model import Unit
from wukong_lint.shell.command_targets import (
    _HELP,
    _NOWHERE,
    DASHES,
    Before,
    Where,
    _sources_match,
    _stdin_paths,
    _targets,
    _targets_match,
    ascii_dashes,
    describe,
    dry_run,
    made_files,
)
from wukong_lint.shell.parse import (
    _JOINED,
    WRITE_REDIRECTS,
    Command,
    Script,
    parse,
    split_options,
)
from wukong_lint.shell.selection import _EMPTY_PARENS, _may_call_itself
from wukong_lint.util.re_snapshot import compile_static

# -- matching -------------------------------------------------------------------------------------


def _has_flag(options: list[str], spec: str, bundles: bool) -> bool:
    for option in options:
        # (`--force=true`; Go-style single-dash long options too: `-replace=aws_instance.x`)
        if option == spec or (len(spec) > 2 and option.startswith(spec + "=")):
            return True
        if (
            bundles
            and len(spec) == 2
            and spec[0] == "-"
            and not option.startswith("--")
            and option[1:].isalnum()
            and spec[1] in option[1:]
        ):
            return True
    return False


def _full(patterns: list[str], value: str) -> bool:
    return any(_compiled(p).fullmatch(value) for p in patterns)


_COMPILED: dict[str, Any] = {}


def _compiled(pattern: str) -> Any:
    """A block regex, compiled by the standard `re` (once a process; its code kept in the
    package's own snapshot, util/re_snapshot.py, beside the code). Not from the cache of
    the `regex` module's compiled code (engine/patterns.py): that cache lives in a folder
    whatever runs as the user can rewrite, and a block decides deny or allow, so its regex
    must come from the rule (verified against the rule files) alone. A run compiles the few
    its commands reach (~0.1 ms each); a pack's pattern in the `regex` module's own syntax
    falls back to it."""
    found = _COMPILED.get(pattern)
    if found is None:
        try:
            found = compile_static(pattern)
        except (re.error, RecursionError, OverflowError):
            found = compile_pattern(pattern)
        _COMPILED[pattern] = found
    return found


_PROGRAM_TESTS: dict[int, tuple[list[str], frozenset[str], tuple[str, ...]]] = {}


def _program_matches(patterns: list[str], name: str) -> bool:
    """fnmatch of a program name against a block's `program` list, with the literal names
    looked up in a set (most commands of a long script match no block)."""
    cached = _PROGRAM_TESTS.get(id(patterns))
    if cached is None or cached[0] is not patterns:
        # (program names are compared in lower case: shell/model.program_name)
        lowered = [p.lower() for p in patterns]
        literal = frozenset(p for p in lowered if not any(c in p for c in "*?["))
        globs = tuple(p for p in lowered if p not in literal)
        cached = _PROGRAM_TESTS[id(patterns)] = (patterns, literal, globs)
    _, literal, globs = cached
    return name in literal or any(fnmatch.fnmatchcase(name, p) for p in globs)


_SPLIT: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[list[str], list[str]]] = {}


def _split(argv: tuple[str, ...], value_options: list[str]) -> tuple[list[str], list[str]]:
    """split_options, remembered: the blocks asked about one command (several rules for `rm`,
    say) mostly split its words the same way. (Callers only read the lists.)"""
    if any(word[:1] in DASHES for word in argv):
        argv = tuple(ascii_dashes(word) for word in argv)
    key = (argv, tuple(value_options))
    found = _SPLIT.get(key)
    if found is None:
        if len(_SPLIT) >= 4096:
            _SPLIT.clear()
        found = _SPLIT[key] = split_options(argv, frozenset(value_options))
    return found


def block_matches(block: dict[str, Any], command: Command, where: Where | None = None) -> bool:
    # the cheap refusals first: a block for any program that writes a file, say, is asked
    # about every command of a script, and most commands redirect nothing
    if (
        (block["redirect_to"] and not command.redirects)
        or (block["stdin_from"] and not command.stdin_from)
        or (block["substitution_from"] and not command.substitutions)
        or (block["via"] and not command.via)
        or (block.get("redirect_targets_any") and not command.redirects)
        or (block.get("stdin_targets_any") and not (command.stdin_args or command.redirects))
        or (block.get("unresolved") and not command.unknown)
        or (block.get("stdin_words_any") and not command.stdin_args)
    ):
        return False
    if block.get("unresolved") and not any(
        entry.split(":", 1)[0] in block["unresolved"] for entry in command.unknown
    ):
        return False
    name = command.name
    if block["program"] and not _program_matches(block["program"], name):
        return False
    if block["via"] and not any(w in command.via for w in block["via"]):
        return False
    options, positional = _split(command.argv, block["value_options"])
    if block["subcommand"]:
        if not positional or positional[0] not in block["subcommand"]:
            return False
        positional = positional[1:]
    bundles = block["bundles"]
    if block["flags_any"] and not any(_has_flag(options, f, bundles) for f in block["flags_any"]):
        return False
    for group in block["flags_all"]:
        if not any(_has_flag(options, f, bundles) for f in group):
            return False
    if any(_has_flag(options, f, bundles) for f in block["flags_none"]):
        return False
    if block["args_any"] and not any(
        _full(block["args_any"], a)
        for a in (
            positional if block.get("targets_at", "all") == "all" else _targets(block, positional)
        )
    ):
        return False
    if not (block["redirect_to"] or block.get("redirect_targets_any")) and (
        _HELP & set(options)
        or dry_run(options)
        or (name == "rsync" and any(o[:2] != "--" and "n" in o[1:] for o in options))
    ):
        return False  # `terraform destroy --help`, `kubectl delete ns x --dry-run=client`,
        # `rsync -an --delete`: they only describe what would happen
    if block["args_none"] and any(_full(block["args_none"], a) for a in positional):
        return False
    if block["stdin_from"] and not any(p in command.stdin_from for p in block["stdin_from"]):
        return False
    if block["substitution_from"] and not any(
        p in command.substitutions for p in block["substitution_from"]
    ):
        return False
    if block.get("double_dash") and "--" not in command.argv[1:-1]:
        return False
    if block.get("min_args") and len(positional) < block["min_args"]:
        return False
    if block.get("text_any") and not _text_matches(block["text_any"], positional, command):
        return False
    if block.get("http_methods") or block.get("http_paths_any"):
        from wukong_lint.shell.http_requests import block_matches as http_matches

        if not http_matches(block, command.name, command.argv, _compiled):
            return False
    if (
        block.get("except_substitutions")
        and command.substitutions
        and all(p in block["except_substitutions"] for p in command.substitutions)
    ):
        return False
    if block.get("stdin_words_any") and not any(
        _compiled(p).search(w) for p in block["stdin_words_any"] for w in command.stdin_args
    ):
        return False
    if block.get("secret_values"):
        from wukong_lint.shell import secret_values

        if not secret_values.matches(block["secret_values"], command):
            return False
    where = where or _NOWHERE
    if (block.get("targets_any") or block.get("targets_none")) and not _targets_match(
        block, positional, command, where
    ):
        return False
    if block.get("sources_any") and not _sources_match(block, positional, command, where):
        return False
    if block.get("redirect_targets_any") and not any(
        op in WRITE_REDIRECTS
        and where.classify(target, command.cwd) in block["redirect_targets_any"]
        for op, target in command.redirects
    ):
        return False
    if block.get("stdin_targets_any") and not any(
        where.classify(word, command.cwd) in block["stdin_targets_any"]
        for word in _stdin_paths(command)
    ):
        return False
    return not block["redirect_to"] or any(
        op in WRITE_REDIRECTS and _full(block["redirect_to"], target)
        for op, target in command.redirects
    )


def _text_matches(patterns: list[str], positional: list[str], command: Command) -> bool:
    texts = list(positional)
    if command.heredoc:
        texts.append(command.heredoc)
    return any(_compiled(p).search(t) for p in patterns for t in texts)


def command_text(unit: Unit) -> tuple[str, int] | None:
    """The shell text of a unit and its offset: a shell call's command line in a transcript,
    or the shell parts of a script, Dockerfile, Makefile, CI YAML or package.json (other
    characters blanked, so offsets are those of the file); None for other files."""
    event = getattr(unit, "event", None)
    if event is not None:
        if event.kind != "call" or event.command is None:
            return None
        return event.command, event.command_offset
    if unit.source.kind == "transcript":
        return None
    # every command rule asks this of the same file: extract its shell parts once
    if _SHELL_TEXT[0] is unit.text and _SHELL_TEXT[1] == unit.path:
        return _SHELL_TEXT[2]
    from wukong_lint.shell.files import shell_text

    text = shell_text(unit.path, unit.text)
    result = None if text is None else (text, 0)
    _SHELL_TEXT[:] = [unit.text, unit.path, result]
    return result


_SHELL_TEXT: list[Any] = [None, None, None]  # (text, path, command_text) of the last file


def match_command(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    if _PREPARED[0] is unit:  # found with the other command rules in one pass (prepare)
        yield from _PREPARED[1].get(rule.id, ())
        return
    yield from _run([rule], unit).get(rule.id, ())


def _run(rules: list[CompiledRule], unit: Unit) -> dict[str, list[Hit]]:
    """The hits of each rule on a unit, in one pass over the commands of its script (of a
    long script, only the statements where one of the rules may match are walked)."""
    rules = [r for r in rules if in_scope((r.params or {}).get("scope") or _ANY_SCOPE, unit)]
    found = command_text(unit) if rules else None
    if found is None:
        return {}
    text, base = found
    # a tool call's command is parsed whole, once for every rule (and the path rules); a
    # long script only where some rule of this batch may match
    event = getattr(unit, "event", None) is not None
    select = _selector(rules) if len(text) >= SELECT_FROM and not event else None
    try:
        # (a script in which no statement can be selected is not parsed at all)
        script = parse(text, select) if select is None or select.may_match(text) else _NOTHING
    except Exception:  # a parser failure must never end a scan: a parse finding says so
        script = Script((), (), True)
    script = _as_git_reads(script)
    where = _where(unit)
    results: dict[str, list[Hit]] = {rule.id: [] for rule in rules}
    seen: dict[str, set[tuple[int, int]]] = {rule.id: set() for rule in rules}
    for rule in rules:
        blocks = (rule.params or {})["match"]
        if any(block["recursive_function"] for block in blocks):
            for function in script.functions:
                span = (function.start, function.end)
                if function.calls_itself and span not in seen[rule.id]:
                    seen[rule.id].add(span)
                    results[rule.id].append(
                        Hit(base + span[0], base + span[1], base + span[0], base + span[1])
                    )
        if (
            (script.error and any(block.get("parse_error") for block in blocks))
            or (script.partial and any(block.get("partial") for block in blocks))
            or (script.deep and any(block.get("too_deep") for block in blocks))
        ):
            end = len(text.rstrip())
            results[rule.id].append(Hit(base, base + end, base, base + end))
    # commands first, then only the blocks that can name their program (a long script has
    # hundreds of commands, and most blocks are for one program: git, rm, chmod...)
    literal, other = _blocks_by_program(rules)
    # a tool call is one record: a few hits of a rule say all there is to say (a 1 MB
    # command of 100,000 `rm` must not make 100,000 findings on one line)
    most = MAX_EVENT_HITS if event else None
    by_name = _by_name(script)
    # (a tool call's files made earlier on the line: `touch f && rm f`)
    made = made_files(script.commands, where) if event and len(script.commands) > 1 else []
    # the commands each block may match: those named by its program (most blocks), or all
    # of them (a glob or no program), the cheapest refusal (no redirection) first
    for name, named in by_name.items():
        pairs = literal.get(name)
        if pairs:
            _hits(named, pairs, where, seen, results, base, most, made)
    if other:
        _hits(script.commands, other, where, seen, results, base, most, made)
    return results


_GIT_VIEW: list[Any] = [None, None]  # (script, the same as git reads it) of the last script


def _as_git_reads(script: Script) -> Script:
    """The script with its git commands as git reads them (abbreviated long options, aliases
    the line defines: shell/git_options.py); the same script when it runs no git."""
    if _GIT_VIEW[0] is script:
        return _GIT_VIEW[1]  # type: ignore[no-any-return]
    if not any(command.name == "git" for command in script.commands):
        return script
    from wukong_lint.shell.git_options import with_git_options

    view = with_git_options(script)
    _GIT_VIEW[:] = [script, view]
    return view


def _hits(
    commands: Any, pairs: Any, where: Where, seen: dict, results: dict, base: int, most: Any,
    made: list[tuple[int, str]],
) -> None:  # fmt: skip
    places = Before(where, made) if made else None
    for command in commands:
        if places is not None:
            where = places.at(command)
        span = (command.start, command.end)
        shape = None  # what the verdicts read of the command, as a small number
        redirects = bool(command.redirects)
        for rule_id, block, needs_redirect in pairs:
            if needs_redirect and not redirects:
                continue
            if span in seen[rule_id] or (most and len(results[rule_id]) >= most):
                continue
            if shape is None:
                shape = _shape(command, where)
            found = _VERDICTS.get((id(block), shape))
            if found is None or found[0] is not block:  # (the block kept: ids are not reused)
                if len(_VERDICTS) >= 8192:
                    _VERDICTS.clear()
                found = _VERDICTS[id(block), shape] = (block, block_matches(block, command, where))
            if not found[1]:
                continue
            seen[rule_id].add(span)
            start, end = base + command.start, base + command.end
            results[rule_id].append(Hit(start, end, start, end, describe(command, block, where)))


_BY_NAME: list[Any] = [None, {}]  # (script, its commands by program name) of the last script


def _by_name(script: Script) -> dict[str, list[Command]]:
    if _BY_NAME[0] is script:
        return _BY_NAME[1]  # type: ignore[no-any-return]
    found: dict[str, list[Command]] = {}
    for command in script.commands:
        found.setdefault(command.name, []).append(command)
    _BY_NAME[:] = [script, found]
    return found


def _where(unit: Unit) -> Where:
    event = getattr(unit, "event", None)
    if event is not None:
        cwd = event.ctx.cwd
        return Where(
            cwd.rstrip("/") or "/" if isinstance(cwd, str) and cwd.startswith("/") else None
        )
    from wukong_lint.engine.rules import shell_file_type

    return Where(None, shell_file_type(unit.path) == "docker")


_VERDICTS: dict[tuple[Any, ...], tuple[dict[str, Any], bool]] = {}


_SHAPES: dict[tuple[Any, ...], int] = {}


def _shape(command: Command, where: Where) -> int:
    """A number for what block_matches reads of a command (not its span): scripts and
    Dockerfiles repeat the same commands (`rm -rf /var/lib/apt/lists/*`) many times, and a
    command is asked about by several blocks."""
    key = (command.argv, command.redirects, command.stdin_from, command.substitutions,
           command.via, command.cwd, command.heredoc, command.stdin_args, command.unknown,
           where)  # fmt: skip
    found = _SHAPES.get(key)
    if found is None:
        if len(_SHAPES) >= 8192:
            _SHAPES.clear()
            _VERDICTS.clear()  # (its numbers are given again)
        found = _SHAPES[key] = len(_SHAPES)
    return found


def _verdict(block: dict[str, Any], command: Command, where: Where | None = None) -> bool:
    """block_matches, remembered for what it reads of a command (not its span): scripts and
    Dockerfiles repeat the same commands (`rm -rf /var/lib/apt/lists/*`) many times."""
    key = (id(block), command.argv, command.redirects, command.stdin_from,
           command.substitutions, command.via, command.cwd, command.heredoc,
           command.stdin_args, command.unknown, where)  # fmt: skip
    found = _VERDICTS.get(key)
    if found is None or found[0] is not block:  # (the block kept: its id is not reused)
        if len(_VERDICTS) >= 8192:
            _VERDICTS.clear()
        found = _VERDICTS[key] = (block, block_matches(block, command, where or _NOWHERE))
    return found[1]


_ANY_SCOPE = {"agent": "any", "profiles": []}
_BLOCK_INDEX: dict[tuple[str, ...], tuple[dict[str, tuple[Any, ...]], tuple[Any, ...]]] = {}


def _blocks_by_program(rules: list[CompiledRule]) -> tuple[dict, tuple]:
    """(rule id, block) pairs by literal program name, and those that any program may match
    (globs, no program); computed once per set of rules."""
    key = tuple(rule.id for rule in rules)
    cached = _BLOCK_INDEX.get(key)
    if cached is None:
        literal: dict[str, list[Any]] = {}
        other = []
        for rule in rules:
            for block in (rule.params or {})["match"]:
                if (
                    block["recursive_function"]
                    or block.get("parse_error")
                    or block.get("partial")
                    or block.get("too_deep")
                ):
                    continue
                names = block["program"]
                if names and not any(c in p for p in names for c in "*?["):
                    for name in names:
                        literal.setdefault(name, []).append((rule.id, block, _redirects(block)))
                else:
                    other.append((rule.id, block, _redirects(block)))
        cached = _BLOCK_INDEX[key] = (
            {name: tuple(found) for name, found in literal.items()},
            tuple(other),
        )
    return cached


def _redirects(block: dict[str, Any]) -> bool:
    """Does the block need a command with a redirection?"""
    return bool(block["redirect_to"] or block.get("redirect_targets_any"))


def _is_shell(unit: Unit) -> bool:
    return command_text(unit) is not None


# -- which statements of a long script to walk -------------------------------------------------

_SELECTORS: dict[tuple[str, ...], Any] = {}
_PREPARED: list[Any] = [None, {}]  # (unit, hits by rule id) of the last prepare()
MAX_EVENT_HITS = 16  # hits of one rule on one tool call
SELECT_FROM = 2048  # shorter command texts (a transcript's command line) are walked whole
_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


class Selector:
    """Finds the statements of a script in which some block of a set of rules may match: one
    keyword automaton pass (program names must stand as words: not `rm` in `form`; some only
    count with a pipe or a substitution in the statement), plus a look for a function calling
    itself when a fork-bomb rule is in the set."""

    def __init__(self, names: dict[str, set[str]], words: set[str], self_calls: bool) -> None:
        import ahocorasick_rs

        self.keys = sorted(set(names) | words)
        # per key: None (a word: any occurrence will do), or for a program name what else the
        # statement needs, one of: "name" (nothing), "|" (a pipe), "$(" (a substitution)
        self.needs = [None if key in words else frozenset(names[key]) for key in self.keys]
        self.self_calls = self_calls
        self._last: _Whole | None = None  # the last script looked at whole
        self.automaton = (
            ahocorasick_rs.AhoCorasick(
                self.keys, implementation=ahocorasick_rs.Implementation.ContiguousNFA
            )
            if self.keys
            else None
        )

    def search(self, piece: str) -> bool:
        if self.automaton is not None:
            for number, start, end in self.automaton.find_matches_as_indexes(
                piece, overlapping=True
            ):
                needs = self.needs[number]
                if needs is None:
                    return True
                before = piece[start - 1] if start else " "
                after = piece[end] if end < len(piece) else " "
                if before in _WORD_CHARS or before == "." or after in _WORD_CHARS:
                    continue
                if "name" in needs or ("|" in needs and "|" in piece):
                    return True
                if "$(" in needs and any(s in piece for s in _SUBSTITUTIONS):
                    return True
        return self.self_calls and _may_call_itself(piece)

    def _whole(self, text: str) -> _Whole:
        """`text` as `search` sees a statement (quotes, backslashes and line continuations
        removed) and where the keys occur in it: computed once per script."""
        if self._last is not None and self._last.text is text:
            return self._last
        removed = [m.start() for m in _REMOVED.finditer(text)]
        pairs = [m.start() for m in _CONTINUATION.finditer(text)]
        removed = sorted(removed + [at + 1 for at in pairs])
        joined = text.replace("\\\n", "").translate(_JOINED)
        # where a removed character joined two words (offsets in `joined`): a line break, or
        # a quote, where tree-sitter's error recovery may start a statement (`a'git clean`)
        joins = frozenset(at - bisect_left(removed, at) for at in removed)
        found: list[tuple[int, int, int]] | None = []
        if self.automaton is not None:
            try:
                found = sorted(
                    self.automaton.find_matches_as_indexes(joined, overlapping=True),
                    key=lambda hit: hit[1],
                )
            except UnicodeEncodeError:  # lone surrogates
                found = None
        # what a function definition in a statement needs (see _may_call_itself)
        defined = sorted(
            [(m.start(), m.end()) for m in _EMPTY_PARENS.finditer(joined)]
            + [(at, at + 8) for at in _occurrences(joined, "function")]
        )
        whole = _Whole(
            text, joined, removed, joins, found, [hit[1] for hit in found or ()], defined
        )
        self._last = whole
        return whole

    def may_match(self, text: str) -> bool:
        """False when `search` can find nothing in any statement of the script `text`, so that
        it need not even be parsed. The text is searched whole, as `search` sees a statement
        (quotes, backslashes and line continuations removed): a statement's text is a stretch
        of it, and a word that starts or ends a statement has a separator next to it (a
        blank, `;`, `&`, a line break) unless that line break was removed with a backslash
        (a comment ending in `\\`): there a word boundary is assumed. What `search` asks
        besides a word (a pipe, a substitution, a function definition) is asked of the whole
        text."""
        whole = self._whole(text)
        if whole.found is None:
            return True  # (lone surrogates: parse and see)
        joined, joins = whole.joined, whole.joins
        pipe = "|" in joined
        substitution = any(s in joined for s in _SUBSTITUTIONS)
        for number, start, end in whole.found:
            needs = self.needs[number]
            if needs is None:
                return True  # a word: any occurrence will do (as in `search`)
            before = joined[start - 1] if start else " "
            if (before in _WORD_CHARS or before == ".") and start not in joins:
                continue
            if end < len(joined) and joined[end] in _WORD_CHARS and end not in joins:
                continue
            if "name" in needs:
                return True
            if ("|" in needs and pipe) or ("$(" in needs and substitution):
                return True
        return self.self_calls and (
            (pipe or "&" in joined)
            and ("function" in joined or _EMPTY_PARENS.search(joined) is not None)
        )

    def spans(self, text: str) -> Any:
        """For an ASCII script: a function telling for text[start:end] what `search` would
        tell of it, from the whole text's keys found once (None: search each statement)."""
        if not text.isascii():
            return None
        whole = self._whole(text)
        if whole.found is None:
            return None
        joined, removed, found, starts = whole.joined, whole.removed, whole.found, whole.starts
        defined = whole.defined
        needs_of, search = self.needs, self.search

        def search_span(start: int, end: int) -> bool:
            if start and text[start : start + 1] == "\n" and text[start - 1] == "\\":
                # (its line break goes with a backslash before it: search it alone)
                piece = text[start:end].replace("\\\n", "").translate(_JOINED)
                return search(piece)  # type: ignore[no-any-return]
            first = start - bisect_left(removed, start)
            last = end - bisect_left(removed, end)
            index = bisect_left(starts, first)
            while index < len(starts) and starts[index] < last:
                number, begin, stop = found[index]
                index += 1
                if stop > last:
                    continue
                needs = needs_of[number]
                if needs is None:
                    return True
                before = joined[begin - 1] if begin > first else " "
                after = joined[stop] if stop < last else " "
                if before in _WORD_CHARS or before == "." or after in _WORD_CHARS:
                    continue
                if "name" in needs or ("|" in needs and joined.find("|", first, last) >= 0):
                    return True
                if "$(" in needs and any(joined.find(s, first, last) >= 0 for s in _SUBSTITUTIONS):
                    return True
            if not self.self_calls:
                return False
            if joined.find("|", first, last) < 0 and joined.find("&", first, last) < 0:
                return False
            index = bisect_left(defined, (first, 0))
            while index < len(defined) and defined[index][0] < last:
                if defined[index][1] <= last:  # a function may be defined in the statement
                    return _may_call_itself(joined[first:last])
                index += 1
            return False

        return search_span


class _Whole(NamedTuple):
    text: str
    joined: str  # the text without quotes, backslashes and line continuations
    removed: list[int]  # offsets (in the text) of the characters removed, ascending
    joins: frozenset[int]  # offsets (in `joined`) where a character was removed
    found: list[tuple[int, int, int]] | None  # (key, start, end) in `joined`, by start
    starts: list[int]  # their starts
    defined: list[tuple[int, int]]  # spans of `function` and `()` in `joined`, by start


def _occurrences(text: str, word: str) -> list[int]:
    found = []
    at = text.find(word)
    while at >= 0:
        found.append(at)
        at = text.find(word, at + 1)
    return found


_REMOVED = re.compile(r"[\\'\"]")
_CONTINUATION = re.compile(r"\\\n")
_SUBSTITUTIONS = ("$(", "<(", ">(", "`")

_NOTHING = Script((), ())


def _block_needs(block: dict[str, Any]) -> tuple[dict[str, str], set[str], bool] | None:
    """(program names with what else they need, words, a self-call) of which one appears in
    any statement where `block` may match a command, its quotes and backslashes removed;
    None when any statement may."""
    if block["recursive_function"]:
        return {}, set(), True
    if block.get("parse_error") or block.get("partial") or block.get("too_deep"):
        return {}, set(), False  # (asked of the whole text, not of statements)
    extra = set(block.get("selected_by") or ())
    if block.get("words"):
        return {}, set(block["words"]) | extra, False
    programs = block["program"] or []
    if block["stdin_from"]:  # the feeding program (`curl` rather than `sh`), and a pipe
        return dict.fromkeys(block["stdin_from"], "|"), set(), False
    if block["substitution_from"]:
        return dict.fromkeys(block["substitution_from"], "$("), set(), False
    if programs and not any(c in p for p in programs for c in "*?["):
        return dict.fromkeys(programs, "name"), extra, False
    if block["redirect_to"]:
        return {}, {">"}, False
    if block["via"]:
        return dict.fromkeys(block["via"], "name"), set(), False
    prefixes = {re.split(r"[*?\[]", p)[0] for p in programs}
    if programs and all(prefixes):  # `mkfs.*`: its literal start
        return {}, prefixes, False
    return None


def _selector(rules: list[CompiledRule]) -> Selector | None:
    """The selector of the statements where some command of these rules may match, or None
    (walk everything)."""
    key = tuple(rule.id for rule in rules)
    if key in _SELECTORS:
        return _SELECTORS[key]
    names: dict[str, set[str]] = {}
    words: set[str] = set()
    self_calls = False
    for rule in rules:
        for block in (rule.params or {}).get("match", ()):
            needs = _block_needs(block)
            if needs is None:
                _SELECTORS[key] = None
                return None
            for name, need in needs[0].items():
                names.setdefault(name, set()).add(need)  # any of its blocks' needs will do
            words |= needs[1]
            self_calls = self_calls or needs[2]
    selector = _SELECTORS[key] = Selector(names, words, self_calls)
    return selector


_SCRIPT_SELECTORS: dict[tuple[str, ...], Any] = {}


def script_selector(
    rules: list[CompiledRule], names: frozenset[str], words: frozenset[str]
) -> Selector | None:
    """The selector of a long script's statements that the hook walks (hook/scripts.py):
    those where a command rule may match, or naming one of `names` (programs that run
    files) or holding one of `words` (the paths the path rules look for); None when any
    statement may matter."""
    key = (*sorted(rule.id for rule in rules), "\0", *sorted(names), "\0", *sorted(words))
    if key in _SCRIPT_SELECTORS:
        return _SCRIPT_SELECTORS[key]  # type: ignore[no-any-return]
    found: dict[str, set[str]] = {name: {"name"} for name in names}
    more: set[str] = set(words)
    self_calls = False
    selector: Selector | None = None
    for rule in rules:
        for block in (rule.params or {}).get("match", ()):
            needs = _block_needs(block)
            if needs is None:
                _SCRIPT_SELECTORS[key] = None
                return None
            for name, need in needs[0].items():
                found.setdefault(name, set()).add(need)
            more |= needs[1]
            self_calls = self_calls or needs[2]
    selector = _SCRIPT_SELECTORS[key] = Selector(found, more, self_calls)
    return selector


def prepare(unit: Unit, batch: list[tuple[CompiledRule, Any]]) -> None:
    """Run the command rules about to run on a unit in one pass; only the statements of a
    long script in which one of them may match are walked."""
    rules = [rule for rule, _ in batch]
    _PREPARED[:] = [unit, _run(rules, unit)]


match_command.prepare = prepare  # type: ignore[attr-defined]


# Shared by every command rule: the engine skips them all at once on units with no shell text.
match_command.gate = _is_shell  # type: ignore[attr-defined]


def _memo_key(unit: Unit) -> tuple[str, int, str | None] | None:
    """What a command rule's hits on a transcript event depend on, besides the event's agent
    and profile: its command line, where it starts and the project it runs in (see
    RuleSet._event_plan)."""
    event = getattr(unit, "event", None)
    if event is None or event.command is None:
        return None
    return event.command, event.command_offset, event.ctx.cwd


match_command.memo_key = _memo_key  # type: ignore[attr-defined]
# Only a tool call runs a shell command (asked once per event signature, see
# RuleSet._event_plan): messages and results never reach the gate.
match_command.accepts = lambda rule, event: event.kind == "call"  # type: ignore[attr-defined]
