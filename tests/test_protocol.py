"""The 戒 protocol's pieces on their own: the CHECKPOINT parser and the 戒关检查 report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from wukong_lint.cli import main
from wukong_lint.model import Finding, Report, ScanError, Severity, Stats
from wukong_lint.protocol.checkpoint import parse_checkpoint
from wukong_lint.report import jie

FIXTURES = Path(__file__).parent / "fixtures" / "protocol"


def test_checkpoint_full_chinese_form() -> None:
    point = parse_checkpoint(
        "📋 TASK CHECKPOINT\nQ0. Skill 匹配？     否\nQ1. 探索/研究？      是 → 是则 @眼\n"
        "Q2. 代码修改？       是 预估 25 行 → >10行则 @身\nQ3. 设计/架构？      否\n"
        "Q4. 独立文件数？     3 个 → ≥2则并行\n⚡ 决策: 召唤分身: @眼 + @身\n📝 理由: 先探索"
    )
    assert point is not None
    assert (point.skill, point.explore, point.code, point.lines) == (False, True, True, 25)
    assert (point.design, point.files, point.decision) == (False, 3, "delegate")
    assert point.avatars == ("eye", "body") and point.missing() == ()


def test_checkpoint_light_english_form() -> None:
    point = parse_checkpoint(
        "CHECKPOINT\n- Q1. Explore/research? no\n- Q2. Code change? yes, about 4 lines\n"
        "- Q3. Design? no\n- Q4. Independent files? 1\n- **Decision**: body executes it"
    )
    assert point is not None and point.skill is None and point.missing() == ()
    assert (point.lines, point.files, point.decision) == (4, 1, "self")


def test_decision_naming_the_body_in_english() -> None:
    """ "body" is both the English word for 本体 and 身's subagent type: a self phrase wins over
    a bare avatar name, a delegation verb or an @ over a self phrase."""

    def decision(line: str) -> tuple[str | None, tuple[str, ...]]:
        point = parse_checkpoint(f"CHECKPOINT\n- Q1 Explore? no\n- Q2 Code? no\n{line}")
        assert point is not None
        return point.decision, point.avatars

    assert decision("- Decision: execute directly (body)") == ("self", ())
    assert decision("- Decision: 本体执行 (body)") == ("self", ())
    assert decision("- Decision: body") == ("delegate", ("body",))
    assert decision("- Decision: delegate to body") == ("delegate", ("body",))
    assert decision("- Decision: do it myself, then delegate tests to @tongue") == (
        "delegate",
        ("tongue",),
    )


def test_checkpoint_template_slots_are_not_answers() -> None:
    point = parse_checkpoint(
        "📋 TASK CHECKPOINT\nQ1. 探索/研究？      [是/否] → 是则 @眼\n"
        "Q2. 代码修改？       [是/否] 预估 __ 行\nQ3. 设计/架构？      [是/否]\n"
        "Q4. 独立文件数？     __ 个\n⚡ 决策: [本体执行 / 召唤分身: ___]"
    )
    assert point is not None
    assert point.missing() == ("Q1", "Q2", "Q3", "Q4") and point.decision is None


def test_no_checkpoint_in_prose() -> None:
    assert parse_checkpoint("Let me read the file and fix the typo.") is None
    assert parse_checkpoint("Q1 revenue grew; see the report.") is None


def _finding(rule: str, category: str, severity: Severity) -> Finding:
    return Finding(rule, category, severity, f"{rule} message", "s.jsonl", 3, 1, 3, "", "fp")


def test_jie_status_follows_the_verdicts() -> None:
    clean = Report((), Stats())
    assert "**状态**: ✅ 通过" in jie.render(clean)
    medium = Report((_finding("avatar-boundary.background-required", "avatar-boundary",
                              Severity.MEDIUM),), Stats())  # fmt: skip
    text = jie.render(medium)
    assert "**状态**: ⚠️ 需确认" in text and "- [ ] 未越界" in text and "- [x] 无危险命令" in text
    sudo = _finding("dangerous-command.sudo", "dangerous-command", Severity.HIGH)
    high = Report((sudo,), Stats())
    assert "❌ 拒绝" in jie.render(high)
    assert "⚠️ 需确认" in jie.render(high, fail_on="critical")  # below the deny line: ask
    english = jie.render(high, lang="en")
    assert "**Status**: ❌ Denied" in english and "| Issue | Severity | Action |" in english
    assert "- [ ] no dangerous commands" in english


def test_jie_is_never_a_pass_when_an_input_was_not_scanned() -> None:
    report = Report((), Stats(), (ScanError("big.jsonl", "cannot read: Permission denied"),))
    text = jie.render(report)
    assert "⚠️ 需确认" in text and "未能扫描" in text


def test_jie_from_a_json_report(tmp_path: Path, capsys) -> None:
    session = FIXTURES / "spawns.jsonl"
    report_json = tmp_path / "r.json"
    assert main(["check", "--profile", "wukong", "--format", "json", "-o", str(report_json),
                 str(session)]) == 1  # fmt: skip
    direct = tmp_path / "jie.md"
    assert main(["check", "--profile", "wukong", "--format", "jie", "--lang", "en", "-o",
                 str(direct), str(session)]) == 1  # fmt: skip
    capsys.readouterr()
    again = tmp_path / "again.md"
    assert jie.main([str(report_json), "--lang", "en", "-o", str(again)]) == 0
    assert again.read_text(encoding="utf-8") == direct.read_text(encoding="utf-8")
    assert "avatar-boundary.max-one" in again.read_text(encoding="utf-8")
    broken = tmp_path / "broken.json"
    broken.write_text("[1, 2", encoding="utf-8")
    assert jie.main([str(broken)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_context_category_in_the_json_contract(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    assert main(["check", "--profile", "wukong", "--format", "json", "-o", str(out),
                 str(FIXTURES / "context.jsonl")]) in (0, 1)  # fmt: skip
    categories = {f["category"] for f in json.loads(out.read_text())["findings"]}
    assert "context" in categories


def test_agent_definitions_declare_their_own_contract(tmp_path: Path, monkeypatch) -> None:
    """A contract in `.claude/agents/*.md` (a YAML block under `## Output Contract`, or
    `name:` bullets) replaces seed 004's for that agent, also for agents outside the six."""
    agents = tmp_path / ".claude" / "agents"
    agents.mkdir(parents=True)
    (agents / "eye.md").write_text(
        "---\nname: eye\ntools: Glob, Grep, Read\n---\n## Output Contract\n\n```yaml\n"
        "output_contract:\n  files: paths\n  answer: one paragraph\n```\n## Rules\n- read only\n",
        encoding="utf-8",
    )
    (agents / "scout.md").write_text(
        "---\nname: scout\n---\n## 输出契约\n- `report`: what was found\n- confidence: high\n",
        encoding="utf-8",
    )

    def spawn(call: str, kind: str, output: str) -> list[str]:
        use = {"type": "tool_use", "id": call, "name": "Agent",
               "input": {"prompt": f"go {call}", "subagent_type": kind}}  # fmt: skip
        done = {"type": "tool_result", "tool_use_id": call, "content": output}
        return [
            json.dumps({"type": "assistant", "message": {"role": "assistant", "content": [use]}}),
            json.dumps({"type": "user", "message": {"role": "user", "content": [done]}}),
        ]

    session = tmp_path / "s.jsonl"
    lines = spawn("a", "eye", "## Files\n- a.py\n## Answer\nin a.py")
    lines += spawn("b", "eye", "## Files\n- a.py\n## Findings\n- a.py:1\n## Summary\nok")
    lines += spawn("c", "scout", "report: found\nconfidence: high")
    lines += spawn("d", "scout", "found it")
    session.write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "r.json"
    main(["check", "--profile", "wukong", "--select", "avatar-boundary.contract-missing",
          "--format", "json", "-o", str(out), str(session)])  # fmt: skip
    found = {
        (f["line"], f["message"].rsplit("(", 1)[1]) for f in json.loads(out.read_text())["findings"]
    }
    assert found == {
        (4, "眼 eye output lacks answer: send it back to redo)"),
        (8, "scout output lacks report, confidence: send it back to redo)"),
    }


def _hook_event(cwd: Path, tool: str, data: dict) -> subprocess.CompletedProcess[str]:
    event = {"session_id": "s1", "cwd": str(cwd), "hook_event_name": "PreToolUse",
             "tool_name": tool, "tool_input": data}  # fmt: skip
    return subprocess.run(
        [sys.executable, "-m", "wukong_lint", "hook", "--profile", "wukong", "--mode", "exit"],
        input=json.dumps(event), capture_output=True, text=True, check=False, cwd=cwd,
    )  # fmt: skip


def test_live_hook_blocks_shell_created_files_only_when_new(tmp_path: Path) -> None:
    """The hook runs before the command: a file that exists on disk is not being created,
    and the block names the avatar to hand the work to."""
    (tmp_path / "build.log").write_text("old\n", encoding="utf-8")
    appended = _hook_event(tmp_path, "Bash", {"command": "echo done >> build.log"})
    assert appended.returncode == 0, appended.stderr
    created = _hook_event(tmp_path, "Bash", {"command": "cat > notes.md <<'EOF'\nhi\nEOF"})
    assert created.returncode == 2
    assert "body-boundary.shell-create" in created.stderr and "@身" in created.stderr
    nested = _hook_event(tmp_path, "Agent", {"prompt": "go", "subagent_type": "body",
                                              "run_in_background": True})  # fmt: skip
    assert nested.returncode == 2 and "background-forbidden" in nested.stderr


def test_protocol_parsers_stay_linear_on_hostile_lines() -> None:
    """Transcripts are untrusted: lines of 100,000 stars, spaces or brackets must not make
    the CHECKPOINT or contract parsers backtrack (quadratic here would take minutes)."""
    from wukong_lint.protocol.contracts import CONTRACTS, is_placeholder, sections

    hostile = (
        "*" * 100_000,
        " " * 50_000 + "decision" + " " * 50_000 + "x",
        "files" + " " * 100_000 + "x",
        "[" + " a" * 50_000,
        "** \t" * 25_000 + "Q",
    )
    for text in hostile:
        assert parse_checkpoint(text) is None
        assert all(v is None for v in sections(text, CONTRACTS["eye"]).values())
        assert not is_placeholder(text[1:] + "x")


def test_decision_label_after_an_emoji_or_arrow() -> None:
    """Teams put an emoji or an arrow before the bold decision label (found by the held-out
    corpus, bench/protocol_heldout.py: 30 of its compliant sessions read as undecided)."""
    lines = (
        "👉 **决策**：召唤 @鼻 审查（后台）",
        "→ **Decision:** delegate to @eye",
        "🎯 决策: @眼",
    )
    for line in lines:
        point = parse_checkpoint(f"🧭 **CHECKPOINT**\n- **Q1 探索/研究**: ✅ 是\n\n{line}")
        assert point is not None and point.decision == "delegate", line
    point = parse_checkpoint("CHECKPOINT\n- Q1: no\n\n✅ **决策**：本体执行")
    assert point is not None and point.decision == "self"
    # a word before the label is prose, not the decision line
    point = parse_checkpoint("CHECKPOINT\nQ1: no\nThe decision: maybe later")
    assert point is not None and point.decision is None


def test_contract_sections_hold_their_sub_headings() -> None:
    """The upstream agents' output layout: `## Issues` then `### HIGH` then items, `## Design`
    then `### 架构概述`, `## Decisions` then an intro label and `### Decision 1`; tongue's
    `## Tests Created` / `## Docs Created`. None of it is a missing or placeholder section;
    an empty section still is (found by the held-out corpus, bench/protocol_heldout.py)."""
    from wukong_lint.protocol.contracts import CONTRACTS, is_placeholder, sections

    nose = (
        "## Summary\n一处中等问题\n\n## Issues\n### MEDIUM\n1. **[M001]** 缺少长度校验\n"
        "   - Location: `src/api.py:40`\n\n## Recommendation\n加长度校验"
    )
    found = sections(nose, CONTRACTS["nose"])
    assert found["issues"] is not None and "M001" in found["issues"]
    assert not any(is_placeholder(c) for c in found.values() if c is not None)
    mind = (
        "## Design\n### 架构概述\nOutbox + relay.\n\n## Decisions\n决策列表：\n\n"
        "### Decision 1: outbox\n- **决策**: outbox 表\n\n## Tradeoffs\n- 多一张表"
    )
    found = sections(mind, CONTRACTS["mind"])
    assert "Outbox" in (found["design"] or "") and "outbox 表" in (found["decisions"] or "")
    tongue = (
        "## Summary\n补了 3 个测试\n\n## Tests Created\n1. `tests/test_p.py`\n\n"
        "## Test Results\n3 passed\n\n## Docs Created\n- 无（本次不涉及文档）"
    )
    found = sections(tongue, CONTRACTS["tongue"])
    assert all(found[k] for k in ("tests", "docs", "results")), found
    empty = "## Summary\nok\n\n## Issues\n\n## Recommendation\nfix it"
    found = sections(empty, CONTRACTS["nose"])
    assert found["issues"] is not None and is_placeholder(found["issues"])


def test_checkpoint_wording_classes_found_after_the_held_out_run() -> None:
    """Probes after the held-out corpus's first run: a question whose wording holds a number
    and ends with a colon, not a ？ ("Q2 (Code >10 lines): No, ~3 lines": the 10 is the
    question's); the decision as a table row or under its own heading."""
    point = parse_checkpoint(
        "CHECKPOINT\nQ1 (Explore/research): No\nQ2 (Code >10 lines): Yes, ~40 lines\n"
        "Q3 (Design): No\nQ4 (Independent files): 1\nDecision: body executes"
    )
    assert point is not None and (point.code, point.lines, point.decision) == (True, 40, "self")
    point = parse_checkpoint("CHECKPOINT\nQ2 代码 >10行：否（约 3 行）\nQ4: 2 (files: a.py, b.py)")
    assert point is not None and (point.lines, point.files) == (3, 2)
    table = "| Q | 回答 |\n|---|---|\n| Q1 探索 | 是 |\n| Q2 代码 | 否 |\n| **决策** | 召唤 @眼 |"
    point = parse_checkpoint(table)
    assert point is not None and point.decision == "delegate"
    point = parse_checkpoint("## CHECKPOINT\n- Q1: yes\n- Q2: no\n\n### Decision\nDelegate to @eye")
    assert point is not None and point.decision == "delegate" and point.avatars == ("eye",)
    past = "| 决策 | 日期 | 原因 |\n|---|---|---|\n| 整数分 | 2026-11-24 | 精度 |\n"
    point = parse_checkpoint(past + "CHECKPOINT\nQ1: no\nQ2: no\n决策：召唤 @耳")
    assert point is not None and point.decision == "delegate"
    point = parse_checkpoint("CHECKPOINT\nQ1: no\nQ2: no\n\nThe decision\nis hard")
    assert point is not None and point.decision is None


def test_contract_json_keys_in_any_spelling() -> None:
    """JSON contracts written camelCase or with spaces/hyphens name the same sections
    (filesChanged = files_changed); a key that is absent stays absent."""
    from wukong_lint.protocol.contracts import CONTRACTS, sections

    out = json.dumps({"filesChanged": ["src/a.py"], "summary": "guard", "testsRun": True})
    assert sections(out, CONTRACTS["body"]) == {
        "files_changed": '["src/a.py"]',
        "summary": "guard",
        "tests_run": "true",
    }
    out = json.dumps({"Files-Changed": ["src/a.py"], "Summary": "guard"})
    found = sections(out, CONTRACTS["body"])
    assert found["files_changed"] == '["src/a.py"]' and found["tests_run"] is None
