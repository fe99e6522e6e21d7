"""Codex CLI rollouts (JSONL of `response_item`, `event_msg`, `world_state`, ... records:
tests/fixtures/history/FORMATS.md). Calls and results are `response_item`s; a command only
an `item_completed` event shows (paginated history) is a call too, and so are the tool calls
a code-mode `exec` cell's JavaScript makes; every other record's text is scanned as text."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from wukong_lint.protocol.errors import classify_error
from wukong_lint.sources.transcripts.records import rest_text, text_of
from wukong_lint.sources.transcripts.session import NOT_RECORDS, Session
from wukong_lint.sources.transcripts.stream import Span, jsonl_records

# unified exec's output text: `Process exited with code N` among its head lines
_EXIT = re.compile(r"^Process exited with code (-?\d+)$", re.M)
# a nested tool call of a code-mode `exec` cell: `tools.exec_command({cmd: "..."` (JavaScript
# string literals: the escapes of JSON strings, or single quotes / backticks)
_NESTED = re.compile(
    r"""tools\.(exec_command|shell|local_shell)\(\s*\{\s*(?:cmd|command)\s*:\s*"""
    r"""(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`([^`]*)`)"""
)


def _codex_output(output: Any) -> tuple[Any, bool]:
    """The text of a Codex tool output and whether it failed."""
    is_error = False
    if isinstance(output, str) and output.startswith("Chunk ID:"):
        code = _EXIT.search(output[:4096])
        return output, code is not None and code.group(1) != "0"
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


def _error(record: dict[str, Any]) -> str | None:
    """The error class of a Codex `error` / `stream_error` event (an API failure the rollout
    keeps: "token limit exceeded…"), None for any other record."""
    payload = record.get("payload")
    if record.get("type") != "event_msg" or not isinstance(payload, dict):
        return None
    message = payload.get("message")
    if payload.get("type") not in ("error", "stream_error") or not isinstance(message, str):
        return None
    return classify_error(message)


# keys of ids and kinds (no text anyone wrote), and the payload types read below
_ENVELOPE = ("timestamp", "type", "id", "call_id", "status")
_KNOWN = frozenset(
    ["message", "reasoning", "function_call", "custom_tool_call", "local_shell_call",
     "function_call_output", "custom_tool_call_output", "local_shell_call_output"]
)  # fmt: skip


def codex_units(session: Session, path: str, span: Span | None = None) -> Iterator[Any]:
    for number, record in jsonl_records(session, path, span, "codex"):
        if isinstance(record, NOT_RECORDS):
            yield record
            continue
        if record.get("type") == "event_msg" and _completed_command(record):
            yield from _item_command(session, number, record["payload"]["item"])
            continue
        if record.get("type") != "response_item":
            if session.protocol is not None:
                unit = _context_usage(session, number, record)
                if unit is not None:
                    yield unit
            # session_meta, event_msg, turn_context, compacted...: their text is scanned too
            text = rest_text(record, _ENVELOPE)
            if text:
                yield session.message(number, "other", text, "main", None, True, _error(record))
            continue
        payload = record.get("payload")
        if not isinstance(payload, dict):
            continue
        ptype = payload.get("type")
        if not isinstance(ptype, str) or ptype not in _KNOWN:
            text = rest_text(payload, _ENVELOPE)
            if text:
                yield session.message(number, "other", text, "main", None, True)
        elif ptype == "message":
            role = payload.get("role")
            text = text_of(payload.get("content"))
            if role == "user":
                session.new_turn("main")
            if text:
                yield session.message(number, str(role), text, "main", None, True)
            elif role == "assistant":
                yield session.message(number, "assistant", "", "main", None, True, "empty-content")
        elif ptype == "reasoning":
            text = text_of(payload.get("summary")) + "\n" + text_of(payload.get("content"))
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
                if name == "exec" and isinstance(data["input"], str):
                    data["input"] = yield from _nested_calls(session, number, data["input"])
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


def _completed_command(record: dict[str, Any]) -> bool:
    payload = record.get("payload")
    item = payload.get("item") if isinstance(payload, dict) else None
    return (
        isinstance(payload, dict)
        and payload.get("type") == "item_completed"
        and isinstance(item, dict)
        and item.get("type") == "CommandExecution"
    )


def _item_command(session: Session, number: int, item: dict[str, Any]) -> Iterator[Any]:
    """An `item_completed` CommandExecution: the call and its output, when no response item
    made them (paginated history); else its text (the same command and output again)."""
    call_id = item.get("id") if isinstance(item.get("id"), str) else None
    command = item.get("command")
    if isinstance(command, list):  # `["/bin/zsh", "-lc", "cat .env"]`: the script runs
        words = [w for w in command if isinstance(w, str)]
        command = words[-1] if len(words) >= 3 and words[-2] in ("-c", "-lc") else " ".join(words)
    if call_id is not None and (call_id in session.done or call_id in session.pending):
        text = rest_text(item, _ENVELOPE)
        if text:
            yield session.message(number, "other", text, "main", None, True)
        return
    data = {"cmd": command, "workdir": item.get("cwd")}
    yield from session.call(number, "exec_command", data, call_id, "main", None, True)
    output = item.get("aggregated_output")
    if not isinstance(output, str):
        output = [item.get("stdout"), item.get("stderr")]
    failed = item.get("exit_code") not in (None, 0)
    skip = ("command", "cwd", "aggregated_output", "stdout", "stderr", *_ENVELOPE)
    yield from session.result(
        number, call_id, [output, rest_text(item, skip)], failed, None, "main", None, True
    )


def _nested_calls(session: Session, number: int, script: str) -> Any:
    """The shell commands a code-mode `exec` cell's JavaScript runs, as calls of their own
    on its line (returned: the script with those commands blanked, so that each secret is
    scanned once: with its command)."""
    rest = script
    for match in reversed(list(_NESTED.finditer(script))):
        group = next(g for g in (2, 3, 4) if match.group(g) is not None)
        literal = match.group(group)
        try:
            command = json.loads(f'"{literal}"') if group == 2 else literal
        except ValueError:
            command = literal
        if command.strip():
            yield from session.call(
                number, match.group(1), {"cmd": command}, None, "main", None, True
            )
            start, end = match.span(group)
            rest = rest[:start] + " " * (end - start) + rest[end:]
    return rest


# -- OpenAI chat messages ------------------------------------------------------------------------


def _context_usage(session: Session, number: int, record: dict[str, Any]) -> Any:
    """A Codex `token_count` event: the tokens of the last request against the model's window
    (a `compacted` record empties the context)."""
    kind = record.get("type")
    if kind == "compacted":
        assert session.protocol is not None
        session.protocol.compacted()
        return None
    payload = record.get("payload")
    if kind != "event_msg" or not isinstance(payload, dict) or payload.get("type") != "token_count":
        return None
    info = payload.get("info")
    last = info.get("last_token_usage") if isinstance(info, dict) else None
    if not isinstance(last, dict):
        return None
    used = sum(
        v for k in ("input_tokens", "output_tokens") if type(v := last.get(k)) is int and v > 0
    )
    window = info.get("model_context_window") if isinstance(info, dict) else None
    return session.usage(number, used, window if type(window) is int and window > 0 else None)
