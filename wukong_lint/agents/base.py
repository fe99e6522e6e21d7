"""What every adapter shares: the internal event, the verdict, the capabilities of an agent,
and the mapping of a tool call onto the tool names the rules know best.

The internal event is handed to the hook's judge in Claude Code's shape
(`AgentEvent.hook_data`): the judge, its rules and their tests were written for it, so one
engine judges every agent. A tool whose kind model/tools.py knows (shell, file read, write,
edit) becomes the Claude Code tool of that kind (`run_shell_command` -> `Bash` with its
command line), so that the same call is judged the same from every agent; any other tool
keeps its name and input (the tool-kind table judges it by its words and keys).
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from wukong_lint.model.tools import EDIT, READ, SHELL, tool_command, tool_kind

# Internal event names (what the judge is asked), and the Claude Code event of each.
PRE_TOOL = "pre_tool"
POST_TOOL = "post_tool"
PROMPT = "prompt"
OTHER = "other"  # nothing to judge (session start, stop, notifications...)
HOOK_EVENTS = {PRE_TOOL: "PreToolUse", POST_TOOL: "PostToolUse", PROMPT: "UserPromptSubmit"}

# Verdicts, strongest first.
DENY = "deny"
ASK = "ask"
ALLOW = "allow"
ASK_FALLBACKS = (DENY, ALLOW)  # what an ask becomes where the agent cannot ask


class AdapterInputError(ValueError):
    """An event that is not the agent's shape (answered as `--on-error` says)."""


class Capabilities(NamedTuple):
    """What an agent's hook honours, as this adapter uses it (docs/agent-hook.md's table)."""

    deny: bool
    ask: bool  # False: an ask becomes the `--ask-fallback` verdict
    edit_input: bool  # the agent can take a rewritten tool input (not used by wukong-lint)
    post_tool: str  # what a finding in a tool's result does: "block", "tell" or "none"
    prompt: str  # what a secret in a prompt does: "block" or "none"
    subagent: bool  # the event says which sub-agent made the call


class AgentEvent(NamedTuple):
    """One agent hook event, in the terms the judge needs."""

    agent: str  # the adapter's name
    native_event: str  # the agent's own event name (as given, or told from the shape)
    event: str  # PRE_TOOL | POST_TOOL | PROMPT | OTHER
    kind: str  # model/tools.py kind of the tool ("prompt" for a prompt, "" for OTHER)
    tool: str | None  # the tool the judge is told (Claude Code's name for a known kind)
    agent_tool: str | None  # the agent's own tool name
    tool_input: Any
    tool_response: Any = None
    prompt: str | None = None
    cwd: str | None = None
    session: str | None = None
    transcript_path: str | None = None
    extra: tuple[tuple[str, Any], ...] = ()  # Claude Code keys passed on (agent_id...)

    def hook_data(self) -> dict[str, Any]:
        """The event in Claude Code's shape (what hook/judge.py parses)."""
        data: dict[str, Any] = {"hook_event_name": HOOK_EVENTS.get(self.event, "Notification")}
        if self.session is not None:
            data["session_id"] = self.session
        if self.transcript_path is not None:
            data["transcript_path"] = self.transcript_path
        if self.cwd is not None:
            data["cwd"] = self.cwd
        if self.event in (PRE_TOOL, POST_TOOL):
            data["tool_name"] = self.tool
            data["tool_input"] = self.tool_input
        if self.event == POST_TOOL:
            data["tool_response"] = self.tool_response
        if self.event == PROMPT:
            data["prompt"] = self.prompt
        data.update(self.extra)
        return data

    @property
    def subject(self) -> str | None:
        """The command or the paths the call is about (the audit log's subject)."""
        if self.event == PROMPT:
            return "<prompt>"
        value = self.tool_input
        if isinstance(value, dict):
            for key in ("command", "file_path", "path", "pattern"):
                if isinstance(value.get(key), str):
                    return value[key]
        return None


class Verdict(NamedTuple):
    """The judge's answer, agent-neutral."""

    decision: str  # DENY | ASK | ALLOW
    reason: str = ""
    message: str = ""  # a note for the user (systemMessage)
    warning: str = ""  # stderr of an allowed call (the hook could not check it)


def verdict_from_claude(code: int, out: str, err: str) -> Verdict:
    """Read the judge's Claude Code answer (exit code, stdout, stderr) back into a Verdict."""
    if code == 2:
        return Verdict(DENY, err.strip())
    answer: Any = {}
    if out.strip():
        try:
            answer = json.loads(out)
        except ValueError:
            answer = {}
    if not isinstance(answer, dict):
        answer = {}
    specific = answer.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    message = answer.get("systemMessage") if isinstance(answer.get("systemMessage"), str) else ""
    decision = specific.get("permissionDecision")
    if decision in (DENY, ASK, ALLOW):
        return Verdict(decision, str(specific.get("permissionDecisionReason", "")), message)
    if answer.get("decision") == "block":
        return Verdict(DENY, str(answer.get("reason", "")), message)
    return Verdict(ALLOW, "", message, err if code else "")


def ask_fallback_reason(agent: str, reason: str) -> str:
    """The reason of an ask that became a deny: the agent cannot ask its user."""
    return (
        f"{reason} ({agent} cannot ask for confirmation, so wukong-lint denied the call: "
        "if it is intended, tell the user to run it themselves, or register the hook with "
        "`--ask-fallback allow`)"
    )


def resolve_ask(verdict: Verdict, agent: str, fallback: str) -> Verdict:
    """An ask where the agent cannot ask: the per-agent fallback (deny by default)."""
    if verdict.decision != ASK:
        return verdict
    if fallback == ALLOW:
        note = f"wukong-lint would ask: {verdict.reason} (allowed: --ask-fallback allow)"
        return Verdict(ALLOW, "", note, verdict.warning)
    return Verdict(DENY, ask_fallback_reason(agent, verdict.reason), verdict.message)


# --- tool calls ------------------------------------------------------------------------

_PATH_KEYS = ("file_path", "path", "absolute_path", "filePath", "target_file", "filename")
_CONTENT_KEYS = ("content", "file_text", "contents", "text")
_OLD_KEYS = ("old_string", "old_str", "oldString")
_NEW_KEYS = ("new_string", "new_str", "newString")


def _first(data: dict[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        if isinstance(data.get(key), str):
            return data[key]
    return None


def canonical_call(tool: str, tool_input: Any) -> tuple[str, str, Any]:
    """(kind, tool name for the judge, input for the judge) of an agent's tool call."""
    kind = tool_kind(tool)
    if not isinstance(tool_input, dict):
        return kind, tool, tool_input
    if kind == SHELL:
        command = tool_command(tool, tool_input)  # (an argv list too: Codex's `shell`)
        if command is not None:
            extra = {k: v for k, v in tool_input.items() if k in ("description", "timeout")}
            return kind, "Bash", {"command": command, **extra}
    elif kind == READ and tool not in ("read_many_files",):
        path = _first(tool_input, _PATH_KEYS)
        if path is not None:
            return kind, "Read", {"file_path": path}
    elif kind == EDIT and tool != "apply_patch":
        path = _first(tool_input, _PATH_KEYS)
        old, new = _first(tool_input, _OLD_KEYS), _first(tool_input, _NEW_KEYS)
        content = _first(tool_input, _CONTENT_KEYS)
        if path is not None and old is not None and new is not None:
            return kind, "Edit", {"file_path": path, "old_string": old, "new_string": new}
        if path is not None and content is not None:
            return kind, "Write", {"file_path": path, "content": content}
    return kind, tool, tool_input


def json_object(value: Any, what: str) -> Any:
    """A tool input given as a JSON text (Copilot's `toolArgs`, Cursor's MCP input) as the
    object it holds; anything else unchanged."""
    if isinstance(value, str) and value.strip()[:1] in ("{", "["):
        try:
            return json.loads(value)
        except ValueError:
            raise AdapterInputError(f"{what} is not valid JSON") from None
    return value


def text(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


def dumps(answer: dict[str, Any]) -> str:
    return json.dumps(answer, ensure_ascii=False) + "\n"


def read_answer(code: int, out: str, path: tuple[str, ...]) -> str:
    """deny / ask / allow of a hook's answer: exit 2 blocks; else the value at `path` of
    its JSON (`block` is deny); no answer, or another value, allows. "error" when the
    answer is not JSON."""
    if code == 2:
        return DENY
    if not out.strip():
        return ALLOW if code == 0 else "error"
    try:
        value: Any = json.loads(out)
    except ValueError:
        return "error"
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    if value == "block":
        return DENY
    return value if value in (DENY, ASK, ALLOW) else ALLOW
