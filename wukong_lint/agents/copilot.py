"""GitHub Copilot CLI: camelCase events without an event name; `permissionDecision`.

Built against GitHub's Copilot CLI hooks reference (docs.github.com/en/copilot/reference/
hooks-reference and .../hooks-configuration, Copilot CLI 1.0.x, read 2026-07): hooks live in
`.github/hooks/*.json` (and `~/.copilot/hooks/*.json`), `{"version": 1, "hooks":
{"preToolUse": [{"type": "command", "bash": ..., "powershell": ..., "timeoutSec": 30}]}}`.
`preToolUse` input: `timestamp` (ms), `cwd`, `toolName` (`bash`, `powershell`, `view`,
`create`, `edit`, MCP tools...), `toolArgs` (the arguments as a JSON text); `postToolUse`
adds `toolResult` (`resultType`, `textResultForLlm`); `userPromptSubmitted` has `prompt`.
preToolUse answers `{"permissionDecision": "allow"|"deny"|"ask",
"permissionDecisionReason"}`; the other events' output is ignored (observe only).
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
    json_object,
    text,
)

NAME = "copilot"
TITLE = "GitHub Copilot CLI"
CAPS = Capabilities(deny=True, ask=True, edit_input=True, post_tool="none", prompt="none",
                    subagent=False)  # fmt: skip
BUILT_AGAINST = "GitHub Copilot CLI hooks reference, docs.github.com (Copilot CLI 1.0, 2026-07)"
# Copilot reads every *.json of its hooks folders: wukong-lint's registration is a file of
# its own there
CONFIG = {"project": ".github/hooks/wukong-lint.json", "user": ".copilot/hooks/wukong-lint.json"}
CONFIG_FORMAT = "copilot"  # {"version": 1, "hooks": {EVENT: [{"type", "bash", ...}]}}
EVENTS = ("preToolUse",)
# `install --hygiene`: none (sessionEnd carries no session file path)
HYGIENE_EVENTS: tuple[str, ...] = ()


def matches(data: dict[str, Any]) -> bool:
    return "hook_event_name" not in data and ("toolName" in data or "timestamp" in data)


def native_event(data: dict[str, Any]) -> str:
    """Copilot's events carry no name: told from their keys."""
    if "toolName" in data:
        return "postToolUse" if "toolResult" in data else "preToolUse"
    if "prompt" in data:
        return "userPromptSubmitted"
    if "error" in data:
        return "errorOccurred"
    return "sessionEnd" if "reason" in data else "sessionStart"


def to_event(data: dict[str, Any]) -> AgentEvent:
    if "toolName" not in data and "timestamp" not in data:
        raise AdapterInputError("Copilot event has neither toolName nor timestamp")
    name = native_event(data)
    event, kind, tool, judged, tool_input, response = OTHER, "", None, None, None, None
    if name in ("preToolUse", "postToolUse"):
        tool = text(data, "toolName")
        if not tool:
            raise AdapterInputError(f"Copilot {name} event has no toolName string")
        event = PRE_TOOL if name == "preToolUse" else POST_TOOL
        tool_input = json_object(data.get("toolArgs"), "Copilot toolArgs")
        kind, judged, tool_input = canonical_call(tool, tool_input)
        result = data.get("toolResult")
        response = result.get("textResultForLlm") if isinstance(result, dict) else result
    elif name == "userPromptSubmitted":
        if text(data, "prompt") is None:
            raise AdapterInputError("Copilot userPromptSubmitted event has no prompt string")
        event, kind = PROMPT, "prompt"
    return AgentEvent(
        agent=NAME, native_event=name, event=event, kind=kind, tool=judged, agent_tool=tool,
        tool_input=tool_input, tool_response=response, prompt=text(data, "prompt"),
        cwd=text(data, "cwd"), session=text(data, "sessionId"),
    )  # fmt: skip


def answer(verdict: Verdict, event: AgentEvent, ask_fallback: str) -> tuple[int, str, str]:
    if event.event != PRE_TOOL or verdict.decision == "allow":
        return 0, "", verdict.warning  # (the other events' output is ignored)
    out = {"permissionDecision": verdict.decision, "permissionDecisionReason": verdict.reason}
    return 0, dumps(out), ""


def synthetic(command: str, cwd: str) -> dict[str, Any]:
    import json

    return {"timestamp": 0, "cwd": cwd, "toolName": "bash",
            "toolArgs": json.dumps({"command": command})}  # fmt: skip


def decision_of(code: int, out: str) -> str:
    from wukong_lint.agents.base import read_answer

    return read_answer(code, out, ("permissionDecision",))
