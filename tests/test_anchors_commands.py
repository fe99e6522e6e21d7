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


UPSTREAM = """# 锚点 (Anchors)

## 决策 (Decisions)

## [D001] 选择 FastAPI 作为后端框架

- 状态: 生效
- 日期: 2024/3/2

### 背景
需要异步 IO 和自动生成的 OpenAPI 文档

### 选项
- Flask：同步，生态大
- FastAPI：异步，类型驱动

### 决定
使用 FastAPI

### 原因
团队熟悉类型注解

### 影响
api/ 全部重写路由

## 问题 (Problems)

## [P001] 上传大文件时内存暴涨

- 状态: Resolved (已加入规则)

### 症状
上传 2 GB 文件时 worker 被 OOM kill

### 根因
整个文件读入内存

### 解决
改为分块流式读取

### 预防
审查清单加入“禁止整文件读入”

## [P002] 日志轮转丢失最后一行

- 状态: ✅ 生效

### 症状
轮转后最后一行缺失

### 根因
未 flush
"""


def test_upstream_dialects_lint_cleanly_and_fmt_normalises_list_metadata(tmp_path):
    path = tmp_path / "anchors.md"
    path.write_text(UPSTREAM)
    proc = run("anchors", "lint", "--format", "json", str(path), cwd=tmp_path)
    found = [(f["rule_id"], f["line"]) for f in json.loads(proc.stdout)["findings"]]
    # only P002 is incomplete, and it is told what it lacks of the problem template
    assert found == [("anchor.missing-field", 44)], proc.stdout
    assert "missing Solution, Prevention" in proc.stdout
    assert run("anchors", "fmt", str(path), cwd=tmp_path).returncode == 0
    text = path.read_text()
    assert "- 状态: ✅ 生效\n" in text and "- 日期: 2024-03-02\n" in text
    assert "- 状态: ✅ Resolved (已加入规则)\n" in text
    assert "| P001 | 上传大文件时内存暴涨 | 问题 | ✅ Resolved (已加入规则) |" in text
    assert run("anchors", "fmt", "--check", str(path), cwd=tmp_path).returncode == 0


TEMPLATE = """# 锚点 (Anchors)

## 决策 (Decisions)

*暂无锚点*

---

## 约束 (Constraints)

*暂无锚点*

---

## 问题 (Problems)

*暂无锚点*
"""


def test_fmt_adds_no_empty_index_to_a_template(tmp_path):
    path = tmp_path / "anchors.md"
    path.write_text(TEMPLATE)
    proc = run("anchors", "fmt", "--check", str(path), cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout
    run("anchors", "fmt", str(path), cwd=tmp_path)
    assert path.read_text() == TEMPLATE


def test_new_changes_only_the_lines_it_must(tmp_path):
    path = tmp_path / "anchors.md"
    # odd-but-valid spacing fmt would canonicalise: new must leave it alone
    text = TEMPLATE.replace("## 约束 (Constraints)", "##   约束 (Constraints)")
    path.write_text(text)
    proc = run("anchors", "new", "C", "禁止直接访问生产库", "--file", str(path), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    after = path.read_text()
    assert "##   约束 (Constraints)" in after
    assert after.count("*暂无锚点*") == 2  # the other sections keep their placeholders
    assert after.count("\n---\n") == 2  # and their rules
    # the anchor sits inside its section, above the section's closing rule
    section = after.index("约束 (Constraints)")
    assert section < after.index("[C001]") < after.index("\n---\n", section)
    assert "| C001 | 禁止直接访问生产库 |" in after  # the index is there
    removed = [line for line in text.splitlines() if line not in after.splitlines()]
    assert removed == []  # only the C section's placeholder went, and it appears twice
    # a second anchor updates the index block in place
    run("anchors", "new", "D", "选择 FastAPI 作为后端框架", "--file", str(path), cwd=tmp_path)
    again = path.read_text()
    assert again.count("MACHINE_BLOCK_START") == 1 and "| D001 |" in again
    assert "##   约束 (Constraints)" in again
    run("anchors", "new", "C", "日志必须脱敏", "--file", str(path), cwd=tmp_path)
    again = path.read_text()
    section = again.index("约束 (Constraints)")
    assert section < again.index("[C002]") < again.index("\n---\n", section)
