"""The 戒 protocol versions as data (issue 27): the version files validate and are no rule
files, a broken one is named, agent definitions are read in both upstream layouts (the
contract's table after a fenced template holding `## Summary`), the version a session shows
is detected, the setting is checked, and the live hook's CHECKPOINT layer reads the current
core rule's form as complete."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from wukong_lint.cli import main
from wukong_lint.engine import data_docs
from wukong_lint.protocol import detect
from wukong_lint.protocol.agent_defs import load_definitions, parse_definition
from wukong_lint.protocol.checkpoint import parse_checkpoint
from wukong_lint.protocol.versions import get, versions
from wukong_lint.util.errors import RuleError

ROOT = Path(__file__).resolve().parent.parent
VERSIONS = ROOT / "tests" / "fixtures" / "protocol" / "versions"
CORE = (
    "**CHECKPOINT**\nQ1. 探索/研究？  是\nQ2. 代码 >10行？ 否\nQ3. 设计/架构？  否\n"
    "Q4. 多文件并行？ 否"
)
SEED = (
    "📋 TASK CHECKPOINT\nQ0. Skill 匹配？ 否\nQ1. 探索/研究？ 否\nQ2. 代码修改？ 是 预估 1 行\n"
    "Q3. 设计/架构？ 否\nQ4. 独立文件数？ 1 个\n⚡ 决策: 本体执行"
)


def test_the_versions_load_and_differ_where_upstream_did() -> None:
    known = versions()
    assert {"jie-2026-01", "jie-current"} <= set(known)
    seeds, now = get("jie-2026-01"), get("jie-current")
    assert seeds.avatars["nose"].allowed == ("Read", "Grep")
    assert "Glob" in now.avatars["nose"].allowed and "WebFetch" in now.avatars["eye"].allowed
    assert "questions" in seeds.avatars["ear"].required
    assert (
        "questions" not in now.avatars["ear"].required
        and "docs" not in now.avatars["tongue"].required
    )
    assert "evidence" in now.avatars["mind"].required
    assert seeds.planner is None and now.planner is not None and "planner" in now.avatars
    assert (
        seeds.memory_bank["writer"] == "memory-bank-writer" and now.memory_bank["writer"] == "main"
    )
    assert now.memory_bank["gate_files"] == ["memory-bank/details/patterns.md"]
    assert (
        seeds.memory_bank["guard_mode"]["default"]
        == now.memory_bank["guard_mode"]["default"]
        == "warn"
    )
    assert now.role_of("@眼") == now.role_of("Explorer") == "eye"


def test_version_files_are_no_rule_files() -> None:
    from wukong_lint.engine.loader import load_rules

    rules = load_rules()
    assert not [r for r in rules.rules if "protocol/" in r.source_file.replace("\\", "/")
                and r.source_file.endswith(("jie-current.yaml", "jie-2026-01.yaml"))]  # fmt: skip


def test_a_broken_version_file_is_named(tmp_path: Path, monkeypatch) -> None:
    from wukong_lint.engine import loader

    rules = tmp_path / "rules"
    (rules / "protocol").mkdir(parents=True)
    text = (ROOT / "rules" / "protocol" / "jie-current.yaml").read_text(encoding="utf-8")
    (rules / "protocol" / "jie-next.yaml").write_text(
        text.replace("protocol-version: jie-current", "protocol-version: jie-next").replace(
            "level-gate: true", "level-gate: true\n  levle-gate: true"
        ),
        encoding="utf-8",
    )
    monkeypatch.setattr(loader, "builtin_rules_dir", lambda: str(rules))
    monkeypatch.setattr(data_docs, "_LOADED", {})
    monkeypatch.setenv("WUKONG_LINT_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(RuleError, match=r"jie-next\.yaml: protocol-version evidence\.levle-gate"):
        data_docs.documents("protocol-version")


def test_a_new_version_is_a_data_file(tmp_path: Path, monkeypatch) -> None:
    """A copy of a version under another name is a third version, with no code change."""
    from wukong_lint.engine import loader
    from wukong_lint.protocol import versions as module

    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules" / "protocol", rules / "protocol")
    text = (rules / "protocol" / "jie-current.yaml").read_text(encoding="utf-8")
    (rules / "protocol" / "jie-next.yaml").write_text(
        text.replace("protocol-version: jie-current", "protocol-version: jie-next"),
        encoding="utf-8",
    )
    monkeypatch.setattr(loader, "builtin_rules_dir", lambda: str(rules))
    monkeypatch.setattr(data_docs, "_LOADED", {})
    monkeypatch.setattr(module, "_VERSIONS", {})
    monkeypatch.setenv("WUKONG_LINT_CACHE_DIR", str(tmp_path / "cache"))
    assert set(module.versions()) == {"jie-2026-01", "jie-current", "jie-next"}
    assert module.check_setting("jie-next") == "jie-next"
    # read back from the cache the first load wrote (no validation)
    monkeypatch.setattr(data_docs, "_LOADED", {})
    assert "jie-next" in data_docs.documents("protocol-version")


UPSTREAM_LAYOUT = """---
name: tongue
description: |
  舌分身: tests and docs.
tools: Read, Write, Bash, Glob
disallowedTools: Edit, Agent
model: sonnet
---

# 舌分身

## 身份标识

```yaml
identity: 舌分身
max_concurrent: 2-3
background: 可选
```

## 输出格式 (Output Contract)

```markdown
## Summary
(one line)

## Tests Created
- `tests/test_x.py`
```

**Contract 字段说明**：

| 字段 | 类型 | 必填 | 说明 |
|------|------|------|------|
| tests | string[] | 是 | test files |
| docs | string[] | 否 | documents |
| results | object | 是 | passed, failed, skipped |

## Do (必须做)

- write tests
"""

TWO_ZERO_LAYOUT = """---
name: eye
allowed_tools:
  - Read
  - Glob
disallowed_tools:
  - Write
  - Task
background: required
---

## 输出格式 (Output Contract)

```yaml
output_contract:
  files: list
  findings: list
  summary: string
```
"""


def test_definitions_in_both_upstream_layouts() -> None:
    tongue = parse_definition(UPSTREAM_LAYOUT, "tongue.md")
    assert tongue is not None
    # the table after the fenced template: its `## Summary` does not end the section
    assert tongue.contract == (("tests", True), ("docs", False), ("results", True))
    assert tongue.tools == ("Read", "Write", "Bash", "Glob")
    assert tongue.disallowed == ("Edit", "Agent")
    assert (tongue.max, tongue.background, tongue.background_rule) == (3, False, "optional")
    eye = parse_definition(TWO_ZERO_LAYOUT, "eye.md")
    assert eye is not None
    assert eye.tools == ("Read", "Glob") and eye.disallowed == ("Write", "Task")
    assert eye.background and eye.background_rule == "required"
    assert eye.contract == (("files", True), ("findings", True), ("summary", True))
    template_only = UPSTREAM_LAYOUT.split("**Contract 字段说明**")[0]
    found = parse_definition(template_only, "tongue.md")
    assert found is not None and found.contract == (("summary", True), ("tests created", True))


def test_the_upstream_definitions_read_as_current() -> None:
    definitions = load_definitions(str(VERSIONS / "jie-current" / "agents" / ".claude" / "agents"))
    assert set(definitions) == {"eye", "ear", "nose", "tongue", "body", "mind", "planner"}
    assert definitions["mind"].contract[-2:] == (("evidence", True), ("assumptions", False))
    assert definitions["eye"].background and definitions["body"].background_rule == "forbidden"
    assert detect.from_definitions(definitions) == "jie-current"


def test_what_a_checkpoint_and_a_spawn_say() -> None:
    core, seed = parse_checkpoint(CORE), parse_checkpoint(SEED)
    assert core is not None and seed is not None
    assert detect.from_checkpoint(core.features()) == "jie-current"
    assert detect.from_checkpoint(seed.features()) == "jie-2026-01"
    assert core.missing() == () and core.decision is None and core.parallel is False
    # the core rule's Q4 answered 是 is an answer (parallel), not a missing question
    both = parse_checkpoint(CORE.replace("多文件并行？ 否", "多文件并行？ 是"))
    assert both is not None and both.missing() == () and both.parallel is True
    assert detect.from_spawn("Task", "general-purpose") == "jie-2026-01"
    assert detect.from_spawn("Agent", "eye") == "jie-current"
    assert detect.from_spawn("Agent", "眼") is None  # (an alias: no sign either way)


def test_an_unknown_version_is_a_usage_error(tmp_path: Path, capsys, monkeypatch) -> None:
    session = tmp_path / "s.jsonl"
    session.write_text(json.dumps({"type": "user", "message": {"role": "user", "content": "hi"}}))
    code = main(["check", "--profile", "wukong", "--protocol-version", "jie-curent", str(session)])
    assert code == 2
    assert "did you mean jie-current" in capsys.readouterr().err
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".wukong-lint.yaml").write_text("protocol-version: jie-current\n")
    assert main(["config", "show"]) == 0
    assert "protocol-version: jie-current" in capsys.readouterr().out
    (tmp_path / ".wukong-lint.yaml").write_text("protocol-version: Jie Current\n")
    assert main(["check", str(session)]) == 2


def test_user_level_definitions_are_read_and_the_project_wins(tmp_path: Path, monkeypatch) -> None:
    from wukong_lint.sources.transcripts import configure, make_context

    home = tmp_path / "claude"
    shutil.copytree(VERSIONS / "jie-current" / "agents" / ".claude" / "agents", home / "agents")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home))
    project = tmp_path / "project"
    (project / ".claude" / "agents").mkdir(parents=True)
    (project / ".claude" / "agents" / "nose.md").write_text(
        "---\nname: nose\ntools: Read\n---\n# our own nose\n", encoding="utf-8"
    )
    monkeypatch.chdir(project)
    configure("wukong")
    ctx = make_context(str(project / "s.jsonl"))
    assert ctx.version == "jie-current" and ctx.version_strength == detect.DEFINITIONS
    assert ctx.agent_defs["eye"][0] == ("Read", "Glob", "Grep", "WebSearch", "WebFetch")
    assert ctx.agent_defs["nose"] == (("Read",), ())  # the project's own, by name
    configure("wukong", protocol_version="jie-2026-01")
    ctx = make_context(str(project / "s.jsonl"))
    assert ctx.version == "jie-2026-01" and ctx.version_strength == detect.CONFIGURED
    configure()


def test_the_live_hook_reads_the_core_checkpoint_as_complete(tmp_path: Path) -> None:
    """Layer 1 in the hook (`--checkpoint`) for both versions: the current core rule's four
    answered questions let the call through; without them it is denied."""
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)

    def record(role: str, content: object) -> dict:
        return {"type": role, "message": {"role": role, "content": content}}

    for text, verdict in ((CORE.replace("是", "否"), "allow"), (SEED, "allow"), ("好的。", "deny")):
        transcript = tmp_path / "session.jsonl"
        records = [record("user", "README 里把 instal 改成 install"),
                   record("assistant", [{"type": "text", "text": text}])]  # fmt: skip
        transcript.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
        event = {"session_id": "s1", "transcript_path": str(transcript), "cwd": str(project),
                 "hook_event_name": "PreToolUse", "tool_name": "Edit", "tool_use_id": "t9",
                 "tool_input": {"file_path": str(project / "README.md"), "old_string": "instal",
                                "new_string": "install"}}  # fmt: skip
        proc = subprocess.run(
            [sys.executable, "-m", "wukong_lint", "hook", "--profile", "wukong", "--checkpoint",
             "--mode", "json"],
            input=json.dumps(event).encode(), capture_output=True, timeout=60, check=False,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        got = json.loads(proc.stdout)["hookSpecificOutput"]["permissionDecision"] if (
            proc.stdout.strip()) else "allow"  # fmt: skip
        assert got == verdict, (text, proc.stdout)


def test_the_new_parsers_stay_linear_on_hostile_lines() -> None:
    """Transcripts and definitions are untrusted: long lines of the characters the new
    patterns' quantifiers take (spaces, stars, hashes) must not make them backtrack."""
    import time

    from wukong_lint.protocol import evidence, summoning

    hostile = ["*" * 100_000, " " * 100_000 + "x", "# x" + " " * 100_000 + "y",
               "- **" + " *" * 50_000 + "x", "#" * 6 + " " + "#" * 100_000 + " x"]  # fmt: skip
    start = time.perf_counter()
    declaration = get("jie-current").summoning["declaration"]
    sections = get("jie-current").summoning["prompt"]["sections"]
    for text in hostile:
        assert evidence._STATED.search(text) is None
        summoning.headings(text)
        summoning.missing_sections(text, sections)
        assert summoning.declared([text], declaration)[0] == frozenset()
        parse_definition("---\nname: x\n---\n" + text + "\n## Output Contract\n" + text, "x.md")
        evidence.plan_problems(text, get("jie-current").planner)
    assert time.perf_counter() - start < 5
