"""A file that exhausts memory in a folder scan is an input not scanned: it is named in the
errors of every report format and the run fails closed (exit 2) unless `--allow-skipped`.

The memory error is real: the scan runs in a process whose address space is capped
(RLIMIT_AS) a few tens of MB above what it uses once started, so a 30 MB file, read whole,
cannot be decoded there, while the small files beside it are scanned."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from wukong_lint.model import Report, ScanError, Stats
from wukong_lint.report import CONTEXT_FORMATS, FORMATS, render

SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text())
TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0" + "K1l2M3n4O5p6Q7r8"

# Runs `wukong-lint check` with the address space capped HEADROOM MB above the process's
# size at start.
CAPPED = """
import resource, sys
def size():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) << 10
limit = size() + (int(sys.argv[1]) << 20)
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from wukong_lint.cli import main
sys.exit(main(["check", "--jobs", "1", *sys.argv[2:]]))
"""


def capped(headroom: int, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", CAPPED, str(headroom), *args],
        cwd=cwd, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "scan"
    root.mkdir()
    (root / "app.py").write_text(f"T = '{TOKEN}'\n")
    line = "value_{:07d} = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOP'\n"
    with open(root / "huge.txt", "w") as handle:  # 30 MB: under the 32 MB read-whole limit
        handle.write("".join(line.format(n) for n in range(480_000)))
    # the rules compiled once at full memory (the cache), as in any earlier run
    warm = subprocess.run([sys.executable, "-m", "wukong_lint", "check", str(root / "app.py")],
                          capture_output=True, timeout=120, check=False)  # fmt: skip
    assert warm.returncode == 1, warm.stderr
    return root


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_a_file_out_of_memory_fails_the_folder_scan(folder: Path, tmp_path: Path) -> None:
    report_file = tmp_path / "report.json"
    for headroom in (35, 50, 25):  # the first that lets the tool start but not hold the file
        proc = capped(headroom, ".", "--format", "json", "-o", str(report_file), cwd=folder)
        if "out of memory" in proc.stderr:
            break
    else:
        pytest.skip(f"no memory cap gave a MemoryError here: {proc.stderr[-300:]}")
    assert proc.returncode == 2, proc.stderr
    assert "1 input(s) not scanned: out of memory" in proc.stderr
    assert "Traceback" not in proc.stderr
    report = json.loads(report_file.read_text())
    assert [e["path"] for e in report["errors"]] == ["huge.txt"]
    assert report["errors"][0]["message"].startswith("out of memory: not scanned")
    # the other file was scanned, and its secret reported (masked)
    assert [f["rule_id"] for f in report["findings"]] == ["secret.github-pat"]
    assert TOKEN not in report_file.read_text()
    # accepted on request: the findings decide the exit code, the error stays in the report
    proc = capped(headroom, ".", "--format", "concise", "--allow-skipped", cwd=folder)
    assert proc.returncode == 1, proc.stderr
    assert "huge.txt: error: out of memory: not scanned" in proc.stdout
    assert "app.py:1:" in proc.stdout


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_names_the_file_not_scanned(fmt: str) -> None:
    error = ScanError("data/huge-dump.txt", "out of memory: not scanned (or not to the end)")
    report = Report((), Stats(files=3), (error,))
    context: dict = {}
    if fmt in CONTEXT_FORMATS:
        context = {"rules": (), "prefix": ""}
    elif fmt == "jie":
        context = {"lang": "en", "fail_on": "high"}
    out = render(report, fmt, **context)
    assert "huge-dump.txt" in out and "out of memory" in out
    if fmt == "sarif":
        jsonschema.Draft7Validator(SCHEMA).validate(json.loads(out))
    if fmt == "text":  # also a clean text report lists it before its summary line
        assert out.splitlines()[:2] == [
            "Not scanned:",
            "  data/huge-dump.txt: out of memory: not scanned (or not to the end)",
        ]
