"""A long transcript on several processes, with the result of a single-process scan.

A transcript is read by one process, in order: pairing calls with their results and knowing
which agent speaks needs every record before. Its units meet two kinds of rules. The
structured checks (commands, paths, edits, agents, integrity) read a unit's event and run in
this process. The text rules (regexes: the whole secret pack) read only a unit's text and
cost the most. So a long JSONL file is also cut into parts at line starts, and forked workers
each read a part on their own (`transcripts.range_units`: the texts of a whole read) and run
the text rules on it. Only findings cross between processes, never texts.

When this process reaches a unit, the worker's findings for the unit with the same key (its
event kind, line and call id, or for units without a call id their rank on the line) join
its structured findings; the secrets the worker found are masked in the structured
findings' snippets, as one scan of the unit would mask them. Units a part cannot know
(integrity problems, the end of a file), lines after the cut (a file still being written)
and a part a worker could not read are scanned here whole.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterable, Iterator
from multiprocessing.pool import Pool
from typing import Any

from wukong_lint.engine.rules import CompiledRule, RuleSet
from wukong_lint.engine.scan import Counter, Span, Tally, scan_unit, scan_unit_spans
from wukong_lint.model import Finding, ScanError, Unit
from wukong_lint.sources.text import Skipped

SPLIT_MIN = 4 << 20  # bytes: a smaller file is scanned here whole
PART_MIN, PART_MAX = 1 << 20, 16 << 20  # bytes per part
PARTS_PER_WORKER = 6  # enough parts that the workers finish together
KEYED = frozenset({"call", "result", "message"})  # what a part's read knows as a whole does
_BLOCK = 1 << 22

_TEXT_RULES: RuleSet | None = None  # set in the parent before forking

Item = Unit | ScanError | Skipped
Found = tuple[list[Finding], list[ScanError], list[Span]]
Key = tuple[str, int, Any]
_NOTHING: Found = ([], [], [])


def offloaded(rule: CompiledRule) -> bool:
    """A rule a worker can run on a transcript unit's text alone (not its event)."""
    return rule.kind == "regex" and "transcript" in rule.applies_to


class Keys:
    """The key of each unit of one file, the same in a whole read and in a part's read."""

    def __init__(self) -> None:
        self.line = 0
        self.ranks: dict[str, int] = {}

    def __call__(self, event: Any) -> Key | None:
        kind = event.kind
        if kind not in KEYED:
            return None
        if event.call_id is not None:
            return (kind, event.line, event.call_id)
        # units without a call id are made as their record is read, in line order
        if event.line != self.line:
            self.line, self.ranks = event.line, {}
        rank = self.ranks.get(kind, 0)
        self.ranks[kind] = rank + 1
        return (kind, event.line, rank)


def parts(path: str, size: int, count: int) -> tuple[list[tuple[int, int, int]], int]:
    """About `count` parts of the first `size` bytes of a file, cut after newlines, each as
    (start, end, first line); and the line after the last part (its last newline's)."""
    step = max(PART_MIN, min(PART_MAX, size // count))
    found: list[tuple[int, int, int]] = []
    start = position = 0
    line = first = 1
    target = step
    with open(path, "rb") as handle:
        while position < size and (block := handle.read(min(_BLOCK, size - position))):
            counted = 0  # newlines of the block counted so far
            while True:
                cut = block.find(b"\n", max(counted, target - position))
                if cut < 0:
                    break
                line += block.count(b"\n", counted, cut + 1)
                counted = cut + 1
                found.append((start, position + counted, first))
                start, first = position + counted, line
                target = start + step
            line += block.count(b"\n", counted)
            position += len(block)
    if found and start < position:
        # the rest up to the last newline is one more part; a line without its newline
        # (being written) is left to this process
        last = position - start
        with open(path, "rb") as handle:
            handle.seek(start)
            tail = handle.read(last)
        end = tail.rfind(b"\n")
        if end >= 0:
            found.append((start, start + end + 1, first))
            first += tail.count(b"\n")
    return found, first


def _scan_part(task: tuple[str, str, str, tuple[int, int, int]]) -> dict[Key, Found] | None:
    """The text rules' findings on the units of one part, by key (None: unreadable)."""
    from wukong_lint.sources.transcripts import range_units

    assert _TEXT_RULES is not None
    fmt, full, display, span = task
    keys = Keys()
    found: dict[Key, Found] = {}
    try:
        for unit in range_units(fmt, full, display, span):
            key = keys(unit.event)
            if key is not None:
                result = scan_unit_spans(_TEXT_RULES, unit)
                if result[0] or result[1] or result[2]:
                    found[key] = result
    except OSError:
        return None
    return found


class _Split:
    """One file cut into parts, and the parts' findings as they come back in order."""

    def __init__(self, starts: list[int], end_line: int, results: Iterator[Any]) -> None:
        self.starts = starts  # first line of each part
        self.end_line = end_line  # lines from here on were not cut into parts
        self.results = results
        self.keys = Keys()
        self.received = 0  # parts whose findings came back
        self.found: dict[Key, Found] = {}
        self.unread: list[tuple[int, int]] = []  # line ranges of parts a worker could not read

    def take(self, key: Key, line: int) -> Found | None:
        """The findings of the unit `key` on `line` (None: scan it here)."""
        if line >= self.end_line:
            return None
        while self.received < len(self.starts) and self.starts[self.received] <= line:
            result = next(self.results)
            first = self.starts[self.received]
            self.received += 1
            if result is None:
                last = self.starts[self.received] if self.received < len(self.starts) else None
                self.unread.append((first, last if last is not None else self.end_line))
            else:
                self.found.update(result)
        if any(first <= line < last for first, last in self.unread):
            return None
        return self.found.pop(key, _NOTHING)


class _Offloader:
    def __init__(self, ruleset: RuleSet, workers: int) -> None:
        self.ruleset = ruleset
        self.event_rules = ruleset.select(lambda r: not offloaded(r))
        self.text_rules = ruleset.select(offloaded)
        self.workers = workers
        self.pool: Pool | None = None
        self.counter = Counter()
        self.splits: dict[str, _Split | None] = {}

    def add(self, item: Item) -> None:
        if not self.counter.count(item):
            return
        event = getattr(item, "event", None)
        if event is not None and self.text_rules.rules:
            unit: Unit = item  # type: ignore[assignment]
            split = self.splits.get(unit.path, False)
            if split is False:
                split = self.splits[unit.path] = self._split(unit.path, event.ctx.files)
            if split is not None:
                key = split.keys(event)
                found = split.take(key, event.line) if key is not None else None
                if found is not None:
                    text_findings, text_errors, spans = found
                    findings, errors = scan_unit(self.event_rules, unit, spans)
                    for finding in text_findings:  # the agent as this read knows it
                        findings.append(finding._replace(source=unit.source))
                    self.counter.add(findings, errors + text_errors)
                    return
        self.counter.add(*scan_unit(self.ruleset, item))  # type: ignore[arg-type]

    def _split(self, display: str, files: dict[str, tuple[str, str]]) -> _Split | None:
        known = files.get(display)
        if known is None or "fork" not in multiprocessing.get_all_start_methods():
            return None
        full, fmt = known
        try:
            size = os.path.getsize(full)
            if size < SPLIT_MIN:
                return None
            cut, end_line = parts(full, size, self.workers * PARTS_PER_WORKER)
        except OSError:
            return None
        if not cut:
            return None
        if self.pool is None:
            self._start()
        assert self.pool is not None
        tasks = [(fmt, full, display, span) for span in cut]
        results = self.pool.imap(_scan_part, tasks)
        return _Split([first for _, _, first in cut], end_line, results)

    def _start(self) -> None:
        global _TEXT_RULES
        self.text_rules.prefilter("transcript")  # built once, inherited by the workers
        _TEXT_RULES = self.text_rules
        try:
            self.pool = multiprocessing.get_context("fork").Pool(self.workers)
        finally:
            _TEXT_RULES = None

    def close(self) -> None:
        if self.pool is not None:
            self.pool.terminate()  # every finding needed has been taken
            self.pool.join()
            self.pool = None


def tally_offloaded(ruleset: RuleSet, items: Iterable[Item], workers: int) -> Tally:
    """`scan.tally(ruleset, items)`, with the text rules of long transcript files run on
    `workers` forked processes."""
    offloader = _Offloader(ruleset, workers)
    try:
        for item in items:
            offloader.add(item)
    finally:
        offloader.close()
    return offloader.counter.tally()
