"""Secrets in a text, a JSON value or a transcript file replaced by `[REDACTED:rule-id]`
(the `redact` command, the hook's answers, git error messages).

JSONL is rewritten record by record: a record holding a secret is decoded, every string in
it (at any depth, including JSON encoded inside strings) has its secrets replaced by a
marker, and it is written back as one JSON line; other lines are copied byte for byte. A
line that is not JSON is masked as text. A JSON array (OpenAI chat) is rewritten whole, any
other text line by line. The output replaces its target atomically.
"""

from __future__ import annotations

import json
from typing import Any

MARKER = "[REDACTED:{}]"


class Redactor:
    def __init__(self, ruleset: Any) -> None:
        self.rules = ruleset.select(lambda r: r.category == "secret")
        self.count = 0
        self.errors = 0

    def text(self, text: str) -> str:
        from wukong_lint.engine.kinds import matcher_for
        from wukong_lint.engine.matchers import RuleTimeout
        from wukong_lint.model import Source, Unit

        unit = Unit("<redact>", text, Source(kind="transcript"))
        spans: list[tuple[int, int, str]] = []
        for rule, offsets in self.rules.candidates(text):
            if "transcript" not in rule.applies_to:
                continue
            try:
                for hit in matcher_for(rule.kind)(rule, unit, offsets):
                    if hit.secret_end > hit.secret_start:
                        spans.append((hit.secret_start, hit.secret_end, rule.id))
            except RuleTimeout:
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
            return self.text(value)
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, dict):
            # a secret used as a key (`{"ghp_…": "repo token"}`) is masked as well
            return {self.text(k): self.value(v) for k, v in value.items()}
        return value

    def line(self, raw: bytes) -> bytes:
        text = raw.decode("utf-8", "surrogateescape")
        body = text.rstrip("\r\n")
        ending = text[len(body) :]
        before = self.count
        try:
            record = json.loads(body) if body.strip() else None
            clean = self.value(record)
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


def redact_to(source: str, out: Any, ruleset: Any) -> Redactor:
    """Write a clean copy of `source` to the binary stream `out` (a file, standard output)."""
    redactor = Redactor(ruleset)
    with open(source, "rb") as handle:
        head = handle.read(4096).lstrip()
    with open(source, "rb") as handle:
        if head.startswith(b"["):
            data = handle.read()
            try:
                document = json.loads(data)
                clean = redactor.value(document)
            except (ValueError, RecursionError):
                document = None
                redactor.count = 0
            if document is not None:
                text = json.dumps(clean, ensure_ascii=False, indent=2)
                out.write(encode(text) + b"\n")
                return redactor
            handle.seek(0)
        for raw in handle:
            out.write(redactor.line(raw))
    return redactor
