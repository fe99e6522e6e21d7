"""The JSON report (DESIGN.md contract, version 1). Suppressed findings are counted, not listed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from wukong_lint.engine.masking.printable import json_text  # undecodable names as \udcff escapes
from wukong_lint.model import Finding, Report, Severity, ShardInfo

# json.dumps(..., ensure_ascii=False) builds a new encoder per call: one per finding (same
# output: the default separators, no indent)
_FINDING_ENCODER = json.JSONEncoder(ensure_ascii=False)
# the JSON string of a str as that encoder writes it (with ensure_ascii=False: the C one)
_string: Any = json.encoder.encode_basestring  # type: ignore[attr-defined]
# Severity -> its label, by the severity's number (a list: an IntEnum's hash is Python code)
_LABELS = [""] + [_string(s.label) for s in sorted(Severity)]
# encoded strings that many findings repeat (rule ids, messages, paths, snippets, tools)
_ENCODED: dict[str, str] = {}
_ENCODED_MAX = 8192
# the encoded start of a finding (rule, message, path) and of its source (kind, tool, agent)
_HEADS: dict[tuple[Any, ...], str] = {}
_SOURCES: dict[tuple[Any, ...], str] = {}

JSON_VERSION = 1
_BATCH = 256  # findings per piece of `chunks`


def finding_to_dict(finding: Any) -> dict[str, Any]:  # (a Finding, as Any: `finding_line`)
    src = finding.source
    return {
        "rule_id": finding.rule_id,
        "category": finding.category,
        "severity": finding.severity.label,
        "message": finding.message,
        "path": finding.path,
        "line": finding.line,
        "column": finding.column,
        "end_line": finding.end_line,
        "snippet": finding.snippet,
        "fingerprint": finding.fingerprint,
        "source": {
            "kind": src.kind,
            "tool": src.tool,
            "agent": src.agent,
            "record": src.record,
            "commit": src.commit,
        },
    }


def _text(value: str) -> str:
    """`value` as the finding encoder writes it, made safe as `json_text` makes a document
    (it replaces single characters of string literals: piece by piece is the same)."""
    found = _ENCODED.get(value)
    if found is None:
        if len(_ENCODED) >= _ENCODED_MAX:
            _ENCODED.clear()
        found = _ENCODED[value] = json_text(_string(value))
    return found


def finding_line(finding: Any) -> str:  # (a Finding: see `fields` below)
    """`finding_to_dict(finding)` as `_FINDING_ENCODER` and `json_text` write it, the same
    bytes built directly: the keys in their order, ", " and ": " separators, strings through
    the encoder's own string function, ints as `int.__repr__`, None as null. A value of
    another type (a bool is an int to f-strings, "True" where JSON has "true") takes the
    encoder's way."""
    # (Any: a compiled build unpacks a Finding argument into its declared types, so a bool
    # where an int goes would be written as a number, native.py)
    fields: Any = finding
    src: Any = fields.source
    line, column, end_line, record = fields.line, fields.column, fields.end_line, src.record
    kind, fingerprint = fields.severity, fields.fingerprint
    if (
        type(kind) is not Severity
        or type(line) is not int
        or type(column) is not int
        or type(end_line) is not int
        or (record is not None and type(record) is not int)
        or type(fingerprint) is not str
    ):
        return json_text(_FINDING_ENCODER.encode(finding_to_dict(finding)))
    try:
        commit = src.commit
        severity = _LABELS[finding.severity]
        # What findings share is encoded once: the fields before the place (rule, message,
        # path) and the source's fields before its record (a long session repeats them).
        # (a memo hit without a call: an encoded text is never empty)
        key = (finding.rule_id, finding.category, severity, finding.message, finding.path)
        head = _HEADS.get(key) or _remember(_HEADS, key, _head(finding, severity))
        where = (src.kind, src.tool, src.agent)
        source = _SOURCES.get(where) or _remember(_SOURCES, where, _source(src))
        return (
            f'{head}"line": {line}, "column": {column}, "end_line": {end_line}, '
            f'"snippet": {_ENCODED.get(finding.snippet) or _text(finding.snippet)}, '
            f'"fingerprint": {json_text(_string(finding.fingerprint))}, '
            f"{source}{'null' if record is None else record}, "
            f'"commit": {"null" if commit is None else _text(commit)}}}}}'
        )
    except TypeError:  # a string field that holds something else: the encoder says what
        return json_text(_FINDING_ENCODER.encode(finding_to_dict(finding)))


def _head(finding: Finding, severity: str) -> str:
    """A finding's JSON line up to its place (rule, category, severity, message, path)."""
    return (
        f'{{"rule_id": {_text(finding.rule_id)}, '
        f'"category": {_text(finding.category)}, '
        f'"severity": {severity}, '
        f'"message": {_text(finding.message)}, '
        f'"path": {_text(finding.path)}, '
    )


def _source(src: Any) -> str:
    """A finding's source in JSON, up to its record number."""
    tool, agent = src.tool, src.agent
    return (
        f'"source": {{"kind": {_text(src.kind)}, '
        f'"tool": {"null" if tool is None else _text(tool)}, '
        f'"agent": {"null" if agent is None else _text(agent)}, '
        f'"record": '
    )


def _remember(memo: dict[Any, str], key: Any, text: str) -> str:
    if len(memo) >= _ENCODED_MAX:
        memo.clear()
    memo[key] = text
    return text


# The six error classes of the 戒 module (seed 004), counted from transcript-integrity findings.
ERROR_CLASSES = (
    "edit-failure",
    "tool-result-missing",
    "context-exceeded",
    "permission-denied",
    "file-not-found",
    "empty-content",
)


def tool_errors(findings: tuple[Finding, ...]) -> dict[str, int]:
    counts = dict.fromkeys(ERROR_CLASSES, 0)
    for finding in findings:
        if finding.category == "transcript-integrity":
            name = finding.rule_id.removeprefix("transcript-integrity.")
            if name in counts:
                counts[name] += 1
    return counts


def shard_properties(shard: ShardInfo) -> dict[str, Any]:
    """What a report says of the shard(s) it covers (JSON `shard`, SARIF run properties):
    `index` for one shard's report, `indexes` (and `missing`) for a merged one."""
    if len(shard.indexes) == 1:
        return {"index": shard.indexes[0], "count": shard.count}
    return {"indexes": list(shard.indexes), "count": shard.count, "missing": list(shard.missing)}


def render(report: Report, *, color: bool = False) -> str:
    """The JSON document, one finding per line (see `chunks`)."""
    return "".join(chunks(report))


def chunks(report: Report) -> Iterator[str]:
    """The JSON document in pieces, one finding per line. Each finding is encoded on its own by
    the C encoder and can be written as it comes: an indented dump of the whole document would
    hold every finding as a dict and run the pure-Python encoder, and even one string of the
    whole document is several tens of MB on a big transcript."""
    return _pieces(report, False)  # type: ignore[return-value]


def encoded_chunks(report: Report) -> Iterator[bytes]:
    """`chunks` encoded as UTF-8, for a file: each finding's line is encoded on its own and
    the lines joined as bytes. (Joined first, one line in a language other than English
    makes the whole piece a string of wide characters to copy and then encode: measured
    0.106 s against 0.078 s for the bench session's 38,573 findings.)"""
    return _pieces(report, True)  # type: ignore[return-value]


def _pieces(report: Report, encoded: bool) -> Iterator[str | bytes]:
    stats = report.stats
    tail = {
        "stats": {
            "files": stats.files,
            "bytes": stats.bytes,
            "units": stats.units,
            "seconds": stats.seconds,
            "suppressed": stats.suppressed,
            "skipped": stats.skipped,
            "tool_errors": tool_errors(report.findings),
        },
        "errors": [{"path": e.path, "message": e.message} for e in report.errors],
    }
    head = f'{{\n  "version": {JSON_VERSION},\n  "tool": "wukong-lint",\n  "findings": ['
    if report.shard is not None:  # (`check --shard K/N`, `merge`: only then, the contract's keys)
        shard = json.dumps(shard_properties(report.shard))
        head = head.replace('\n  "findings"', f'\n  "shard": {shard},\n  "findings"')
    yield head.encode() if encoded else head
    active = report.active
    # a few hundred findings a piece: one write (and one UTF-8 encoding) for each, not one
    # per finding
    for start in range(0, len(active), _BATCH):
        batch = active[start : start + _BATCH]
        if encoded:
            lines = b",\n    ".join([finding_line(f).encode() for f in batch])
            yield (b"\n    " if start == 0 else b",\n    ") + lines
        else:
            text = ",\n    ".join(map(finding_line, batch))
            yield ("\n    " if start == 0 else ",\n    ") + text
    if active:
        yield b"\n  " if encoded else "\n  "
    rest = json_text(json.dumps(tail, ensure_ascii=False, indent=2))[1:-2]  # the tail's keys
    end = f"],{rest}\n}}\n"
    yield end.encode() if encoded else end
