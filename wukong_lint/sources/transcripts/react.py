"""ReAct text histories, in two written forms fed to the same session calls:

- seed 002's: `[user]`/`[assistant]`/`[tool]` blocks, an assistant block holding
  `Thought: …` and `Action: Tool[{…}]`, a `[tool] {…}` block its result;
- the common plain form: `Question:`, `Thought:`, `Action: Tool`, `Action Input: {…}` (JSON
  or text: a shell tool's text input is its command), `Observation: …`, `Final Answer: …`.

`react_units` reads either (the form is told by the file's first lines, see sniff.py)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from wukong_lint.model.events import SHELL_TOOLS
from wukong_lint.sources.transcripts.records import read_head, read_lines
from wukong_lint.sources.transcripts.session import NOT_RECORDS, Session
from wukong_lint.sources.transcripts.sniff import PLAIN_LINE as _PLAIN_LINE
from wukong_lint.sources.transcripts.sniff import is_plain_form, is_seed_form
from wukong_lint.sources.transcripts.stream import jsonl_records

_ROLE_LINE = re.compile(r"^\[(user|assistant|tool|system|summary)\]\s?(.*)$")
_ACTION = re.compile(r"Action\s*:\s*([A-Za-z_][\w.-]*)\s*\[(.*)\]\s*$", re.S)


_BRACKET_ACTION = re.compile(r"^\s*([A-Za-z_][\w.-]*)\s*\[(.*)\]\s*$", re.S)


def react_units(session: Session, path: str) -> Iterator[Any]:
    head = read_head(path, 65536) or b""
    text = head.decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
    if text.startswith("{"):
        yield from message_units(session, path)
    elif not is_seed_form(text) and is_plain_form(text):
        yield from plain_units(session, path)
    else:
        yield from _role_units(session, path)


def _input_data(tool: str, raw: str) -> Any:
    """An action's input: a JSON object as it is, other JSON or text as the command of a
    shell tool or as `input`."""
    raw = raw.strip()
    try:
        data: Any = json.loads(raw) if raw else {}
    except (ValueError, RecursionError):
        data = raw.strip("`'\"") if len(raw) > 1 and raw[0] == raw[-1] else raw
    if isinstance(data, dict):
        return data
    if isinstance(data, str) and tool.lower() in SHELL_TOOLS:
        return {"command": data}
    return {"input": data}


def plain_units(session: Session, path: str) -> Iterator[Any]:
    """The plain form: sections start at a keyword line and run to the next one."""
    counter = 0
    last_call: str | None = None
    action: tuple[int, str] | None = None  # an Action waiting for its Action Input

    def sections() -> Iterator[tuple[int, str, str]]:
        key, start, lines = None, 0, []
        for number, raw in read_lines(path):
            session.carry += len(raw)
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            if number == 1:
                line = line.lstrip("\ufeff")
            match = _PLAIN_LINE.match(line)
            if match:
                if key is not None:
                    yield start, key, "\n".join(lines).strip()
                key, start, lines = match.group(1), number, [match.group(2)]
            elif key is not None:
                lines.append(line)
            elif line.strip():  # text before the first keyword: the user's question
                key, start, lines = "Question", number, [line]
        if key is not None:
            yield start, key, "\n".join(lines).strip()

    thought = False  # a Thought since the last step (seed 002 A2: every step has one)

    def call(number: int, tool: str, raw: str) -> Iterator[Any]:
        nonlocal counter, last_call, thought
        if session.protocol is not None and not thought:
            session.protocol.flag = "no-thought"
        thought = False
        counter += 1
        last_call = f"react-{counter}"
        yield from session.call(number, tool, _input_data(tool, raw), last_call, "main", None, True)

    for number, key, body in sections():
        if action is not None and key != "Action Input":  # an Action without input
            yield from call(action[0], action[1], "")
            action = None
        if key == "Question":
            session.new_turn("main")
            if body:
                yield session.message(number, "user", body, "main", None, True)
        elif key in ("Thought", "Final Answer"):
            thought = thought or (key == "Thought" and bool(body))
            if body:
                yield session.message(number, "assistant", body, "main", None, True)
            elif key == "Thought":
                yield session.message(number, "assistant", "", "main", None, True, "empty-content")
        elif key == "Action":
            bracket = _BRACKET_ACTION.match(body)
            if bracket:  # `Action: Tool[{...}]` written in the plain form
                yield from call(number, bracket.group(1), bracket.group(2))
            elif body:
                action = (number, body.split()[0].strip("`'\""))
        elif key == "Action Input":
            if action is not None:
                yield from call(action[0], action[1], body)
                action = None
        else:  # Observation
            try:
                content: Any = json.loads(body)
            except (ValueError, RecursionError):
                content = body
            is_error = isinstance(content, dict) and content.get("status") == "error"
            if last_call is None:  # an Observation no Action asked for: a result without call
                counter += 1
                last_call = f"react-orphan-{counter}"
            yield from session.result(
                number, last_call, content, is_error, None, "main", None, True
            )
            last_call = None
    if action is not None:
        yield from call(action[0], action[1], "")


def _role_units(session: Session, path: str) -> Iterator[Any]:
    def blocks() -> Iterator[tuple[int, str, str]]:
        role, start, lines = None, 0, []
        for number, raw in read_lines(path):
            session.carry += len(raw)
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            match = _ROLE_LINE.match(line)
            if match:
                if role is not None:
                    yield start, role, "\n".join(lines)
                role, start, lines = match.group(1), number, [match.group(2)]
            elif role is not None:
                lines.append(line)
            elif line.strip():  # text before the first block (a title): scanned as a message
                role, start, lines = "system", number, [line]
        if role is not None:
            yield start, role, "\n".join(lines)

    yield from _block_units(session, blocks())


def message_units(session: Session, path: str) -> Iterator[Any]:
    """Seed 002 E1's stored history: one JSON message per line, `{"role", "content",
    "metadata"}`, an assistant step's content its `Thought: … Action: Tool[{…}]` text and a
    tool message's content the compressed result (a JSON string)."""

    def blocks() -> Iterator[Any]:
        for number, record in jsonl_records(session, path, None, "react"):
            if isinstance(record, NOT_RECORDS):
                yield record  # a malformed line: its integrity finding
                continue
            if not isinstance(record, dict):
                continue
            role, content = record.get("role"), record.get("content")
            if role not in ("user", "assistant", "tool", "system", "summary"):
                continue
            if not isinstance(content, str):
                content = "" if content is None else json.dumps(content, ensure_ascii=False)
            yield number, role, content

    yield from _block_units(session, blocks())


def _block_units(session: Session, blocks: Iterator[Any]) -> Iterator[Any]:
    """The units of a ReAct history's (line, role, text) blocks, in either written form."""
    counter = [0]
    last_call: str | None = None
    for block in blocks:
        if isinstance(block, NOT_RECORDS):
            yield block
            continue
        number, role, body = block
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
            if session.protocol is not None and "thought" not in body[: action.start()].lower():
                session.protocol.flag = "no-thought"  # seed 002 A2: every step has a Thought
            counter[0] += 1
            last_call = f"react-{counter[0]}"
            yield from session.call(number, name, data, last_call, "main", None, True)
        elif role == "tool":
            try:
                content: Any = json.loads(body)
            except (ValueError, RecursionError):
                content = body
            is_error = isinstance(content, dict) and content.get("status") == "error"
            if last_call is None:  # a tool block no Action asked for: a result without its call
                counter[0] += 1
                last_call = f"react-orphan-{counter[0]}"
            yield from session.result(
                number, last_call, content, is_error, None, "main", None, True
            )
            last_call = None
        else:
            if role == "user":
                session.new_turn("main")
            elif session.protocol is not None and (
                role == "summary" or "Archived Session Summary" in body[:200]
            ):
                session.protocol.compacted()  # seed 002 A5: older history archived
            if body.strip():
                yield session.message(number, role, body, "main", None, True)
