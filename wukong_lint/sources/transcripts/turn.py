"""The current user turn, for the live hook: a transcript read backwards from its end."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

from wukong_lint.model.events import (
    EDIT_TOOLS,
    READ_TOOLS,
    shell_command,
    target_paths,
)
from wukong_lint.sources.transcripts.environment import MEMORY_FILES
from wukong_lint.sources.transcripts.records import DECODE_ERRORS, loads

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
    records: Iterator[dict[str, Any]],
    agent_id: str | None,
    own_file: bool,
    writes: list[tuple[str, tuple[str, ...]]] | None = None,
    skip_id: str | None = None,
) -> tuple[set[str], bool]:
    """Files read by an agent, newest first, until the user message that started its turn:
    (the files, whether the turn start was reached). `own_file`: every record is the agent's
    (a sub-agent's own file). `writes` gets its file-tool writes, (tool, paths), except the
    call `skip_id` (the one being judged, if already written)."""
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
            elif writes is not None and tool in EDIT_TOOLS and block.get("id") != skip_id:
                writes.append((tool, tuple(target_paths(tool, data))))
            command = shell_command(tool, data)
            if command is not None:
                reads.update(name for name in MEMORY_FILES if name in command)
    return reads, False


_MB_COMMAND = re.compile(r"(?<![\w:])mb:(write|no)\b", re.I)


def mb_confirmation(text: str) -> str:
    """The user's memory-bank command in a message (seed 003): "write" for `mb:write`, "no"
    for `mb:no` (the last one wins when both are there), "" for neither."""
    found = _MB_COMMAND.findall(text[:65536])
    return found[-1].lower() if found else ""


def current_turn_confirmation(transcript: str, limit: int = TURN_LIMIT) -> str | None:
    """The main agent's current turn: the user's memory-bank command ("write", "no", "") in
    the message that started it, or None when the transcript cannot tell (unreadable, or the
    turn start lies beyond `limit`)."""
    if not os.path.isfile(transcript):
        return None
    try:
        for raw in _lines_backwards(transcript, limit):
            if b'"user"' not in raw:
                continue
            try:
                record = loads(raw)
            except DECODE_ERRORS:
                continue
            if not isinstance(record, dict) or record.get("type") != "user":
                continue
            if record.get("isSidechain"):
                continue
            message = record.get("message")
            content = message.get("content") if isinstance(message, dict) else None
            if isinstance(content, str):
                return mb_confirmation(content)
            if isinstance(content, list):
                texts = [b.get("text") for b in content
                         if isinstance(b, dict) and b.get("type") == "text"]  # fmt: skip
                if texts:
                    return mb_confirmation(" ".join(t for t in texts if isinstance(t, str)))
    except OSError:
        return None
    return None


def current_turn_reads(
    transcript: str,
    agent_id: str | None = None,
    limit: int = TURN_LIMIT,
    writes: list[tuple[str, tuple[str, ...]]] | None = None,
    skip_id: str | None = None,
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
                record = loads(raw)
            except DECODE_ERRORS:
                continue  # a line being written, or a malformed one
            if isinstance(record, dict):
                yield record

    if not os.path.isfile(path):  # missing, or a folder or pipe that must not be opened
        return (), f"cannot read the transcript {transcript}: not a file"
    try:
        reads, complete = _turn_reads_of(records(), agent_id, own_file, writes, skip_id)
    except OSError as err:
        return (), f"cannot read the transcript {transcript}: {err.strerror or err}"
    if not complete and own_file:
        complete = True  # a sub-agent's file is its whole task: its prompt starts the file
    note = None if complete else f"the current turn is longer than the last {limit >> 20} MB"
    return tuple(sorted(reads)), note
