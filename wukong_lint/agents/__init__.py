"""The coding agents whose live hooks wukong-lint answers: one adapter module per agent.

Owns the mapping of each agent's hook event (its JSON on stdin) into the one internal event
the hook judges (`base.AgentEvent`, handed to hook/judge.py in Claude Code's shape), the
mapping of the verdict back into that agent's answer (what it honours: deny, ask, or the
per-agent fallback where it cannot ask), detection of the agent from an event's shape, and
the facts of each agent's hook configuration (where it lives, which events to register)
that `install` and `doctor` use.

Layer: imports model (the tool-kind table) and util only. Adapter modules are imported
lazily (`adapter(name)`): the hook starts once per tool call.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

# name -> module of its adapter (the registry; the order is the order of detection, most
# specific first, Claude Code last: it is the default shape)
AGENTS: dict[str, str] = {
    "cursor": "wukong_lint.agents.cursor",
    "gemini": "wukong_lint.agents.gemini",
    "copilot": "wukong_lint.agents.copilot",
    "codex": "wukong_lint.agents.codex",
    "claude-code": "wukong_lint.agents.claude_code",
}
DEFAULT = "claude-code"
NAMES = tuple(sorted(AGENTS))


def adapter(name: str) -> ModuleType:
    """The adapter module of an agent (KeyError for an unknown name)."""
    import importlib

    return importlib.import_module(AGENTS[name])


GEMINI_EVENTS = frozenset(
    ["BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel",
     "BeforeToolSelection"]
)  # fmt: skip


def detect(data: Any) -> str:
    """The agent whose event shape `data` has (a parsed JSON object); Claude Code when none
    is more specific (its shape is the one the others borrowed). Told by keys alone, without
    importing the adapters: it runs for every event."""
    if not isinstance(data, dict):
        return DEFAULT
    name = data.get("hook_event_name")
    if isinstance(name, str):
        if name[:1].islower() or "conversation_id" in data or "cursor_version" in data:
            return "cursor"  # (Cursor's event names are camelCase: beforeShellExecution)
        if name in GEMINI_EVENTS or isinstance(data.get("timestamp"), str):
            return "gemini"  # (its SessionStart... share Claude Code's names, not the stamp)
        if "turn_id" in data:
            return "codex"  # (Codex borrowed Claude Code's names and added the turn)
        return DEFAULT
    if "toolName" in data or ("timestamp" in data and not data.keys() - _COPILOT_KEYS):
        return "copilot"  # (Copilot CLI's events carry no event name, camelCase keys)
    return DEFAULT


# every key of Copilot CLI's events without a tool (session start/end, prompt, error)
_COPILOT_KEYS = frozenset(
    ["timestamp", "cwd", "source", "initialPrompt", "prompt", "reason", "error", "sessionId"]
)  # fmt: skip
