"""A long transcript on several processes, with the result of a single-process scan.

A transcript is read by one process, in order: pairing calls with their results and knowing
which agent speaks needs every record before. Its units meet two kinds of rules. The
structured checks (commands, paths, edits, agents, integrity) read a unit's event and run in
this process. The text rules (regexes: the whole secret pack) read only a unit's text and
cost the most, so batches of texts go to forked workers, and come back as findings that join
the unit's structured findings, in the order the source gave the units. The secrets a worker
found are masked in the snippets of the structured findings of the same unit, as one scan
of the unit would mask them.

A batch travels as one string of all its texts, encoded once, and their lengths: pickling
the texts one by one (or whole units, with their events) costs more than scanning them.
Small transcripts never start a worker: the first `START` characters are scanned here.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from wukong_lint.engine.rules import CompiledRule, RuleSet
from wukong_lint.engine.scan import Counter, Span, Tally, scan_unit, scan_unit_spans
from wukong_lint.model import Finding, ScanError, Source, Unit
from wukong_lint.sources.text import Skipped

START = 1 << 20  # characters of transcript text scanned here before workers are started
BATCH = 1 << 19  # characters of text per task: enough to amortise a task's cost
IN_FLIGHT = 2  # tasks per worker sent ahead: workers never wait, memory stays bounded
# Texts may hold lone surrogates (a JSON "\ud800"): encoded and decoded as they are.
_ERRORS = "surrogatepass"

_TEXT_RULES: RuleSet | None = None  # a worker's rules (inherited when it is forked)

Item = Unit | ScanError | Skipped
Found = tuple[list[Finding], list[ScanError], list[Span]]
_NOTHING: Found = ([], [], [])
_SOURCE = Source("transcript")


def offloaded(rule: CompiledRule) -> bool:
    """A rule a worker can run on a transcript unit's text alone (not its event)."""
    return rule.kind == "regex" and "transcript" in rule.applies_to


def _is_event(item: Item) -> bool:
    return isinstance(item, Unit) and item.source.kind == "transcript" and hasattr(item, "event")


def _init(rules: RuleSet) -> None:
    global _TEXT_RULES
    _TEXT_RULES = rules


def _scan_texts(task: tuple[str, bytes, list[int], list[int]]) -> dict[int, Found]:
    """The text rules' findings on a batch of texts, by their place in the batch (only the
    texts with findings, errors or secrets)."""
    assert _TEXT_RULES is not None
    path, blob, lengths, first_lines = task
    joined = blob.decode("utf-8", _ERRORS)
    found: dict[int, Found] = {}
    start = 0
    for index, (length, first_line) in enumerate(zip(lengths, first_lines, strict=True)):
        unit = Unit(path, joined[start : start + length], _SOURCE, None, first_line)
        start += length
        result = scan_unit_spans(_TEXT_RULES, unit)
        if result[0] or result[1] or result[2]:
            found[index] = result
    return found


class _Offloader:
    def __init__(self, ruleset: RuleSet, workers: int) -> None:
        self.ruleset = ruleset
        self.event_rules = ruleset.select(lambda r: not offloaded(r))
        self.text_rules = ruleset.select(offloaded)
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None
        self.counter = Counter()
        # batches sent, oldest first: their items in source order and the workers' findings
        self.sent: deque[tuple[list[Item], Future[dict[int, Found]] | None]] = deque()
        self.items: list[Item] = []
        self.texts: list[str] = []
        self.first_lines: list[int] = []
        self.path = ""
        self.size = 0
        self.local = 0 if self.text_rules.rules else -(1 << 62)  # text scanned here so far

    def add(self, item: Item) -> None:
        event = _is_event(item)
        if self.pool is None and event:
            self.local += len(item.text)  # type: ignore[union-attr]
            if self.local > START:
                self._start()
        if event and self.pool is not None:
            unit: Unit = item  # type: ignore[assignment]
            if unit.path != self.path or self.size >= BATCH:
                self._send()
        if self.pool is None:  # not started, or a worker died
            self._local([item])
            return
        if event:
            self.path = unit.path
            self.texts.append(unit.text)
            self.first_lines.append(unit.first_line)
            self.size += len(unit.text)
        self.items.append(item)

    def _start(self) -> None:
        if "fork" not in multiprocessing.get_all_start_methods():
            self.local = -(1 << 62)  # never: each worker would have to reload the rules
            return
        self.text_rules.prefilter("transcript")  # built once, inherited by the workers
        self.pool = ProcessPoolExecutor(
            self.workers,
            multiprocessing.get_context("fork"),
            initializer=_init,
            initargs=(self.text_rules,),  # (forked: inherited, not pickled)
        )

    def _send(self) -> None:
        if not self.items:
            return
        result = None
        if self.texts:
            assert self.pool is not None
            blob = "".join(self.texts).encode("utf-8", _ERRORS)
            lengths = [len(text) for text in self.texts]
            try:
                result = self.pool.submit(_scan_texts, (self.path, blob, lengths, self.first_lines))
            except BrokenProcessPool:  # a worker died: everything from here is scanned here
                while self.sent:
                    self._join()
                self._local(self.items)
                self.items, self.texts, self.first_lines, self.size = [], [], [], 0
                self.close()
                self.local = -(1 << 62)
                return
        self.sent.append((self.items, result))
        self.items, self.texts, self.first_lines, self.size = [], [], [], 0
        while len(self.sent) > IN_FLIGHT * self.workers:
            self._join()

    def _join(self) -> None:
        """Join the oldest batch: every item's findings, in the source's order."""
        items, result = self.sent.popleft()
        try:
            found = result.result() if result is not None else {}
        except BrokenProcessPool:  # a worker died (killed): its batches are scanned here
            found = None
        if found is None:
            self._local(items)
            return
        index = 0
        for item in items:
            if not self.counter.count(item):
                continue
            if not _is_event(item):
                self.counter.add(*scan_unit(self.ruleset, item))  # type: ignore[arg-type]
                continue
            unit: Unit = item  # type: ignore[assignment]
            text_findings, text_errors, spans = found.get(index, _NOTHING)
            index += 1
            findings, errors = scan_unit(self.event_rules, unit, spans)
            for finding in text_findings:  # with the unit's tool and agent
                findings.append(finding._replace(source=unit.source))
            self.counter.add(findings, errors + text_errors)

    def _local(self, items: list[Item]) -> None:
        for item in items:
            if self.counter.count(item):
                self.counter.add(*scan_unit(self.ruleset, item))  # type: ignore[arg-type]

    def finish(self) -> Tally:
        if self.pool is not None:
            self._send()
        while self.sent:
            self._join()
        return self.counter.tally()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None


def tally_offloaded(ruleset: RuleSet, items: Iterable[Item], workers: int) -> Tally:
    """`scan.tally(ruleset, items)`, with the text rules of long transcripts run on `workers`
    forked processes."""
    offloader = _Offloader(ruleset, workers)
    try:
        for item in items:
            offloader.add(item)
        return offloader.finish()
    finally:
        offloader.close()
