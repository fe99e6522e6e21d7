"""戒 Layer 3 (body-boundary): what the main agent does itself during a turn.

- `turn-budget`: more file reads (distinct files), Glob/Grep searches or changed lines in
  one user turn than the body may do itself (2 files, 1 search, 10 lines): reported once,
  on the call that goes over.
- `shell-create`: a file created through the shell (`cat > f <<EOF`, `tee f`, `touch f`,
  `cp`/`mv`/`install` to a path the transcript never touched, `> new-file`).
- `long-operation`: a command likely to run over 30 s in the foreground (`sleep 60`, a
  `timeout` of 30 000 ms or more, `docker build`, `npm install`, `terraform apply`, ...);
  a call with `run_in_background` is fine.

The running totals come from the transcript reader (`event.protocol`, see
protocol/turn_facts.py); the rules' parameters decide.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterator
from typing import Any

from wukong_lint.engine.matchers import Hit
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.model import Unit
from wukong_lint.model.events import EDIT_TOOLS, SHELL_TOOLS
from wukong_lint.protocol.turn_facts import FILE_READS, SEARCHES
from wukong_lint.shell.commands import in_scope


def _hit(unit: Unit, note: str) -> Hit:
    end = unit.text.find("\n")
    return Hit(0, end if end >= 0 else len(unit.text), 0, 0, note)


def _exempt(path: str, globs: list[str]) -> bool:
    # Every read of a turn asks again about each file read before it in the turn: the
    # answers are remembered (a bounded memo: a long session reads thousands of paths).
    key = (path, tuple(globs))
    found = _EXEMPT.get(key)
    if found is None:
        path = path.replace("\\", "/")
        found = any(
            fnmatch.fnmatchcase(path, g) or fnmatch.fnmatchcase(path, "*/" + g) for g in globs
        )
        if len(_EXEMPT) >= 4096:
            _EXEMPT.clear()
        _EXEMPT[key] = found
    return found


_EXEMPT: dict[tuple[str, tuple[str, ...]], bool] = {}


def _wukong_main(rule: CompiledRule, event: Any) -> bool:
    scope = (rule.params or {})["scope"]
    if scope["agent"] != "any" and event.is_main != (scope["agent"] == "main"):
        return False
    return not (scope["profiles"] and event.ctx.profile not in scope["profiles"])


# -- turn budget ----------------------------------------------------------------------------


def match_turn_budget(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    event = getattr(unit, "event", None)
    facts = getattr(event, "protocol", None)
    if not facts or not in_scope(rule.params["scope"], unit):
        return
    check, limit = rule.params["check"], rule.params["limit"]
    if check == "reads":
        found = facts.get("reads")
        if found is None:
            return
        before, path = found
        globs = rule.params["exempt_paths"]
        if _exempt(path, globs):
            return
        count = 1 + sum(1 for p in before if not _exempt(p, globs))
        if count == limit + 1:
            yield _hit(unit, f"{count} files read this turn, limit {limit}: delegate to @眼 eye")
    elif check == "searches":
        count = facts.get("searches")
        if count == limit + 1:
            yield _hit(unit, f"{count} searches this turn, limit {limit}: delegate to @眼 eye")
    else:
        edit = facts.get("edit")
        if edit is None:
            return
        before, size = edit
        # a single edit over the limit is `body-boundary.edit-size`'s
        if before <= limit < before + size and size <= limit:
            yield _hit(
                unit, f"{before + size} lines changed this turn, limit {limit}: delegate to @身"
            )


def _budget_tool(check: str, tool: str | None) -> bool:
    """Whether a call of `tool` can carry the running total a `turn-budget` check reads (the
    transcript reader sets `reads` on file reads, `searches` on searches, either on a shell
    command, `edit` on edits): a call of another tool never reaches that check."""
    shell = tool is not None and tool.lower() in SHELL_TOOLS  # (reads and searches by shell)
    if check == "reads":
        return tool in FILE_READS or shell
    if check == "searches":
        return tool in SEARCHES or shell
    return tool in EDIT_TOOLS


_BUDGET_KEYS = frozenset({"reads", "searches", "edit"})
match_turn_budget.gate = lambda unit: not _BUDGET_KEYS.isdisjoint(unit.event.protocol or ())  # type: ignore[attr-defined]


def _budget_gate(rules: list[CompiledRule]) -> Any:
    """The gate of these turn-budget rules: a call whose running total reaches none of their
    limits is turned away before any rule runs (a check fires once, on the call that goes
    over its limit, so most calls of a turn reach none). Exact: `match_turn_budget` finds
    nothing on what it turns away."""
    limits: dict[str, list[int]] = {}
    for rule in rules:
        check = rule.params["check"]  # (as the matcher reads it: any other check is edits)
        check = check if check in ("reads", "searches") else "edit-lines"
        limits.setdefault(check, []).append(rule.params["limit"])
    # reads: the count is 1 + the files read before that are not exempt, so at most
    # 1 + len(before): below the smallest limit no rule's `limit + 1` is reached
    fewest = min(limits["reads"]) if "reads" in limits else None
    searches = frozenset(limit + 1 for limit in limits.get("searches", ()))
    edit_limits = tuple(sorted(set(limits.get("edit-lines", ()))))

    def gate(unit: Unit) -> bool:
        facts = unit.event.protocol  # type: ignore[attr-defined]
        if not facts:
            return False
        if fewest is not None:
            reads = facts.get("reads")
            if reads is not None and len(reads[0]) >= fewest:
                return True
        if searches and facts.get("searches") in searches:
            return True
        edit = facts.get("edit")
        if edit is not None and edit_limits:
            before, size = edit
            return any(before <= limit < before + size and size <= limit for limit in edit_limits)
        return False

    return gate


match_turn_budget.gate_for = _budget_gate  # type: ignore[attr-defined]
match_turn_budget.accepts = lambda rule, event: (  # type: ignore[attr-defined]
    event.kind == "call"
    and _budget_tool(rule.params["check"], event.tool)
    and _wukong_main(rule, event)
)


# -- files created through the shell -----------------------------------------------------------

_CREATES = re.compile(r">|\btee\b|\btouch\b|\bcp\b|\bmv\b|\binstall\b")
_CREATORS_ALL = frozenset({"tee", "touch"})
_CREATORS_LAST = frozenset({"cp", "mv", "install"})


def created_paths(command: str) -> list[str]:
    """Files a command line writes through redirection, tee, touch or cp/mv/install."""
    if not _CREATES.search(command):
        return []
    from wukong_lint.shell.parse import WRITE_REDIRECTS, parse, split_options

    try:
        script = parse(command)
    except Exception:
        return []
    found: list[str] = []
    for cmd in script.commands:
        for op, target in cmd.redirects:
            if op in WRITE_REDIRECTS and target and not target.isdigit() and target != "-":
                found.append(target)
        name = cmd.name
        if name not in _CREATORS_ALL and name not in _CREATORS_LAST:
            continue
        options, positional = split_options(cmd.argv)
        if name in _CREATORS_ALL:
            found += [a for a in positional if a and not a.startswith("-")]
        elif len(positional) >= 2 and not any(o in ("-t", "--target-directory") for o in options):
            found.append(positional[-1])
    return found


def _seen(path: str, event: Any, live: bool) -> bool:
    """Whether `path` existed before the command: on disk for the live hook (it runs before
    the command), else touched earlier in the transcript."""
    if live:
        full = os.path.join(event.ctx.cwd or ".", os.path.expanduser(path))
        return os.path.lexists(full)
    # (paths the transcript touched after this call was read do not count: a scan may read
    # ahead of the unit it scans, see engine/scan.py `_batches`)
    seen = event.ctx.seen_paths
    mark = event.seen_mark
    order = seen.get(path)
    if order is not None and (mark is None or order < mark):
        return True
    cwd = event.ctx.cwd
    if cwd and not os.path.isabs(path):
        order = seen.get(os.path.normpath(os.path.join(cwd, path)))
        return order is not None and (mark is None or order < mark)
    return False


def match_shell_create(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    event = getattr(unit, "event", None)
    if event is None or event.command is None or not in_scope(rule.params["scope"], unit):
        return
    if event.is_error:
        return  # the command failed: nothing was made
    ignore = rule.params["ignore_paths"]
    live = unit.path == "<hook>"
    for path in created_paths(event.command):
        if path.endswith("/") or _exempt(path, ignore) or _seen(path, event, live):
            continue
        yield _hit(unit, f"creates {path} through the shell: file creation goes to @身")
        return


match_shell_create.gate = lambda unit: (  # type: ignore[attr-defined]
    unit.event.command is not None and _CREATES.search(unit.event.command) is not None
)
match_shell_create.accepts = lambda rule, event: (  # type: ignore[attr-defined]
    event.kind == "call" and _wukong_main(rule, event)
)


# -- long operations in the foreground ---------------------------------------------------------

_SLEEP = re.compile(r"(?:^|[;&|(\s])sleep\s+(\d+(?:\.\d+)?)([smhd]?)\b")
_UNIT = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}
_COMPILED: dict[str, re.Pattern[str]] = {}


def _pattern(text: str) -> re.Pattern[str]:
    found = _COMPILED.get(text)
    if found is None:
        found = _COMPILED[text] = re.compile(text)
    return found


def long_reason(command: str, data: Any, params: dict[str, Any]) -> str | None:
    """Why a shell call likely runs longer than `min_seconds` (None: it does not, or it runs
    in the background)."""
    if isinstance(data, dict) and data.get("run_in_background") is True:
        return None
    if command.rstrip().endswith("&") and not command.rstrip().endswith("&&"):
        return None  # the shell's own background job
    limit = params["min_seconds"]
    for match in _SLEEP.finditer(command):
        seconds = float(match.group(1)) * _UNIT[match.group(2)]
        if seconds >= limit:
            return f"sleep {match.group(1)}{match.group(2)}"
    timeout = data.get("timeout") if isinstance(data, dict) else None
    if isinstance(timeout, (int, float)) and timeout >= limit * 1000:
        return f"timeout {int(timeout)} ms"
    head = command[:4096]  # (the rule's regexes never see more: bounded on hostile input)
    if _any_pattern(tuple(params["commands"])).search(head):
        return "a long-running command"
    return None


def _any_pattern(texts: tuple[str, ...]) -> Any:
    """One regex that finds what any of `texts` finds (one pass over the command instead of
    one per pattern); the patterns one by one when they cannot be joined as they are (a
    pattern with its own global flags, or with groups that back-references may count)."""
    found = _JOINED.get(texts)
    if found is None:
        joined = None
        if texts and all(_pattern(t).groups == 0 for t in texts):
            try:
                joined = re.compile("|".join(f"(?:{text})" for text in texts))
            except re.error:  # e.g. a pattern's own (?i), which must start the expression
                joined = None
        found = joined if joined is not None else _Each([_pattern(t) for t in texts])
        _JOINED[texts] = found
    return found


class _Each:
    def __init__(self, patterns: list[re.Pattern[str]]) -> None:
        self.patterns = patterns

    def search(self, text: str) -> bool:
        return any(p.search(text) for p in self.patterns)


_JOINED: dict[tuple[str, ...], Any] = {}


def match_long_operation(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    event = getattr(unit, "event", None)
    if event is None or event.command is None or not in_scope(rule.params["scope"], unit):
        return
    reason = long_reason(event.command, event.input, rule.params)
    if reason:
        yield _hit(unit, f"{reason} in the foreground: hand it to an avatar, in the background")


match_long_operation.gate = lambda unit: unit.event.command is not None  # type: ignore[attr-defined]


def _long_memo_key(unit: Unit) -> tuple[Any, ...] | None:
    """What a long-operation rule's hit on a call depends on besides its event signature and
    its params: the command, the input's background flag and timeout (`long_reason`), and
    where the call's first line ends (`_hit`). A session runs the same commands many times.
    Short commands only: the memo holds its keys."""
    event = unit.event  # type: ignore[attr-defined]
    command = event.command
    if command is None or len(command) > 1024:
        return None
    data = event.input
    background = timeout = None
    if isinstance(data, dict):
        background = data.get("run_in_background") is True
        timeout = data.get("timeout")
        if not isinstance(timeout, (int, float)):
            timeout = None  # (not a number: `long_reason` ignores it)
    end = unit.text.find("\n")
    return (end if end >= 0 else len(unit.text), command, background, timeout)


match_long_operation.memo_key = _long_memo_key  # type: ignore[attr-defined]
match_long_operation.accepts = lambda rule, event: (  # type: ignore[attr-defined]
    event.kind == "call" and _wukong_main(rule, event)
)
