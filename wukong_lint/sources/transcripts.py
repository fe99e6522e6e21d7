"""Agent transcripts as a source: Claude Code sessions (with sub-agents), Codex CLI rollouts,
OpenAI chat messages and ReAct text histories, read record by record.

Memory stays flat with file size: a file is read one line (one record) at a time, and only
small bookkeeping survives a record (calls waiting for their result, sub-agent types, the
files read in the current turn). A call is reported once its result has arrived (so checks
see what the call did, e.g. whether a Write created a file) or at the end of the file.

A malformed record becomes a `transcript-integrity` event on its line and reading goes on;
record types we do not know are skipped.
"""

from __future__ import annotations

import json
import os
import pickle
import re
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any, NamedTuple

from wukong_lint.model import ScanError, sha256_hex
from wukong_lint.sources.transcript_events import (
    EDIT_TOOLS,
    READ_TOOLS,
    SPAWN_TOOLS,
    Context,
    Event,
    EventUnit,
    call_event,
    join_texts,
    make_unit,
    shell_command,
    strings,
    target_paths,
)

try:  # orjson is several times faster than json on large records
    import orjson

    _loads: Any = orjson.loads
    _DECODE_ERRORS: tuple[type[Exception], ...] = (orjson.JSONDecodeError, ValueError)
except ImportError:  # pragma: no cover
    _loads = json.loads
    _DECODE_ERRORS = (ValueError,)

FORMATS = ("auto", "claude", "codex", "openai", "react")
# Options of `check` (set by the CLI before a scan; forked workers inherit them).
OPTIONS: dict[str, Any] = {"profile": None, "agents": None, "format": None, "parts": 0}
MEMORY_FILES = ("memory-bank/MEMORY.md", "memory-bank/patterns.md")
# Words that name the avatars of the 戒 table: spawning one makes a transcript `wukong`.
AVATAR_NAMES = frozenset(
    n.lower()
    for n in (
        "眼", "耳", "鼻", "舌", "身", "意", "眼分身", "耳分身", "鼻分身", "舌分身", "身分身",
        "意分身", "斗战胜佛", "eye", "ear", "nose", "tongue", "body", "mind", "explorer",
        "analyst", "reviewer", "tester", "implementer", "impl", "architect",
    )
)  # fmt: skip
_SPAWN_TYPE = re.compile(rb'"subagent_type"\s*:\s*"([^"\\]{1,80})"')
_AGENT_ID = re.compile(r"\bagent_?[Ii]d:\s*([\w.@-]{1,80})")
# Completed call ids remembered to skip a repeated record (Codex writes some results twice,
# next to each other), and sidechain records remembered to name the sub-agent of a record
# that only gives its parent: the most recent ones. Kept small, because a worker reading a
# part of the file (engine/offload.py) is handed them with the rest of the state.
_KEEP_IDS = 4096
_KEEP_ROOTS = 4096


def configure(
    profile: str | None = None, agents: str | None = None, fmt: str | None = None
) -> None:
    OPTIONS.update(profile=profile, agents=agents, format=None if fmt == "auto" else fmt)


# -- where transcripts are ------------------------------------------------------------------


def is_transcript_path(display: str) -> bool:
    lower = display.lower()
    if lower.endswith((".jsonl", ".json")):
        return True  # a .json file is read as a transcript only if it looks like one
    return bool(OPTIONS["format"]) and lower.endswith((".json", ".txt", ".log", ".md"))


def _subagent_parent(path: str) -> str | None:
    """The session file of `<session>/subagents/agent-*.jsonl`, if it exists."""
    folder, name = os.path.split(os.path.abspath(path))
    if not name.startswith("agent-") or os.path.basename(folder) != "subagents":
        return None
    session_dir = os.path.dirname(folder)
    parent = session_dir + ".jsonl"
    return parent if os.path.isfile(parent) else None


def open_transcript(full: str, display: str) -> Iterator[Any]:
    """The dispatch opener: a transcript's units, or the file as plain text if it is none."""
    if _subagent_parent(full) is not None:
        return  # read with its session file, which knows what spawned it
    fmt = OPTIONS["format"] or sniff_format(full)
    if fmt is None:
        from wukong_lint.sources.files import read_file

        yield read_file(full, display)
        return
    try:
        yield from transcript_units(full, display, fmt)
    except OSError as err:
        yield ScanError(display, f"cannot read: {err.strerror or err}")


def _read_head(path: str, size: int) -> bytes | None:
    """The first `size` bytes of a file (None: unreadable)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(size)
    except OSError:
        return None


def _is_loglines(path: str) -> bool:
    """A Claude Code session exported as one JSON object whose `loglines` are its records."""
    data = _read_head(path, 65536)
    return data is not None and _loglines_head(data)


def _loglines_head(data: bytes) -> bool:
    """`_is_loglines` on the first 64 KB of a file."""
    head = data.decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
    if not head.startswith("{"):
        return False
    first, newline, _ = head.partition("\n")
    if newline or len(data) < 65536:  # the first line is whole: a JSONL record or not
        try:
            record = json.loads(first)
        except (ValueError, RecursionError):
            record = None  # an object printed over several lines
        if isinstance(record, dict):
            return isinstance(record.get("loglines"), list)
    return _LOGLINES.search(head[:4096]) is not None


def sniff_format(path: str) -> str | None:
    """Recognise a transcript by its first records (None: not a transcript)."""
    head = _read_head(path, 65536)
    if head is None:
        return None
    text = head.decode("utf-8", "replace").lstrip("\ufeff")
    stripped = text.lstrip()
    if re.match(r"\[(user|assistant|tool|system|summary)\]", stripped):
        return "react"
    if stripped.startswith("["):
        return "openai" if re.search(r'"role"\s*:', stripped[:4096]) else None
    if _loglines_head(head):
        return "claude"
    for raw in stripped.splitlines()[:20]:
        raw = raw.strip()
        if not raw.startswith("{"):
            continue
        try:
            record = json.loads(raw)
        except (ValueError, RecursionError):  # deeply nested: not a record we can sniff
            continue
        if not isinstance(record, dict):
            continue
        if "payload" in record and "type" in record:
            return "codex"
        if "role" in record and "type" not in record:
            return "openai"
        if record.get("type") in ("user", "assistant", "summary", "system") or (
            "sessionId" in record or "parentUuid" in record
        ):
            return "claude"
    return None


# -- context: profile, memory bank, agent definitions -----------------------------------------


def _repo_roots(path: str, cwd: str | None) -> list[str]:
    roots = [os.getcwd()]
    if cwd and os.path.isdir(cwd):
        roots.insert(0, cwd)
    return roots


def _spawns_avatar(path: str) -> bool:
    # Chunked reads, not mmap: touched mmap pages count in the resident set (a 500 MB file
    # would show as 500 MB of RSS). Chunks overlap so a match on a boundary is not lost.
    tail = b""
    try:
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 22):
                data = tail + chunk
                if b'"subagent_type"' in data:
                    for match in _SPAWN_TYPE.finditer(data):
                        name = match.group(1).decode("utf-8", "replace").lstrip("@").lower()
                        if name in AVATAR_NAMES:
                            return True
                tail = data[-200:]
    except OSError:
        return False
    return False


def load_agent_defs(folder: str) -> dict[str, tuple[tuple[str, ...] | None, tuple[str, ...]]]:
    """Claude Code agent definitions: name -> (allowed tools or None for all, disallowed)."""
    defs: dict[str, tuple[tuple[str, ...] | None, tuple[str, ...]]] = {}
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return defs
    for name in names:
        if not name.endswith(".md"):
            continue
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                text = handle.read(65536)
        except (OSError, UnicodeDecodeError):
            continue
        front = re.match(r"\A---\s*\n(.*?)\n---\s*(\n|\Z)", text, re.S)
        if not front:
            continue
        try:
            import yaml

            meta = yaml.safe_load(front.group(1))
        except Exception:
            continue
        if not isinstance(meta, dict):
            continue
        agent = str(meta.get("name") or name[:-3])
        defs[agent.lower()] = (
            _tool_list(meta.get("tools")),
            _tool_list(meta.get("disallowedTools")) or (),
        )
    return defs


def _tool_list(value: Any) -> tuple[str, ...] | None:
    if value is None:
        return None
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list):
        return None
    return tuple(str(v).strip().split("(", 1)[0] for v in items if str(v).strip())


def make_context(path: str, cwd: str | None = None) -> Context:
    roots = _repo_roots(path, cwd)
    memory_bank = any(os.path.isdir(os.path.join(r, "memory-bank")) for r in roots)
    agents_dir = OPTIONS["agents"]
    defs = {}
    if agents_dir:
        defs = load_agent_defs(agents_dir)
    else:
        for root in roots:
            defs = load_agent_defs(os.path.join(root, ".claude", "agents"))
            if defs:
                break
    profile = OPTIONS["profile"]
    if profile is None:
        wukong = any(os.path.isdir(os.path.join(r, ".wukong")) for r in roots)
        profile = "wukong" if wukong or _spawns_avatar(path) else "generic"
    return Context(profile, memory_bank, defs, cwd)


def _first_cwd(path: str) -> str | None:
    head = _read_head(path, 262144)
    if head is None:
        return None
    match = re.search(rb'"cwd"\s*:\s*"([^"\\]{1,4096})"', head)
    return match.group(1).decode("utf-8", "replace") if match else None


# -- the shared session state -----------------------------------------------------------------

_ERROR_CLASSES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "edit-failure",
        re.compile(
            r"string to replace not found|old_?string not found|oldstring not found|"
            r"found \d+ matches of the string to replace|found multiple times|"
            r"no changes to make|file has not been read yet|modified since (it was )?read",
            re.I,
        ),
    ),
    (
        "context-exceeded",
        re.compile(
            r"prompt is too long|token limit|context[ _]length|context window|"
            r"maximum context|too many tokens|context_length_exceeded",
            re.I,
        ),
    ),
    (
        "permission-denied",
        re.compile(
            r"EACCES|EPERM|permission denied|operation not permitted|"
            r"doesn't want to proceed|was rejected|requires approval|not allowed",
            re.I,
        ),
    ),
    (
        "file-not-found",
        re.compile(
            r"ENOENT|no such file|file does not exist|file not found|path does not exist|"
            r"does not exist",
            re.I,
        ),
    ),
)


def classify_error(text: str) -> str | None:
    head = text[:4000]
    for name, pattern in _ERROR_CLASSES:
        if pattern.search(head):
            return name
    return None


_LINE_NUMBER = re.compile(r"(?m)^ *\d+(?:→|\t)")


def _without_file_copy(parts: list[str], extra: Any) -> Any:
    """A Read's toolUseResult without `file.content` when the tool result already holds that
    text with line numbers (`     1→...`): the same file twice in one record would double the
    scan and report each secret in it twice on the same line."""
    if not isinstance(extra, dict):
        return extra
    file = extra.get("file")
    if not isinstance(file, dict) or not isinstance(file.get("content"), str):
        return extra
    raw = file["content"].strip()
    if not raw or not any(_LINE_NUMBER.search(p) and raw in _LINE_NUMBER.sub("", p) for p in parts):
        return extra
    return {**extra, "file": {k: v for k, v in file.items() if k != "content"}}


class Part(NamedTuple):
    """Lines of a JSONL transcript to read elsewhere, from the session's state at their start:
    reading them there makes the units a whole read makes of them (`part_units`)."""

    fmt: str
    path: str  # the file
    display: str
    start: int  # bytes
    end: int
    first_line: int
    state: bytes
    last: bool  # ends the file: the calls still waiting are reported
    sub_agent: tuple[str, str | None] | None = None


def _result_text(content: Any, extra: Any) -> str:
    parts: list[str] = []
    strings(content, parts)
    strings(_without_file_copy(parts, extra), parts)
    return join_texts(parts)


class Session:
    """Pairs calls with results, tracks agents and turns, and turns events into units."""

    def __init__(self, path: str, ctx: Context) -> None:
        self.path = path
        self.ctx = ctx
        self.pending: OrderedDict[str, tuple[Event, str]] = OrderedDict()
        self.done: OrderedDict[str, None] = OrderedDict()
        self.spawn_types: dict[str, str] = {}  # spawning call id -> subagent type
        self.prompt_types: dict[str, str] = {}  # prompt hash -> subagent type
        self.agent_types: dict[str, str] = {}  # agent id -> subagent type
        self.turn_reads: dict[str, set[str]] = {}  # agent -> files read this turn
        self.carry = 0  # bytes of records that produced no unit yet
        # sidechain record uuid -> agent id (inline sub-agents), the most recent ones
        self.roots: OrderedDict[str, str] = OrderedDict()
        # Reading in parts (engine/offload.py): bytes per part (0: read and report it all
        # here) and the part being read: where it starts and the state it starts from.
        self.part_size = 0
        self.part: tuple[int, int, bytes] = (0, 1, b"")
        # Only follow the state (the file is read in parts, which make the units): no unit,
        # and no text that the state does not need, is made.
        self.follow = False

    _STATE = ("ctx", "pending", "done", "spawn_types", "prompt_types", "agent_types",
              "turn_reads", "carry", "roots")  # fmt: skip

    def snapshot(self) -> bytes | None:
        """Everything reading the rest of the file depends on, for a worker to go on from
        (None: it cannot be copied now, e.g. a waiting call's input nested hundreds deep)."""
        try:
            return pickle.dumps(tuple(getattr(self, name) for name in self._STATE), protocol=5)
        except (RecursionError, pickle.PicklingError, TypeError, ValueError):
            return None

    def restore(self, state: bytes) -> None:
        for name, value in zip(self._STATE, pickle.loads(state), strict=True):
            setattr(self, name, value)

    def unit(self, event: Event, text: str) -> EventUnit:
        size, self.carry = self.carry, 0
        if self.follow:
            return None  # type: ignore[return-value]
        return make_unit(self.path, event, text, size)

    def new_turn(self, agent: str) -> None:
        self.turn_reads.pop(agent, None)

    def call(
        self,
        line: int,
        tool: str | None,
        data: Any,
        call_id: str | None,
        agent: str,
        agent_type: str | None,
        is_main: bool,
    ) -> Iterator[EventUnit]:
        event, text = call_event(self.ctx, line, tool, data, call_id, agent, agent_type, is_main)
        paths = target_paths(tool, data)
        reads = self.turn_reads.setdefault(agent, set())
        if tool in EDIT_TOOLS or event.command is not None:
            event.turn_reads = tuple(sorted(reads))
        if tool in EDIT_TOOLS and paths:
            event.new_file = paths[0] not in self.ctx.seen_paths
        for path in paths:
            if len(self.ctx.seen_paths) < 100000:
                self.ctx.seen_paths.add(path)
        if tool in READ_TOOLS:
            reads.update(paths)
        if event.command is not None:
            for name in MEMORY_FILES:
                if name in event.command:
                    reads.add(name)
        if tool in SPAWN_TOOLS and isinstance(data, dict):
            kind = data.get("subagent_type")
            if isinstance(kind, str):
                if call_id:
                    self.spawn_types[call_id] = kind
                prompt = data.get("prompt")
                if isinstance(prompt, str):
                    self.prompt_types[sha256_hex(prompt.strip())[:16]] = kind
        if call_id:
            if call_id in self.done:
                return  # a repeated record of a call already reported
            self.pending[call_id] = (event, text)
            return
        yield self.unit(event, text)

    def result(
        self,
        line: int,
        call_id: str | None,
        content: Any,
        is_error: bool,
        extra: Any,
        agent: str,
        agent_type: str | None,
        is_main: bool,
    ) -> Iterator[EventUnit]:
        if call_id and call_id in self.done:
            return  # Codex writes some results twice
        waiting = self.pending.pop(call_id, None) if call_id else None
        if self.follow:
            if waiting is not None and self.spawn_types.get(call_id or ""):
                self._learn_agent(call_id, content, extra, None)
            self._done(call_id)
            self.carry = 0
            return
        event = Event("result", line, self.ctx)
        event.agent, event.agent_type, event.is_main = agent, agent_type, is_main
        event.call_id, event.is_error, event.result = call_id, is_error, extra
        text = _result_text(content, extra)
        if waiting is not None:
            call, call_text = waiting
            event.tool = call.tool
            call.result = extra if extra is not None else content
            call.is_error = is_error
            if isinstance(extra, dict):
                kind = extra.get("type")
                if kind in ("create", "update") and call.tool == "Write":
                    call.new_file = kind == "create"
            if self.spawn_types.get(call_id or ""):
                self._learn_agent(call_id, content, extra, text)
            yield self.unit(call, call_text)
        self._done(call_id)
        if is_error or (isinstance(extra, str) and extra.startswith("Error")):
            event.problem = classify_error(text)
        if waiting is None and call_id:
            event.problem = event.problem or "orphan-result"
        yield self.unit(event, text)

    def _learn_agent(self, call_id: Any, content: Any, extra: Any, text: str | None) -> None:
        """The type of the sub-agent a spawning call's result names."""
        agent_id = extra.get("agentId") if isinstance(extra, dict) else None
        if not isinstance(agent_id, str):
            # some versions name the sub-agent only in the result text
            found = _AGENT_ID.search(_result_text(content, extra) if text is None else text)
            agent_id = found.group(1) if found else None
        if isinstance(agent_id, str):
            self.agent_types[agent_id] = self.spawn_types[call_id]

    def _done(self, call_id: str | None) -> None:
        if call_id:
            self.done[call_id] = None
            if len(self.done) > _KEEP_IDS:
                self.done.popitem(last=False)

    def message(
        self,
        line: int,
        role: str,
        text: str,
        agent: str,
        agent_type: str | None,
        is_main: bool,
        problem: str | None = None,
    ) -> EventUnit:
        if self.follow:
            self.carry = 0
            return None  # type: ignore[return-value]
        event = Event("message", line, self.ctx)
        event.role, event.problem = role, problem
        event.agent, event.agent_type, event.is_main = agent, agent_type, is_main
        return self.unit(event, text)

    def integrity(self, line: int, problem: str, text: str) -> EventUnit:
        if self.follow:
            self.carry = 0
            return None  # type: ignore[return-value]
        event = Event("integrity", line, self.ctx)
        event.problem = problem
        return self.unit(event, text)

    def finish(self) -> Iterator[EventUnit]:
        """Calls that never got a result, then a last unit carrying the remaining bytes."""
        for call_id, (call, text) in self.pending.items():
            yield self.unit(call, text)
            event = Event("integrity", call.line, self.ctx)
            event.problem = "tool-result-missing"
            event.tool, event.agent, event.is_main = call.tool, call.agent, call.is_main
            yield self.unit(event, f"tool call {call_id} ({call.tool}) has no result")
        self.pending.clear()
        yield self.unit(Event("end", 0, self.ctx), "")


def _lines(path: str) -> Iterator[tuple[int, bytes]]:
    with open(path, "rb") as handle:
        yield from enumerate(handle, 1)


def _malformed(session: Session, number: int, raw: bytes, why: str) -> EventUnit:
    if session.follow:
        return session.integrity(number, "", "")
    digest = sha256_hex(raw.decode("utf-8", "replace"))[:12]
    return session.integrity(number, "malformed-record", f"malformed record ({why}) {digest}")


Span = tuple[int, int, int]  # lines of a file: start and end byte, the start's line number


def _records(
    session: Session, path: str, span: Span | None = None, fmt: str = "", sub: Any = None
) -> Iterator[tuple[int, Any]]:
    """The records of a JSONL file (or of its lines `span`) with their line numbers. When the
    session reads in parts, a `Part` is also yielded as each part ends."""
    start, end, first = span if span is not None else (0, -1, 1)
    part_size = session.part_size
    with open(path, "rb") as handle:
        if start:
            handle.seek(start)
        position = start
        for number, raw in enumerate(handle, first):
            if position == end:
                return
            if part_size and position - session.part[0] >= part_size:
                state = session.snapshot()
                if state is not None:  # (else the part goes on until the state can be copied)
                    began, line, start_state = session.part
                    yield (
                        number,
                        Part(
                            fmt, path, session.path, began, position, line, start_state, False, sub
                        ),
                    )
                    session.part = (position, number, state)
            position += len(raw)
            session.carry += len(raw)
            if raw.isspace():  # (a line is never empty: it holds at least its newline)
                continue
            try:
                record = _loads(raw)
            except _DECODE_ERRORS:
                record = _malformed(session, number, raw, "invalid JSON")
            else:
                if type(record) is not dict:
                    record = _malformed(session, number, raw, "not an object")
            if record is not None:  # (None: only following the state)
                yield number, record
        if part_size:
            began, line, state = session.part
            yield line, Part(fmt, path, session.path, began, position, line, state, True, sub)


# -- Claude Code ---------------------------------------------------------------------------------


def _text_of(content: Any) -> str:
    parts: list[str] = []
    strings(content, parts)
    return "\n".join(parts)


def claude_units(
    session: Session,
    path: str,
    sub_agent: tuple[str, str | None] | None = None,
    span: Span | None = None,
) -> Iterator[Any]:
    """Units of one Claude Code session file (or of one sub-agent file when `sub_agent` is
    (agent id, agent type)), or of its lines `span`."""
    roots = session.roots
    # a session exported as one JSON object, {"loglines": [records...]}, or JSONL
    records = (
        _array_records(session, path, _LOGLINES)
        if span is None and not session.part_size and _is_loglines(path)
        else _records(session, path, span, "claude", sub_agent)
    )
    for number, record in records:
        if isinstance(record, (EventUnit, Part)):
            yield record
            continue
        kind = record.get("type")
        if kind not in ("user", "assistant"):
            continue
        message = record.get("message")
        if not isinstance(message, dict):
            yield _malformed(session, number, b"", "message is not an object")
            continue
        # Who is speaking: the main agent, or a sub-agent (inline sidechain or its own file).
        if sub_agent is not None:
            agent_id, agent_type = sub_agent
            is_main = False
            if agent_type is None and kind == "user" and record.get("parentUuid") is None:
                # no meta file or result naming it: the spawning call's prompt does
                prompt = _text_of(message.get("content")).strip()
                agent_type = session.prompt_types.get(sha256_hex(prompt)[:16])
                if agent_type is not None:
                    sub_agent = (agent_id, agent_type)
                    session.agent_types[agent_id] = agent_type
        elif record.get("isSidechain"):
            is_main = False
            agent_id = record.get("agentId")
            parent = record.get("parentUuid")
            if not isinstance(agent_id, str):
                agent_id = roots.get(parent) if isinstance(parent, str) else None
                if agent_id is None:
                    agent_id = str(record.get("uuid") or number)[:8]
            uuid = record.get("uuid")
            if isinstance(uuid, str):
                roots[uuid] = agent_id
                if len(roots) > _KEEP_ROOTS:
                    roots.popitem(last=False)
            agent_type = session.agent_types.get(agent_id)
            if agent_type is None and parent is None and kind == "user":
                prompt = _text_of(message.get("content")).strip()
                agent_type = session.prompt_types.get(sha256_hex(prompt)[:16])
                if agent_type is not None:
                    session.agent_types[agent_id] = agent_type
        else:
            agent_id, agent_type, is_main = None, None, True
        agent = "main" if is_main else f"{agent_type or 'subagent'}:{agent_id}"
        content = message.get("content")
        if kind == "user":
            if isinstance(content, str):
                session.new_turn(agent)
                yield session.message(number, "user", content, agent, agent_type, is_main)
                continue
            if not isinstance(content, list):
                continue
            extra = record.get("toolUseResult")
            for block in content:
                if not isinstance(block, dict):
                    continue
                btype = block.get("type")
                if btype == "tool_result":
                    yield from session.result(
                        number,
                        block.get("tool_use_id"),
                        block.get("content"),
                        bool(block.get("is_error")),
                        extra,
                        agent,
                        agent_type,
                        is_main,
                    )
                    extra = None  # one toolUseResult per record
                    if not isinstance(block.get("tool_use_id"), str):
                        yield session.integrity(
                            number, "missing-id", "tool result has no tool_use_id"
                        )
                elif btype == "text":
                    session.new_turn(agent)
                    text = block.get("text")
                    if isinstance(text, str) and text:
                        yield session.message(number, "user", text, agent, agent_type, is_main)
                else:
                    parts: list[str] = []
                    strings(block, parts)
                    if parts:
                        yield session.message(
                            number, "user", "\n".join(parts), agent, agent_type, is_main
                        )
            continue
        # assistant
        if (
            not isinstance(content, list)
            or not content
            or all(
                isinstance(b, dict)
                and b.get("type") == "text"
                and not str(b.get("text", "")).strip()
                for b in content
            )
        ):
            if not (isinstance(content, str) and content.strip()):
                yield session.message(
                    number, "assistant", "", agent, agent_type, is_main, "empty-content"
                )
                continue
            content = [{"type": "text", "text": content}]
        api_error = bool(record.get("isApiErrorMessage"))
        for block in content:
            if not isinstance(block, dict):
                continue
            btype = block.get("type")
            if btype == "tool_use":
                yield from session.call(
                    number,
                    block.get("name") if isinstance(block.get("name"), str) else None,
                    block.get("input"),
                    block.get("id") if isinstance(block.get("id"), str) else None,
                    agent,
                    agent_type,
                    is_main,
                )
                if not isinstance(block.get("id"), str):
                    yield session.integrity(number, "missing-id", "tool call has no id")
            elif btype in ("text", "thinking"):
                text = block.get(btype)
                if isinstance(text, str) and text:
                    problem = classify_error(text) if api_error else None
                    role = "thinking" if btype == "thinking" else "assistant"
                    yield session.message(number, role, text, agent, agent_type, is_main, problem)
            elif btype not in ("redacted_thinking", "image"):
                parts = []
                strings(block, parts)
                if parts:
                    yield session.message(
                        number, "assistant", "\n".join(parts), agent, agent_type, is_main
                    )


def _subagent_files(path: str) -> list[str]:
    folder = os.path.join(os.path.splitext(path)[0], "subagents")
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [
        os.path.join(folder, n) for n in names if n.startswith("agent-") and n.endswith(".jsonl")
    ]


def _subagent_identity(session: Session, path: str) -> tuple[str, str | None]:
    agent_id = os.path.basename(path)[len("agent-") : -len(".jsonl")]
    meta_path = path[: -len(".jsonl")] + ".meta.json"
    agent_type = session.agent_types.get(agent_id)
    try:
        with open(meta_path, encoding="utf-8") as handle:
            meta = json.load(handle)
    except (OSError, ValueError):
        meta = None
    if isinstance(meta, dict):
        for key in ("agentType", "subagent_type", "subagentType", "agent_type"):
            if isinstance(meta.get(key), str):
                agent_type = meta[key]
                break
        else:
            tool_use = meta.get("toolUseId") or meta.get("tool_use_id")
            if isinstance(tool_use, str):
                agent_type = session.spawn_types.get(tool_use, agent_type)
    return agent_id, agent_type


# -- the current turn, for the live hook ---------------------------------------------------------

TURN_LIMIT = 32 << 20  # bytes of a transcript read back from its end to find the turn start
_BLOCK = 1 << 20


def _lines_backwards(path: str, limit: int) -> Iterator[bytes]:
    """The lines of a file from the last to the first, reading at most `limit` bytes from its
    end in blocks (a line longer than what is left of the limit is not yielded)."""
    with open(path, "rb") as handle:
        handle.seek(0, os.SEEK_END)
        position = handle.tell()
        tail = b""
        while position > 0 and limit > 0:
            size = min(_BLOCK, position, limit)
            position -= size
            limit -= size
            handle.seek(position)
            lines = (handle.read(size) + tail).split(b"\n")
            tail = lines[0]
            yield from reversed(lines[1:])
        if position == 0 and tail:
            yield tail


def _turn_reads_of(
    records: Iterator[dict[str, Any]], agent_id: str | None, own_file: bool
) -> tuple[set[str], bool]:
    """Files read by an agent, newest first, until the user message that started its turn:
    (the files, whether the turn start was reached). `own_file`: every record is the agent's
    (a sub-agent's own file)."""
    reads: set[str] = set()
    for record in records:
        kind = record.get("type")
        if kind not in ("user", "assistant"):
            continue
        if not own_file:
            if agent_id is None and record.get("isSidechain"):
                continue
            if agent_id is not None and record.get("agentId") != agent_id:
                continue
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if kind == "user":
            if isinstance(content, str) or (
                isinstance(content, list)
                and any(isinstance(b, dict) and b.get("type") == "text" for b in content)
            ):
                return reads, True  # the same test as the transcript check's new turn
            continue
        if not isinstance(content, list):
            continue
        for block in content:
            if not isinstance(block, dict) or block.get("type") != "tool_use":
                continue
            tool = block.get("name") if isinstance(block.get("name"), str) else None
            data = block.get("input")
            if tool in READ_TOOLS:
                reads.update(target_paths(tool, data))
            command = shell_command(tool, data)
            if command is not None:
                reads.update(name for name in MEMORY_FILES if name in command)
    return reads, False


def current_turn_reads(
    transcript: str, agent_id: str | None = None, limit: int = TURN_LIMIT
) -> tuple[tuple[str, ...], str | None]:
    """What the live hook knows of the current user turn from the session transcript: the
    files the agent (the main agent, or the sub-agent `agent_id`) read since the user's last
    message, and a note when that is uncertain (transcript unreadable, turn longer than
    `limit`). The transcript is read backwards from its end, and only up to the turn start:
    the cost is bounded by the turn, not the session. A sub-agent's records are read from
    `<session>/subagents/agent-<id>.jsonl` when that file exists, else inline (agentId)."""
    path, own_file = transcript, False
    if agent_id is not None:
        sub = os.path.join(os.path.splitext(transcript)[0], "subagents", f"agent-{agent_id}.jsonl")
        if os.path.isfile(sub):
            path, own_file = sub, True

    def records() -> Iterator[dict[str, Any]]:
        for raw in _lines_backwards(path, limit):
            if b'"user"' not in raw and b'"tool_use"' not in raw:
                continue  # neither a turn start nor a call: not decoded
            try:
                record = _loads(raw)
            except _DECODE_ERRORS:
                continue  # a line being written, or a malformed one
            if isinstance(record, dict):
                yield record

    if not os.path.isfile(path):  # missing, or a folder or pipe that must not be opened
        return (), f"cannot read the transcript {transcript}: not a file"
    try:
        reads, complete = _turn_reads_of(records(), agent_id, own_file)
    except OSError as err:
        return (), f"cannot read the transcript {transcript}: {err.strerror or err}"
    if not complete and own_file:
        complete = True  # a sub-agent's file is its whole task: its prompt starts the file
    note = None if complete else f"the current turn is longer than the last {limit >> 20} MB"
    return tuple(sorted(reads)), note


# -- Codex CLI rollouts ----------------------------------------------------------------------


def _codex_output(output: Any) -> tuple[Any, bool]:
    """The text of a Codex tool output and whether it failed."""
    is_error = False
    if isinstance(output, str) and output.startswith("{"):
        try:
            data = json.loads(output)
        except (ValueError, RecursionError):
            data = None
        if isinstance(data, dict):
            meta = data.get("metadata")
            if isinstance(meta, dict) and meta.get("exit_code") not in (None, 0):
                is_error = True
            return data.get("output", data), is_error
    return output, is_error


def codex_units(session: Session, path: str, span: Span | None = None) -> Iterator[Any]:
    for number, record in _records(session, path, span, "codex"):
        if isinstance(record, (EventUnit, Part)):
            yield record
            continue
        if record.get("type") != "response_item":
            continue
        payload = record.get("payload")
        if not isinstance(payload, dict):
            continue
        ptype = payload.get("type")
        if ptype == "message":
            role = payload.get("role")
            text = _text_of(payload.get("content"))
            if role == "user":
                session.new_turn("main")
            if text:
                yield session.message(number, str(role), text, "main", None, True)
            elif role == "assistant":
                yield session.message(number, "assistant", "", "main", None, True, "empty-content")
        elif ptype == "reasoning":
            text = _text_of(payload.get("summary")) + "\n" + _text_of(payload.get("content"))
            if text.strip():
                yield session.message(number, "thinking", text.strip(), "main", None, True)
        elif ptype in ("function_call", "custom_tool_call", "local_shell_call"):
            name = payload.get("name") if ptype != "local_shell_call" else "local_shell"
            if ptype == "function_call":
                arguments = payload.get("arguments")
                try:
                    data = json.loads(arguments) if isinstance(arguments, str) else arguments
                except (ValueError, RecursionError):
                    data = {"arguments": arguments}
            elif ptype == "custom_tool_call":
                data = {"input": payload.get("input")}
            else:
                data = payload.get("action")
            call_id = payload.get("call_id") or payload.get("id")
            yield from session.call(
                number,
                name if isinstance(name, str) else None,
                data,
                call_id if isinstance(call_id, str) else None,
                "main",
                None,
                True,
            )
        elif ptype in (
            "function_call_output",
            "custom_tool_call_output",
            "local_shell_call_output",
        ):
            output, is_error = _codex_output(payload.get("output"))
            call_id = payload.get("call_id")
            yield from session.result(
                number,
                call_id if isinstance(call_id, str) else None,
                output,
                is_error,
                None,
                "main",
                None,
                True,
            )


# -- OpenAI chat messages ------------------------------------------------------------------------


_LOGLINES = re.compile(r'"loglines"\s*:\s*\[')


def _array_records(
    session: Session, path: str, key: re.Pattern[str] | None = None
) -> Iterator[tuple[int, Any]]:
    """Elements of a top-level JSON array (or of the array after `key` in the first MB, as
    in `{"loglines": [...]}`), decoded one at a time, with their line numbers."""
    decoder = json.JSONDecoder()
    with open(path, encoding="utf-8", errors="replace") as handle:
        buffer = handle.read(1 << 20)
        line = 1
        if key is not None:
            found = key.search(buffer)
            pos = found.end() - 1 if found else -1
        else:
            pos = buffer.find("[")
        if pos < 0:
            return
        line += buffer.count("\n", 0, pos)
        pos += 1
        eof = False
        while True:
            while True:  # skip separators
                while pos < len(buffer) and buffer[pos] in " \t\r\n,\ufeff":
                    if buffer[pos] == "\n":
                        line += 1
                    pos += 1
                if pos < len(buffer) or eof:
                    break
                chunk = handle.read(1 << 20)
                eof = not chunk
                buffer, pos = buffer[pos:] + chunk, 0
            if pos >= len(buffer) or buffer[pos] == "]":
                return
            try:
                value, end = decoder.raw_decode(buffer, pos)
            except RecursionError:  # nested too deeply to find where the element ends
                session.carry += len(buffer) - pos
                yield line, _malformed(session, line, buffer[pos : pos + 200].encode(), "too deep")
                return
            except ValueError:
                if eof:
                    session.carry += len(buffer) - pos
                    yield (
                        line,
                        _malformed(session, line, buffer[pos : pos + 200].encode(), "invalid JSON"),
                    )
                    return
                chunk = handle.read(1 << 20)
                eof = not chunk
                buffer, pos = buffer[pos:] + chunk, 0
                continue
            session.carry += end - pos
            yield line, value
            line += buffer.count("\n", pos, end)
            pos = end


def openai_units(session: Session, path: str, span: Span | None = None) -> Iterator[Any]:
    records: Iterator[tuple[int, Any]]
    if span is None and not session.part_size and _is_array(path):
        records = _array_records(session, path)
    else:
        records = _records(session, path, span, "openai")
    for number, record in records:
        if isinstance(record, (EventUnit, Part)):
            yield record
            continue
        if not isinstance(record, dict):
            yield _malformed(session, number, b"", "not an object")
            continue
        role = record.get("role")
        content = record.get("content")
        if role == "tool":
            call_id = record.get("tool_call_id")
            yield from session.result(
                number, call_id if isinstance(call_id, str) else None, content, False, None,
                "main", None, True,
            )  # fmt: skip
            continue
        text = _text_of(content)
        calls = record.get("tool_calls")
        if role == "user":
            session.new_turn("main")
        if text:
            yield session.message(number, str(role), text, "main", None, True)
        elif role == "assistant" and not calls:
            yield session.message(number, "assistant", "", "main", None, True, "empty-content")
        if isinstance(calls, list):
            for call in calls:
                if not isinstance(call, dict):
                    continue
                function = call.get("function") or {}
                name = function.get("name") if isinstance(function, dict) else None
                arguments = function.get("arguments") if isinstance(function, dict) else None
                try:
                    data = json.loads(arguments) if isinstance(arguments, str) else arguments
                except (ValueError, RecursionError):
                    data = {"arguments": arguments}
                call_id = call.get("id")
                yield from session.call(
                    number, name if isinstance(name, str) else None, data,
                    call_id if isinstance(call_id, str) else None, "main", None, True,
                )  # fmt: skip


def _is_array(path: str) -> bool:
    """A JSON array of messages (else JSONL)."""
    head = _read_head(path, 4096)
    return head is not None and head.lstrip().startswith(b"[")


# -- ReAct text histories (seed 002) -------------------------------------------------------------

_ROLE_LINE = re.compile(r"^\[(user|assistant|tool|system|summary)\]\s?(.*)$")
_ACTION = re.compile(r"Action\s*:\s*([A-Za-z_][\w.-]*)\s*\[(.*)\]\s*$", re.S)


def react_units(session: Session, path: str) -> Iterator[Any]:
    counter = [0]

    def blocks() -> Iterator[tuple[int, str, str]]:
        role, start, lines = None, 0, []
        for number, raw in _lines(path):
            session.carry += len(raw)
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            match = _ROLE_LINE.match(line)
            if match:
                if role is not None:
                    yield start, role, "\n".join(lines)
                role, start, lines = match.group(1), number, [match.group(2)]
            elif role is not None:
                lines.append(line)
        if role is not None:
            yield start, role, "\n".join(lines)

    last_call: str | None = None
    for number, role, body in blocks():
        if role == "assistant":
            action = _ACTION.search(body)
            thought = body[: action.start()] if action else body
            if thought.strip():
                yield session.message(number, "assistant", thought.strip(), "main", None, True)
            if action is None:
                if not body.strip():
                    yield session.message(
                        number, "assistant", "", "main", None, True, "empty-content"
                    )
                continue
            name, argument = action.group(1), action.group(2).strip()
            if name == "Finish":
                if argument:
                    yield session.message(number, "assistant", argument, "main", None, True)
                continue
            try:
                data = json.loads(argument) if argument else {}
            except (ValueError, RecursionError):
                data = {"input": argument}
            counter[0] += 1
            last_call = f"react-{counter[0]}"
            yield from session.call(number, name, data, last_call, "main", None, True)
        elif role == "tool":
            try:
                content: Any = json.loads(body)
            except (ValueError, RecursionError):
                content = body
            is_error = isinstance(content, dict) and content.get("status") == "error"
            yield from session.result(
                number, last_call, content, is_error, None, "main", None, True
            )
            last_call = None
        else:
            if role == "user":
                session.new_turn("main")
            if body.strip():
                yield session.message(number, role, body, "main", None, True)


# -- entry points ------------------------------------------------------------------------------


SPLIT_MIN = 4 << 20  # bytes: a smaller file is read and reported whole
# bytes per part: small enough that no worker waits long for the last one to end
PART_MIN, PART_MAX = 1 << 20, 4 << 20
PARTS_PER_WORKER = 8  # enough parts that the workers finish at about the same time


def _never(path: str) -> bool:
    return False


def _part_size(path: str, not_jsonl: Any) -> int:
    """Bytes per part when the file is to be read in parts, else 0 (also when the test
    `not_jsonl(path)` says it is one JSON document: asked only of a file big enough to split,
    so that a reader's own test of the file's head is not made twice)."""
    workers = OPTIONS.get("parts") or 0
    if workers < 1:
        return 0
    try:
        size = os.path.getsize(path)
    except OSError:
        return 0
    if size < SPLIT_MIN or not_jsonl(path):
        return 0
    return max(PART_MIN, min(PART_MAX, size // (workers * PARTS_PER_WORKER)))


def _read(units: Iterator[Any], session: Session) -> Iterator[Any]:
    """The units of a file read whole, or only its `Part`s when it is read in parts."""
    state = session.snapshot() if session.part_size else None
    if state is None:
        session.part_size = 0
        yield from units
        yield from session.finish()
        return
    session.part = (0, 1, state)
    session.follow = True
    for item in units:  # this read only follows the state; the parts make the units
        if isinstance(item, (Part, ScanError)):
            yield item


def transcript_units(full: str, display: str, fmt: str) -> Iterator[Any]:
    cwd = _first_cwd(full) if fmt in ("claude", "codex") else None
    ctx = make_context(full, cwd)
    session = Session(display, ctx)
    if fmt == "claude":
        session.part_size = _part_size(full, _is_loglines)
        yield from _read(claude_units(session, full), session)
        base_display = os.path.splitext(display)[0]
        for sub in _subagent_files(full):
            identity = _subagent_identity(session, sub)
            sub_display = f"{base_display}/subagents/{os.path.basename(sub)}"
            sub_session = Session(sub_display, ctx)
            sub_session.spawn_types = session.spawn_types
            sub_session.prompt_types = session.prompt_types
            sub_session.agent_types = session.agent_types
            sub_session.part_size = _part_size(sub, _is_loglines)
            try:
                yield from _read(claude_units(sub_session, sub, identity), sub_session)
            except OSError as err:
                yield ScanError(sub_display, f"cannot read: {err.strerror or err}")
                continue
        return
    if fmt in ("codex", "openai"):  # (a rollout is always JSONL)
        session.part_size = _part_size(full, _is_array if fmt == "openai" else _never)
    reader = {"codex": codex_units, "openai": openai_units, "react": react_units}[fmt]
    yield from _read(reader(session, full), session)


def part_units(part: Part) -> Iterator[EventUnit]:
    """The units of a `Part`, read from the state the session had at its start."""
    session = Session(part.display, Context())
    session.restore(part.state)
    span = (part.start, part.end, part.first_line)
    units: Iterator[Any]
    if part.fmt == "claude":
        units = claude_units(session, part.path, part.sub_agent, span)
    else:
        units = {"codex": codex_units, "openai": openai_units}[part.fmt](session, part.path, span)
    yield from units
    if part.last:
        yield from session.finish()


def example_units(text: str, rule: Any) -> list[EventUnit]:
    """Units for a rule example: JSONL records of a transcript, or a bare command line (run as
    a Bash call by the main agent). Examples run in the `wukong` profile with a memory bank."""
    ctx = Context("wukong", True, {}, None)
    session = Session("example.jsonl", ctx)
    stripped = text.strip()
    if not stripped.startswith("{"):
        units = list(session.call(1, "Bash", {"command": text}, None, "main", None, True))
        return units + list(session.finish())
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        f.write(text if text.endswith("\n") else text + "\n")
        name = f.name
    try:
        fmt = sniff_format(name) or "claude"
        reader = {"claude": claude_units, "codex": codex_units, "openai": openai_units}.get(
            fmt, claude_units
        )
        units = list(reader(session, name)) + list(session.finish())
    finally:
        os.unlink(name)
    return units
