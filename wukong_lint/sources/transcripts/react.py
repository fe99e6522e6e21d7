"""ReAct text histories (seed 002): `[user]`/`[assistant]`/`[tool]` blocks, `Action: Tool[...]`.

One reader, `react_units`: blocks of a role line and what follows it; an assistant block
splits into a thought and an action. Another written form of the same history adds a block
splitter here and feeds the same session calls."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from wukong_lint.sources.transcripts.records import read_lines
from wukong_lint.sources.transcripts.session import Session

_ROLE_LINE = re.compile(r"^\[(user|assistant|tool|system|summary)\]\s?(.*)$")
_ACTION = re.compile(r"Action\s*:\s*([A-Za-z_][\w.-]*)\s*\[(.*)\]\s*$", re.S)


def react_units(session: Session, path: str) -> Iterator[Any]:
    counter = [0]

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
        if role is not None:
            yield start, role, "\n".join(lines)

    last_call: str | None = None
    for number, role, body in blocks():
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
