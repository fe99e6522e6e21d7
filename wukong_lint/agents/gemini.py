"""Gemini CLI: Claude Code-like input with Gemini's event and tool names; `decision`.

Built against google-gemini/gemini-cli docs/hooks/reference.md (2026-01 rewrite, read
2026-07): input `session_id`, `transcript_path`, `cwd`, `hook_event_name` (BeforeTool,
AfterTool, BeforeAgent, AfterAgent, BeforeModel, SessionStart...), `timestamp`; tool events
`tool_name` (`run_shell_command`, `read_file`, `write_file`, `replace`, `glob`,
`search_file_content`, `mcp__server__tool`), `tool_input`, `mcp_context`, AfterTool
`tool_response`; BeforeAgent `prompt`. Answers `{"decision": "allow"|"deny", "reason"}`
(`block` is an alias of deny; exit 2 blocks too); there is no ask, so an ask becomes
`--ask-fallback`. Registered under `hooks` in `.gemini/settings.json` or
`~/.gemini/settings.json` (matcher groups, as Claude Code's).
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

NAME = "gemini"
TITLE = "Gemini CLI"
CAPS = Capabilities(deny=True, ask=False, edit_input=True, post_tool="block", prompt="block",
                    subagent=False)  # fmt: skip
BUILT_AGAINST = "google-gemini/gemini-cli docs/hooks/reference.md (2026-01 rewrite)"
CONFIG = {"project": ".gemini/settings.json", "user": ".gemini/settings.json"}
CONFIG_FORMAT = "matcher-groups"
EVENTS = ("BeforeTool", "AfterTool", "BeforeAgent")
# `install --hygiene`: the event that cleans the session file (SessionEnd:
# transcript_path; its answer is advisory)
HYGIENE_EVENTS: tuple[str, ...] = ("SessionEnd",)
MATCHER = ".*"  # (a regex in Gemini CLI)
_EVENTS = {"BeforeTool": PRE_TOOL, "AfterTool": POST_TOOL, "BeforeAgent": PROMPT}


def matches(data: dict[str, Any]) -> bool:
    from wukong_lint.agents import GEMINI_EVENTS

    return data.get("hook_event_name") in GEMINI_EVENTS


def to_event(data: dict[str, Any]) -> AgentEvent:
    name = data.get("hook_event_name")
    if not isinstance(name, str):
        raise AdapterInputError("Gemini CLI event has no hook_event_name")
    event = _EVENTS.get(name, OTHER)
    tool = text(data, "tool_name")
    kind, judged, tool_input = "", tool, data.get("tool_input")
    if event in (PRE_TOOL, POST_TOOL):
        if not tool:
            raise AdapterInputError(f"Gemini CLI {name} event has no tool_name")
        context = data.get("mcp_context")
        if isinstance(context, dict) and not tool.startswith("mcp__"):
            server = context.get("server_name")
            tool = f"mcp__{server}__{context.get('tool_name') or tool}" if server else tool
        kind, judged, tool_input = canonical_call(tool, tool_input)
    if event == PROMPT:
        if text(data, "prompt") is None:
            raise AdapterInputError("Gemini CLI BeforeAgent event has no prompt")
        kind = "prompt"
    return AgentEvent(
        agent=NAME, native_event=name, event=event, kind=kind, tool=judged, agent_tool=tool,
        tool_input=tool_input, tool_response=data.get("tool_response"),
        prompt=text(data, "prompt"), cwd=text(data, "cwd"), session=text(data, "session_id"),
        transcript_path=text(data, "transcript_path"),
    )  # fmt: skip


def answer(verdict: Verdict, event: AgentEvent, ask_fallback: str) -> tuple[int, str, str]:
    verdict = resolve_ask(verdict, "Gemini CLI", ask_fallback)
    if verdict.decision == "allow":
        out = {"systemMessage": verdict.message} if verdict.message else {}
        return 0, dumps(out), verdict.warning
    return 0, dumps({"decision": "deny", "reason": verdict.reason}), ""


def synthetic(command: str, cwd: str) -> dict[str, Any]:
    return {"session_id": "wukong-lint-doctor", "transcript_path": "", "cwd": cwd,
            "hook_event_name": "BeforeTool", "timestamp": "1970-01-01T00:00:00Z",
            "tool_name": "run_shell_command", "tool_input": {"command": command}}  # fmt: skip


def decision_of(code: int, out: str) -> str:
    from wukong_lint.agents.base import read_answer

    return read_answer(code, out, ("decision",))
