"""`anchors lint`, `anchors hints --avatar` and the vague-title rule (issue 16), through the
real command line on files in temp dirs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

DECISIONS = """# Decisions

## [D001] 框架决策

**Status**: maybe

### Decision
x

[C001] Never deploy on Friday
- Why: safety
- Impact: ops
- Rollback: none

[P001] FFmpeg leaks memory on long videos
- Why: see [D009]
- Impact: workers
- Rollback: none

[M001] Repository pattern for data access
- Why: tests
- Impact: src/db
- Rollback: none

[I001] Agent.review() returns findings
- Why: one entry point
- Impact: api
- Rollback: none
"""


def run(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "wukong_lint", *argv], cwd=cwd,
                          capture_output=True, text=True, timeout=60)  # fmt: skip


def test_lint_runs_the_anchor_rules_on_any_named_file(tmp_path):
    path = tmp_path / "decisions.md"  # not named like an anchors file: check would skip it
    path.write_text(DECISIONS)
    proc = run("anchors", "lint", "--format", "json", str(path), cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    rules = sorted({f["rule_id"] for f in json.loads(proc.stdout)["findings"]})
    assert rules == ["anchor.dangling-reference", "anchor.missing-field", "anchor.section-prefix",
                     "anchor.status",
                     "anchor.vague-title"]  # fmt: skip
    # the secret and other rules do not run here
    assert not [r for r in rules if not r.startswith(("anchor.", "memory-bank."))]
    proc = run("anchors", "lint", "--fail-on", "high", str(path), cwd=tmp_path)
    assert proc.returncode == 0 and "anchor.vague-title" in proc.stdout


def test_lint_defaults_missing_files_and_clean_files(tmp_path):
    proc = run("anchors", "lint", cwd=tmp_path)
    assert proc.returncode == 2 and "no anchors files found" in proc.stderr
    proc = run("anchors", "lint", "missing.md", cwd=tmp_path)
    assert proc.returncode == 2 and "missing.md" in proc.stderr and "Traceback" not in proc.stderr
    (tmp_path / "anchors.md").write_text(
        "# Anchors\n\n[D001] 选择 FastAPI 作为后端框架\n- Why: 团队熟悉\n- Impact: api/\n"
        "- Rollback: 回到 Flask\n"
    )
    proc = run("anchors", "lint", cwd=tmp_path)  # the project's anchors.md by default
    assert proc.returncode == 0, proc.stdout
    assert "1 file scanned" in proc.stdout


@pytest.mark.parametrize(
    ("avatar", "t1", "t2"),
    [("眼", True, False), ("eye", True, False), ("@舌", True, False), ("意", False, True),
     ("mind", False, True), ("身", True, True), ("鼻", True, True), ("nose", True, True)],
)  # fmt: skip
def test_hints_follow_the_per_avatar_table(tmp_path, avatar, t1, t2):
    path = tmp_path / "anchors.md"
    path.write_text(DECISIONS)
    proc = run("anchors", "hints", "--avatar", avatar, str(path), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert ("[识 T1]" in proc.stdout) == t1 and ("[识 T2]" in proc.stdout) == t2
    if t1:
        assert "[P001]" in proc.stdout and "[C001]" in proc.stdout and "[M001]" in proc.stdout
    if t2:
        assert "[I001]" in proc.stdout


def test_hints_for_the_ear_and_unknown_avatars(tmp_path):
    path = tmp_path / "anchors.md"
    path.write_text(DECISIONS)
    proc = run("anchors", "hints", "--avatar", "耳", str(path), cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout == "" and "no inertia hint" in proc.stderr
    proc = run("anchors", "hints", "--avatar", "wing", str(path), cwd=tmp_path)
    assert proc.returncode == 2 and "unknown avatar" in proc.stderr
    proc = run("anchors", "hints", "--avatar", "眼", "--stage", "t2", str(path), cwd=tmp_path)
    assert proc.returncode == 2  # one or the other
