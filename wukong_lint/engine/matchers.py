"""Matchers: pure functions from (rule, unit) to hits, registered by rule `kind`.

A hit is a span of the unit's text plus the span of the secret inside it (to hash and redact).
Turning hits into findings (lines, snippets, suppression, fingerprints) is shared, in scan.py.
"""

import time
from collections.abc import Callable, Iterator
from typing import NamedTuple

from wukong_lint.engine.filters import FILTERS, names_itself, shannon_entropy
from wukong_lint.engine.patterns import compile_pattern
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.model import Unit

# A regex gets at least this long per unit, plus time proportional to the text size, before it
# is stopped and reported: enough for any sane pattern, bounded for a pathological one.
REGEX_TIMEOUT_BASE = 1.0
REGEX_TIMEOUT_PER_MB = 0.5


class Hit(NamedTuple):
    start: int
    end: int
    # the span to hash and, for secrets, to mask (empty: hash the whole match)
    secret_start: int
    secret_end: int
    # what a structured check adds to the rule's message ("15 lines changed, limit 10");
    # never matched text
    note: str = ""
    # a severity below the rule's for this hit (0: the rule's): a credential file's
    # placeholder password (`changeme`, secrets/credfiles.py), or a gate the project runs in
    # warn mode, reported lower than the rule's severity
    severity: int = 0


class RuleTimeout(Exception):
    """A rule's regex ran out of time on a unit."""


def _secret_span(rule: CompiledRule, match: object) -> tuple[int, int]:
    group = rule.secret_group
    if group is None:
        groupindex = match.re.groupindex  # type: ignore[attr-defined]
        if "secret" in groupindex:
            group = "secret"
        elif match.re.groups:  # type: ignore[attr-defined]
            group = 1
        else:
            group = 0
    start, end = match.span(group)  # type: ignore[attr-defined]
    if start < 0:  # the group did not take part: fall back to the whole match
        start, end = match.span()  # type: ignore[attr-defined]
    return start, end


def _line_of(text: str, start: int, end: int) -> str:
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    return text[line_start : line_end if line_end >= 0 else len(text)]


def _allowed(rule: CompiledRule, match: object, secret: str, unit: Unit) -> bool:
    for target, pattern in rule.allow_patterns():
        if target == "secret":
            subject = secret
        elif target == "match":
            subject = match.group(0)  # type: ignore[attr-defined]
        elif target == "line":
            subject = _line_of(unit.text, *match.span())  # type: ignore[attr-defined]
        elif target == "path":
            subject = unit.path
        else:
            subject = match.group(target) or ""  # type: ignore[attr-defined]
        if pattern.search(subject):
            return True
    return False


def is_filtered(rule: CompiledRule, secret: str) -> bool:
    """The shared false-positive filters a rule switched on (length, entropy, named filters)."""
    if len(secret) < rule.min_length:
        return True
    if rule.entropy is not None and shannon_entropy(secret) < rule.entropy:
        return True
    return any(FILTERS[name](secret) for name in rule.filters)


def windows(
    text: str,
    offsets: list[int] | None,
    multiline: bool = False,
    lines_after: int = 0,
    reach: int | None = None,
    ends: list[int] | None = None,
) -> list[tuple[int, int]]:
    """The spans of `text` to search: each line holding a keyword hit plus `lines_after`
    following lines (merged); for a multiline rule, from the first such line to the end;
    everything when offsets are unknown. With `reach`, a span starts at most that many
    characters before the end of its keyword instead of at the start of the line. `ends`
    (one per offset: where the rule's `after_keyword` match ends) stops a span at the end of
    the line where that match ends, when that comes before `lines_after` would."""
    if offsets is None:
        return [(0, len(text))]
    spans: list[tuple[int, int]] = []
    for index, offset in enumerate(offsets):  # ascending: the prefilter reports text order
        if spans and offset < spans[-1][1]:
            continue
        start = text.rfind("\n", 0, offset) + 1
        if reach is not None:
            start = max(start, offset - reach)
        if multiline:
            stop = len(text)
        else:
            stop = text.find("\n", offset)
            last = -1 if ends is None else text.find("\n", max(offset, ends[index] - 1))
            for _ in range(lines_after):
                if stop < 0 or stop == last:
                    break
                stop = text.find("\n", stop + 1)
            stop = len(text) if stop < 0 else stop
        if spans and start <= spans[-1][1] + 1:
            spans[-1] = (spans[-1][0], stop)
        else:
            spans.append((start, stop))
    return spans


def match_regex(
    rule: CompiledRule,
    unit: Unit,
    offsets: list[int] | None,
    covered: list[tuple[int, int]] | None = None,
) -> Iterator[Hit]:
    """Hits of a regex rule. `covered`: secret spans already taken by more specific rules
    (engine/scan.py); a match whose secret overlaps one would lose to it, so it is skipped
    before its filters run (they are the costly part of a candidate)."""
    text = unit.text
    timeout = REGEX_TIMEOUT_BASE + REGEX_TIMEOUT_PER_MB * len(text) / 1_000_000
    deadline = time.monotonic() + timeout
    pattern = rule.pattern()
    named = "code" in rule.filters and "key" in pattern.groupindex
    ends = None
    if rule.after_keyword and offsets is not None:
        after = compile_pattern(rule.after_keyword).match
        kept, ends = [], []
        for offset in offsets:
            found = after(text, offset + 1)
            if found:
                kept.append(offset)
                ends.append(found.end())
        if not kept:
            return
        offsets = kept
    try:
        for start_pos, end_pos in windows(
            text, offsets, rule.multiline, rule.lines_after, rule.reach, ends
        ):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            for match in pattern.finditer(text, start_pos, end_pos, timeout=remaining):
                start, end = match.span()
                if start == end:
                    continue
                s_start, s_end = _secret_span(rule, match)
                if covered and any(s_start < e and s < s_end for s, e in covered):
                    continue
                secret = text[s_start:s_end]
                if is_filtered(rule, secret):
                    continue
                if named and "." in secret and names_itself(match.group("key") or "", secret):
                    continue  # `X = module.X`: code names on both sides (filter `code`)
                if rule.allow and _allowed(rule, match, secret, unit):
                    continue
                yield Hit(start, end, s_start, s_end)
    except TimeoutError:
        raise RuleTimeout(f"rule '{rule.id}' timed out after {timeout:.1f}s") from None


# A matcher gets the rule, the unit and the offsets where the rule's keywords were found (None:
# search everything) and yields hits. Matchers are registered by kind in engine/kinds.py.
Matcher = Callable[[CompiledRule, Unit, "list[int] | None"], Iterator[Hit]]
