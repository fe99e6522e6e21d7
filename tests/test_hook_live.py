"""戒 enforced live (issue 27, hook/live.py): SubagentStop, PreToolUse of Agent/Task, Stop,
UserPromptSubmit and SessionStart, each opt-in with `live:` in the project config. Every
test runs the real hook process (`python -m wukong_lint hook`) in a temporary HOME with
events shaped as Claude Code sends them; the sessions are the versioned fixtures
(tests/fixtures/protocol/versions), cut where the event happens."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

VERSIONS = Path(__file__).parent / "fixtures" / "protocol" / "versions"
FIXTURE_CWD = "/home/dev/shop"
LIVE = "profile: wukong\nlive: {subagent-stop: true, summons: true, stop: true, reminder: true}\n"


def _project(tmp_path: Path, config: str = LIVE, agents: bool = False) -> Path:
    project = tmp_path / "project"
    project.mkdir(parents=True, exist_ok=True)
    (project / ".wukong-lint.yaml").write_text(config, encoding="utf-8")
    if agents:
        target = project / ".claude" / "agents"
        target.mkdir(parents=True, exist_ok=True)
        for source in (VERSIONS / "jie-current" / "agents" / ".claude" / "agents").iterdir():
            (target / source.name).write_text(source.read_text(encoding="utf-8"), "utf-8")
    return project


def _session(project: Path, fixture: str, upto: str | None = None) -> tuple[Path, dict | None]:
    """The fixture as the session transcript of `project` (its x-expect lines dropped), cut
    before the line that calls `upto`; and that call's tool_use block."""
    out, block = [], None
    for line in (VERSIONS / fixture).read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("type") == "x-expect":
            continue
        content = (record.get("message") or {}).get("content")
        if upto and isinstance(content, list):
            calls = [b for b in content if b.get("type") == "tool_use" and b.get("id") == upto]
            if calls:
                block = calls[0]
                break
        out.append(line.replace(FIXTURE_CWD, str(project)))
    path = project.parent / "session.jsonl"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path, block


@pytest.fixture(scope="module")
def home(tmp_path_factory: Any) -> Path:
    """One temporary HOME for the module's hook processes (no user's ~/.claude/agents)."""
    return Path(tmp_path_factory.mktemp("home"))


@pytest.fixture(autouse=True)
def _home(home: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(sys.modules[__name__], "HOME", home)


HOME = Path("/nonexistent")


def _hook(tmp_path: Path, event: dict, *args: str) -> subprocess.CompletedProcess:
    home = HOME
    event = {**event, "session_id": f"{event.get('session_id')}-{tmp_path.name}"}
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "CLAUDE_CONFIG_DIR": str(home / ".claude"),
    }
    # (WUKONG_LINT_CACHE_DIR stays the test session's: its rule cache is built once per worker;
    # the redo counters kept there are apart by each test's own session id)
    env.pop("MEMORY_BANK_GUARD_MODE", None)
    return subprocess.run(
        [sys.executable, "-m", "wukong_lint", "hook", *args], input=json.dumps(event),
        capture_output=True, text=True, env=env, cwd=event.get("cwd") or tmp_path,
        timeout=60, check=False,
    )  # fmt: skip


def _answer(proc: subprocess.CompletedProcess) -> dict[str, Any]:
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout) if proc.stdout.strip() else {}


def _subagent_stop(project: Path, session: Path, agent_type: str, message: str | None,
                   **extra: Any) -> dict:  # fmt: skip
    event = {"session_id": "s-live", "transcript_path": str(session), "cwd": str(project),
             "permission_mode": "default", "hook_event_name": "SubagentStop",
             "stop_hook_active": False, "agent_id": "a1f3", "agent_type": agent_type,
             "agent_transcript_path": str(project.parent / "agent-a1f3.jsonl"),
             **extra}  # fmt: skip
    if message is not None:
        event["last_assistant_message"] = message
    return event


EAR_NO_QUESTIONS = '{"goal": "按标签检索", "AC": ["?tag=a"], "constraints": ["只读"]}'
EAR_FULL = ('{"goal": "按标签检索", "AC": ["?tag=a 返回带该标签的笔记"], "constraints": ["只读"], '
            '"questions": ["标签区分大小写吗？"]}')  # fmt: skip


def test_subagent_stop_sends_an_output_back_at_most_redo_limit_times(tmp_path: Path) -> None:
    project = _project(tmp_path)
    session, _ = _session(project, "jie-2026-01/bare/contract-bad-ear-no-questions.jsonl")
    event = _subagent_stop(project, session, "ear", EAR_NO_QUESTIONS)
    for round_ in (1, 2):
        answer = _answer(_hook(tmp_path, {**event, "stop_hook_active": round_ > 1}))
        assert answer["decision"] == "block", answer
        assert "avatar-boundary.contract-missing" in answer["reason"]
        assert "questions" in answer["reason"] and f"redo {round_} of 2" in answer["reason"]
    answer = _answer(_hook(tmp_path, {**event, "stop_hook_active": True}))
    assert "decision" not in answer  # let go, never a loop
    assert "let go after 2 redo(s)" in answer["systemMessage"]
    # another avatar of the same session has its own count
    other = _answer(_hook(tmp_path, {**event, "agent_id": "b7c9"}))
    assert other["decision"] == "block"


def test_subagent_stop_lets_a_complete_output_go(tmp_path: Path) -> None:
    project = _project(tmp_path)
    session, _ = _session(project, "jie-2026-01/bare/contract-bad-ear-no-questions.jsonl")
    assert _answer(_hook(tmp_path, _subagent_stop(project, session, "ear", EAR_FULL))) == {}
    # an agent outside the protocol has no contract to hold it to
    other = _subagent_stop(project, session, "statusline-setup", "done")
    assert _answer(_hook(tmp_path, other)) == {}


def test_subagent_stop_evidence_gate_and_the_agent_transcript(tmp_path: Path) -> None:
    project = _project(tmp_path)
    session, _ = _session(project, "jie-2026-01/bare/contract-bad-ear-no-questions.jsonl")
    guess = ("**files**: src/auth/login.py\n**findings**: 登录逻辑应该没事，我觉得会话也没有问题\n"
             "**summary**: 大概能用")  # fmt: skip
    # no last_assistant_message (older Claude Code): the agent's own transcript is read
    text = [{"type": "text", "text": guess}]
    record = {"type": "assistant", "isSidechain": True, "agentId": "a1f3",
              "message": {"role": "assistant", "content": text}}  # fmt: skip
    (project.parent / "agent-a1f3.jsonl").write_text(json.dumps(record, ensure_ascii=False)
                                                     + "\n", encoding="utf-8")  # fmt: skip
    answer = _answer(_hook(tmp_path, _subagent_stop(project, session, "eye", None)))
    assert answer["decision"] == "block"
    assert "avatar-boundary.evidence-speculation" in answer["reason"]


def test_subagent_stop_is_off_unless_the_config_turns_it_on(tmp_path: Path) -> None:
    project = _project(tmp_path, "profile: wukong\n")
    session, _ = _session(project, "jie-2026-01/bare/contract-bad-ear-no-questions.jsonl")
    proc = _hook(tmp_path, _subagent_stop(project, session, "ear", EAR_NO_QUESTIONS))
    assert proc.returncode == 0 and proc.stdout == "" and proc.stderr == ""
    # nor without the wukong profile
    project = _project(tmp_path, "live: {subagent-stop: true}\n")
    proc = _hook(tmp_path, _subagent_stop(project, session, "ear", EAR_NO_QUESTIONS))
    assert proc.returncode == 0 and proc.stdout == ""


def test_subagent_stop_follows_the_version_of_the_agent_definitions(tmp_path: Path) -> None:
    # jie-current: ear's questions are optional (必填 否) in the upstream definition
    project = _project(tmp_path, agents=True)
    session, _ = _session(project, "jie-current/agents/contract-ok-ear-no-questions.jsonl")
    assert _answer(_hook(tmp_path, _subagent_stop(project, session, "ear", EAR_NO_QUESTIONS))) == {}


def _pre_tool_use(project: Path, session: Path, block: dict) -> dict:
    return {"session_id": "s-live", "transcript_path": str(session), "cwd": str(project),
            "permission_mode": "default", "hook_event_name": "PreToolUse",
            "tool_name": block["name"], "tool_input": block["input"],
            "tool_use_id": block["id"]}  # fmt: skip


def _permission(answer: dict) -> tuple[str, str]:
    out = answer.get("hookSpecificOutput") or {}
    return out.get("permissionDecision", "allow"), out.get("permissionDecisionReason", "")


@pytest.mark.parametrize(
    ("fixture", "call", "decision", "rule"),
    [
        ("jie-2026-01/bare/checkpoint-ok-q1-eye-general.jsonl", "toolu_001", "allow", None),
        ("jie-2026-01/bare/background-bad-eye-foreground.jsonl", "toolu_001", "ask",
         "avatar-boundary.background-required"),
        ("jie-2026-01/bare/summon-bad-no-declaration.jsonl", "toolu_001", "ask",
         "body-boundary.summon-declaration"),
        ("jie-2026-01/bare/concurrency-bad-two-body.jsonl", "toolu_002", "deny",
         "avatar-boundary.max-one"),
    ],
)  # fmt: skip
def test_a_summons_is_judged_with_its_turn(tmp_path: Path, fixture: str, call: str,
                                           decision: str, rule: str | None) -> None:  # fmt: skip
    project = _project(tmp_path)
    upto = "toolu_002" if call == "toolu_002" else call
    session, block = _session(project, fixture, upto)
    assert block is not None
    got, reason = _permission(_answer(_hook(tmp_path, _pre_tool_use(project, session, block))))
    assert got == decision, reason
    if rule:
        assert rule in reason


def test_a_summons_already_in_the_transcript_is_judged_once(tmp_path: Path) -> None:
    # Claude Code may have written the assistant record before PreToolUse: the call is not
    # added again (a second body would be another max-one finding)
    project = _project(tmp_path)
    fixture = "jie-2026-01/bare/concurrency-bad-two-body.jsonl"
    session, _ = _session(project, fixture, "toolu_003")  # (no such call: the whole file)
    lines = session.read_text(encoding="utf-8").splitlines()
    session.write_text("\n".join(lines[:3]) + "\n", encoding="utf-8")  # up to the 2nd call
    first = json.loads(lines[2])["message"]["content"][0]
    got, _ = _permission(_answer(_hook(tmp_path, _pre_tool_use(project, session, first))))
    assert got == "allow"


def test_a_summons_by_an_avatar_is_judged_on_the_call_alone(tmp_path: Path) -> None:
    project = _project(tmp_path)
    session, block = _session(project, "jie-2026-01/bare/summon-bad-no-declaration.jsonl",
                              "toolu_001")  # fmt: skip
    assert block is not None
    event = {**_pre_tool_use(project, session, block), "agent_id": "a1f3", "agent_type": "eye"}
    got, reason = _permission(_answer(_hook(tmp_path, event)))
    assert got == "deny" and "avatar-boundary.nested-spawn" in reason
    assert "summon-declaration" not in reason


def _stop(project: Path, session: Path, active: bool = False) -> dict:
    return {"session_id": "s-live", "transcript_path": str(session), "cwd": str(project),
            "permission_mode": "default", "hook_event_name": "Stop",
            "stop_hook_active": active}  # fmt: skip


def test_stop_reports_the_turn_and_blocks_an_output_to_redo_once(tmp_path: Path) -> None:
    project = _project(tmp_path)
    session, _ = _session(project, "jie-2026-01/bare/contract-bad-ear-no-questions.jsonl")
    answer = _answer(_hook(tmp_path, _stop(project, session)))
    assert answer["decision"] == "block"
    assert "avatar-boundary.contract-missing" in answer["reason"]
    assert answer["systemMessage"].startswith("## 戒关检查")
    assert "❌" in answer["systemMessage"]
    # the agent goes on; nothing new came: the finding was answered, the turn may end
    again = _answer(_hook(tmp_path, _stop(project, session, active=True)))
    assert "decision" not in again and "戒关检查" in again["systemMessage"]


def test_stop_of_a_compliant_turn_is_a_short_pass(tmp_path: Path) -> None:
    project = _project(tmp_path, LIVE + "fail-on: high\n")
    session, _ = _session(project, "jie-2026-01/bare/checkpoint-ok-q1-eye-general.jsonl")
    answer = _answer(_hook(tmp_path, _stop(project, session)))
    assert "decision" not in answer
    assert "✅" in answer["systemMessage"] and len(answer["systemMessage"].splitlines()) <= 3


def test_reminders_name_the_checkpoint_form_of_the_version(tmp_path: Path) -> None:
    project = _project(tmp_path, agents=True)  # upstream's current definitions
    start = {"session_id": "s-live", "transcript_path": str(tmp_path / "none.jsonl"),
             "cwd": str(project), "hook_event_name": "SessionStart",
             "source": "startup"}  # fmt: skip
    context = _answer(_hook(tmp_path, start))["hookSpecificOutput"]
    assert context["hookEventName"] == "SessionStart"
    assert "jie-current" in context["additionalContext"] and "是/否" in context["additionalContext"]
    assert len(context["additionalContext"]) < 400
    prompt = {**start, "hook_event_name": "UserPromptSubmit", "prompt": "修一下登录"}
    answer = _answer(_hook(tmp_path, prompt))["hookSpecificOutput"]
    assert answer["hookEventName"] == "UserPromptSubmit"
    assert answer["additionalContext"] == context["additionalContext"]
    # the seed's version: Q0 and a decision line
    project = _project(tmp_path / "seed", LIVE + "protocol-version: jie-2026-01\n")
    answer = _answer(_hook(tmp_path, {**prompt, "cwd": str(project)}))["hookSpecificOutput"]
    assert "Q0" in answer["additionalContext"] and "决策" in answer["additionalContext"]


def test_a_prompt_with_a_secret_is_blocked_without_a_reminder(tmp_path: Path) -> None:
    project = _project(tmp_path)
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    prompt = {"session_id": "s-live", "transcript_path": str(tmp_path / "none.jsonl"),
              "cwd": str(project), "hook_event_name": "UserPromptSubmit",
              "prompt": f"use {token}"}  # fmt: skip
    answer = _answer(_hook(tmp_path, prompt))
    assert answer["decision"] == "block" and "hookSpecificOutput" not in answer
