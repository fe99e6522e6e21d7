"""Claude Code: the hook's own dialect (the judge speaks it; this adapter passes it on).

Built against the Claude Code hooks reference (code.claude.com/docs/en/hooks, read
2026-07): input `session_id`, `transcript_path`, `cwd`, `permission_mode`,
`hook_event_name`, `tool_name`, `tool_input`, `tool_use_id`, `agent_id`/`agent_type` inside
a sub-agent; PreToolUse answers `hookSpecificOutput.permissionDecision` allow/deny/ask with
`permissionDecisionReason`; PostToolUse and UserPromptSubmit `decision: block` + `reason`.
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
    text,
)
from wukong_lint.model.tools import tool_kind

NAME = "claude-code"
TITLE = "Claude Code"
CAPS = Capabilities(deny=True, ask=True, edit_input=True, post_tool="block", prompt="block",
                    subagent=True)  # fmt: skip
BUILT_AGAINST = "Claude Code hooks reference, code.claude.com/docs/en/hooks (2026-07)"
# Where the hook is registered: (scope, path relative to the project or the home folder)
CONFIG = {"project": ".claude/settings.json", "user": ".claude/settings.json"}
CONFIG_FORMAT = "matcher-groups"  # {"hooks": {EVENT: [{"matcher", "hooks": [...]}]}}
EVENTS = ("PreToolUse", "PostToolUse", "UserPromptSubmit")
# `install --hygiene`: the event that cleans the session file (SessionEnd:
# transcript_path; it cannot block)
HYGIENE_EVENTS: tuple[str, ...] = ("SessionEnd",)
MATCHER = "*"
_EVENTS = {"PreToolUse": PRE_TOOL, "PostToolUse": POST_TOOL, "UserPromptSubmit": PROMPT}
_PASSED_ON = ("permission_mode", "agent_id", "agent_type", "tool_use_id")


def matches(data: dict[str, Any]) -> bool:
    return isinstance(data.get("hook_event_name"), str)


def to_event(data: dict[str, Any]) -> AgentEvent:
    """The event as it is (the judge reads Claude Code's shape itself)."""
    name = data.get("hook_event_name")
    if not isinstance(name, str):
        raise AdapterInputError("Claude Code event has no hook_event_name")
    event = _EVENTS.get(name, OTHER)
    tool = text(data, "tool_name")
    return AgentEvent(
        agent=NAME, native_event=name, event=event,
        kind="prompt" if event == PROMPT else tool_kind(tool) if tool else "",
        tool=tool, agent_tool=tool, tool_input=data.get("tool_input"),
        tool_response=data.get("tool_response"), prompt=text(data, "prompt"),
        cwd=text(data, "cwd"), session=text(data, "session_id"),
        transcript_path=text(data, "transcript_path"),
        extra=tuple((k, data[k]) for k in _PASSED_ON if k in data),
    )  # fmt: skip


def answer(verdict: Verdict, event: AgentEvent, ask_fallback: str) -> tuple[int, str, str]:
    """Never called by the hook (it answers Claude Code directly); here for symmetry."""
    from wukong_lint.agents.base import dumps

    if verdict.decision == "allow":
        return 0, "", verdict.warning
    if event.event == PRE_TOOL:
        out = {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                      "permissionDecision": verdict.decision,
                                      "permissionDecisionReason": verdict.reason}}  # fmt: skip
        return 0, dumps(out), ""
    return 0, dumps({"decision": "block", "reason": verdict.reason}), ""


def synthetic(command: str, cwd: str) -> dict[str, Any]:
    """A PreToolUse event of a shell command in this agent's shape (`doctor`)."""
    return {"session_id": "wukong-lint-doctor", "transcript_path": "", "cwd": cwd,
            "permission_mode": "default", "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command}}  # fmt: skip


def decision_of(code: int, out: str) -> str:
    """deny / ask / allow as this agent reads a hook's answer to a PreToolUse event."""
    from wukong_lint.agents.base import read_answer

    return read_answer(code, out, ("hookSpecificOutput", "permissionDecision"))
