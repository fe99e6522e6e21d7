"""The current turn of a session, checked as `check --profile wukong` checks a transcript: for
the live hook's Stop (the turn's 戒关检查) and PreToolUse of Agent/Task (the summons about
to run, with what the turn wrote before it).

The hook sees one event; the protocol's facts (the CHECKPOINT and declaration written
before a summons, the avatars already running, the track) live in the transcript. The
session file is read backwards from its end to the start of the turn `TURNS` user tasks
back (earlier turns without a call carry their CHECKPOINT over, as in a transcript check),
at most `LIMIT` bytes; those lines, and the call being judged when the transcript does not
hold it yet, are copied to a private temporary file and read by the transcript reader with
the hook's rule set. Only findings on the lines of the current turn are kept, with the line
numbers of the session file (counted when the turn starts within `COUNT_LIMIT` bytes;
otherwise relative to the copy and said so).

What this cannot see: sub-agent files (their tool calls were judged by PreToolUse as they
ran), avatars still running from a turn older than the ones read, a turn longer than
`LIMIT` (read from a line boundary inside it: its CHECKPOINT may be cut off, so the checks
of a turn's start are left out).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from typing import Any

from wukong_lint.model import Finding
from wukong_lint.protocol.turn_facts import _NOT_A_TASK
from wukong_lint.sources.transcripts.records import DECODE_ERRORS, loads
from wukong_lint.sources.transcripts.turn import _lines_backwards

TURNS = 3  # user tasks read back (the current one and two before it)
LIMIT = 16 << 20  # bytes of the session read at most
COUNT_LIMIT = 64 << 20  # bytes before the turn whose lines are counted for line numbers
# checks of a turn's start: not judged on a turn read from its middle
_START_RULES = ("body-boundary.checkpoint-missing", "body-boundary.checkpoint-incomplete")


class Turn:
    """The lines read: `data` (bytes from `start` to the end of the file), the offset and line
    number of the current turn's start, whether the turn's start was reached."""

    __slots__ = ("current", "current_line", "data", "path", "start", "start_line", "whole")

    def __init__(self, path: str) -> None:
        self.path = path
        self.data = b""
        self.start = 0  # byte offset of `data` in the file
        self.start_line = 1  # the file's line number of `data`'s first line (0: unknown)
        self.current = 0  # byte offset of the current turn's first line
        self.current_line = 0  # its line number in `data` (1-based)
        self.whole = True


def _is_task(raw: bytes) -> bool:
    """Whether a line is a user's task (a main-agent user message with text that is not a
    command echo, a reminder or a notification): the start of a turn."""
    if b'"user"' not in raw or b'"tool_result"' in raw:
        return False
    try:
        record = loads(raw)
    except DECODE_ERRORS:
        return False
    if not isinstance(record, dict) or record.get("type") != "user" or record.get("isSidechain"):
        return False
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, list):
        texts = [b.get("text") for b in content if isinstance(b, dict) and b.get("type") == "text"]
        content = "\n".join(t for t in texts if isinstance(t, str)) if texts else None
    return isinstance(content, str) and not content.lstrip().startswith(_NOT_A_TASK)


def read_turn(path: str, turns: int = TURNS, limit: int = LIMIT) -> Turn:
    """The last `turns` user tasks of the session file and what follows them."""
    turn = Turn(path)
    size = os.path.getsize(path)
    consumed = 0
    first = True
    starts: list[int] = []
    for raw in _lines_backwards(path, limit):
        consumed += len(raw) + (0 if first else 1)
        first = False
        if _is_task(raw):
            starts.append(size - consumed)
            if len(starts) >= turns:
                break
    # (the lines read back are whole lines: `size - consumed` is a line's start)
    turn.start = starts[-1] if starts else max(0, size - consumed)
    turn.whole = bool(starts) or turn.start == 0
    turn.current = starts[0] if starts else turn.start
    with open(path, "rb") as handle:
        handle.seek(turn.start)
        turn.data = handle.read(size - turn.start)
        turn.start_line = _count_lines(handle, turn.start)
    turn.current_line = turn.data.count(b"\n", 0, turn.current - turn.start) + 1
    return turn


def _count_lines(handle: Any, end: int) -> int:
    """The line number of the byte at `end` (0: past COUNT_LIMIT, not counted)."""
    if end > COUNT_LIMIT:
        return 0
    handle.seek(0)
    count, left = 0, end
    while left > 0:
        block = handle.read(min(1 << 20, left))
        if not block:
            break
        count += block.count(b"\n")
        left -= len(block)
    return count + 1


def with_call(turn: Turn, data: dict[str, Any]) -> int:
    """Add the PreToolUse call to the lines read unless the transcript already holds it;
    its line number in `turn.data` (1-based)."""
    call_id = data.get("tool_use_id")
    if isinstance(call_id, str) and call_id:
        needle = json.dumps(call_id).encode()
        at = turn.data.rfind(needle)
        if at >= 0:
            return turn.data.count(b"\n", 0, at) + 1
    record = {"type": "assistant", "isSidechain": False, "cwd": data.get("cwd"),
              "sessionId": data.get("session_id"),
              "message": {"role": "assistant", "content": [
                  {"type": "tool_use", "id": call_id or "toolu_live", "name": data["tool_name"],
                   "input": data.get("tool_input") if isinstance(data.get("tool_input"), dict)
                   else {}}]}}  # fmt: skip
    if turn.data and not turn.data.endswith(b"\n"):
        turn.data += b"\n"
    line = turn.data.count(b"\n") + 1
    turn.data += json.dumps(record, ensure_ascii=False).encode() + b"\n"
    return line


def turn_findings(turn: Turn, ruleset: Any, version: str | None) -> list[Finding]:
    """The findings of the current turn (unsuppressed), with the session file's line numbers
    when known."""
    from wukong_lint.engine.scan import tally
    from wukong_lint.sources import transcripts
    from wukong_lint.util.fsutil import atomic_write_bytes

    transcripts.configure(profile="wukong", agents=None, fmt="claude", protocol_version=version)
    folder = tempfile.mkdtemp(prefix="wukong-lint-turn-")
    try:
        copy = os.path.join(folder, "turn.jsonl")
        atomic_write_bytes(copy, turn.data)
        found = tally(ruleset, transcripts.transcript_units(copy, turn.path, "claude")).findings
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    kept = []
    for finding in found:
        if finding.suppressed or 0 < finding.line < turn.current_line:
            continue
        if not turn.whole and turn.current_line == 1 and finding.rule_id in _START_RULES:
            continue
        if turn.start_line and finding.line:
            finding = finding._replace(line=finding.line + turn.start_line - 1,
                                       end_line=finding.end_line + turn.start_line - 1)  # fmt: skip
        kept.append(finding)
    return kept
