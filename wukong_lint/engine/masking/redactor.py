"""Secrets in a text, a JSON value or a transcript file replaced by `[REDACTED:rule-id]`
(the `redact` command, the hook's answers, git error messages).

JSONL is rewritten record by record: a record holding a secret is decoded, every string in
it (at any depth, including JSON encoded inside strings) has its secrets replaced by a
marker, and it is written back as one JSON line; other lines are copied byte for byte. A
line that is not JSON is masked as text. A JSON array (OpenAI chat) is rewritten whole, any
other text line by line. The output replaces its target atomically.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

MARKER = "[REDACTED:{}]"


def _loads(text: str) -> Any:
    """A record decoded, by orjson (several times faster) when it is there; what it refuses,
    json reads. Imported on first use: the hook masks its audit line with this module and
    orjson's import (dataclasses, uuid, platform) costs more than that whole line."""
    try:
        import orjson
    except ImportError:  # pragma: no cover
        return json.loads(text)
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


# (rule set, its secret rules): the last selection, kept for the next Redactor of the same
# rule set (`redact --in-place` makes one per file; a selection builds the keyword
# automaton: ~2 ms, which thousands of small session files would pay again and again)
_SELECTED: tuple[Any, Any] | None = None


def _secret_rules(ruleset: Any) -> Any:
    global _SELECTED
    if _SELECTED is None or _SELECTED[0] is not ruleset:
        _SELECTED = (ruleset, ruleset.select(lambda r: r.category == "secret"))
    return _SELECTED[1]


def _raw_gate_holds(rules: Any) -> bool:
    """Whether a line's raw JSON text can stand for its decoded strings in the keyword
    prefilter: every secret rule that runs on transcripts has keywords, and no keyword holds
    a character JSON must escape (a quote, a backslash, a control character)."""
    for rule in rules.rules:
        if "transcript" not in rule.applies_to:
            continue
        if not rule.keywords:
            return False
        for keyword in rule.keywords:
            if any(c in ('"', "\\") or c < " " for c in keyword):
                return False
    return True


class Redactor:
    def __init__(self, ruleset: Any) -> None:
        # (imported here, not with the module, nor at each text: `text` runs once per string
        # of a record that holds a secret)
        from wukong_lint.engine.kinds import matcher_for
        from wukong_lint.engine.matchers import RuleTimeout
        from wukong_lint.engine.scan import in_marker, masked_spans
        from wukong_lint.model import Source, Unit

        self.rules = _secret_rules(ruleset)
        self.count = 0
        self.errors = 0
        self._matcher_for, self._timeout = matcher_for, RuleTimeout
        self._in_marker, self._masked_spans = in_marker, masked_spans
        self._unit, self._source = Unit, Source(kind="transcript")
        self._raw_gate = _raw_gate_holds(self.rules)

    def _no_keyword_in(self, body: str) -> bool:
        """Whether a JSON line surely holds no secret a rule can find: no secret rule's keyword
        occurs in its raw text, and no escape in it can hide one (`\\uXXXX`, `\\/`; the
        other escapes stand for characters no keyword holds), so none occurs in any string
        decoded from it either, nested JSON included (its escapes are escaped again)."""
        if not self._raw_gate or "\\u" in body or "\\/" in body:
            return False
        return not any("transcript" in r.applies_to for r, _ in self.rules.candidates(body))

    def holds_secret(self, value: Any) -> bool:
        """Whether any string of a decoded record (or of JSON held in one of them) holds a
        secret, searched as one text: the masking walk then runs only where it will mask."""
        parts: list[str] = []
        stack = [value]
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                if item:
                    parts.append(item)
                    if item[:1] in ("{", "[") and item[-1:] in ("}", "]"):
                        with contextlib.suppress(ValueError, RecursionError):
                            stack.append(json.loads(item))
            elif isinstance(item, dict):
                parts.extend(k for k in item if k)
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
        if not parts:
            return False
        before, errors = self.count, self.errors
        found = self.text("\n".join(parts)) is not None and self.count != before
        self.count, self.errors = before, errors
        return found

    def text(self, text: str) -> str:
        candidates = self.rules.candidates(text)
        if not candidates:
            return text
        unit = self._unit("<redact>", text, self._source)
        earlier = self._masked_spans(text)
        in_marker, matcher_for = self._in_marker, self._matcher_for
        spans: list[tuple[int, int, str]] = []
        for rule, offsets in candidates:
            if "transcript" not in rule.applies_to:
                continue
            try:
                for hit in matcher_for(rule.kind)(rule, unit, offsets):
                    # (a marker of an earlier run is no secret: a second run changes nothing)
                    masked = earlier and in_marker(hit.secret_start, hit.secret_end, earlier)
                    if hit.secret_end > hit.secret_start and not masked:
                        spans.append((hit.secret_start, hit.secret_end, rule.id))
            except self._timeout:
                self.errors += 1
        if not spans:
            return text
        spans.sort()
        out, last = [], 0
        for start, end, rule_id in spans:
            if start < last:  # overlaps an earlier span: extend it
                if end > last:
                    last = end
                continue
            out.append(text[last:start])
            out.append(MARKER.format(rule_id))
            self.count += 1
            last = end
        out.append(text[last:])
        return "".join(out)

    def value(self, value: Any) -> Any:
        if isinstance(value, str):
            if value[:1] in ("{", "[") and value[-1:] in ("}", "]"):
                nested = self.nested(value)
                if nested is not None:
                    return nested
            return self.text(value)
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, dict):
            # a secret used as a key (`{"ghp_…": "repo token"}`) is masked as well
            return {self.text(k): self.value(v) for k, v in value.items()}
        return value

    def nested(self, value: str) -> str | None:
        """JSON held in a string (Codex `arguments` and outputs, MCP results), masked as the
        decoded value `check` reads and written back compact as the agents write it; None:
        not JSON, or nothing in it to mask (the string then stays as it is)."""
        before = self.count
        try:
            inner = json.loads(value)
        except (ValueError, RecursionError):
            return None
        if not isinstance(inner, (dict, list)):
            return None
        clean = self.value(inner)
        if self.count == before:
            return None
        return json.dumps(clean, ensure_ascii=False, separators=(",", ":"))

    def line(self, raw: bytes) -> bytes:
        text = raw.decode("utf-8", "surrogateescape")
        body = text.rstrip("\r\n")
        if self._no_keyword_in(body):
            return raw  # (most lines: not decoded nor walked, one keyword pass over the line)
        ending = text[len(body) :]
        before = self.count
        try:
            record = _loads(body) if body.strip() else None
            # (most records hold no secret: their strings are searched together first, as
            # `check` searches a record's text, and only a record with a hit is walked)
            clean = self.value(record) if self.holds_secret(record) else record
        except (ValueError, RecursionError):  # not JSON, or nested too deeply: mask as text
            self.count = before
            masked = self.text(body)
            return raw if masked == body else (masked + ending).encode("utf-8", "surrogateescape")
        if self.count == before:
            return raw  # nothing found: the line stays byte for byte
        text = json.dumps(clean, ensure_ascii=False, separators=(",", ":"))
        return encode(text + ending)


def encode(text: str) -> bytes:
    """UTF-8 of a rewritten line: bytes of the input that were not UTF-8 (decoded as surrogate
    escapes) are written back as they were, and a lone surrogate escape of the input's JSON
    (`\\ud800`, which has no UTF-8 form) stays a `\\uXXXX` escape."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        import re

        escaped = re.sub("[\ud800-\udc7f\udd00-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", text)
        return escaped.encode("utf-8", "surrogateescape")


def redact_file(source: str, target: str, ruleset: Any) -> Redactor:
    """Write a clean copy of `source` to `target` (replaced atomically)."""
    from wukong_lint.util.fsutil import atomic_writer

    with atomic_writer(target) as out:
        return redact_to(source, out, ruleset)


def _is_document(head: bytes) -> bool:
    """One JSON document over many lines (an OpenAI chat array, a Gemini CLI session before
    0.39, logs.json, a checkpoint), not JSONL: it starts with `[`, or its first line is no
    whole JSON value."""
    if head.startswith(b"["):
        return True
    if not head.startswith(b"{"):
        return False
    first = head.split(b"\n", 1)[0]
    try:
        json.loads(first)
    except ValueError:
        return True
    return False


def redact_to(source: str, out: Any, ruleset: Any, redactor: Redactor | None = None) -> Redactor:
    """Write a clean copy of `source` to the binary stream `out` (a file, standard output),
    with `redactor` if given (else a new one with the secret rules of `ruleset`)."""
    redactor = redactor if redactor is not None else Redactor(ruleset)
    with open(source, "rb") as handle:
        head = handle.read(65536).lstrip()
    with open(source, "rb") as handle:
        if _is_document(head):
            data = handle.read()
            try:
                document = json.loads(data)
                clean = redactor.value(document)
            except (ValueError, RecursionError):
                document = None
                redactor.count = 0
            if document is not None and redactor.count == 0:
                out.write(data)  # (nothing to mask: the file byte for byte)
                return redactor
            if document is not None:
                # pretty-printed as the agents write it (JSON.stringify(.., null, 2)): each
                # string stays on its line, and a final newline only if the file had one
                text = json.dumps(clean, ensure_ascii=False, indent=2)
                out.write(encode(text) + (b"\n" if data.endswith(b"\n") else b""))
                return redactor
            handle.seek(0)
        for raw in handle:
            out.write(redactor.line(raw))
    return redactor
