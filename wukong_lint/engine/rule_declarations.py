"""What rule files declare, read from their bytes without YAML: how many rules, and each
rule's id, category, severity, kind and `enabled`, in file order.

The compiled rule cache lives in a folder the user (and so an agent running as the user) can
write. Its key is made of the rule files' content, but a key can be copied: a cache file
rewritten with rules dropped, lowered or turned off keeps a valid key. So every load checks
the cache's records against the rule files' bytes, read afresh (never from the cache): a
cache that disagrees is not used (loader.py rebuilds it), and a rule set with fewer rules
than the files declare is an error, never a quieter guard.

Cheap on purpose (it runs on every hook call, over ~600 KB of built-in YAML): a cached
record is turned into the key lines its file must hold (`severity: high` at the rule's key
indentation) and those are looked up with `bytes.find`; only a line written another way
(quotes, a comment) is parsed. Both layouts of rule files are read: one rule (its keys at
column 0) or a `rules:` list (`  - id:` items, their keys two columns further in). A file in
any other layout (flow style, an item not opened by its id line) is not checked and counts
as declaring nothing, so the count can only be too low, never too high: the check must not
fail a valid rule pack.
"""

from __future__ import annotations

from typing import Any, NamedTuple

SEVERITY_NAMES = {1: b"low", 2: b"medium", 3: b"high", 4: b"critical"}
_SEVERITIES = {"low": 1, "medium": 2, "high": 3, "critical": 4}
_FALSE = frozenset({"false", "no", "off"})
_TRUE = frozenset({"true", "yes", "on"})
_LINE_ENDS = (b"\n", b" ", b"\t", b"\r", b"#", b"")


class Layout(NamedTuple):
    text: bytes  # the file with a newline in front (every key line starts with one)
    starts: list[int]  # where each rule's id line starts (its newline)
    id_needle: bytes  # `\nid:` or `\n  - id:`
    indent: bytes  # the indentation of a rule's keys


def layout(data: bytes) -> Layout | None:
    """Where a rule file's rules are, or None for a layout this reader does not know."""
    text = b"\n" + (data.replace(b"\r\n", b"\n") if b"\r" in data else data)
    if b"\nid:" in text:
        if text.count(b"\nid:") != 1:
            return None
        return Layout(text, [text.find(b"\nid:")], b"\nid:", b"")
    first = text.find(b"- id:")
    if first < 0:
        return Layout(text, [], b"", b"") if b"- " not in text else None
    line_start = text.rfind(b"\n", 0, first) + 1
    item_indent = text[line_start:first]
    if item_indent.strip(b" "):
        return None  # `- id:` not at the start of its line
    needle = b"\n" + item_indent + b"- id:"
    starts = []
    at = text.find(needle)
    while at >= 0:
        starts.append(at)
        at = text.find(needle, at + len(needle))
    # every item must be opened by its id line: an item opened by another key (or a bare
    # `-`) is not seen, and the count would be too low for the items after it
    if text.count(b"\n" + item_indent + b"- ") != len(starts):
        return None
    return Layout(text, starts, needle, item_indent + b"  ")


def declared_count(data: bytes) -> int:
    """How many rules a rule file declares (0 for a layout this reader does not know)."""
    if data[:3] == b"id:" and b"\nid:" not in data:
        return 1
    found = layout(data)
    return len(found.starts) if found is not None else 0


def _value(raw: bytes) -> str | None:
    """A scalar as written after a key: quotes and a trailing comment removed; None for
    anything else (a flow value, an empty value continued on the next line)."""
    text = raw.split(b" #", 1)[0].strip().decode("utf-8", "replace")
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    if not text or text[0] in "[{|>&*!":
        return None
    return text


_ABSENT = ""


def _written(text: bytes, start: int, end: int, indent: bytes, key: bytes) -> str | None:
    """The value of `key` in the rule at [start, end) as written: `_ABSENT` when the rule
    has no such key line, None when its value is not a plain scalar (not checked)."""
    needle = b"\n" + indent + key + b":"
    at = text.find(needle, start, end)
    if at < 0:
        return _ABSENT
    stop = text.find(b"\n", at + 1, end)
    return _value(text[at + len(needle) : stop if stop >= 0 else end])


def _has_line(text: bytes, start: int, end: int, line: bytes) -> bool:
    """Whether the rule at [start, end) holds `line` followed by the end of a YAML value."""
    at = text.find(line, start, end)
    return at >= 0 and text[at + len(line) : at + len(line) + 1] in _LINE_ENDS


def _header(row: tuple[Any, ...], indent: str) -> bytes | None:
    """The key lines a rule file holds for a record, in the order rule files write them
    (`category`, `severity`, `kind` right after the id line), or None for a record whose
    fields are not names."""
    rule_id, category, severity, kind = row[0], row[1], row[2], row[4]
    name = _SEVERITY_TEXT.get(severity) if type(severity) is int else None
    if name is None or not (type(rule_id) is type(category) is type(kind) is str):
        return None
    return (
        f" {rule_id}\n{indent}category: {category}\n{indent}severity: {name}\n"
        f"{indent}kind: {kind}\n"
    ).encode("utf-8", "surrogatepass")


_SEVERITY_TEXT = {number: name.decode() for number, name in SEVERITY_NAMES.items()}


def check(data: bytes, rows: list[tuple[Any, ...]], enabled_at: int) -> tuple[int, str | None]:
    """(how many rules a rule file declares, why its compiled records are not what it
    declares or None). Records are CompiledRule data: id, category, severity, message,
    kind... and `enabled` at index `enabled_at`. A file whose layout is not read here
    declares 0 and is not checked."""
    if len(rows) == 1 and data[:4] == b"id: " and b"\nid:" not in data:
        # one rule, written as rule files are (keys in order, no `enabled` line): three
        # searches in C, as for most of the ~300 built-in files
        head = _header(rows[0], "")
        if (
            head is not None
            and data.startswith(head, 3)
            and b"\nenabled:" not in data
            and rows[0][enabled_at] is True
        ):
            return 1, None
    found = layout(data)
    if found is None:
        return 0, None
    text, starts, id_needle, indent = found
    if len(rows) != len(starts):
        return len(starts), f"{len(rows)} rules cached, {len(starts)} declared"
    bounds = [*starts, len(text)]
    enabled_needle = b"\n" + indent + b"enabled:"
    spaces = indent.decode()
    for index, row in enumerate(rows):
        start, end = starts[index], bounds[index + 1]
        head = _header(row, spaces)
        if (
            head is not None
            and text.startswith(head, start + len(id_needle))
            and text.find(enabled_needle, start, end) < 0
            and row[enabled_at] is True
        ):
            continue
        problem = _rule_problem(text, start, end, id_needle, indent, row, enabled_at)
        if problem is not None:
            return len(starts), problem
    return len(starts), None


def _rule_problem(
    text: bytes,
    start: int,
    end: int,
    id_needle: bytes,
    indent: bytes,
    row: tuple[Any, ...],
    enabled_at: int,
) -> str | None:
    """`check` for one rule written in another order or way: each key line looked up."""
    rule_id = row[0]
    if not isinstance(rule_id, str):
        return "a cached rule without an id"
    stop = text.find(b"\n", start + 1, end)
    if _value(text[start + len(id_needle) : stop if stop >= 0 else end]) != rule_id:
        return f"rule {rule_id!r} is not declared in its place"
    severity = SEVERITY_NAMES.get(row[2]) if isinstance(row[2], int) else None
    for key, value in ((b"category", row[1]), (b"severity", severity), (b"kind", row[4])):
        if isinstance(value, str):
            value = value.encode()
        if not isinstance(value, bytes):
            return f"rule {rule_id!r}: its {key.decode()} is not a name"
        if _has_line(text, start, end, b"\n" + indent + key + b": " + value):
            continue
        written = _written(text, start, end, indent, key)
        if not written:
            continue  # (a required key written in a way not read here: not checked)
        if key == b"severity":
            if _SEVERITIES.get(written.lower()) != row[2]:
                return f"rule {rule_id!r}: severity {row[2]!r}, declared {written!r}"
        elif written != value.decode():
            return f"rule {rule_id!r}: {key.decode()} {value.decode()!r}, declared {written!r}"
    written = _written(text, start, end, indent, b"enabled")
    want = True if written is _ABSENT else None if written is None else _flag(written)
    if want is not None and row[enabled_at] is not want:
        return f"rule {rule_id!r}: enabled {row[enabled_at]!r}, declared {written!r}"
    return None


def _flag(value: str) -> bool | None:
    lowered = value.lower()
    return False if lowered in _FALSE else True if lowered in _TRUE else None
