"""Hostile files at scale (issue 7): a 100 MB file and 100,000 tiny files. Too slow for the
default suite (~30 s; 100 MB, and 100,000 files of one disk block each), so they run only with
WUKONG_LINT_SLOW_TESTS=1:

    WUKONG_LINT_SLOW_TESTS=1 python -m pytest tests/test_hostile_scale.py
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    os.environ.get("WUKONG_LINT_SLOW_TESTS") != "1", reason="set WUKONG_LINT_SLOW_TESTS=1"
)
TOKEN = "ghp_" + "Hq4Ty8Wm2Zx6Rb1Nc9Lv3Pd7Jk5Fs0Ga8Ue2"


def check(*argv: str, cwd: Path) -> tuple[int, dict, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "wukong_lint", "check", "--format", "json", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "Traceback" not in proc.stderr
    return proc.returncode, json.loads(proc.stdout), proc.stderr


def test_hundred_megabyte_file(tmp_path):
    path = tmp_path / "big.log"
    line = "2024-01-01 12:00:00 INFO request served in 12 ms path=/api/v1/items?id=42\n"
    with open(path, "w") as handle:
        for _ in range(100 * 1024 * 1024 // len(line)):
            handle.write(line)
        handle.write(f'token = "{TOKEN}"\n')
    lines = path.read_bytes().count(b"\n")
    code, report, _ = check("--jobs", "2", str(path), cwd=tmp_path)
    assert code == 1
    assert [(f["rule_id"], f["line"]) for f in report["findings"]] == [("secret.github-pat", lines)]
    assert report["stats"]["bytes"] == path.stat().st_size
    assert TOKEN not in json.dumps(report)
    # a guard against regressions, not a target: measured 706 MB peak for this 100 MB file
    # (the whole file is read, decoded and indexed at once; streaming big files is to do)
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    assert peak_mb < 800, peak_mb


def test_hundred_thousand_tiny_files(tmp_path):
    root = tmp_path / "many"
    for folder in range(100):
        sub = root / f"d{folder:03d}"
        sub.mkdir(parents=True)
        for i in range(1000):
            (sub / f"f{i:04d}.txt").write_text(f"value {folder} {i}\n")
    (root / "d050" / "f0500.txt").write_text(f"token = {TOKEN}\n")
    code, report, _ = check(".", cwd=root)
    assert code == 1
    assert report["stats"]["files"] == 100_000
    assert [(Path(f["path"]).as_posix(), f["line"]) for f in report["findings"]] == [
        ("d050/f0500.txt", 1)
    ]
