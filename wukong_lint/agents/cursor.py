"""Cursor: its own event names and answers (`permission`, `user_message`, `agent_message`).

Built against Cursor's hooks docs (cursor.com/docs/agent/hooks, Cursor 1.7-2.x, read
2026-07): every event has `hook_event_name`, `conversation_id`, `generation_id`,
`workspace_roots` (and `cursor_version`, `model`, `user_email`); `beforeShellExecution`
has `command`, `cwd`; `beforeMCPExecution` `tool_name`, `tool_input` (an object or a JSON
text), `url`/`command` of the server; `beforeReadFile` `file_path`, `content`;
`beforeSubmitPrompt` `prompt`; `preToolUse` `tool_name`, `tool_input`;
`afterShellExecution` `output`; `afterMCPExecution` `result_json`. Answers: the before-
events `{"permission": "allow"|"deny"|"ask", "user_message", "agent_message"}`
(`beforeReadFile`: allow/deny only, so an ask there is `--ask-fallback`),
`beforeSubmitPrompt` `{"continue": false, "user_message"}`; after-events are observe-only.
Registered in `.cursor/hooks.json` or `~/.cursor/hooks.json` (`"version": 1`).
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
    resolve_ask,
    text,
)

NAME = "cursor"
TITLE = "Cursor"
CAPS = Capabilities(deny=True, ask=True, edit_input=False, post_tool="none", prompt="block",
                    subagent=False)  # fmt: skip
BUILT_AGAINST = "Cursor hooks docs, cursor.com/docs/agent/hooks, Cursor 1.7-2.x (2026-07)"
CONFIG = {"project": ".cursor/hooks.json", "user": ".cursor/hooks.json"}
CONFIG_FORMAT = "cursor"  # {"version": 1, "hooks": {EVENT: [{"command": ...}]}}
EVENTS = ("beforeShellExecution", "beforeMCPExecution", "beforeReadFile", "beforeSubmitPrompt")
# `install --hygiene`: the event that cleans the session file (sessionEnd:
# transcript_path; the IDE gives it, the CLI may not)
HYGIENE_EVENTS: tuple[str, ...] = ("sessionEnd",)
_NO_ASK = frozenset(["beforeReadFile"])


def matches(data: dict[str, Any]) -> bool:
    name = data.get("hook_event_name")
    return isinstance(name, str) and (name[:1].islower() or "conversation_id" in data)


def to_event(data: dict[str, Any]) -> AgentEvent:
    name = data.get("hook_event_name")
    if not isinstance(name, str):
        raise AdapterInputError("Cursor event has no hook_event_name")
    event, tool, tool_input, response = OTHER, None, None, None
    if name in ("beforeShellExecution", "afterShellExecution"):
        command = text(data, "command")
        if command is None:
            raise AdapterInputError(f"Cursor {name} event has no command")
        event = PRE_TOOL if name.startswith("before") else POST_TOOL
        tool, tool_input, response = "Shell", {"command": command}, data.get("output")
    elif name in ("beforeMCPExecution", "afterMCPExecution"):
        mcp = text(data, "tool_name")
        if not mcp:
            raise AdapterInputError(f"Cursor {name} event has no tool_name")
        event = PRE_TOOL if name.startswith("before") else POST_TOOL
        tool = mcp if mcp.startswith("mcp__") else f"mcp__cursor__{mcp}"
        tool_input = json_object(data.get("tool_input"), "Cursor MCP tool_input")
        response = data.get("result_json")
    elif name == "beforeReadFile":
        path = text(data, "file_path")
        if path is None:
            raise AdapterInputError("Cursor beforeReadFile event has no file_path")
        event, tool, tool_input = PRE_TOOL, "Read", {"file_path": path}
    elif name in ("preToolUse", "postToolUse"):
        tool = text(data, "tool_name")
        if not tool:
            raise AdapterInputError(f"Cursor {name} event has no tool_name")
        event = PRE_TOOL if name == "preToolUse" else POST_TOOL
        tool_input = json_object(data.get("tool_input"), "Cursor tool_input")
        response = data.get("tool_output", data.get("tool_response"))
    elif name == "beforeSubmitPrompt":
        if text(data, "prompt") is None:
            raise AdapterInputError("Cursor beforeSubmitPrompt event has no prompt")
        event = PROMPT
    kind, judged = "", tool
    if tool is not None:
        kind, judged, tool_input = canonical_call(tool, tool_input)
    roots = data.get("workspace_roots")
    cwd = text(data, "cwd")
    if cwd is None and isinstance(roots, list) and roots and isinstance(roots[0], str):
        cwd = roots[0]
    return AgentEvent(
        agent=NAME, native_event=name, event=event, kind="prompt" if event == PROMPT else kind,
        tool=judged, agent_tool=tool, tool_input=tool_input, tool_response=response,
        prompt=text(data, "prompt"), cwd=cwd, session=text(data, "conversation_id"),
        transcript_path=text(data, "transcript_path"),
    )  # fmt: skip


def answer(verdict: Verdict, event: AgentEvent, ask_fallback: str) -> tuple[int, str, str]:
    if event.native_event in _NO_ASK:
        verdict = resolve_ask(verdict, "Cursor's beforeReadFile", ask_fallback)
    if event.event == PROMPT:
        if verdict.decision == "allow":
            return 0, dumps({"continue": True}), verdict.warning
        return 0, dumps({"continue": False, "user_message": verdict.reason}), ""
    if event.event != PRE_TOOL:
        return 0, dumps({}), verdict.warning  # (after-events: observe only)
    if verdict.decision == "allow":
        # no opinion rather than "allow": an explicit allow could skip Cursor's own approval
        out = {"user_message": verdict.message} if verdict.message else {}
        return 0, dumps(out), verdict.warning
    out = {"permission": verdict.decision, "user_message": verdict.reason,
           "agent_message": verdict.reason}  # fmt: skip
    return 0, dumps(out), ""


def synthetic(command: str, cwd: str) -> dict[str, Any]:
    return {"hook_event_name": "beforeShellExecution", "conversation_id": "wukong-lint-doctor",
            "generation_id": "doctor", "workspace_roots": [cwd], "command": command,
            "cwd": cwd}  # fmt: skip


def decision_of(code: int, out: str) -> str:
    from wukong_lint.agents.base import read_answer

    return read_answer(code, out, ("permission",))
