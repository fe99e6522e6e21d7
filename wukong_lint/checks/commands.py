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
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterator
from typing import Any

from wukong_lint.checks.shell import WRITE_REDIRECTS, Command, parse, split_options
from wukong_lint.engine.matchers import Hit
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.model import Unit

# -- matching -------------------------------------------------------------------------------------


def _has_flag(options: list[str], spec: str, bundles: bool) -> bool:
    for option in options:
        if option == spec or (spec.startswith("--") and option.startswith(spec + "=")):
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
    return any(re.fullmatch(p, value) for p in patterns)


_PROGRAM_TESTS: dict[int, tuple[list[str], frozenset[str], tuple[str, ...]]] = {}


def _program_matches(patterns: list[str], name: str) -> bool:
    """fnmatch of a program name against a block's `program` list, with the literal names
    looked up in a set (most commands of a long script match no block)."""
    cached = _PROGRAM_TESTS.get(id(patterns))
    if cached is None or cached[0] is not patterns:
        literal = frozenset(p for p in patterns if not any(c in p for c in "*?["))
        globs = tuple(p for p in patterns if p not in literal)
        cached = _PROGRAM_TESTS[id(patterns)] = (patterns, literal, globs)
    _, literal, globs = cached
    return name in literal or any(fnmatch.fnmatchcase(name, p) for p in globs)


def block_matches(block: dict[str, Any], command: Command) -> bool:
    name = command.name
    if block["program"] and not _program_matches(block["program"], name):
        return False
    if block["via"] and not any(w in command.via for w in block["via"]):
        return False
    options, positional = split_options(command.argv, frozenset(block["value_options"]))
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
    if block["args_any"] and not any(_full(block["args_any"], a) for a in positional):
        return False
    if block["args_none"] and any(_full(block["args_none"], a) for a in positional):
        return False
    if block["stdin_from"] and not any(p in command.stdin_from for p in block["stdin_from"]):
        return False
    if block["substitution_from"] and not any(
        p in command.substitutions for p in block["substitution_from"]
    ):
        return False
    return not block["redirect_to"] or any(
        op in WRITE_REDIRECTS and _full(block["redirect_to"], target)
        for op, target in command.redirects
    )


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
    from wukong_lint.checks.shell_files import shell_text

    text = shell_text(unit.path, unit.text)
    result = None if text is None else (text, 0)
    _SHELL_TEXT[:] = [unit.text, unit.path, result]
    return result


_SHELL_TEXT: list[Any] = [None, None, None]  # (text, path, command_text) of the last file


def in_scope(scope: dict[str, Any], unit: Unit) -> bool:
    event = getattr(unit, "event", None)
    if scope["agent"] != "any" and (event is None or event.is_main != (scope["agent"] == "main")):
        return False
    return not (scope["profiles"] and (event is None or event.ctx.profile not in scope["profiles"]))


def match_command(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    params = rule.params or {}
    if not in_scope(params.get("scope") or {"agent": "any", "profiles": []}, unit):
        return
    found = command_text(unit)
    if found is None:
        return
    text, base = found
    try:
        script = parse(text)
    except Exception:  # a parser failure must never end a scan
        return
    seen: set[tuple[int, int]] = set()
    for block in params["match"]:
        if block["recursive_function"]:
            for function in script.functions:
                if function.calls_itself and (function.start, function.end) not in seen:
                    seen.add((function.start, function.end))
                    yield Hit(base + function.start, base + function.end, base + function.start,
                              base + function.end)  # fmt: skip
    # commands first, then only the blocks that can name their program (a long script has
    # hundreds of commands, and most blocks are for one program: git, rm, chmod...)
    literal, other = _blocks_by_program(params["match"])
    for command in script.commands:
        span = (command.start, command.end)
        if span in seen:
            continue
        for block in literal.get(command.name, ()) + other:
            if block_matches(block, command):
                seen.add(span)
                start, end = base + command.start, base + command.end
                yield Hit(start, end, start, end)
                break


_BLOCK_INDEX: dict[int, tuple[list[Any], dict[str, tuple[Any, ...]], tuple[Any, ...]]] = {}


def _blocks_by_program(blocks: list[dict[str, Any]]) -> tuple[dict, tuple]:
    """The command blocks of a rule by literal program name, and those that any program may
    match (globs, no program); computed once per rule."""
    cached = _BLOCK_INDEX.get(id(blocks))
    if cached is None or cached[0] is not blocks:
        literal: dict[str, list[Any]] = {}
        other = []
        for block in blocks:
            if block["recursive_function"]:
                continue
            names = block["program"]
            if names and not any(c in p for p in names for c in "*?["):
                for name in names:
                    literal.setdefault(name, []).append(block)
            else:
                other.append(block)
        cached = _BLOCK_INDEX[id(blocks)] = (
            blocks,
            {name: tuple(found) for name, found in literal.items()},
            tuple(other),
        )
    return cached[1], cached[2]


def _is_shell(unit: Unit) -> bool:
    return command_text(unit) is not None


# Shared by every command rule: the engine skips them all at once on units with no shell text.
match_command.gate = _is_shell  # type: ignore[attr-defined]


def _memo_key(unit: Unit) -> tuple[str, int] | None:
    """What a command rule's hits on a transcript event depend on, besides the event's agent
    and profile: its command line and where it starts (see RuleSet._event_plan)."""
    event = getattr(unit, "event", None)
    if event is None or event.command is None:
        return None
    return event.command, event.command_offset


match_command.memo_key = _memo_key  # type: ignore[attr-defined]
# Only a tool call runs a shell command (asked once per event signature, see
# RuleSet._event_plan): messages and results never reach the gate.
match_command.accepts = lambda rule, event: event.kind == "call"  # type: ignore[attr-defined]
