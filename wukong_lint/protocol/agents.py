"""Agent boundaries: what the main agent may do itself (`edit` kind), what a sub-agent's role
allows (`avatar` kind), the memory-bank gate (`memory-gate` kind) and transcript integrity
(`integrity` kind). All of them read the event a transcript unit carries.
"""

from __future__ import annotations

import difflib
import fnmatch
from collections.abc import Iterator
from typing import Any

from wukong_lint.engine.matchers import Hit
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.engine.scope import in_scope
from wukong_lint.model import Unit
from wukong_lint.model.events import event_paths, patch_files


def _event(unit: Unit) -> Any:
    return getattr(unit, "event", None)


def _scope_accepts(scope: dict[str, Any], event: Any) -> bool:
    """`in_scope` on an event's signature (whether it is the main agent's, the profile)."""
    if scope["agent"] != "any" and event.is_main != (scope["agent"] == "main"):
        return False
    return not (scope["profiles"] and event.ctx.profile not in scope["profiles"])


def _hit(unit: Unit, note: str = "", needle: str | None = None) -> Hit:
    start = unit.text.find(needle) if needle else -1
    if start < 0:
        line_end = unit.text.find("\n")
        return Hit(0, line_end if line_end >= 0 else len(unit.text), 0, 0, note)
    return Hit(start, start + len(needle or ""), start, start + len(needle or ""), note)


# -- edit size / file creation (body-boundary) ----------------------------------------------------


def _lines(text: Any) -> list[str]:
    return text.splitlines() if isinstance(text, str) else []


def changed_lines(old: Any, new: Any) -> int:
    """max(lines added, lines removed) in a line diff of old vs new."""
    a, b = _lines(old), _lines(new)
    start = 0
    while start < len(a) and start < len(b) and a[start] == b[start]:
        start += 1
    end_a, end_b = len(a), len(b)
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a -= 1
        end_b -= 1
    a, b = a[start:end_a], b[start:end_b]
    if not a or not b or len(a) * len(b) > 4_000_000:
        return max(len(a), len(b))
    if len(a) == 1 or len(b) == 1:
        # (a one-line side, most edits: what SequenceMatcher makes of it without building one.
        # Its only possible match is that line inside the other side, found once: the other
        # lines there are added (removed); without it, a `replace` of all of both sides)
        one, other = (a[0], b) if len(a) == 1 else (b[0], a)
        return len(other) - 1 if one in other else len(other)
    added = removed = 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            removed += i2 - i1
            added += j2 - j1
    return max(added, removed)


def edit_size(tool: str | None, data: Any, result: Any, new_file: bool | None) -> int:
    if not isinstance(data, dict):
        return 0
    if tool == "MultiEdit":
        edits = data.get("edits")
        if not isinstance(edits, list):
            return 0
        return sum(
            changed_lines(e.get("old_string"), e.get("new_string"))
            for e in edits
            if isinstance(e, dict)
        )
    if tool == "Write":
        original = result.get("originalFile") if isinstance(result, dict) else None
        if isinstance(original, str) and not new_file:
            return changed_lines(original, data.get("content"))
        return len(_lines(data.get("content")))
    if tool == "NotebookEdit":
        return len(_lines(data.get("new_source")))
    if tool == "apply_patch" or ("input" in data and isinstance(data.get("input"), str)):
        return sum(max(a, r) for _, a, r in patch_files(data.get("input") or ""))
    return changed_lines(data.get("old_string"), data.get("new_string"))


def match_edit(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    params = rule.params or {}
    event = _event(unit)
    if event is None or event.kind != "call" or event.tool not in params["tools"]:
        return
    if not in_scope(params["scope"], unit):
        return
    paths = event_paths(event)
    needle = paths[0] if paths else None
    if paths and event.ctx.memory_bank and _bank_notes(paths, event.ctx):
        return  # the body writes the memory bank itself in this version (after the user's yes)
    if params["creates_file"]:
        if event.new_file and (event.tool == "Write" or event.tool == "apply_patch"):
            yield _hit(unit, f"creates {needle}" if needle else "creates a file", needle)
        return
    limit = params["max_changed_lines"]
    # (the 戒 protocol's turn totals measured it already: protocol/turn_facts.py)
    known = event.protocol.get("edit") if event.protocol is not None else None
    size = (
        known[1]
        if known is not None
        else edit_size(event.tool, event.input, event.result, event.new_file)
    )
    if limit is not None and size > limit:
        yield _hit(unit, f"{size} lines changed, limit {limit}", needle)


def _bank_notes(paths: list[str], ctx: Any) -> bool:
    """Whether every path is a Markdown file of memory-bank/ and the session's protocol
    version has the body write the memory bank (memory-bank-skill v7.4.3): its own flow,
    not work that belongs to 身."""
    if not all(("memory-bank/" in p) and p.endswith(".md") for p in paths):
        return False
    from wukong_lint.protocol.versions import version_of

    return bool(version_of(ctx).memory_bank["writer"] == "main")


# Which events an edit rule can match, from their signature (the engine asks once per
# signature, so most transcript events never reach the matcher; see RuleSet._event_plan).
match_edit.accepts = lambda rule, event: (  # type: ignore[attr-defined]
    event.kind == "call"
    and event.tool in (rule.params or {})["tools"]
    and _scope_accepts((rule.params or {})["scope"], event)
)


# -- avatar roles (avatar-boundary) ---------------------------------------------------------------


def _role_key(name: str) -> str:
    return name.strip().lstrip("@").lower()


def _definition_verdict(
    definition: tuple[tuple[str, ...] | None, tuple[str, ...]], tool: str, canonical: str
) -> str | None:
    allowed, disallowed = definition
    if tool in disallowed or canonical in disallowed:
        return "disallowed by its agent definition"
    if allowed is not None and tool not in allowed and canonical not in allowed:
        return "not in the tools of its agent definition"
    return None


def _role_verdict(role: dict[str, Any], tool: str, canonical: str, params: dict[str, Any],
                  paths: list[str]) -> str | None:  # fmt: skip
    if tool in role["forbidden"] or canonical in role["forbidden"]:
        return f"forbidden for {role['name']}"
    allowed = role["allowed"]
    if (
        allowed is not None
        and "All" not in allowed
        and canonical not in allowed
        and tool not in allowed
        and canonical in params["mutating"]
    ):
        return f"not among the tools of {role['name']}"
    limits = role["path_limits"].get(canonical) or role["path_limits"].get(tool)
    if limits and any(not any(fnmatch.fnmatchcase(p, g) for g in limits) for p in paths):
        return f"{role['name']} may use {canonical} only on {', '.join(limits)}"
    return None


# A rule's roles by name and alias (`_role_key`), made once per rule: every sub-agent call
# asks. The rule's params are kept beside the table, so a table is used only for the params
# it was made from (an id can be reused once they are gone); a few rules: bounded.
_ROLE_TABLES: dict[int, tuple[Any, dict[str, Any]]] = {}


def _roles(params: dict[str, Any]) -> dict[str, Any]:
    """Role key -> the first role naming it (its name or an alias), as the rule lists them."""
    found = _ROLE_TABLES.get(id(params))
    if found is not None and found[0] is params:
        return found[1]
    table: dict[str, Any] = {}
    for role in params["roles"]:
        for name in (role["name"], *role["aliases"]):
            table.setdefault(_role_key(name), role)
    if len(_ROLE_TABLES) > 256:
        _ROLE_TABLES.clear()
    _ROLE_TABLES[id(params)] = (params, table)
    return table


# a version's avatar as a role (the versions live for the process: their ids are stable)
_ROLE_DICTS: dict[int, dict[str, Any]] = {}


def match_avatar(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    params = rule.params or {}
    event = _event(unit)
    if event is None or event.kind != "call" or event.is_main or not event.agent_type:
        return
    tool = event.tool or ""
    canonical = params["tool_aliases"].get(tool, tool)
    key = _role_key(event.agent_type)
    definition = event.ctx.agent_defs.get(key)
    if definition is not None:
        verdict = _definition_verdict(definition, tool, canonical)
    else:
        if params["roles"]:  # the rule's own table (a team's rule-params)
            role = _roles(params).get(key)
        else:  # the protocol version's avatars
            from wukong_lint.protocol.versions import version_of

            version = version_of(event.ctx)
            avatar = version.avatars.get(version.role_of(key) or "")
            role = _ROLE_DICTS.get(id(avatar)) if avatar is not None else None
            if avatar is not None and role is None:
                role = _ROLE_DICTS[id(avatar)] = avatar.role()
        if role is None:
            return
        verdict = _role_verdict(role, tool, canonical, params, event_paths(event))
    if verdict:
        yield _hit(unit, f"{event.agent_type} used {tool}: {verdict}")


match_avatar.accepts = lambda rule, event: (  # type: ignore[attr-defined]
    event.kind == "call" and not event.is_main
)


# -- transcript integrity ------------------------------------------------------------------------


def match_integrity(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    event = _event(unit)
    params = rule.params or {}
    if event is not None and event.problem == params.get("problem"):
        recovery = params.get("recovery")
        if not recovery:
            yield _hit(unit)
            return
        from wukong_lint.protocol.errors import matched_pattern

        matched = matched_pattern(event.problem, unit.text)
        note = f"matched “{matched}”; recovery: {recovery}" if matched else f"recovery: {recovery}"
        yield _hit(unit, note)


match_integrity.accepts = lambda rule, event: (  # type: ignore[attr-defined]
    event.problem is not None and event.problem == (rule.params or {}).get("problem")
)
