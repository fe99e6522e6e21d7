"""Folder scans over several processes, with results identical to a single-process scan.

Files are dealt out in fixed-size chunks in listing order and the chunks' results are merged
back in that order, so findings, errors and stats do not depend on the number of workers.
Workers are forked after the rule set is loaded, so they start with it compiled.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any

from wukong_lint.engine.rules import RuleSet
from wukong_lint.engine.scan import Scanner, Tally, tally
from wukong_lint.sources.dispatch import units_for_files

CHUNK = 32  # files per task: small enough to balance, large enough to amortise the IPC
# Below this many files a pool costs more than it saves.
MIN_FILES_FOR_POOL = 2 * CHUNK

_RULESET: RuleSet | None = None  # set in the parent before forking


UNIT_CHUNK = 256  # units per task when a source streams units (history scans)


def _scan_files(ruleset: RuleSet, files: list[tuple[str, str]]) -> Tally:
    return tally(ruleset, units_for_files(files))


# What a task holds: file paths to read and scan, or units a stream already produced.
_WORK: dict[str, Callable[[RuleSet, list[Any]], Tally]] = {"files": _scan_files, "units": tally}


def _worker(task: tuple[str, list[Any]]) -> Tally:
    assert _RULESET is not None
    kind, chunk = task
    return _WORK[kind](_RULESET, chunk)


def _chunks(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _run(
    scanner: Scanner, kind: str, chunks: Iterable[list[Any]], jobs: int, pooled: bool = True
) -> None:
    """Scan the chunks in order, on `jobs` forked processes when that is possible (`pooled`:
    chunk by chunk; else within the chunks)."""
    global _RULESET
    if jobs <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        # without fork every worker would reload and recompile the rules: not worth it
        for chunk in chunks:
            scanner.add(_WORK[kind](scanner.ruleset, chunk))
        return
    if kind == "files" and pooled is False:
        # too few files to share out: a long transcript among them shares out its texts
        from wukong_lint.runner.offload import tally_offloaded

        for chunk in chunks:
            scanner.add(tally_offloaded(scanner.ruleset, units_for_files(chunk), jobs))
        return
    from wukong_lint.runner.worker_pool import (  # (survives a killed worker)
        ignore_interrupts,
        run_chunks,
    )

    _RULESET = scanner.ruleset
    if kind == "files":
        # the Hyperscan database read (or compiled) once, before the workers fork
        scanner.ruleset.multimatch()
    try:
        run_chunks(scanner, _worker, kind, chunks, jobs, ignore_interrupts)
    finally:
        _RULESET = None


def scan_paths(scanner: Scanner, files: list[tuple[str, str]], jobs: int) -> None:
    """Scan `(filesystem path, display path)` pairs into `scanner`, on `jobs` processes."""
    _run(scanner, "files", _chunks(files, CHUNK), jobs, len(files) >= MIN_FILES_FOR_POOL)


def scan_stream(scanner: Scanner, items: Iterable[Any], jobs: int) -> None:
    """Scan what a streaming source yields (units, errors, skips), on `jobs` processes."""
    _run(scanner, "units", _chunks(items, UNIT_CHUNK), jobs)
