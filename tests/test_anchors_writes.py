"""Writes of `anchors new/add/fmt` (issues 15 and 16): merges into compact anchors, foreign
MACHINE_BLOCKs, escaping of candidate text, concurrent writers (real processes), the UTF-8
byte-order mark. Real files in temp dirs, through the real command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from wukong_lint.anchors.fmt import fmt_text
from wukong_lint.anchors.ops import Candidate, add_candidates
from wukong_lint.anchors.parse import parse
from wukong_lint.cli import main

COMPACT_FILE = """# 锚点

## 决策

[D001] 使用 PostgreSQL 作为主库
- 决策: 使用 PostgreSQL
- 理由: 需要事务
- 回滚: 切回 MySQL

## 约束

[C001] 禁止直接访问生产库
- 理由: 安全
"""


def run(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wukong_lint", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_merge_into_a_compact_anchor_stays_inside_it_and_a_conflict_is_marked():
    cand = Candidate("D", "使用 PostgreSQL 作为主库", {"decision": "使用 MySQL",
                     "verification": "压测通过"}, repeated=2)  # fmt: skip
    text, outcomes = add_candidates(COMPACT_FILE, [cand])
    assert [(o.action, o.anchor_id) for o in outcomes] == [("conflict", "D001")]
    d1 = next(a for a in parse(text).anchors if a.id == "D001")
    body = "".join(parse(text).lines[d1.first : d1.last])
    assert "使用 MySQL" in body and "压测通过" in body  # the merged facts belong to D001
    assert d1.form == "compact" and d1.status is not None and "待验证" in d1.status[0]
    # the next add files nothing under the new anchor: D001 keeps its facts
    text2, _ = add_candidates(text, [Candidate("D", "缓存用 Redis", {"decision": "Redis"},
                                               repeated=2)])  # fmt: skip
    doc = parse(text2)
    d1, d2 = (next(a for a in doc.anchors if a.id == i) for i in ("D001", "D002"))
    assert "压测通过" in "".join(doc.lines[d1.first : d1.last])
    assert "压测通过" not in "".join(doc.lines[d2.first : d2.last])
    assert fmt_text(text2).ok


def test_merge_without_conflict_into_a_compact_anchor():
    cand = Candidate("D", "使用 PostgreSQL 作为主库", {"impact": "数据层"}, repeated=2)
    text, outcomes = add_candidates(COMPACT_FILE, [cand])
    assert outcomes[0].action == "merged"
    d1 = parse(text).anchors[0]
    assert "数据层" in "".join(parse(text).lines[d1.first : d1.last])
    assert d1.status is None  # not marked pending


def test_force_never_deletes_compact_anchors_in_a_foreign_machine_block(tmp_path, capsys):
    path = tmp_path / "anchors.md"
    original = (
        "# Anchors\n\n<!-- MACHINE_BLOCK_START -->\n[D001] Use Postgres\n- Why: transactions\n"
        "\n[C001] No prod access\n- Why: safety\n<!-- MACHINE_BLOCK_END -->\n"
    )
    path.write_text(original)
    main(["anchors", "fmt", "--force", str(path)])
    assert path.read_text() == original  # no anchor outside: no index wanted, nothing touched
    original += "\n[M001] Repository pattern for data access\n- Why: tests\n"
    path.write_text(original)
    assert main(["anchors", "fmt", "--force", str(path)]) == 1
    assert path.read_text() == original
    assert "anchor definitions" in capsys.readouterr().err


def test_candidate_text_cannot_hide_later_anchors(tmp_path):
    path = tmp_path / "anchors.md"
    path.write_text("# Anchors\n\n## Decisions\n\n## Constraints\n")
    hostile = [
        {"type": "D", "title": "Open a fence", "decision": "```\nunclosed", "repeated": 2},
        {"type": "D", "title": "Open a comment <!--", "why": "<!-- MACHINE_BLOCK_START -->\nx",
         "repeated": 2},
        {"type": "D", "title": "Fake heading", "impact": "# Not a heading\n[D009] fake\n- Why: x",
         "repeated": 2},
        {"type": "C", "title": "Later constraint", "why": "must stay visible", "repeated": 2},
    ]  # fmt: skip
    source = tmp_path / "c.json"
    source.write_text(json.dumps(hostile))
    result = run("anchors", "add", "--from", str(source), "--file", str(path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    doc = parse(path.read_text())
    assert sorted(a.id for a in doc.anchors) == ["C001", "D001", "D002", "D003"]
    assert not [b for b in doc.blocks if b.signature is None]  # no block opened by the text
    assert all(r in ("text", "block") for r in doc.role[doc.anchors[-1].first :])
    lint = run("check", "--format", "json", str(path), cwd=tmp_path)
    assert "anchor.duplicate-id" not in lint.stdout


def test_concurrent_new_and_add_lose_no_update(tmp_path):
    path = tmp_path / "anchors.md"
    path.write_text("# Anchors\n\n## Decisions\n")
    cand = tmp_path / "c.json"
    procs = []
    titles = ["Never deploy on Friday", "Secrets stay in the vault", "Logs keep no emails"]
    for n in range(6):
        if n % 2:
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "wukong_lint", "anchors", "new", "D", f"Decision {n}",
                 "--file", str(path)], cwd=tmp_path,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE))  # fmt: skip
        else:
            one = tmp_path / f"c{n}.json"
            one.write_text(json.dumps([{"type": "C", "title": titles[n // 2],
                                        "why": "x", "repeated": 2}]))  # fmt: skip
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "wukong_lint", "anchors", "add", "--from", str(one),
                 "--file", str(path)], cwd=tmp_path,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE))  # fmt: skip
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    del cand
    doc = parse(path.read_text())
    titles = sorted(a.title for a in doc.anchors)
    assert len(titles) == 6, titles
    assert len({a.id for a in doc.anchors}) == 6
    assert not list(tmp_path.glob(".*.tmp"))


def test_byte_order_mark_is_kept(tmp_path):
    path = tmp_path / "anchors.md"
    body = "# Anchors\n\n## Decisions\n\n## [D001] Use Postgres\n\n**Status**: active\n"
    path.write_bytes(b"\xef\xbb\xbf" + body.encode())
    assert run("anchors", "fmt", str(path), cwd=tmp_path).returncode == 0
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and not data.startswith(b"\xef\xbb\xbf" * 2)
    assert "✅" in data.decode("utf-8-sig") and "MACHINE_BLOCK_START" in data.decode("utf-8-sig")
    assert run("anchors", "fmt", "--check", str(path), cwd=tmp_path).returncode == 0
    assert run("anchors", "new", "D", "Cache", "--file", str(path), cwd=tmp_path).returncode == 0
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and data.count(b"\xef\xbb\xbf") == 1
    assert "[D002] Cache" in data.decode("utf-8-sig")


def test_a_new_anchor_passes_fmt_check_as_it_is(tmp_path, monkeypatch, capsys):
    """Issue 27: the template `anchors new` writes is what `anchors fmt` writes (a blank line
    after each heading), so the wukong-anchors-fmt pre-commit hook passes the next commit,
    whether the file is new or has anchors of other types already."""
    monkeypatch.chdir(tmp_path)
    titles = (("zh", "第 {} 个锚点：导出改为后台任务"), ("en", "Export runs as job {}"))
    for folder, title in titles:
        (tmp_path / folder).mkdir()
        path = str(tmp_path / folder / "anchors.md")
        for number, kind in enumerate(("D", "C", "I", "P", "M", "U", "CK", "DN", "D")):
            assert main(["anchors", "new", kind, title.format(number), "--file", path]) == 0
            assert main(["anchors", "fmt", "--check", path]) == 0, (folder, kind)
    capsys.readouterr()


def test_a_conflicting_decision_is_filed_under_decision_not_rollback(tmp_path, capsys):
    """Issue 27: `anchors add` merging a candidate whose decision differs puts the conflict
    note in the anchor's Decision section (and each other fact in its own field), not after
    the last field, Rollback, where it read as the way back."""
    path = tmp_path / "anchors.md"
    first = {"type": "D", "title": "使用 Ollama 作为本地 LLM 后端", "decision": "使用 Ollama",
             "why": "数据不出本地", "rollback": "LLM_BACKEND=openai", "reusable": True}  # fmt: skip
    later = {"type": "D", "title": "使用 Ollama 作为本地 LLM 后端", "decision": "改用 vLLM",
             "impact": "src/llm/", "reusable": True}  # fmt: skip
    for n, candidate in enumerate((first, later)):
        source = tmp_path / f"c{n}.json"
        source.write_text(json.dumps({"candidates": [candidate]}, ensure_ascii=False))
        assert main(["anchors", "add", "--from", str(source), "--file", str(path)]) == 0
    assert "conflict with [D001]" in capsys.readouterr().out
    text = path.read_text(encoding="utf-8")
    note = text.index("**冲突的候选决策**: 改用 vLLM")
    assert text.index("### Decision") < note < text.index("### Alternatives")
    assert text.index("### Impact") < text.index("**补充 影响范围**: src/llm/")
    assert text.index("**补充 影响范围**") < text.index("### Verification")
    assert note < text.index("### Rollback")
    assert main(["anchors", "fmt", "--check", str(path)]) == 0
