"""Folder scans over several processes, with results identical to a single-process scan.

Files are dealt out in fixed-size chunks in listing order and the chunks' results are merged
back in that order, so findings, errors and stats do not depend on the number of workers.
Workers are forked after the rule set is loaded, so they start with it compiled.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterable, Iterator
from itertools import islice

from wukong_lint.engine.rules import RuleSet
from wukong_lint.engine.scan import Scanner, Tally, tally
from wukong_lint.sources.dispatch import units_for_file

CHUNK = 32  # files per task: small enough to balance, large enough to amortise the IPC
# Below this many files a pool costs more than it saves.
MIN_FILES_FOR_POOL = 2 * CHUNK

_RULESET: RuleSet | None = None  # set in the parent before forking


def _scan_chunk(ruleset: RuleSet, files: list[tuple[str, str]]) -> Tally:
    items = (item for full, display in files for item in units_for_file(full, display))
    return tally(ruleset, items)


def _worker(files: list[tuple[str, str]]) -> Tally:
    assert _RULESET is not None
    return _scan_chunk(_RULESET, files)


def _chunks(items: Iterable[tuple[str, str]]) -> Iterator[list[tuple[str, str]]]:
    iterator = iter(items)
    while chunk := list(islice(iterator, CHUNK)):
        yield chunk


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def scan_paths(scanner: Scanner, files: list[tuple[str, str]], jobs: int) -> None:
    """Scan `(filesystem path, display path)` pairs into `scanner`, on `jobs` processes."""
    global _RULESET
    use_pool = jobs > 1 and len(files) >= MIN_FILES_FOR_POOL
    if use_pool:
        methods = multiprocessing.get_all_start_methods()
        if "fork" not in methods:
            use_pool = False  # without fork every worker would reload and recompile the rules
    if not use_pool:
        for chunk in _chunks(files):
            scanner.add(_scan_chunk(scanner.ruleset, chunk))
        return
    _RULESET = scanner.ruleset
    try:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for batch in pool.imap(_worker, _chunks(files)):
                scanner.add(batch)
    finally:
        _RULESET = None
