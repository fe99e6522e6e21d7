"""A long transcript on several processes, with the result of a single-process scan.

Reading a transcript needs everything before each record: calls are paired with results,
sub-agents are known by the calls that spawned them, turns by the user's messages. That
state is small, though, and reading it is the cheap part of a scan. So this process reads
a long JSONL file only to follow the state; every few megabytes it hands the lines just
read, with the state they start from, to a forked worker as a `Part`. The worker reads the
part from that state, which makes exactly the units a whole read makes, and scans them with
every rule. Parts are joined in file order, so findings, errors and their order are those of
one process (sources/transcripts/: `Part`, `part_units`).

Files under `transcripts.SPLIT_MIN` bytes, and files that are not JSONL (a JSON array, a
ReAct history), are read and scanned here. A worker that dies (killed) makes the pool
unusable: its parts and all later ones are then scanned here.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from wukong_lint.engine.rules import RuleSet
from wukong_lint.engine.scan import OUT_OF_MEMORY, Counter, Tally, scan_unit, tally
from wukong_lint.model import ScanError, Unit
from wukong_lint.sources import transcripts
from wukong_lint.sources.text import Skipped

IN_FLIGHT = 2  # parts per worker handed out ahead: workers never wait, memory stays bounded

_RULES: RuleSet | None = None  # a worker's rules (inherited when it is forked)

Item = Unit | ScanError | Skipped | transcripts.Part


def _init(rules: RuleSet) -> None:
    global _RULES
    _RULES = rules
    from wukong_lint.engine.parallel import ignore_interrupts

    ignore_interrupts()  # Ctrl-C is the parent's to answer


def _scan_part(part: transcripts.Part) -> Tally:
    assert _RULES is not None
    return _scan_part_with(_RULES, part)


def _scan_part_with(ruleset: RuleSet, part: transcripts.Part) -> Tally:
    try:
        return tally(ruleset, transcripts.part_units(part))
    except OSError as err:  # the file went away since this process read it
        return Tally([], [ScanError(part.display, f"cannot read: {err.strerror or err}")], 0, 0, 0)
    except MemoryError:  # this part only (as scan.tally); the run fails closed (cli.py)
        return Tally([], [ScanError(part.display, f"{OUT_OF_MEMORY} (a part of it)")], 0, 0, 0)


class _Offloader:
    def __init__(self, ruleset: RuleSet, workers: int) -> None:
        self.ruleset = ruleset
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None
        self.broken = False
        self.counter = Counter()
        self.sent: deque[tuple[transcripts.Part, Future[Tally] | None]] = deque()

    def add(self, item: Item) -> None:
        if not isinstance(item, transcripts.Part):
            while self.sent:  # (a file's parts come before what follows the file)
                self._join()
            if self.counter.count(item):
                try:
                    self.counter.add(
                        *scan_unit(self.ruleset, item, self.counter.occurrences(item))  # type: ignore[arg-type]
                    )
                except MemoryError:  # this unit only (as scan.tally)
                    self.counter.out_of_memory(item.path)  # type: ignore[union-attr]
            return
        future = None
        if not self.broken:
            try:
                if self.pool is None:
                    self.pool = ProcessPoolExecutor(
                        self.workers,
                        multiprocessing.get_context("fork"),
                        initializer=_init,
                        initargs=(self.ruleset,),  # (forked: inherited, not pickled)
                    )
                future = self.pool.submit(_scan_part, item)
            except BrokenProcessPool:
                self.broken = True
        self.sent.append((item, future))
        while len(self.sent) > IN_FLIGHT * self.workers:
            self._join()

    def _join(self) -> None:
        """Take the oldest part's results (scanning it here if its worker died)."""
        part, future = self.sent.popleft()
        result: Tally | None = None
        if future is not None:
            try:
                result = future.result()
            except BrokenProcessPool:
                self.broken = True
        if result is None:
            result = _scan_part_with(self.ruleset, part)
        self.counter.add_part(result, part.display)

    def finish(self) -> Tally:
        while self.sent:
            self._join()
        return self.counter.tally()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None


def tally_offloaded(ruleset: RuleSet, items: Iterable[Any], workers: int) -> Tally:
    """`scan.tally(ruleset, items)`, with long transcript files read in parts on `workers`
    forked processes. `items` must be made lazily (a generator): the transcript source reads
    in parts only while this runs."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return tally(ruleset, items)  # each worker would have to reload the rules
    offloader = _Offloader(ruleset, workers)
    before = transcripts.OPTIONS["parts"]
    transcripts.OPTIONS["parts"] = workers
    try:
        for item in items:
            offloader.add(item)
        return offloader.finish()
    finally:
        transcripts.OPTIONS["parts"] = before
        offloader.close()
