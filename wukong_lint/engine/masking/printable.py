"""Text from the scanned files made safe to print, whatever it holds.

File names and snippets come from files the tool does not trust:

- A terminal obeys control characters: `ESC [2J` clears the screen, `ESC ] 52` writes to the
  clipboard, a carriage return hides what came before it. Text output shows them escaped
  (`\\x1b`), as it does bidirectional overrides that reorder what a reader sees.
- A file name that is not UTF-8 (`bad\\xff.env`) reaches Python with surrogate escapes
  (`os.fsdecode`): text output shows the byte (`\\xff`); JSON and SARIF keep the escape
  (`"bad\\udcff.env"`, which `os.fsencode` turns back into the name's bytes); a SARIF URI
  percent-encodes the bytes (`bad%FF.env`). Nothing writes an invalid UTF-8 document.
- Standard output may not be UTF-8 (`PYTHONIOENCODING=ascii`): JSON and SARIF are then
  written with `\\uXXXX` escapes, XML with character references, text with backslash
  escapes: the same content, never a crash.
"""

from __future__ import annotations

import re

# C0 controls but tab, DEL, C1 controls, bidirectional overrides and isolates, lone surrogates
_UNSAFE = "[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
# what JSON and XML keep as it is but must not (surrogates) or should not show raw (C1
# controls, bidirectional overrides: `cat report.json` on a terminal)
_SURROGATE = "[\x80-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
_NON_ASCII = "[^\x00-\x7f]"
_compiled: dict[str, re.Pattern[str]] = {}


def _re(pattern: str) -> re.Pattern[str]:
    """Compiled on first use: a report of plain text never needs them."""
    found = _compiled.get(pattern)
    if found is None:
        found = _compiled[pattern] = re.compile(pattern)
    return found


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8, as os.fsdecode escapes it
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: str) -> str:
    """`text` for a terminal or a log: control characters, bidirectional overrides and
    undecodable bytes escaped."""
    if text.isprintable():  # (C speed; false for tabs, controls, overrides, surrogates)
        return text
    return _re(_UNSAFE).sub(_escape, text)


def json_text(text: str) -> str:
    """A JSON document (from `json.dumps(..., ensure_ascii=False)`) with every lone
    surrogate (and C1 control, bidirectional override) written as its `\\uXXXX` escape, so
    that the document encodes as UTF-8 and shows no raw control on a terminal."""
    if text.isascii() or _re(_SURROGATE).search(text) is None:
        return text
    return _re(_SURROGATE).sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def xml_text(text: str) -> str:
    """Text for XML: lone surrogates shown as their byte (`\\xff`), C1 controls and
    bidirectional overrides escaped."""
    if text.isascii() or _re(_SURROGATE).search(text) is None:
        return text
    return _re(_SURROGATE).sub(_escape, text)


def _json_ascii(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def for_stream(text: str, fmt: str, encoding: str | None) -> str:
    """`text` (a rendered report) as a stream of `encoding` can take it, same content."""
    name = (encoding or "utf-8").lower().replace("_", "-")
    if name in ("utf-8", "utf8"):
        return text
    try:
        text.encode(name)
        return text
    except (UnicodeEncodeError, LookupError):
        pass
    if fmt in ("json", "sarif"):  # non-ASCII occurs only inside JSON strings
        return _re(_NON_ASCII).sub(_json_ascii, text)
    if fmt == "junit":
        return _re(_NON_ASCII).sub(lambda m: f"&#{ord(m.group())};", text)
    try:
        return text.encode(name, "backslashreplace").decode(name)
    except LookupError:
        return text.encode("ascii", "backslashreplace").decode("ascii")
