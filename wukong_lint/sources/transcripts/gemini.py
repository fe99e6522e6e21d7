"""Gemini CLI histories: session JSONL (0.39 on: a metadata line, message lines appended again
whole each time they change, `$set` / `$rewindTo` lines), the pretty-printed session JSON of
earlier versions, `logs.json`, `/chat save` checkpoints and `--output-format stream-json`
output (tests/fixtures/history/FORMATS.md).

Every string a file stores is scanned on the line it stands on: a pretty-printed document has
no record per line, so its units carry `line_numbers` (each line of a unit's text as a line
of the file) and their findings land where `redact` changes the file."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from itertools import chain
from typing import Any

from wukong_lint.model.events import EventUnit, strings
from wukong_lint.protocol.errors import classify_error
from wukong_lint.sources.transcripts.records import DECODE_ERRORS, loads, read_head, text_of
from wukong_lint.sources.transcripts.session import NOT_RECORDS, Session
from wukong_lint.sources.transcripts.stream import Span, jsonl_records

# Message types of a session file, and the event types of stream-json output
MESSAGE_TYPES = frozenset({"user", "gemini", "info", "error", "warning"})
STREAM_TYPES = frozenset({"init", "message", "tool_use", "tool_result", "error", "result"})
# keys that hold ids, times, kinds and counts: never text anyone wrote
_IDS = frozenset(
    ["id", "type", "timestamp", "sessionId", "session_id", "projectHash", "startTime",
     "lastUpdated", "kind", "status", "tool_id", "messageId", "model", "tokens", "role",
     "delta", "$rewindTo", "stats", "severity", "authType", "renderOutputAsMarkdown"]
)  # fmt: skip
_TOOL_KEYS = frozenset({"id", "name", "args", "result", "status", "timestamp", "resultDisplay"})
# A pretty document bigger than this is read as plain text: it is decoded whole.
DOCUMENT_LIMIT = 256 << 20
# a JSON string token: outside strings JSON has no quote, so these are all the strings
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)


def is_document(path: str) -> bool:
    """A pretty-printed JSON document (a session before 0.39, logs.json, a checkpoint), not
    JSONL: its first line is no whole JSON value."""
    head = read_head(path, 65536)
    if head is None:
        return False
    first = head.lstrip(b"\xef\xbb\xbf \t\r\n").split(b"\n", 1)[0].strip()
    if first.startswith(b"["):
        return True
    try:
        loads(first)
    except DECODE_ERRORS:
        return True
    return False


def gemini_units(session: Session, path: str, span: Span | None = None) -> Iterator[Any]:
    """Units of one Gemini CLI file (JSONL lines, or a pretty document read whole)."""
    if span is None and not session.in_parts and is_document(path):
        yield from _document_units(session, path)
        return
    reader = _Reader(session)
    for number, record in jsonl_records(session, path, span, "gemini"):
        if isinstance(record, NOT_RECORDS):
            yield record
            continue
        yield from reader.record(number, record)


class _Reader:
    """What one file's records have shown: a message is appended again whole each time it
    changes, so a call and its result are made units once (the first line showing them) and
    the copies on later lines are scanned as text (`redact` masks every copy)."""

    def __init__(self, session: Session, places: _Places | None = None) -> None:
        self.session = session
        # a pretty-printed document's string places: each unit's lines placed on the lines
        # of the strings of the value it is made from
        self.places = places
        self.document = places is not None
        self.called: set[str] = set()
        self.answered: set[str] = set()
        self.seen_messages: set[str] = set()

    def placed(self, units: Iterator[Any], source: Any) -> Iterator[Any]:
        for unit in units:
            yield unit if self.places is None else self.places.reline(unit, source)

    def record(self, number: int, record: dict[str, Any]) -> Iterator[EventUnit | None]:
        if self.places is not None:
            yield from self.placed(self.read(number, record), record)
        else:
            yield from self.read(number, record)

    def read(self, number: int, record: dict[str, Any]) -> Iterator[EventUnit | None]:
        kind = record.get("type")
        if "id" in record and kind in MESSAGE_TYPES:
            yield from self.message(number, record)
        elif kind in STREAM_TYPES and "id" not in record:
            yield from self.stream(number, record)
        elif "$set" in record and isinstance(record["$set"], dict):
            messages = record["$set"].get("messages")
            if isinstance(messages, list):  # a checkpoint of the whole conversation
                for message in messages:
                    if isinstance(message, dict):
                        yield from self.message(number, message)
            yield from self.other(number, {k: v for k, v in record["$set"].items()
                                           if k != "messages"})  # fmt: skip
        else:  # the metadata line, `$rewindTo`, anything newer: its text still scanned
            yield from self.other(number, record)

    def other(self, number: int, value: Any, skip: frozenset[str] = _IDS, where: Any = None
              ) -> Iterator[Any]:  # fmt: skip
        parts: list[str] = []
        if isinstance(value, dict):
            for key, item in value.items():
                if key not in skip:
                    strings(item, parts)
        else:
            strings(value, parts)
        if parts:
            unit = self.session.message(number, "other", "\n".join(parts), "main", None, True)
            if self.places is not None and (where is not None or not isinstance(value, str)):
                unit = self.places.reline(unit, value if where is None else where)
            yield unit

    def message(self, number: int, record: dict[str, Any]) -> Iterator[EventUnit | None]:
        session = self.session
        kind = record.get("type")
        message_id = record.get("id")
        again = isinstance(message_id, str) and message_id in self.seen_messages
        if isinstance(message_id, str) and len(self.seen_messages) < 100000:
            self.seen_messages.add(message_id)
        text = text_of(record.get("content"))
        display = text_of(record.get("displayContent"))
        if display and display != text:
            text = f"{text}\n{display}" if text else display
        if kind == "user" and not again:
            session.new_turn("main")
        role = {"user": "user", "gemini": "assistant"}.get(str(kind), "other")
        if again:
            role = "other"  # (the same words once more: no second turn or reply)
        thoughts = record.get("thoughts")
        thinking = text_of(thoughts)
        if text:
            problem = classify_error(text) if kind == "error" else None
            yield session.message(number, role, text, "main", None, True, problem)
        if thinking:
            yield session.message(number, "thinking" if not again else "other", thinking,
                                  "main", None, True)  # fmt: skip
        calls = record.get("toolCalls")
        for call in calls if isinstance(calls, list) else ():
            if isinstance(call, dict):
                yield from self.placed(self.tool_call(number, call), call)
        handled = {"id", "type", "content", "displayContent", "thoughts", "toolCalls"}
        yield from self.other(number, record, _IDS | handled)

    def tool_call(self, number: int, call: dict[str, Any]) -> Iterator[EventUnit | None]:
        session = self.session
        call_id = call.get("id") if isinstance(call.get("id"), str) else None
        name = call.get("name") if isinstance(call.get("name"), str) else None
        args = call.get("args")
        if call_id is None or call_id not in self.called:
            if call_id is not None:
                self.called.add(call_id)
            yield from session.call(number, name, args, call_id, "main", None, True)
        else:
            yield from self.other(number, args, frozenset())
        status = call.get("status")
        result = call.get("result")
        display = call.get("resultDisplay")
        finished = result is not None or status in ("success", "error", "cancelled")
        if finished and (call_id is None or call_id not in self.answered):
            if call_id is not None:
                self.answered.add(call_id)
            output, failed = response_of(result)
            # In a pretty document the display stands on lines of its own: scanned apart,
            # or a copy of the output in it would be dropped as a repeat (join_texts) and
            # its line, which `redact` changes, would hold no finding.
            extra = None if self.document else display
            yield from session.result(number, call_id, output, failed or status == "error",
                                      extra, "main", None, True)  # fmt: skip
            if self.document and display is not None:
                yield from self.other(number, display, frozenset(), (call, "resultDisplay"))
        elif result is not None or display is not None:
            yield from self.other(number, [result, display], frozenset())
        yield from self.other(number, call, _IDS | _TOOL_KEYS)

    def stream(self, number: int, record: dict[str, Any]) -> Iterator[EventUnit | None]:
        """One event of `--output-format stream-json`."""
        session = self.session
        kind = record.get("type")
        tool_id = record.get("tool_id") if isinstance(record.get("tool_id"), str) else None
        if kind == "message":
            role = "user" if record.get("role") == "user" else "assistant"
            text = text_of(record.get("content"))
            if role == "user":
                session.new_turn("main")
            if text:
                yield session.message(number, role, text, "main", None, True)
            yield from self.other(number, record, _IDS | {"content"})
        elif kind == "tool_use":
            name = record.get("tool_name")
            tool = name if isinstance(name, str) else None
            parameters = record.get("parameters")
            yield from session.call(number, tool, parameters, tool_id, "main", None, True)
            yield from self.other(number, record, _IDS | {"tool_name", "parameters"})
        elif kind == "tool_result":
            error = record.get("error")
            output: Any = [record.get("output"), error] if error else record.get("output")
            failed = record.get("status") == "error" or bool(error)
            yield from session.result(number, tool_id, output, failed, None, "main", None, True)
            yield from self.other(number, record, _IDS | {"output", "error"})
        elif kind == "error":
            text = text_of(record.get("message"))
            if text:
                yield session.message(number, "other", text, "main", None, True,
                                      classify_error(text))  # fmt: skip
            yield from self.other(number, record, _IDS | {"message"})
        else:  # init, result: ids and counts, and any text a newer version adds
            yield from self.other(number, record)


def response_of(result: Any) -> tuple[Any, bool]:
    """What a tool call's `result` parts hold (the `functionResponse.response` output or
    error; other parts as they are) and whether it is an error."""
    if not isinstance(result, list):
        return result, False
    outputs: list[Any] = []
    failed = False
    for part in result:
        response = part.get("functionResponse") if isinstance(part, dict) else None
        if isinstance(response, dict) and isinstance(response.get("response"), dict):
            body = response["response"]
            failed = failed or "error" in body
            outputs.append(body.get("output") if set(body) <= {"output"} else body)
        else:
            outputs.append(part)
    return outputs[0] if len(outputs) == 1 else outputs, failed


# -- pretty-printed documents ---------------------------------------------------------------


def string_lines(data: bytes) -> list[int]:
    """The line of each JSON string token of a document, in document order (keys too)."""
    lines: list[int] = []
    line, last = 1, 0
    for match in _STRING.finditer(data):
        line += data.count(b"\n", last, match.start())
        last = match.start()
        lines.append(line)
    return lines


def walk_strings(value: Any, out: list[str], starts: dict[int, int] | None = None) -> None:
    """Every string of a decoded document in document order, keys included (the order of
    `string_lines`); `starts`: each container's first string's index in `out`, by the
    container's id. Iterative: nesting has no bound."""
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            if starts is not None:
                starts[id(item)] = len(out)
            for key, sub in reversed(list(item.items())):
                stack.append(sub)
                stack.append(key)
        elif isinstance(item, list):
            if starts is not None:
                starts[id(item)] = len(out)
            stack.extend(reversed(item))


class _Places:
    """The file line of each string of a pretty-printed document."""

    def __init__(self, data: bytes, document: Any) -> None:
        self.texts: list[str] = []
        self.starts: dict[int, int] = {}  # (the document is kept alive: ids stay unique)
        walk_strings(document, self.texts, self.starts)
        self.lines = string_lines(data)
        self.line: dict[str, int] = {}  # a string -> the first line it stands on
        if len(self.lines) != len(self.texts):  # (a duplicate key drops a string: no places)
            self.texts, self.lines = [], []
        for text, line in zip(self.texts, self.lines, strict=True):
            self.line.setdefault(text, line)

    def of(self, value: Any) -> int:
        found: list[str] = []
        strings(value, found)
        return min((self.line[t] for t in found if t in self.line), default=0)

    def pairs(self, source: Any) -> list[tuple[str, int]]:
        """The strings of `source` (a container of the document, or (container, key): the
        value under that key) with their lines, in document order."""
        key = None
        if isinstance(source, tuple):
            source, key = source
        start = self.starts.get(id(source))
        if start is None:  # (a value made by a reader, not decoded from the document)
            own: list[str] = []
            strings(source, own)
            return [(text, self.line.get(text, 0)) for text in own]
        texts: list[str] = []
        walk_strings(source, texts)
        found = list(zip(texts, self.lines[start : start + len(texts)], strict=False))
        if key is not None:  # from the key's token on
            at = next((i for i, (t, _) in enumerate(found) if t == key), 0)
            found = found[at + 1 :]
        return found

    def reline(self, unit: Any, source: Any) -> Any:
        """`unit` with each line of its text placed on the file line of the string of
        `source` it comes from (the line before it when none is known)."""
        if not isinstance(unit, EventUnit) or not self.line or unit.line_numbers is not None:
            return unit  # (placed already: by the innermost value it is made from)
        # the lines of the source's strings in order, each with its file line: the text is
        # made of them in (nearly) that order, so each line of it is matched to the next
        # equal line (a copy of a line in another string is not taken for it)
        expected = [(piece, line) for text, line in self.pairs(source)
                    for piece in text.split("\n")]  # fmt: skip
        numbers: list[int] = []
        cursor = 0
        for piece in unit.text.split("\n"):
            number = 0
            if piece:
                # (from the cursor on, then from the start: the next equal line is most often
                # at the cursor, so no list of every index is made for each line)
                for index in chain(range(cursor, len(expected)), range(cursor)):
                    if expected[index][0] == piece:
                        cursor, number = index + 1, expected[index][1]
                        break
                else:  # (a line the unit's text changed: placed on a string holding it)
                    number = next((n for t, n in expected if piece in t), 0)
            numbers.append(number or (numbers[-1] if numbers else unit.first_line))
        new = tuple.__new__(type(unit), (*unit[:6], tuple(numbers)))
        new.__dict__.update(unit.__dict__)
        return new


def _document_units(session: Session, path: str) -> Iterator[Any]:
    """A pretty-printed document, read whole: a session (`messages`), a checkpoint
    (`history` or a bare list of `{role, parts}`), `logs.json` (a list of prompts)."""
    with open(path, "rb") as handle:
        data = handle.read(DOCUMENT_LIMIT + 1)
    session.carry += len(data)
    try:
        document = json.loads(data.decode("utf-8", "replace").lstrip("\ufeff"))
    except (ValueError, RecursionError):
        document = None
    if document is None or len(data) > DOCUMENT_LIMIT:
        from wukong_lint.sources.transcripts.stream import malformed, salvage

        unit = malformed(session, 1, data[:200], "invalid JSON document")
        if unit is not None:
            yield unit
        yield from (u for u in salvage(session, 1, data) if u is not None)
        return
    places = _Places(data, document)
    reader = _Reader(session, places)
    for number, record in _document_records(document, places):
        yield from (unit for unit in reader.record(number, record) if unit is not None)


def _document_records(document: Any, places: _Places) -> Iterator[tuple[int, Any]]:
    """The records of a document as session-file records, each with the line it starts on."""
    if isinstance(document, dict) and isinstance(document.get("messages"), list):
        rest = {k: v for k, v in document.items() if k != "messages"}
        yield max(1, places.of(rest)), rest
        for message in document["messages"]:
            if isinstance(message, dict):
                yield max(1, places.of(message)), message
        return
    history = document.get("history") if isinstance(document, dict) else document
    if isinstance(document, dict):
        rest = {k: v for k, v in document.items() if k != "history"}
        yield max(1, places.of(rest)), rest
    for entry in history if isinstance(history, list) else [history]:
        if not isinstance(entry, dict):
            yield max(1, places.of(entry)), {"value": entry}
        elif "parts" in entry:  # a checkpoint's Content
            for record in _content_records(entry):
                yield max(1, places.of(record)), record
        elif "message" in entry and "messageId" in entry:  # logs.json
            record = {"id": str(entry.get("messageId")), "type": entry.get("type", "user"),
                      "content": entry.get("message")}  # fmt: skip
            yield max(1, places.of(entry)), record
        else:
            yield max(1, places.of(entry)), {"value": entry}


def _content_records(entry: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A checkpoint's `{role, parts}` as session-style records: text parts as a message, a
    `functionCall` as a call, a `functionResponse` as its result."""
    role = "user" if entry.get("role") == "user" else "gemini"
    parts = entry.get("parts")
    for part in parts if isinstance(parts, list) else [parts]:
        if not isinstance(part, dict):
            continue
        call, response = part.get("functionCall"), part.get("functionResponse")
        if isinstance(call, dict):
            yield {"type": "tool_use", "tool_name": call.get("name"), "tool_id": call.get("id"),
                   "parameters": call.get("args")}  # fmt: skip
        elif isinstance(response, dict):
            body = response.get("response")
            out = body.get("output") if isinstance(body, dict) and set(body) <= {"output"} else body
            failed = isinstance(body, dict) and "error" in body
            yield {"type": "tool_result", "tool_id": response.get("id"), "output": out,
                   "status": "error" if failed else "success"}  # fmt: skip
        else:
            yield {"type": "message", "role": "user" if role == "user" else "assistant",
                   "content": part.get("text"),
                   **{k: v for k, v in part.items() if k != "text"}}  # fmt: skip
