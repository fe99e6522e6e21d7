"""A long transcript on several processes, with the result of a single-process scan.

Reading a transcript needs everything before each record: calls are paired with results,
sub-agents are known by the calls that spawned them, turns by the user's messages. That
state is small, and following it (reading the records without making or scanning units) costs
a fraction of a full read. So a long JSONL file is cut into one part per worker, on line
starts; each worker follows the state over the lines before its part and then reads and scans
the part itself, which makes exactly the units a whole read makes (sources/transcripts/:
`Part`, `part_units`). The parts shrink towards the end of the file, as the later workers
follow more lines first. No process follows the whole file, and no state travels between
processes but the file's starting state (and, when the session's sub-agent files are read
after it, the state at its end: `HandBack`). Parts are joined in file order, so findings,
errors and their order are those of one process.

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
from wukong_lint.engine.scan import OUT_OF_MEMORY, Counter, Tally, scan_unit, scanning_with, tally
from wukong_lint.model import ScanError, Unit
from wukong_lint.sources import transcripts
from wukong_lint.util.text import Skipped

IN_FLIGHT = 2  # parts per worker handed out ahead: workers never wait, memory stays bounded

_RULES: RuleSet | None = None  # a worker's rules (inherited when it is forked)

Item = Unit | ScanError | Skipped | transcripts.Part | transcripts.HandBack
# A part's results: its tally, and the session's state at its end when it was asked for.
Result = tuple[Tally, bytes | None]


def _init(rules: RuleSet) -> None:
    global _RULES
    _RULES = rules
    from wukong_lint.runner.worker_pool import ignore_interrupts

    ignore_interrupts()  # Ctrl-C is the parent's to answer


def _scan_part(part: transcripts.Part) -> Result:
    assert _RULES is not None
    return _scan_part_with(_RULES, part)


def _scan_part_with(ruleset: RuleSet, part: transcripts.Part) -> Result:
    from wukong_lint.sources.transcripts.session import Session

    session = Session(part.display, transcripts.Context())
    try:
        result = tally(ruleset, transcripts.part_units(part, session))
    except OSError as err:  # the file went away since this process read it
        error = ScanError(part.display, f"cannot read: {err.strerror or err}")
        return Tally([], [error], 0, 0, 0), None
    except MemoryError:  # this part only (as scan.tally); the run fails closed (cli.py)
        error = ScanError(part.display, f"{OUT_OF_MEMORY} (a part of it)")
        return Tally([], [error], 0, 0, 0), None
    return result, session.snapshot() if part.hand_back else None


def _search_part(path: str, start: int, end: int) -> bool:
    from wukong_lint.sources.transcripts.environment import spawns_avatar_in

    return spawns_avatar_in(path, start, end)


class _Offloader:
    def __init__(self, ruleset: RuleSet, workers: int) -> None:
        self.ruleset = ruleset
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None
        self.broken = False
        self.counter = Counter()
        self.sent: deque[tuple[transcripts.Part, Future[Result] | None]] = deque()
        self.handed: bytes | None = None  # the state handed back by the last part joined

    def add(self, item: Item) -> None:
        if not isinstance(item, transcripts.Part):
            while self.sent:  # (a file's parts come before what follows the file)
                self._join()
            if isinstance(item, transcripts.HandBack):
                item.state, self.handed = self.handed, None
                return
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
                future = self._pool().submit(_scan_part, item)
            except BrokenProcessPool:
                self.broken = True
        self.sent.append((item, future))
        while len(self.sent) > IN_FLIGHT * self.workers:
            self._join()

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            self.pool = ProcessPoolExecutor(
                self.workers,
                multiprocessing.get_context("fork"),
                initializer=_init,
                initargs=(self.ruleset,),  # (forked: inherited, not pickled)
            )
        return self.pool

    def search(self, path: str, size: int) -> bool:
        """Whether a long transcript spawns an avatar (the profile `wukong` is then its
        default), its parts searched on every worker at once; here when they cannot be."""
        from wukong_lint.sources.transcripts.environment import spawns_avatar_in

        if self.broken:
            return spawns_avatar_in(path)
        step = -(-size // self.workers)
        try:
            pool = self._pool()
            futures = [
                pool.submit(_search_part, path, start, min(size, start + step))
                for start in range(0, size, step)
            ]
            return any(future.result() for future in futures)
        except BrokenProcessPool:
            self.broken = True
            return spawns_avatar_in(path)

    def _join(self) -> None:
        """Take the oldest part's results (scanning it here if its worker died)."""
        part, future = self.sent.popleft()
        result: Result | None = None
        if future is not None:
            try:
                result = future.result()
            except BrokenProcessPool:
                self.broken = True
        if result is None:
            result = _scan_part_with(self.ruleset, part)
        found, self.handed = result
        self.counter.add_part(found, part.display)

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
    before = transcripts.OPTIONS["parts"], transcripts.OPTIONS["search"]
    transcripts.OPTIONS["parts"] = workers
    transcripts.OPTIONS["search"] = offloader.search
    # (a file read here, under SPLIT_MIN, makes no unit that no rule can reach: scan.reaching)
    try:
        with scanning_with(ruleset):
            for item in items:
                offloader.add(item)
        return offloader.finish()
    finally:
        transcripts.OPTIONS["parts"], transcripts.OPTIONS["search"] = before
        offloader.close()
