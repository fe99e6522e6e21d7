"""OpenAI Codex CLI: Claude Code's event shape with Codex's tools; no ask.

Built against openai/codex's hooks (the `codex-hooks` schema of 2026-04/05, Codex 0.124+:
hooks on by default, run for shell, apply_patch and MCP tools): input `session_id`,
`turn_id`, `transcript_path`, `cwd`, `model`, `permission_mode`, `hook_event_name`
(PreToolUse, PermissionRequest, PostToolUse, UserPromptSubmit, Stop, SessionStart...),
`tool_name` (`Bash`/`shell`/`exec_command` with `command` as a string or an argv list,
`apply_patch`, `mcp__server__tool`), `tool_input`. PreToolUse answers Claude Code's
`hookSpecificOutput.permissionDecision`, but `ask` is not honoured (openai/codex#20756 was
closed unmerged: the call runs), so an ask becomes `--ask-fallback` (deny by default, the
reason saying how to proceed). Registered in `.codex/hooks.json` or `~/.codex/hooks.json`.
"""

from __future__ import annotations

from typing import Any

from wukong_lint.agents.base import (
    OTHER,
    POST_TOOL,
    PRE_TOOL,
    PROMPT,
    AdapterInputError,
    AgentEvent,
    Capabilities,
    Verdict,
    canonical_call,
    dumps,
    resolve_ask,
    text,
)

NAME = "codex"
TITLE = "Codex CLI"
CAPS = Capabilities(deny=True, ask=False, edit_input=False, post_tool="block", prompt="block",
                    subagent=False)  # fmt: skip
BUILT_AGAINST = "openai/codex codex-hooks schema, Codex CLI 0.124+ (2026-05)"
CONFIG = {"project": ".codex/hooks.json", "user": ".codex/hooks.json"}
CONFIG_FORMAT = "matcher-groups"
EVENTS = ("PreToolUse", "PostToolUse", "UserPromptSubmit")
# `install --hygiene`: the event that cleans the session file (no SessionEnd: Stop,
# with transcript_path, after each turn)
HYGIENE_EVENTS: tuple[str, ...] = ("Stop",)
MATCHER = "*"
_EVENTS = {"PreToolUse": PRE_TOOL, "PostToolUse": POST_TOOL, "UserPromptSubmit": PROMPT}


def matches(data: dict[str, Any]) -> bool:
    return isinstance(data.get("hook_event_name"), str) and "turn_id" in data


def to_event(data: dict[str, Any]) -> AgentEvent:
    name = data.get("hook_event_name")
    if not isinstance(name, str):
        raise AdapterInputError("Codex event has no hook_event_name")
    event = _EVENTS.get(name, OTHER)
    tool = text(data, "tool_name")
    kind, judged, tool_input = "", tool, data.get("tool_input")
    if event in (PRE_TOOL, POST_TOOL):
        if not tool:
            raise AdapterInputError(f"Codex {name} event has no tool_name")
        kind, judged, tool_input = canonical_call(tool, tool_input)
    if event == PROMPT and text(data, "prompt") is None:
        raise AdapterInputError("Codex UserPromptSubmit event has no prompt")
    return AgentEvent(
        agent=NAME, native_event=name, event=event, kind="prompt" if event == PROMPT else kind,
        tool=judged, agent_tool=tool, tool_input=tool_input,
        tool_response=data.get("tool_response"), prompt=text(data, "prompt"),
        cwd=text(data, "cwd"), session=text(data, "session_id"),
        transcript_path=text(data, "transcript_path"),
    )  # fmt: skip


def answer(verdict: Verdict, event: AgentEvent, ask_fallback: str) -> tuple[int, str, str]:
    verdict = resolve_ask(verdict, "Codex", ask_fallback)
    if verdict.decision == "allow":
        out = dumps({"systemMessage": verdict.message}) if verdict.message else ""
        return 0, out, verdict.warning
    if event.event == PRE_TOOL:
        out = {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                      "permissionDecision": "deny",
                                      "permissionDecisionReason": verdict.reason}}  # fmt: skip
        return 0, dumps(out), ""
    return 0, dumps({"decision": "block", "reason": verdict.reason}), ""


def synthetic(command: str, cwd: str) -> dict[str, Any]:
    return {"session_id": "wukong-lint-doctor", "turn_id": "doctor", "transcript_path": None,
            "cwd": cwd, "model": "", "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command}}  # fmt: skip


def decision_of(code: int, out: str) -> str:
    from wukong_lint.agents.base import read_answer

    return read_answer(code, out, ("hookSpecificOutput", "permissionDecision"))
