"""A progress bar on stderr for folder scans that are expected to take more than a second.

Shown only when stderr is a terminal (never in CI logs, pipes or pre-commit) and `NO_COLOR`
does not matter (the bar is plain text). The expectation comes from the bytes to scan: the
folder scan runs at 20-50 MB/s, so about 16 MB or 4,000 files is a second or more.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from typing import Any, TextIO

MIN_BYTES = 16 * 1024 * 1024
MIN_FILES = 4000
WIDTH = 30
INTERVAL = 0.1  # seconds between redraws


def wanted(files: list[tuple[str, str]], stream: TextIO | None = None, always: bool = False) -> int:
    """The total bytes to scan when a bar should be shown, else 0 (`always`: however short
    the scan, on a terminal)."""
    stream = stream or sys.stderr
    try:
        if not stream.isatty() or os.environ.get("WUKONG_LINT_NO_PROGRESS"):
            return 0
    except (AttributeError, ValueError):
        return 0
    total = 0
    for full, _ in files:
        with contextlib.suppress(OSError):
            total += os.lstat(full).st_size
    return total if always or total >= MIN_BYTES or len(files) >= MIN_FILES else 0


class Bar:
    def __init__(
        self, total_bytes: int, total_files: int, stream: TextIO | None = None, sessions: int = 0
    ) -> None:
        self.total_bytes = max(1, total_bytes)
        self.total_files = total_files
        self.sessions = sessions  # (an agent history: the files are those of this many)
        self.stream = stream or sys.stderr
        self.files = self.bytes = 0
        self.started = self.drawn = time.perf_counter()

    def advance(self, files: int, size: int) -> None:
        self.files += files
        self.bytes += size
        now = time.perf_counter()
        if now - self.drawn >= INTERVAL or self.files >= self.total_files:
            self.drawn = now
            self.draw(now)

    def draw(self, now: float) -> None:
        share = min(1.0, self.bytes / self.total_bytes)
        done = int(share * WIDTH)
        rate = self.bytes / max(1e-6, now - self.started) / 1e6
        line = (
            f"\r[{'#' * done}{'.' * (WIDTH - done)}] {share * 100:5.1f}%  "
            f"{self.files}/{self.total_files} files"
            f"{f' of {self.sessions} sessions' if self.sessions else ''}  {rate:.1f} MB/s"
        )
        self.stream.write(line)
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\r" + " " * 79 + "\r")
        self.stream.flush()


def attach(scanner: Any, files: list[tuple[str, str]], sessions: int = 0) -> Bar | None:
    """Make `scanner.add` advance a bar when the scan is long and stderr is a terminal
    (`sessions`: the files are an agent history's, of this many sessions: always shown)."""
    total = wanted(files, always=bool(sessions))
    if not total:
        return None
    bar = Bar(total, len(files), sessions=sessions)
    add = scanner.add

    def add_and_advance(batch: Any) -> None:
        add(batch)
        bar.advance(batch.files + batch.skipped, batch.bytes)

    scanner.add = add_and_advance
    return bar
