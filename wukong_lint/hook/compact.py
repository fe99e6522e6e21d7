"""PreCompact, live (issue 27, `live: compact: true`): what upstream's PreCompact hook
(WQ09CE/wukong `wukong-dist/hooks/hui-extract.py` at 29b520b) reports that a linter should,
read from the session transcript since its last compaction:

- the context usage stage: the tokens in use (the last assistant record's API `usage`:
  input + cache creation + cache read + output), else upstream's estimate (the characters of
  the messages and tool results / 3), against the window (200 000 tokens; 1 000 000 for a
  `[1m]` model), in upstream's stages: normal below 70 %, warning from 70 %, preemptive from
  85 %, emergency from 100 %;
- the error classes of the session since then: failed tool results classified as
  protocol/errors.py classes them (edit-failure, context-exceeded, permission-denied,
  file-not-found, thinking-block-error; other failures as `other`) and tool calls left
  without a result (upstream's tool_result_missing), each with upstream's recovery advice.

The answer is one `systemMessage` (shown to the user; Claude Code's PreCompact takes no
decision). Writing upstream's compact form (`compact.md`) is not done: wukong-lint reports,
it does not keep the agent's memory.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Any

TAIL = 32 << 20  # bytes of the transcript read back (the context since the last compaction)
WINDOW = 200_000
# the API usage fields that together are the context in use (the prompt, cached or not, and
# the answer the next turn carries)
USAGE_KEYS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens",
              "output_tokens")  # fmt: skip
WINDOW_1M = 1_000_000
# upstream's CONTEXT_THRESHOLDS, in per cent, highest first
STAGES = (("emergency", 100), ("preemptive", 85), ("warning", 70))
STAGE_ADVICE = {
    "normal": "no action",
    "warning": "keep working at full quality; compress at a natural break",
    "preemptive": "compaction due: keep the anchors and decisions, drop bulky tool output",
    "emergency": "the window is full: compress now, then resume from the anchors",
}
# upstream's recovery strategy per error class (ERROR_CATEGORIES / generate_recovery_prompt)
RECOVERY = {
    "edit-failure": "read the file before editing it again",
    "tool-result-missing": "a call got no result (interrupted?): check it and retry",
    "context-exceeded": "compress and retry",
    "permission-denied": "ask the user to confirm or change the path",
    "file-not-found": "search (Glob/Grep) before assuming a path",
    "thinking-block-error": "the session's thinking blocks are broken: start a new session",
    "other": "read the error before retrying",
}


def precompact(data: dict[str, Any]) -> dict[str, Any]:
    """The hook's answer to a PreCompact event ({} when there is no transcript to read)."""
    path = data.get("transcript_path")
    if not isinstance(path, str) or not os.path.isfile(path):
        return {}
    facts = session_facts(_records(path))
    trigger = data.get("trigger") if isinstance(data.get("trigger"), str) else "?"
    return {"systemMessage": render(facts, trigger)}


def _records(path: str) -> list[dict[str, Any]]:
    """The records since the last compaction (Claude Code's `compact_boundary` system record
    or its compact summary), oldest first, from at most TAIL bytes of the end."""
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(0, size - TAIL))
            raw = handle.read(TAIL)
    except OSError:
        return []
    lines = raw.split(b"\n")
    if size > TAIL:
        lines = lines[1:]  # (the first line read is cut)
    records: list[dict[str, Any]] = []
    for line in reversed(lines):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict):
            continue
        if record.get("subtype") == "compact_boundary" or record.get("isCompactSummary"):
            break
        records.append(record)
    records.reverse()
    return records


def session_facts(records: list[dict[str, Any]]) -> dict[str, Any]:
    """{tokens, window, estimated, errors: Counter} of the records."""
    from wukong_lint.protocol.errors import classify_error

    tokens, model, chars = None, "", 0
    calls: dict[str, None] = {}
    answered: set[str] = set()
    errors: Counter[str] = Counter()
    for record in records:
        message = record.get("message")
        message = message if isinstance(message, dict) else {}
        usage = message.get("usage")
        if record.get("type") == "assistant" and isinstance(usage, dict):
            counted = [usage.get(k) for k in USAGE_KEYS]
            tokens = sum(v for v in counted if isinstance(v, int) and not isinstance(v, bool))
            model = message.get("model") if isinstance(message.get("model"), str) else model
        content = message.get("content")
        chars += len(content) if isinstance(content, str) else 0
        result = record.get("toolUseResult")
        if result is not None:
            chars += len(result) if isinstance(result, str) else len(json.dumps(result))
        for block in content if isinstance(content, list) else ():
            if not isinstance(block, dict):
                continue
            for key in ("text", "thinking"):
                chars += len(block[key]) if isinstance(block.get(key), str) else 0
            if block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                calls[block["id"]] = None
                chars += len(json.dumps(block.get("input")))
            elif block.get("type") == "tool_result":
                if isinstance(block.get("tool_use_id"), str):
                    answered.add(block["tool_use_id"])
                text = _text(block.get("content"))
                chars += len(text)
                if block.get("is_error") is True:
                    errors[classify_error(text) or "other"] += 1
        failed_api = record.get("type") == "system" and record.get("level") == "error"
        if record.get("isApiErrorMessage") or failed_api:
            text = _text(content) or str(record.get("content") or "")
            kind = classify_error(text)
            if kind is not None:
                errors[kind] += 1
    missing = [call for call in calls if call not in answered]
    if missing:
        errors["tool-result-missing"] += len(missing)
    window = WINDOW_1M if "[1m]" in model or (tokens or 0) > WINDOW else WINDOW
    estimated = tokens is None
    return {"tokens": chars // 3 if estimated else tokens, "window": window,
            "estimated": estimated, "errors": errors}  # fmt: skip


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(b["text"] for b in value
                         if isinstance(b, dict) and isinstance(b.get("text"), str))  # fmt: skip
    return ""


def stage(tokens: int, window: int) -> str:
    percent = 100 * tokens / window if window else 0
    for name, low in STAGES:
        if percent >= low:
            return name
    return "normal"


def render(facts: dict[str, Any], trigger: str) -> str:
    """One paragraph: the usage stage and the error classes (no text of the transcript)."""
    tokens, window = facts["tokens"], facts["window"]
    name = stage(tokens, window)
    about = "about " if facts["estimated"] else ""
    usage = (f"context {about}{100 * tokens / window:.0f} % ({about}{tokens:,} of {window:,} "
             f"tokens): {name}, {STAGE_ADVICE[name]}")  # fmt: skip
    errors: Counter[str] = facts["errors"]
    if errors:
        listed = "; ".join(f"{kind} ×{n} ({RECOVERY.get(kind, RECOVERY['other'])})"
                           for kind, n in errors.most_common())  # fmt: skip
        said = f"errors since the last compaction: {listed}"
    else:
        said = "no tool errors since the last compaction"
    return f"wukong-lint (戒 慧, PreCompact {trigger}): {usage}. {said}."
