"""A worker process of a folder scan killed by the system (the OOM killer's SIGKILL, a native
library aborting) neither hangs the scan nor loses files silently: the chunks it took are
scanned again, each file alone; a file whose process dies again is an error of its own and
the run fails closed (exit 2 unless --allow-skipped)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from wukong_lint.engine.loader import load_rules
from wukong_lint.engine.scan import Scanner, Tally, is_out_of_memory
from wukong_lint.model import ScanError
from wukong_lint.runner.worker_pool import WORKER_DIED, run_chunks

TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0" + "K1l2M3n4O5p6Q7r8"
POISON = "poison.txt"


def dying_task(task: tuple[str, list]) -> Tally:
    """A worker's task that kills its own process on the poisoned file, as the OOM killer
    would; any other file is 'scanned' (counted, one error naming it, to see the order)."""
    _, chunk = task
    if any(display == POISON for _, display in chunk):
        os.kill(os.getpid(), signal.SIGKILL)
    return Tally([], [ScanError(display, "seen") for _, display in chunk], len(chunk), 0, 0)


def no_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_killed_worker_loses_only_the_file_that_killed_it() -> None:
    names = [f"f{n:03d}.txt" for n in range(40)]
    names.insert(17, POISON)
    chunks = [[(name, name) for name in names[i : i + 4]] for i in range(0, len(names), 4)]
    scanner = Scanner(ruleset=load_rules())  # (the task does not use it)
    started = time.monotonic()
    run_chunks(scanner, dying_task, "files", chunks, 2, no_interrupts)
    assert time.monotonic() - started < 60  # (a lost task used to hang the pool forever)
    seen = [(e.path, e.message) for e in scanner.errors]
    # every file once, in listing order; the poisoned one as not scanned
    assert [path for path, _ in seen] == names
    assert dict(seen)[POISON] == WORKER_DIED
    assert scanner.files == len(names) - 1
    assert is_out_of_memory(ScanError(POISON, WORKER_DIED))


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(p) for p in handle.read().split()]
    except OSError:
        return []


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="needs /proc")
def test_a_folder_scan_survives_a_worker_killed_mid_scan(tmp_path: Path) -> None:
    files = tmp_path / "files"
    files.mkdir()
    filler = "".join(f"value_{n} = 'plain text of line {n}'\n" for n in range(4000))
    planted = {f"f{n:03d}.py" for n in (3, 70, 150, 199)}
    for n in range(200):
        name = f"f{n:03d}.py"
        (files / name).write_text(filler + (f"T = '{TOKEN}'\n" if name in planted else ""))
    report = tmp_path / "report.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "wukong_lint", "check", "--jobs", "2", "--format", "json",
         "-o", str(report), str(files)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not children(proc.pid) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    workers = children(proc.pid)
    if workers:
        time.sleep(0.2)  # inside its first chunks
        with contextlib.suppress(ProcessLookupError):  # (finished: still checked below)
            os.kill(workers[0], signal.SIGKILL)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, err
    data = json.loads(report.read_text())
    assert {f["path"].rsplit("/", 1)[-1] for f in data["findings"]} == planted
    assert data["stats"]["files"] == 200 and data["errors"] == []
    assert b"Traceback" not in err
