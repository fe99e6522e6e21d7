"""Agent events (tool call, tool result, message) and the units made from them.

Readers of every transcript format (transcripts/), the live hook (hook.py) and the rule
examples turn what an agent did into `Event`s; `EventUnit` carries one event to the matchers.
An event knows its tool, its agent (main or a sub-agent and its type), the JSONL line of its
record and what the structured checks need (the shell command, the edit, files read earlier
in the turn, the result of the call). Its text is every text field, so secret rules see them.
"""

from __future__ import annotations

from typing import Any

from wukong_lint.model import Source, Unit
from wukong_lint.model.tools import tool_command

# Tools that run a shell command, and the input keys that hold it.
SHELL_TOOLS = frozenset(
    {
        "bash", "shell", "exec_command", "local_shell", "local_shell_call", "run_shell_command",
        "run_terminal_cmd", "execute_command", "terminal", "run_command", "container.exec",
        "powershell",
    }
)  # fmt: skip
COMMAND_KEYS = ("command", "cmd", "script")
# Tools that change files.
EDIT_TOOLS = frozenset({"Edit", "MultiEdit", "Write", "NotebookEdit", "apply_patch", "str_replace"})
READ_TOOLS = frozenset({"Read", "NotebookRead", "View", "read_file", "LS", "Glob", "Grep"})
PATH_KEYS = ("file_path", "notebook_path", "path", "filePath", "target_file")
SPAWN_TOOLS = frozenset({"Task", "Agent"})


class Context:
    """What a whole transcript shares: the profile, the repository's memory bank and agents."""

    __slots__ = ("agent_defs", "contracts", "cwd", "memory_bank", "profile", "seen_paths",
                 "single_agent")  # fmt: skip

    def __init__(
        self,
        profile: str = "generic",
        memory_bank: bool = False,
        agent_defs: dict[str, tuple[tuple[str, ...] | None, tuple[str, ...]]] | None = None,
        cwd: str | None = None,
    ) -> None:
        self.profile = profile
        self.memory_bank = memory_bank
        self.agent_defs = agent_defs or {}
        self.cwd = cwd
        # every path a tool call touched -> how many were touched before it (the order: a
        # unit remembers how many there were when it was made, `Event.seen_mark`)
        self.seen_paths: dict[str, int] = {}
        # agent name -> the sections of the output contract its definition declares
        self.contracts: dict[str, tuple[str, ...]] = {}
        # a ReAct history: one agent with no avatars to delegate to, so the body-boundary
        # rules (CHECKPOINT, delegation, what the body may do itself) do not apply to it
        self.single_agent = False


class Event:
    __slots__ = (
        "agent",
        "agent_type",
        "call_id",
        "command",
        "command_offset",
        "ctx",
        "input",
        "is_error",
        "is_main",
        "kind",
        "line",
        "mb_confirm",
        "new_file",
        "paths",
        "problem",
        "protocol",
        "result",
        "role",
        "seen_mark",
        "tool",
        "turn_reads",
        "turn_writes",
    )

    def __init__(self, kind: str, line: int, ctx: Context) -> None:
        self.kind = kind  # call | result | message | integrity | end
        self.line = line
        self.ctx = ctx
        self.tool: str | None = None
        self.call_id: str | None = None
        self.input: Any = None
        self.command: str | None = None
        self.command_offset = 0
        self.agent = "main"
        self.agent_type: str | None = None
        self.is_main = True
        self.is_error = False
        self.result: Any = None  # for a call: its toolUseResult / output, when known
        self.problem: str | None = None  # integrity problem or error class
        self.role: str | None = None  # for messages: user | assistant | thinking
        self.turn_reads: tuple[str, ...] | None = ()  # None: unknown (live hook)
        # the agent's earlier file-tool writes of its turn: (tool, paths); None: unknown
        self.turn_writes: tuple[tuple[str, tuple[str, ...]], ...] | None = ()
        self.new_file: bool | None = None
        # a spawn: the user's memory-bank write confirmation in this turn (seed 003): "write"
        # (mb:write), "no" (mb:no), "" (neither), None (unknown: the hook could not read it)
        self.mb_confirm: str | None = ""
        # the 戒 protocol facts of the turn a check needs (transcripts/protocol.py; None:
        # none, or the generic profile)
        self.protocol: dict[str, Any] | None = None
        # the files a call's input names (`event_paths`: made once, several checks ask)
        self.paths: list[str] | None = None
        # how many paths the transcript had touched when the unit of this call was made
        # (None: not known, e.g. the live hook): `Context.seen_paths` may have grown since
        self.seen_mark: int | None = None


class EventUnit(Unit):
    """A Unit that also carries the event it was made from (as the `event` attribute)."""

    event: Event


_new_tuple = tuple.__new__


def make_unit(path: str, event: Event, text: str, size: int = 0) -> EventUnit:
    # (the tuples built directly: the named tuples' generated __new__ costs a Python call
    # each, and a long transcript makes a unit per record)
    line = event.line
    source = _new_tuple(Source, ("transcript", event.tool, event.agent, line, None))
    unit = _new_tuple(EventUnit, (path, text, source, None, line, size, None))
    unit.event = event
    return unit


# Up to this many strings, repeats are found by comparing (equal lengths first) rather than
# by hashing every string, which reads all of a long tool output.
_FEW = 8


def strings(value: Any, out: list[str], seen: set[str] | None = None) -> list[str]:
    """Every string inside a JSON value, depth first, without exact repeats (iterative: a
    record nested thousands of levels deep must not exhaust the interpreter's stack)."""
    if seen is None and len(out) >= _FEW:
        seen = set(out)
    stack = [value]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if not value:
                continue
            if seen is None:
                if value in out:
                    continue
                out.append(value)
                if len(out) >= _FEW:
                    seen = set(out)
            elif value not in seen:
                seen.add(value)
                out.append(value)
        elif isinstance(value, dict):
            stack.extend(reversed(value.values()))
        elif isinstance(value, list):
            stack.extend(reversed(value))
    return out


def join_texts(parts: list[str]) -> str:
    """Texts of one event, dropping a text already contained in another (stdout vs content)."""
    if len(parts) == 2:  # (the usual case: a tool's output and its copy in toolUseResult)
        first, second = parts
        if len(second) > len(first):  # longest first; equal lengths keep their order
            first, second = second, first
        return first if second in first else f"{first}\n{second}"
    if len(parts) > 1:
        parts = sorted(parts, key=len, reverse=True)
        kept: list[str] = []
        for part in parts:
            if not any(part in k for k in kept):
                kept.append(part)
        parts = kept
    return "\n".join(parts)


def shell_command(tool: str | None, data: Any) -> str | None:
    """The command line a tool call runs, or None: a shell tool's, and any other tool's that
    runs a command, code or SQL (model/tools.py: tools are judged by what they do)."""
    return tool_command(tool, data)


def event_paths(event: Event) -> list[str]:
    """`target_paths` of a call event, made once (the list is shared: not to be changed)."""
    found = event.paths
    if found is None:
        found = event.paths = target_paths(event.tool, event.input)
    return found


def target_paths(tool: str | None, data: Any) -> list[str]:
    """Files a file tool reads or writes, from its input."""
    if not isinstance(data, dict):
        return []
    found = []
    for key in PATH_KEYS:
        value = data.get(key)
        if isinstance(value, str) and value:
            found.append(value)
    if tool and _is_patch_tool(tool):
        patch = data.get("input") or data.get("patch") or ""
        if isinstance(patch, str):
            found += [p for p, _, _ in patch_files(patch)]
    return found


_PATCH_TOOLS: dict[str, bool] = {}  # tool name -> whether it takes a patch (a few names)


def _is_patch_tool(tool: str) -> bool:
    found = _PATCH_TOOLS.get(tool)
    if found is None:
        if len(_PATCH_TOOLS) >= 1024:  # (names come from transcripts: bounded)
            _PATCH_TOOLS.clear()
        found = _PATCH_TOOLS[tool] = tool == "apply_patch" or "patch" in tool.lower()
    return found


def patch_files(patch: str) -> list[tuple[str, int, int]]:
    """(path, lines added, lines removed) per file of an apply_patch or unified diff text."""
    files: list[tuple[str, int, int]] = []
    path, added, removed = None, 0, 0
    for line in patch.splitlines():
        header = None
        for prefix in ("*** Update File: ", "*** Add File: ", "*** Delete File: ", "+++ b/"):
            if line.startswith(prefix):
                header = line[len(prefix) :].strip()
        if header is not None:
            if path is not None:
                files.append((path, added, removed))
            path, added, removed = header, 0, 0
            continue
        if path is None or line.startswith(("+++", "---", "***")):
            continue
        if line.startswith("+"):
            added += 1
        elif line.startswith("-"):
            removed += 1
    if path is not None:
        files.append((path, added, removed))
    return files


def call_event(
    ctx: Context,
    line: int,
    tool: str | None,
    data: Any,
    call_id: str | None,
    agent: str,
    agent_type: str | None,
    is_main: bool,
) -> tuple[Event, str]:
    """A tool-call event and its text (the command first, then every string of the input)."""
    event = new_call(ctx, line, tool, data, call_id, agent, agent_type, is_main)
    return event, call_text(event)


def new_call(
    ctx: Context,
    line: int,
    tool: str | None,
    data: Any,
    call_id: str | None,
    agent: str,
    agent_type: str | None,
    is_main: bool,
) -> Event:
    """A tool-call event without its text (a reader that only follows a session's state
    makes the text when it hands the call on: `call_text`)."""
    event = Event("call", line, ctx)
    event.tool, event.input, event.call_id = tool, data, call_id
    event.agent, event.agent_type, event.is_main = agent, agent_type, is_main
    event.command = shell_command(tool, data)
    return event


def call_text(event: Event) -> str:
    """A call's text: the command first, then every string of the input."""
    command = event.command
    parts: list[str] = []
    if command is not None:
        parts.append(command)
        strings(event.input, parts)
        return "\n".join(parts)
    strings(event.input, parts)
    return join_texts(parts)
