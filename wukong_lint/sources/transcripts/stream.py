"""The records of a transcript file as a session reads them: JSONL records with their line
numbers (or those of a span of lines), the elements of a JSON array, and malformed records
(reported, and still scanned as text)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from wukong_lint.model import TextWindow, sha256_hex
from wukong_lint.model.events import EventUnit
from wukong_lint.sources.transcripts.records import (
    _COMMAND,
    BOM,
    DECODE_ERRORS,
    _unescape,
    lenient_record,
    loads,
)
from wukong_lint.sources.transcripts.session import Session


def salvage(session: Session, number: int, raw: bytes) -> Iterator[EventUnit | None]:
    """Units of a line that is not JSON (a record cut short by a crash, a truncated last
    record): its shell commands as calls (for the command rules) and the rest of its text as a
    message (for the secret rules), so that nothing in it goes unscanned."""
    text = raw.decode("utf-8", "replace").rstrip("\r\n")
    sidechain = '"isSidechain":true' in text.replace(" ", "")
    agent, is_main = ("subagent:?", False) if sidechain else ("main", True)
    rest = text
    for match in reversed(list(_COMMAND.finditer(text))):
        command = _unescape(match.group(1))
        if command.strip():
            yield from session.call(
                number, "Bash", {"command": command}, None, agent, None, is_main
            )
            # (each secret once: the command's text is scanned with the call)
            rest = rest[: match.start(1)] + " " * len(match.group(1)) + rest[match.end(1) :]
    if rest.strip():
        yield session.message(number, "raw", rest, agent, None, is_main)


def malformed(session: Session, number: int, raw: bytes, why: str) -> EventUnit | None:
    if session.follow:
        return session.integrity(number, "", "")
    digest = sha256_hex(raw.decode("utf-8", "replace"))[:12]
    return session.integrity(number, "malformed-record", f"malformed record ({why}) {digest}")


Span = tuple[int, int, int]  # lines of a file: start and end byte, the start's line number
_BUFFER = 1 << 20


def jsonl_records(
    session: Session, path: str, span: Span | None = None, fmt: str = "", sub: Any = None
) -> Iterator[tuple[int, Any]]:
    """The records of a JSONL file (or of its lines `span`) with their line numbers. A read
    that stops at the span's end leaves the next line's number in `session.next_line` (a
    worker that followed the state up to its part numbers the part's lines from there)."""
    start, end, first = span if span is not None else (0, -1, 1)
    # (a large buffer: fewer, larger reads of a file that is read to its end anyway)
    with open(path, "rb", buffering=_BUFFER) as handle:
        if start:
            handle.seek(start)
        position = start
        number = first - 1
        readline = handle.readline
        while True:
            # (at most LINE_LIMIT bytes: a longer record is never held whole)
            raw = readline(LINE_LIMIT)
            if not raw:
                return
            number += 1
            if position == end:
                session.next_line = number
                return
            if len(raw) == LINE_LIMIT and raw[-1:] != b"\n":
                position += len(raw)
                for unit, size in long_record(session, number, raw, handle):
                    position += size
                    if unit is not None:
                        yield number, unit
                continue
            position += len(raw)
            session.carry += len(raw)
            if raw.isspace():  # (a line is never empty: it holds at least its newline)
                continue
            if number == 1 and raw.startswith(BOM):
                raw = raw[3:]
            try:
                record = loads(raw)
            except DECODE_ERRORS:
                record = lenient_record(raw)
                if record is None:  # still scanned as text: what `redact` would mask
                    units = [malformed(session, number, raw, "invalid JSON")]
                    units += salvage(session, number, raw)
                    for unit in units:
                        if unit is not None:  # (None: only following the state)
                            yield number, unit
                    continue
            if type(record) is not dict:
                record = malformed(session, number, raw, "not an object")
            if record is not None:  # (None: only following the state)
                yield number, record


# A record longer than this is not parsed (the read part size of big files, dispatch.py):
# it is read in overlapping parts as text, and reported as a low integrity finding.
LINE_LIMIT = 32 << 20
PART_BYTES = 8 << 20
PART_OVERLAP = 1 << 20  # (every match up to this long is whole in one part)
# JSON string escapes, decoded in a long record's text so that the rules see what a parsed
# record would give them (an escaped newline of a private key, an escaped quote)
_ESCAPE = re.compile(r'\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))')
_SIMPLE = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def _unescaped(match: re.Match[str]) -> str:
    if match.group(1):
        return chr(int(match.group(1), 16))
    return _SIMPLE[match.group(2)]


def long_record(
    session: Session, number: int, head: bytes, handle: Any
) -> Iterator[tuple[EventUnit | None, int]]:
    """A line of LINE_LIMIT bytes or more (`head`: its first LINE_LIMIT bytes; the rest is
    read from `handle` up to the line's end): a low `malformed-record` finding, then its text
    in parts of PART_BYTES, each starting with the last PART_OVERLAP characters of the one
    before and reporting only the matches that start before its own last ones (TextWindow).
    Yields (unit or None, bytes read for it)."""
    import codecs

    why = f"record too large to parse (over {LINE_LIMIT >> 20} MiB): scanned as text"
    yield malformed(session, number, head[:200], why), 0
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    overlap = pending = ""
    for chunk in _pieces(head, handle):
        read = len(chunk)
        last = chunk.endswith(b"\n") or not chunk
        decoded = pending + decoder.decode(chunk, last)
        pending = ""
        cut = decoded.rfind("\\", max(0, len(decoded) - 6))
        if not last and cut >= 0:  # an escape maybe cut in two: decoded with the next piece
            while cut and decoded[cut - 1] == "\\":
                cut -= 1
            decoded, pending = decoded[:cut], decoded[cut:]
        text = overlap + _ESCAPE.sub(_unescaped, decoded)
        stop = len(text) if last else max(0, len(text) - PART_OVERLAP)
        if text.strip():
            session.carry += read
            unit = session.message(number, "raw", text, "main", None, True)
            if isinstance(unit, EventUnit):
                placed = tuple.__new__(EventUnit, (*unit[:3], TextWindow(0, stop), *unit[4:]))
                placed.__dict__.update(unit.__dict__)
                unit = placed
            yield unit, read
        else:
            yield None, read
        if last:
            return
        overlap = text[stop:]


def _pieces(head: bytes, handle: Any) -> Iterator[bytes]:
    """A long line in pieces of PART_BYTES: its head, then the rest up to its end (an empty
    piece: the file ended without a newline)."""
    for offset in range(0, len(head), PART_BYTES):
        yield head[offset : offset + PART_BYTES]
    while True:
        chunk = handle.readline(PART_BYTES)  # (bounded: readline stops at the line's end)
        yield chunk
        if not chunk or chunk.endswith(b"\n"):
            return


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
                unit = malformed(session, line, buffer[pos : pos + 200].encode(), "too deep")
                if unit is not None:  # (None: a unit no rule reaches, counted by the session)
                    yield line, unit
                return
            except ValueError:
                if eof:
                    session.carry += len(buffer) - pos
                    unit = malformed(
                        session, line, buffer[pos : pos + 200].encode(), "invalid JSON"
                    )
                    if unit is not None:
                        yield line, unit
                    # the rest, cut short or broken, is still scanned as text
                    for unit in salvage(session, line, buffer[pos:].encode()):
                        if unit is not None:
                            yield line, unit
                    return
                chunk = handle.read(1 << 20)
                eof = not chunk
                buffer, pos = buffer[pos:] + chunk, 0
                continue
            session.carry += end - pos
            yield line, value
            line += buffer.count("\n", pos, end)
            pos = end
