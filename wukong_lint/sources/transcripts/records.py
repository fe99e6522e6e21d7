"""Reading transcript files: JSON decoding, JSONL records with their line numbers (or those
of a span of lines), the elements of a JSON array, malformed records."""

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


BOM = b"\xef\xbb\xbf"
_SURROGATE = re.compile(r"[\ud800-\udfff]")  # (re reads the escapes)
# a shell command in a record cut short: `"command": "...` up to its closing quote or the end
_COMMAND = re.compile(r'"(?:command|cmd)"\s*:\s*"((?:[^"\\]|\\.)*)"?')


def lenient_record(raw: bytes) -> Any:
    """A line orjson refuses that the standard library reads (a lone surrogate escape such as
    `\\ud800`, invalid UTF-8 bytes), with its lone surrogates as U+FFFD so that no output
    chokes on them; None if it is not JSON at all. `redact` reads such lines too: what it
    masks there, `check` must see."""
    try:
        value = json.loads(raw.decode("utf-8", "replace"))
        return _no_surrogates(value)
    except (ValueError, RecursionError):
        return None


def _clean(text: str) -> str:
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text


def _no_surrogates(value: Any) -> Any:
    """`value` with the lone surrogates of its strings (keys too) replaced. Without recursion:
    `json.loads` reads nesting up to the recursion limit, and a record it read is not dropped
    as malformed here (nor read differently by the compiled build, native.py)."""
    if isinstance(value, str):
        return _clean(value)
    if not isinstance(value, (list, dict)):
        return value
    root: Any = [] if isinstance(value, list) else {}
    stack = [(value, root)]
    while stack:
        source, target = stack.pop()
        pairs: Any = enumerate(source) if isinstance(source, list) else source.items()
        for key, item in pairs:
            new: Any = item
            if isinstance(item, str):
                new = _clean(item)
            elif isinstance(item, list):
                new = []
                stack.append((item, new))
            elif isinstance(item, dict):
                new = {}
                stack.append((item, new))
            if isinstance(target, list):
                target.append(new)
            else:
                target[_clean(key)] = new
    return root


def _unescape(body: str) -> str:
    """A JSON string's body, also when it was cut inside an escape."""
    for cut in range(7):
        try:
            text = json.loads(f'"{body[: len(body) - cut]}"')
            return _SURROGATE.sub("\ufffd", text)
        except ValueError:
            continue
    return body


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
        for number, raw in enumerate(handle, first):
            if position == end:
                session.next_line = number
                return
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


def rest_text(record: dict[str, Any], skip: frozenset[str] | tuple[str, ...]) -> str:
    """Every string of a record outside the keys `skip` (those a reader handles, or ids):
    what a reader does not understand is still scanned, as `redact` masks it."""
    parts: list[str] = []
    for key, value in record.items():
        if key not in skip:
            strings(value, parts)
    return "\n".join(parts)


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
