"""Which format a transcript file is in, from its first records."""

from __future__ import annotations

import json
import re
from typing import Any

from wukong_lint.sources.transcripts.records import read_head

LOGLINES = re.compile(r'"loglines"\s*:\s*\[')
ROLE_BLOCK = re.compile(r"\[(user|assistant|tool|system|summary)\]")
# a line of the plain ReAct form: a keyword, a colon and the start of its text
PLAIN_LINE = re.compile(
    r"^\s*(Question|Thought|Action Input|Action|Observation|Final Answer)\s*:\s?(.*)$"
)


def is_plain_form(text: str) -> bool:
    """Whether text clearly is a plain-form ReAct history: it has Thought and Action lines
    and at least one Action Input or Observation line."""
    keys = {m.group(1) for m in map(PLAIN_LINE.match, text.splitlines()) if m}
    return {"Thought", "Action"} <= keys and bool(keys & {"Action Input", "Observation"})


_ROLE_LINES = re.compile(r"^\[(user|assistant|tool|system|summary)\]", re.M)


def is_seed_form(text: str) -> bool:
    """Seed 002's form: `[role]` block lines, an `[assistant]` one among them, and an Action
    (text before the first block, such as a title, is allowed)."""
    roles = {m.group(1) for m in _ROLE_LINES.finditer(text)}
    return "assistant" in roles and len(roles) >= 2 and "Action" in text


def is_loglines(path: str) -> bool:
    """A Claude Code session exported as one JSON object whose `loglines` are its records."""
    data = read_head(path, 65536)
    return data is not None and loglines_head(data)


def loglines_head(data: bytes) -> bool:
    """`is_loglines` on the first 64 KB of a file."""
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
    return LOGLINES.search(head[:4096]) is not None


# an assistant step of a ReAct history: `Action: Tool[` (after its Thought, if any)
_REACT_STEP = re.compile(r"(?m)^\s*Action\s*:\s*[A-Za-z_][\w.-]*\s*\[")


def is_react_messages(text: str) -> bool:
    """Chat-message JSONL that is a ReAct history (seed 002 E1's stored messages): an
    assistant message holds an `Action: Tool[…]` step and no message uses function calling."""
    steps = False
    for raw in text.splitlines()[:50]:
        try:
            record = json.loads(raw)
        except (ValueError, RecursionError):
            continue
        if not isinstance(record, dict):
            continue
        if "tool_calls" in record or "tool_call_id" in record or "function_call" in record:
            return False
        content = record.get("content")
        if record.get("role") == "assistant" and isinstance(content, str):
            steps = steps or _REACT_STEP.search(content) is not None
    return steps


# A pretty-printed Gemini CLI document: a session before 0.39 (`projectHash` and `messages`),
# a `/chat save` checkpoint (`parts` of `{role, parts}` contents), logs.json (`messageId`)
_GEMINI_DOCUMENT = re.compile(
    r'\A[\[{]\s*\n\s*(?:\{\s*\n\s*)?"(?:sessionId|history|role|messageId)"\s*:'
    r'(?=[\s\S]*"(?:projectHash|parts|messageId)"\s*:)'
)
_GEMINI_STREAM = frozenset({"init", "tool_use", "tool_result"})


def is_gemini_record(record: dict[str, Any]) -> bool:
    """A line of a Gemini CLI session JSONL (its metadata, a message, `$set`, `$rewindTo`)
    or of `--output-format stream-json` output. Asked before the Claude Code test: both have
    `sessionId`, only Gemini's has `projectHash` or message types `gemini`/`info`."""
    if "$set" in record or "$rewindTo" in record:
        return True
    if "projectHash" in record and "sessionId" in record:
        return True
    kind = record.get("type")
    if not isinstance(kind, str):  # (a value of another JSON type: no record type at all)
        kind = ""
    if kind in ("gemini", "info", "warning") and "id" in record and "uuid" not in record:
        return True
    if kind in _GEMINI_STREAM and ("tool_id" in record or "session_id" in record):
        return True
    return (
        kind == "message"
        and "role" in record
        and "timestamp" in record
        and ("delta" in record or isinstance(record.get("content"), str))
        and "payload" not in record
    )


def sniff_format(path: str) -> str | None:
    """Recognise a transcript by its first records (None: not a transcript)."""
    head = read_head(path, 65536)
    if head is None:
        return None
    text = head.decode("utf-8", "replace").lstrip("\ufeff")
    stripped = text.lstrip()
    if ROLE_BLOCK.match(stripped):
        return "react"
    if _GEMINI_DOCUMENT.search(stripped[:4096]):
        return "gemini"
    if stripped.startswith("["):
        return "openai" if re.search(r'"role"\s*:', stripped[:4096]) else None
    if loglines_head(head):
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
        if is_gemini_record(record):
            return "gemini"
        if "role" in record and "type" not in record:
            return "react" if is_react_messages(stripped) else "openai"
        if record.get("type") in ("user", "assistant", "summary", "system") or (
            "sessionId" in record or "parentUuid" in record
        ):
            return "claude"
    if not stripped.startswith("{") and (is_seed_form(stripped) or is_plain_form(stripped)):
        return "react"
    return None


def text_history(path: str) -> bool:
    """A .txt/.log file that clearly is a ReAct history (read as a transcript unasked)."""
    head = read_head(path, 65536)
    if not head:
        return False
    text = head.decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
    return is_seed_form(text) or is_plain_form(text)


def misfit(path: str, fmt: str) -> str | None:
    """Why a file does not fit the format forced with --transcript-format (None: it fits, or
    it holds nothing to read)."""
    head = read_head(path, 65536)
    if head is None or not head.strip(b"\xef\xbb\xbf \t\r\n"):
        return None
    found = sniff_format(path)
    if found == fmt:
        return None
    looks = f"it looks like a {found} transcript" if found else "it is not a transcript"
    return f"{path}: does not fit --transcript-format {fmt} ({looks})"


def is_array(path: str) -> bool:
    """A JSON array of messages (else JSONL)."""
    head = read_head(path, 4096)
    return head is not None and head.lstrip().startswith(b"[")
