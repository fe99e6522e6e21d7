"""OpenAI chat messages: a JSON array or JSONL of `role` records with `tool_calls`."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from wukong_lint.sources.transcripts.records import rest_text, text_of
from wukong_lint.sources.transcripts.session import NOT_RECORDS, Session
from wukong_lint.sources.transcripts.sniff import is_array
from wukong_lint.sources.transcripts.stream import Span, array_records, jsonl_records, malformed

# keys read below, and ids
_READ = ("role", "content", "tool_calls", "tool_call_id", "id", "name", "type")
# A tool message has no error flag: agents (OpenCode, most function-calling loops) return a
# failure as text starting with "Error" ("Error: oldString and newString must be different")
_FAILED = re.compile(r"(?i)\s*(?:error\b|<tool_use_error>)")


def openai_units(session: Session, path: str, span: Span | None = None) -> Iterator[Any]:
    records: Iterator[tuple[int, Any]]
    if span is None and not session.in_parts and is_array(path):
        records = array_records(session, path)
    else:
        records = jsonl_records(session, path, span, "openai")
    for number, record in records:
        if isinstance(record, NOT_RECORDS):
            yield record
            continue
        if not isinstance(record, dict):
            yield malformed(session, number, b"", "not an object")
            continue
        role = record.get("role")
        content = record.get("content")
        if role == "tool":
            call_id = record.get("tool_call_id")
            failed = isinstance(content, str) and _FAILED.match(content) is not None
            yield from session.result(
                number, call_id if isinstance(call_id, str) else None, content, failed, None,
                "main", None, True,
            )  # fmt: skip
            continue
        rest = rest_text(record, _READ)  # refusal, reasoning_content...: scanned too
        if rest:
            yield session.message(number, "other", rest, "main", None, True)
        text = text_of(content)
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
