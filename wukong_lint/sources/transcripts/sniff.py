"""Which format a transcript file is in, from its first records."""

from __future__ import annotations

import json
import re

from wukong_lint.sources.transcripts.records import read_head

LOGLINES = re.compile(r'"loglines"\s*:\s*\[')


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


def sniff_format(path: str) -> str | None:
    """Recognise a transcript by its first records (None: not a transcript)."""
    head = read_head(path, 65536)
    if head is None:
        return None
    text = head.decode("utf-8", "replace").lstrip("\ufeff")
    stripped = text.lstrip()
    if re.match(r"\[(user|assistant|tool|system|summary)\]", stripped):
        return "react"
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
        if "role" in record and "type" not in record:
            return "openai"
        if record.get("type") in ("user", "assistant", "summary", "system") or (
            "sessionId" in record or "parentUuid" in record
        ):
            return "claude"
    return None


def is_array(path: str) -> bool:
    """A JSON array of messages (else JSONL)."""
    head = read_head(path, 4096)
    return head is not None and head.lstrip().startswith(b"[")
