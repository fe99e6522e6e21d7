"""Claude Code sessions: JSONL (or `{"loglines": [...]}`), inline sidechain sub-agents and
`<session>/subagents/agent-*.jsonl` files with their `.meta.json`."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

from wukong_lint.model import sha256_hex
from wukong_lint.model.events import EventUnit, strings
from wukong_lint.protocol.errors import classify_error
from wukong_lint.sources.transcripts.records import text_of
from wukong_lint.sources.transcripts.session import KEEP_ROOTS, NOT_RECORDS, Session
from wukong_lint.sources.transcripts.sniff import LOGLINES, is_loglines
from wukong_lint.sources.transcripts.stream import Span, array_records, jsonl_records, malformed

# Keys of a record's envelope: ids, times, versions (never text a person or tool wrote).
_ENVELOPE = frozenset(
    ["type", "subtype", "uuid", "parentUuid", "logicalParentUuid", "leafUuid", "sessionId",
     "timestamp", "version", "gitBranch", "cwd", "userType", "isSidechain", "isMeta", "level",
     "messageId", "requestId", "toolUseID", "parentToolUseID", "slug", "agentId"]
)  # fmt: skip


def envelope_text(record: dict[str, Any]) -> str:
    """Every string of a record outside its envelope keys."""
    parts: list[str] = []
    for key, value in record.items():
        if key not in _ENVELOPE:
            strings(value, parts)
    return "\n".join(parts)


def context_tokens(usage: dict[str, Any]) -> int:
    """The tokens in the context window after a response, from its API `usage`: the prompt
    (fresh, cached and written to cache) and the response."""
    total = 0
    for key in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens",
                "output_tokens"):  # fmt: skip
        value = usage.get(key)
        if type(value) is int and value > 0:
            total += value
    return total


def _blank_texts(content: list[Any]) -> bool:
    """Whether every block is a text block of white space only (the first block that is not
    says no: an assistant record's first block is most often a tool call or thinking)."""
    for block in content:
        if not (
            isinstance(block, dict)
            and block.get("type") == "text"
            and not str(block.get("text", "")).strip()
        ):
            return False
    return True


def subagent_parent(path: str) -> str | None:
    """The session file of `<session>/subagents/agent-*.jsonl`, if it exists."""
    folder, name = os.path.split(os.path.abspath(path))
    if not name.startswith("agent-") or os.path.basename(folder) != "subagents":
        return None
    session_dir = os.path.dirname(folder)
    parent = session_dir + ".jsonl"
    return parent if os.path.isfile(parent) else None


def claude_units(
    session: Session,
    path: str,
    sub_agent: tuple[str, str | None] | None = None,
    span: Span | None = None,
) -> Iterator[Any]:
    """Units of one Claude Code session file (or of one sub-agent file when `sub_agent` is
    (agent id, agent type)), or of its lines `span`."""
    roots = session.roots
    # (values read from the records: any JSON type until tested; a compiled module checks
    # the type a variable declares, native.py)
    agent_id: Any
    agent_type: Any
    text: Any
    unit: EventUnit | None
    # a session exported as one JSON object, {"loglines": [records...]}, or JSONL
    records = (
        array_records(session, path, LOGLINES)
        if span is None and not session.in_parts and is_loglines(path)
        else jsonl_records(session, path, span, "claude", sub_agent)
    )
    for number, record in records:
        if isinstance(record, NOT_RECORDS):
            yield record
            continue
        kind = record.get("type")
        if (
            session.protocol is not None
            and sub_agent is None
            and (record.get("subtype") == "compact_boundary" or record.get("isCompactSummary"))
        ):
            session.protocol.compacted()  # the context holds only the summary now
        if kind not in ("user", "assistant"):
            # system, summary, progress, queue-operation...: their text is scanned too
            # (`redact` masks every string of every record; `check` must see the same)
            text = envelope_text(record)
            if text:
                role = kind if kind in ("system", "summary") else "other"
                yield session.message(number, role, text, "main", None, True)
            continue
        message = record.get("message")
        if not isinstance(message, dict):
            yield malformed(session, number, b"", "message is not an object")
            continue
        # Who is speaking: the main agent, or a sub-agent (inline sidechain or its own file).
        if sub_agent is not None:
            agent_id, agent_type = sub_agent
            is_main = False
            if agent_type is None:  # learned from its prompt below (by a part read later:
                agent_type = session.agent_types.get(agent_id)  # while following the lines)
                if agent_type is not None:
                    sub_agent = (agent_id, agent_type)
            if agent_type is None and kind == "user" and record.get("parentUuid") is None:
                # no meta file or result naming it: the spawning call's prompt does
                prompt = text_of(message.get("content")).strip()
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
                if len(roots) > KEEP_ROOTS:
                    roots.popitem(last=False)
            agent_type = session.agent_types.get(agent_id)
            if agent_type is None and parent is None and kind == "user":
                prompt = text_of(message.get("content")).strip()
                agent_type = session.prompt_types.get(sha256_hex(prompt)[:16])
                if agent_type is not None:
                    session.agent_types[agent_id] = agent_type
        else:
            agent_id, agent_type, is_main = None, None, True
        agent = "main" if is_main else f"{agent_type or 'subagent'}:{agent_id}"
        content = message.get("content")
        if kind == "user":
            extra = record.get("toolUseResult")
            if isinstance(content, str):
                session.new_turn(agent)
                unit = session.message(number, "user", content, agent, agent_type, is_main)
                if unit is not None:  # (most: a unit no rule reaches, counted by the session)
                    yield unit
                if extra is not None:  # (no tool_result block to attach it to)
                    yield from _stray_result(session, number, extra, agent, agent_type, is_main)
                continue
            if not isinstance(content, list):
                if extra is not None:
                    yield from _stray_result(session, number, extra, agent, agent_type, is_main)
                continue
            for block in content:
                if not isinstance(block, dict):
                    continue
                btype = block.get("type")
                if btype == "tool_result":
                    result_id = block.get("tool_use_id")
                    yield from session.result(
                        number,
                        result_id if isinstance(result_id, str) else None,  # (else: missing-id)
                        block.get("content"),
                        bool(block.get("is_error")),
                        extra,
                        agent,
                        agent_type,
                        is_main,
                    )
                    extra = None  # one toolUseResult per record
                    if not isinstance(result_id, str):
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
            if extra is not None:  # a toolUseResult no tool_result block took
                yield from _stray_result(session, number, extra, agent, agent_type, is_main)
            continue
        # assistant
        if not isinstance(content, list) or not content or _blank_texts(content):
            if not (isinstance(content, str) and content.strip()):
                yield session.message(
                    number, "assistant", "", agent, agent_type, is_main, "empty-content"
                )
                continue
            content = [{"type": "text", "text": content}]
        if is_main and session.protocol is not None:
            usage = message.get("usage")
            if isinstance(usage, dict):
                unit = session.usage(number, context_tokens(usage))
                if unit is not None:
                    yield unit
        api_error = bool(record.get("isApiErrorMessage"))
        for block in content:
            if not isinstance(block, dict):
                continue
            btype = block.get("type")
            if btype == "tool_use":
                name, call_id = block.get("name"), block.get("id")
                yield from session.call(
                    number,
                    name if isinstance(name, str) else None,
                    block.get("input"),
                    call_id if isinstance(call_id, str) else None,
                    agent,
                    agent_type,
                    is_main,
                )
                if not isinstance(call_id, str):
                    yield session.integrity(number, "missing-id", "tool call has no id")
            elif btype in ("text", "thinking"):
                text = block.get(btype)
                if isinstance(text, str) and text:
                    problem = classify_error(text) if api_error else None
                    if btype == "thinking" and not block.get("signature"):
                        problem = "thinking-block-error"  # the API rejects it when replayed
                    role = "thinking" if btype == "thinking" else "assistant"
                    unit = session.message(number, role, text, agent, agent_type, is_main, problem)
                    if unit is not None:
                        yield unit
            elif btype not in ("redacted_thinking", "image"):
                parts = []
                strings(block, parts)
                if parts:
                    yield session.message(
                        number, "assistant", "\n".join(parts), agent, agent_type, is_main
                    )


def subagent_files(path: str) -> list[str]:
    folder = os.path.join(os.path.splitext(path)[0], "subagents")
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [
        os.path.join(folder, n) for n in names if n.startswith("agent-") and n.endswith(".jsonl")
    ]


def subagent_identity(session: Session, path: str) -> tuple[str, str | None]:
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


def _stray_result(
    session: Session,
    number: int,
    extra: Any,
    agent: str,
    agent_type: str | None,
    is_main: bool,
) -> Iterator[EventUnit | None]:
    """A record's `toolUseResult` that no `tool_result` block carries (a failed call's error
    string beside a plain-text content, an interrupted call): still a tool's output, scanned
    as one (role `tool`: no turn or protocol effect), so that what `redact` masks in it is
    what `check` reports."""
    parts: list[str] = []
    strings(extra, parts)
    text = "\n".join(part for part in parts if part)
    if text:
        yield session.message(number, "tool", text, agent, agent_type, is_main)
