"""Claude Code hook mode: judge one tool call (PreToolUse) or one tool result (PostToolUse).

The event JSON comes on stdin. PreToolUse: a finding at or above the threshold blocks the
call, either with exit code 2 and the reason on stderr (Claude Code shows it to the model),
or with exit 0 and a JSON `permissionDecision: deny` on stdout. PostToolUse: secrets in the
tool's response are reported the same way (the call has run; the model is told not to repeat
or use the value). Bad input never blocks silently: it exits 1 (a non-blocking error in
Claude Code) with a one-line reason.
"""

from __future__ import annotations

import json
import os
from typing import Any

from wukong_lint.model import Finding, Severity
from wukong_lint.sources.transcript_events import (
    EDIT_TOOLS,
    Event,
    call_event,
    join_texts,
    make_unit,
    strings,
)


class HookInputError(Exception):
    pass


def parse_event(raw: str) -> dict[str, Any]:
    if not raw.strip():
        raise HookInputError("no hook event on stdin (expected Claude Code hook JSON)")
    try:
        data = json.loads(raw)
    except ValueError as err:
        raise HookInputError(f"hook event is not valid JSON: {err.msg} at {err.pos}") from None
    except RecursionError:
        raise HookInputError("hook event is nested too deeply to read") from None
    if not isinstance(data, dict):
        raise HookInputError("hook event must be a JSON object")
    name = data.get("hook_event_name")
    if name not in ("PreToolUse", "PostToolUse"):
        raise HookInputError(
            f"unsupported hook_event_name {name!r} (expected PreToolUse or PostToolUse)"
        )
    if not isinstance(data.get("tool_name"), str):
        raise HookInputError("hook event has no tool_name")
    return data


def event_units(
    data: dict[str, Any], profile: str | None, notes: list[str] | None = None
) -> list[Any]:
    """The unit of a hook event. Memory-bank gating (profile `wukong`, a repository with a
    `memory-bank/` folder) needs what the agent read earlier in the user's turn: for a write
    tool call it is read from the session transcript (`transcript_path`), backwards from its
    end to the turn start. What makes that uncertain is added to `notes`."""
    from wukong_lint.sources import transcripts

    cwd = data.get("cwd") if isinstance(data.get("cwd"), str) else None
    transcripts.OPTIONS["profile"] = profile
    ctx = transcripts.make_context(os.devnull, cwd)
    agent_id = data.get("agent_id")
    agent_type = data.get("agent_type") if isinstance(data.get("agent_type"), str) else None
    is_main = not agent_id and not agent_type
    agent = "main" if is_main else f"{agent_type or 'subagent'}:{agent_id or '?'}"
    tool = data["tool_name"]
    if data["hook_event_name"] == "PreToolUse":
        event, text = call_event(
            ctx, 1, tool, data.get("tool_input"), None, agent, agent_type, is_main
        )
        if ctx.memory_bank and ctx.profile == "wukong" and tool in EDIT_TOOLS:
            event.turn_reads = _turn_reads(data, None if is_main else agent_id, notes)
        if ctx.memory_bank and ctx.profile == "wukong" and tool in ("Task", "Agent"):
            from wukong_lint.checks.memory_gate import hook_confirmation

            event.mb_confirm = hook_confirmation(data, notes)
        return [make_unit("<hook>", event, text)]
    event = Event("result", 1, ctx)
    event.tool, event.agent, event.agent_type, event.is_main = tool, agent, agent_type, is_main
    text = join_texts(strings(data.get("tool_response"), []))
    return [make_unit("<hook>", event, text)]


def _turn_reads(data: dict[str, Any], agent_id: Any, notes: list[str] | None) -> Any:
    """Files read earlier in the turn, or None (unknown: no transcript to read them from, and
    the memory-bank context gate stays silent rather than guess)."""
    from wukong_lint.sources.transcripts import current_turn_reads

    path = data.get("transcript_path")
    if not isinstance(path, str) or not path:
        if notes is not None:
            notes.append("no transcript_path: memory-bank reads of this turn unknown")
        return None
    reads, note = current_turn_reads(path, agent_id if isinstance(agent_id, str) else None)
    if note is not None and notes is not None:
        notes.append(f"memory-bank gate: {note}")
    if note is not None and note.startswith("cannot read"):
        return None
    return reads


def decide(
    data: dict[str, Any], findings: list[Finding], threshold: Severity, mode: str
) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) for the findings of one hook event."""
    event_name = data["hook_event_name"]
    if event_name == "PostToolUse":
        findings = [f for f in findings if f.category == "secret"]
    blocking = [f for f in findings if f.severity >= threshold]
    if not blocking:
        return 0, "", ""
    lines = [f"wukong-lint: {f.rule_id} ({f.severity.label}): {f.message}" for f in blocking]
    if event_name == "PreToolUse":
        reason = "Blocked by wukong-lint. " + "; ".join(lines)
    else:
        reason = (
            "wukong-lint found secrets in the tool output; do not repeat, store or use them. "
            + "; ".join(lines)
        )
    if mode == "json":
        if event_name == "PreToolUse":
            out = {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": reason,
                }
            }
        else:
            out = {
                "decision": "block",
                "reason": reason,
                "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": reason},
            }
        return 0, json.dumps(out, ensure_ascii=False) + "\n", ""
    return 2, "", reason + "\n"
