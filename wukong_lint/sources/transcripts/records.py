"""Reading transcript files: JSON decoding, JSONL records with their line numbers (and
the `Part`s of a file read in parts), the elements of a JSON array, malformed records."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from wukong_lint.model import sha256_hex
from wukong_lint.sources.transcript_events import EventUnit, strings

if TYPE_CHECKING:  # (the live hook reads records without the session machinery)
    from wukong_lint.sources.transcripts.session import Session

try:  # orjson is several times faster than json on large records
    import orjson

    loads: Any = orjson.loads
    DECODE_ERRORS: tuple[type[Exception], ...] = (orjson.JSONDecodeError, ValueError)
except ImportError:  # pragma: no cover
    loads = json.loads
    DECODE_ERRORS = (ValueError,)


def read_head(path: str, size: int) -> bytes | None:
    """The first `size` bytes of a file (None: unreadable)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(size)
    except OSError:
        return None


def read_lines(path: str) -> Iterator[tuple[int, bytes]]:
    with open(path, "rb") as handle:
        yield from enumerate(handle, 1)


def malformed(session: Session, number: int, raw: bytes, why: str) -> EventUnit:
    if session.follow:
        return session.integrity(number, "", "")
    digest = sha256_hex(raw.decode("utf-8", "replace"))[:12]
    return session.integrity(number, "malformed-record", f"malformed record ({why}) {digest}")


Span = tuple[int, int, int]  # lines of a file: start and end byte, the start's line number


def jsonl_records(
    session: Session, path: str, span: Span | None = None, fmt: str = "", sub: Any = None
) -> Iterator[tuple[int, Any]]:
    """The records of a JSONL file (or of its lines `span`) with their line numbers. When the
    session reads in parts, a `Part` is also yielded as each part ends."""
    from wukong_lint.sources.transcripts.session import Part

    start, end, first = span if span is not None else (0, -1, 1)
    part_size = session.part_size
    with open(path, "rb") as handle:
        if start:
            handle.seek(start)
        position = start
        for number, raw in enumerate(handle, first):
            if position == end:
                return
            if part_size and position - session.part[0] >= part_size:
                state = session.snapshot()
                if state is not None:  # (else the part goes on until the state can be copied)
                    began, line, start_state = session.part
                    yield (
                        number,
                        Part(
                            fmt, path, session.path, began, position, line, start_state, False, sub
                        ),
                    )
                    session.part = (position, number, state)
            position += len(raw)
            session.carry += len(raw)
            if raw.isspace():  # (a line is never empty: it holds at least its newline)
                continue
            try:
                record = loads(raw)
            except DECODE_ERRORS:
                record = malformed(session, number, raw, "invalid JSON")
            else:
                if type(record) is not dict:
                    record = malformed(session, number, raw, "not an object")
            if record is not None:  # (None: only following the state)
                yield number, record
        if part_size:
            began, line, state = session.part
            yield line, Part(fmt, path, session.path, began, position, line, state, True, sub)


def text_of(content: Any) -> str:
    parts: list[str] = []
    strings(content, parts)
    return "\n".join(parts)


def array_records(
    session: Session, path: str, key: re.Pattern[str] | None = None
) -> Iterator[tuple[int, Any]]:
    """Elements of a top-level JSON array (or of the array after `key` in the first MB, as
    in `{"loglines": [...]}`), decoded one at a time, with their line numbers."""
    decoder = json.JSONDecoder()
    with open(path, encoding="utf-8", errors="replace") as handle:
        buffer = handle.read(1 << 20)
        line = 1
        if key is not None:
            found = key.search(buffer)
            pos = found.end() - 1 if found else -1
        else:
            pos = buffer.find("[")
        if pos < 0:
            return
        line += buffer.count("\n", 0, pos)
        pos += 1
        eof = False
        while True:
            while True:  # skip separators
                while pos < len(buffer) and buffer[pos] in " \t\r\n,\ufeff":
                    if buffer[pos] == "\n":
                        line += 1
                    pos += 1
                if pos < len(buffer) or eof:
                    break
                chunk = handle.read(1 << 20)
                eof = not chunk
                buffer, pos = buffer[pos:] + chunk, 0
            if pos >= len(buffer) or buffer[pos] == "]":
                return
            try:
                value, end = decoder.raw_decode(buffer, pos)
            except RecursionError:  # nested too deeply to find where the element ends
                session.carry += len(buffer) - pos
                yield line, malformed(session, line, buffer[pos : pos + 200].encode(), "too deep")
                return
            except ValueError:
                if eof:
                    session.carry += len(buffer) - pos
                    yield (
                        line,
                        malformed(session, line, buffer[pos : pos + 200].encode(), "invalid JSON"),
                    )
                    return
                chunk = handle.read(1 << 20)
                eof = not chunk
                buffer, pos = buffer[pos:] + chunk, 0
                continue
            session.carry += end - pos
            yield line, value
            line += buffer.count("\n", pos, end)
            pos = end
