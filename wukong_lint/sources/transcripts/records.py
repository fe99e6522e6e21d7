"""Reading transcript files: JSON decoding (orjson when there), lenient reading of damaged
records, the text of a record's content. The records of a file as a session reads them are
in stream.py (this module is also read by the live hook, without the session machinery)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from wukong_lint.model.events import strings

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
