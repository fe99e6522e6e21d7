"""Masking whatever a report prints, whichever rules ran.

A finding's snippet shows the line it is on, and that line may hold a secret that no rule of
this run looks for: `--select dangerous-command` on `curl -H "Authorization: Bearer …" | sh`.
So every snippet, message, path and error a report prints goes through a `Masker`: the
secret rules of the whole rule set (built-in and rule packs, whatever `--select`, `--ignore`
or the config turned off), plus a few credential shapes that are not findings of their own
but must never be shown: the password of `curl -u user:pass` and of URL user info, the value
of an `Authorization`, `Cookie` or API-key header, and of `--password`-style options.

It runs only on what is printed (a snippet is at most a window of its line), and remembers
what it masked: a transcript repeats the same lines many times.
"""

from __future__ import annotations

import re
from typing import Any

from wukong_lint.engine.masking.shapes import (  # noqa: F401 (SHAPES re-exported)
    MASK,
    SHAPES,
    SHAPES_PATTERN,
    SNIPPET_WIDTH,
    clip,
    mask_spans,
    public_prefix,
)

# Characters of a line searched on each side of a snippet's column: the snippet (at most
# SNIPPET_WIDTH) plus enough context for a secret that starts before it or runs past it.
MARGIN = SNIPPET_WIDTH + 256

# what a path must hold to be worth masking: a long token-like run, or a URL/assignment sign
_MAYBE_SECRET = "[A-Za-z0-9_+/-]{16}|[:=@]"
_maybe: Any = None


def _shape_pattern() -> Any:
    from wukong_lint.engine.patterns import compile_pattern

    return compile_pattern(SHAPES_PATTERN)


# What a text must hold for any of the SHAPES (redact.py) to match it, read from each
# alternative's literal parts (the patterns are case-insensitive: for a text in ASCII, its
# lower case holds them exactly when the text can match; any other text runs the pattern):
#   scheme://user:password@ and scheme://TOKEN@          "://"
#   -u/--user/--proxy-user/--http-user/--auth/-a ...:X    ("-u" or "-a") and ":"
#   --password/--token/--api-key ... X                    "-" + a keyword (_OPTION_WORDS)
#   mysql ... -pX                                         "mysql" and "-p"
#   Authorization: / Proxy-Authorization=                 "authorization" and (":" or "=")
#   X-Api-Key: / apikey= / X-...-Token: / Ocp-Apim-...    _HEADER_WORDS and (":" or "=")
#   Cookie: / Set-Cookie:                                 "cookie" and ":"
# (tests/test_finding_cost_paths.py holds SHAPES as they were read: a new shape fails it.)
_OPTION_WORDS = ("-pass", "-pwd", "-token", "-secret", "-api", "-access", "-auth", "-client",
                 "-http-password", "-proxy-password")  # fmt: skip
_HEADER_WORDS = ("api-key", "apikey", "-token", "ocp-apim")


def may_hold_shape(text: str) -> bool:
    """False only when no credential shape can match `text` (see above): most snippets
    (a path, a command without options) need not run the shapes' pattern."""
    if not text.isascii():
        return True
    lower = text.lower()
    if "://" in lower:
        return True
    colon, equals = ":" in lower, "=" in lower
    if "-" in lower and (
        (colon and ("-u" in lower or "-a" in lower))
        or any(word in lower for word in _OPTION_WORDS)
        or ("mysql" in lower and "-p" in lower)
    ):
        return True
    if colon or equals:
        if "authorization" in lower or any(word in lower for word in _HEADER_WORDS):
            return True
        return colon and "cookie" in lower
    return False


def shape_spans(text: str) -> list[tuple[int, int, int]]:
    """(start, end, 0) of every credential shape's value in `text`."""
    if not may_hold_shape(text):
        return []
    spans = []
    for match in _shape_pattern().finditer(text):
        for start, end in match.regs[1:]:  # every alternative names its value group `v`
            if start >= 0:
                spans.append((start, end, 0))
                break
    return spans


class Masker:
    """Masks secrets in short texts with a fixed list of secret rules and the shapes above."""

    def __init__(self, rules: list[Any], scanned: bool = False) -> None:
        """`scanned`: every one of `rules` runs in the scan too (the default selection), so a
        snippet's line has had its secrets masked already and only the shapes are added."""
        from wukong_lint.engine.rules import RuleSet

        self.ruleset = RuleSet(list(rules))
        self.scanned = scanned
        self._memo: dict[Any, str] = {}
        self._notes: dict[tuple[str, str], str] = {}

    def spans(self, text: str) -> list[tuple[int, int, int]]:
        """(start, end, keep) of every secret in `text` (keep: the public prefix shown)."""
        from wukong_lint.engine.matchers import RuleTimeout, match_regex
        from wukong_lint.model import Unit

        spans = shape_spans(text)
        unit = Unit("", text)
        for rule, offsets in self.ruleset.candidates(text):
            if rule.kind != "regex":
                continue
            try:
                for hit in match_regex(rule, unit, offsets):
                    secret = text[hit.secret_start : hit.secret_end]
                    spans.append(
                        (hit.secret_start, hit.secret_end, public_prefix(secret, rule.keywords))
                    )
            except RuleTimeout:  # a pathological line: mask all of it rather than show it
                return [(0, len(text), 0)]
        return spans

    def mask(self, text: str) -> str:
        """`text` with every secret masked."""
        if not text:
            return text
        found = self._memo.get(text)
        if found is None:
            if len(self._memo) >= 4096:
                self._memo.clear()
            found = mask_spans(text, self.spans(text))
            self._memo[text] = found
        return found

    def with_note(self, message: str, note: str) -> str:
        """`message (note)`, the note masked: what a structured check adds to a rule's
        message ("read .env.local") may quote a secret. One string for each pair: findings
        are kept until the report, and a long session repeats the same notes."""
        key = (message, note)
        found = self._notes.get(key)
        if found is None:
            if len(self._notes) >= 4096:
                self._notes.clear()
            found = self._notes[key] = f"{message} ({self.mask(note)})"
        return found

    def snippet(self, line: str, spans: list[tuple[int, int, int]], column: int) -> str:
        """The snippet of `line` around the 0-based `column`: `spans` (the secrets the scan
        found) and every secret the masker finds near the column masked, then clipped."""
        start = max(0, column - MARGIN)
        window = line[start : column + MARGIN]
        if start:
            spans = [(s - start, e - start, k) for s, e, k in spans]
        key = (column - start, window, tuple(spans))  # (mask's keys are strings)
        found = self._memo.get(key)
        if found is None:
            if len(self._memo) >= 4096:
                self._memo.clear()
            more = shape_spans(window) if self.scanned else self.spans(window)
            found = clip(mask_spans(window, spans + more), column - start)
            if start and not found.startswith("…"):
                found = "…" + found
            if start + len(window) < len(line) and not found.endswith("…"):
                found += "…"
            self._memo[key] = found
        return found


def masker_for(ruleset: Any) -> Masker:
    """The masker of `ruleset`'s output (built on first use, kept on the rule set: only
    reports need it): every secret rule of the set a selection was made from, on or off."""
    found = ruleset._masker
    if found is None:
        masks = ruleset.secret_rules()
        running = {id(r) for r in ruleset.rules}
        found = ruleset._masker = Masker(masks, scanned=all(id(r) in running for r in masks))
    return found


def mask_report(report: Any, masker: Masker) -> Any:
    """`report` with its paths and error messages masked (snippets and messages are masked
    by the scan): a file named after a secret, an error quoting one."""
    paths: dict[str, str] = {}

    global _maybe
    if _maybe is None:
        _maybe = re.compile(_MAYBE_SECRET)

    def path(value: str) -> str:
        found = paths.get(value)
        if found is None:
            found = paths[value] = masker.mask(value) if _maybe.search(value) else value
        return found

    findings = tuple(
        f if path(f.path) == f.path else f._replace(path=path(f.path)) for f in report.findings
    )
    errors = tuple(
        e._replace(path=path(e.path), message=masker.mask(e.message)) for e in report.errors
    )
    if all(a is b for a, b in zip(findings, report.findings, strict=True)) and all(
        a == b for a, b in zip(errors, report.errors, strict=True)
    ):
        return report
    return report._replace(findings=findings, errors=errors)


__all__ = ["MASK", "Masker", "mask_report", "masker_for", "shape_spans"]
