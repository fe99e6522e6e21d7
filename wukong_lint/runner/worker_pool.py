"""Chunks of a scan on forked worker processes, in order, surviving a worker that dies.

`multiprocessing.Pool` loses the task of a worker the kernel kills (the OOM killer's
SIGKILL, a native library aborting on a failed allocation) and then waits for its result
forever: a folder scan hung. Here the chunks go to a `ProcessPoolExecutor`, which reports a
dead worker (`BrokenProcessPool`). The chunks whose results were lost are scanned again item
by item (a file, or a unit of a stream), each alone in a worker process; an item whose
process dies again is an error of its own (WORKER_DIED: the run fails closed, cli.py), and
the scan goes on in a new pool. Results are merged in the chunks' order, as before.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from wukong_lint.engine.scan import Scanner, Tally
from wukong_lint.model import ScanError

WORKER_DIED = "not scanned: the process scanning it was killed (out of memory?)"
AHEAD = 2  # chunks per worker submitted before their results are taken

Task = Callable[[tuple[str, list[Any]]], Tally]


def run_chunks(
    scanner: Scanner,
    task: Task,
    kind: str,
    chunks: Iterable[list[Any]],
    jobs: int,
    initializer: Callable[[], None],
) -> None:
    """`scanner.add(task((kind, chunk)))` for each chunk, in order, on `jobs` processes."""
    pending: deque[tuple[list[Any], Future[Tally] | None]] = deque()
    executor = _executor(jobs, initializer)
    iterator = iter(chunks)
    finished = False
    try:
        while True:
            while len(pending) < AHEAD * jobs:
                chunk = next(iterator, None)
                if chunk is None:
                    break
                try:
                    future: Future[Tally] | None = executor.submit(task, (kind, chunk))
                except BrokenProcessPool:  # a worker died since the last submit
                    future = None
                pending.append((chunk, future))
            if not pending:
                finished = True
                return
            chunk, future = pending.popleft()
            if future is not None:
                try:
                    scanner.add(future.result())
                    continue
                except BrokenProcessPool:
                    pass
            # a worker died: every result not yet in is lost; the chunks already submitted
            # are scanned again alone, and the rest in a new pool
            _stop(executor, kill=True)
            lost = [chunk, *(c for c, _ in pending)]
            done = [f for _, f in pending]
            pending.clear()
            for chunk, future in zip(lost, [None, *done], strict=True):
                result = _result(future)
                if result is None:
                    for batch in _alone(task, kind, chunk, initializer):
                        scanner.add(batch)
                else:
                    scanner.add(result)
            executor = _executor(jobs, initializer)
    finally:
        _stop(executor, kill=not finished)  # (Ctrl-C, an error: busy workers are stopped)


def _result(future: Future[Tally] | None) -> Tally | None:
    """The result of a future that finished before its pool broke, or None."""
    if future is None or not future.done() or future.cancelled():
        return None
    return None if future.exception() is not None else future.result()


def _alone(task: Task, kind: str, chunk: list[Any], initializer: Callable[[], None]) -> list[Tally]:
    """Each item of `chunk` scanned in a worker of its own pool (one at a time): the item
    whose worker dies is named, the others are scanned."""
    results: list[Tally] = []
    executor: ProcessPoolExecutor | None = None
    try:
        for item in chunk:
            if executor is None:
                executor = _executor(1, initializer)
            try:
                results.append(executor.submit(task, (kind, [item])).result())
            except BrokenProcessPool:
                _stop(executor, kill=True)
                executor = None
                results.append(Tally([], [ScanError(_path(kind, item), WORKER_DIED)], 0, 0, 0))
    finally:
        if executor is not None:
            _stop(executor, kill=len(results) < len(chunk))
    return results


def _path(kind: str, item: Any) -> str:
    """The display path of an item of a chunk: a (path, display path) pair, or a unit."""
    return item[1] if kind == "files" else getattr(item, "path", "?")


def _executor(jobs: int, initializer: Callable[[], None]) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        jobs, mp_context=multiprocessing.get_context("fork"), initializer=initializer
    )


def _stop(executor: ProcessPoolExecutor, kill: bool) -> None:
    """Shut the pool down; with `kill` (an interrupted scan, a broken pool) its workers are
    terminated, not waited for. (`_processes` is the executor's own table: there is no
    public way to stop a busy worker.)"""
    if kill:
        for process in list((getattr(executor, "_processes", None) or {}).values()):
            if process.is_alive():
                process.terminate()
    executor.shutdown(wait=True, cancel_futures=True)


def ignore_interrupts() -> None:
    """In a worker: Ctrl-C reaches the whole process group, but only the parent answers it
    (it stops the workers and exits 130 with one line; no worker prints a traceback)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
