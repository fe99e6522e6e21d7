"""PreCompact, live (issue 27, `live: compact: true`): the context usage stage and the error
classes since the last compaction, as upstream's hui-extract.py reports them, answered as a
systemMessage. The hook runs as a process in a temporary HOME on a Claude Code PreCompact
event (session_id, transcript_path, cwd, permission_mode, hook_event_name, trigger,
custom_instructions) and a transcript in Claude Code's record shapes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import warm_cache
from wukong_lint.hook.compact import render, session_facts, stage

SECRET_PATH = "/srv/private/payroll-2026.py"  # (a path only the transcript holds)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    moved = ("WUKONG_LINT_", "XDG_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(moved)}
    env.update(HOME=str(tmp_path / "home"), XDG_CACHE_HOME=str(tmp_path / "cache"),
               XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_STATE_HOME=str(tmp_path / "st"))  # fmt: skip
    (tmp_path / "home").mkdir()
    warm_cache(tmp_path / "cache")
    return env


def project(tmp_path: Path, live: str = "compact: true") -> Path:
    root = tmp_path / "project"
    root.mkdir(exist_ok=True)
    (root / ".wukong-lint.yaml").write_text(f"profile: wukong\nlive:\n  {live}\n")
    return root


def transcript(tmp_path: Path, usage: bool = True) -> Path:
    assistant = {"role": "assistant", "model": "claude-sonnet-4-5", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "Edit",
         "input": {"file_path": SECRET_PATH, "old_string": "a", "new_string": "b"}},
        {"type": "tool_use", "id": "toolu_2", "name": "Read", "input": {"file_path": "x.py"}},
        {"type": "tool_use", "id": "toolu_3", "name": "Bash", "input": {"command": "ls"}}]}
    if usage:
        assistant["usage"] = {"input_tokens": 9, "cache_creation_input_tokens": 1200,
                              "cache_read_input_tokens": 143000, "output_tokens": 800}
    records = [  # (before the last compaction: not counted)
        {"type": "user", "uuid": "u0", "message": {"role": "user", "content": "old turn"}},
        {"type": "assistant", "uuid": "a0", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_0", "name": "Read", "input": {}}]}},
    ]  # fmt: skip
    records += [
        {"type": "system", "subtype": "compact_boundary", "uuid": "b1",
         "content": "Conversation compacted", "compactMetadata": {"trigger": "auto"}},
        {"type": "user", "uuid": "u2", "message": {"role": "user", "content": "fix the bug"}},
        {"type": "assistant", "uuid": "a2", "message": assistant},
        {"type": "user", "uuid": "u3", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "is_error": True,
             "content": f"<tool_use_error>String to replace not found in file.\n"
                        f"String: a</tool_use_error> {SECRET_PATH}"},
            {"type": "tool_result", "tool_use_id": "toolu_2", "is_error": True,
             "content": "File does not exist."},
            {"type": "tool_result", "tool_use_id": "toolu_3", "is_error": True,
             "content": "ls: cannot open directory '.': Permission denied"}]}},
        {"type": "assistant", "uuid": "a3", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_4", "name": "Grep", "input": {"pattern": "x"}}]}},
    ]  # fmt: skip
    path = tmp_path / "session.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def event(path: Path, cwd: Path) -> dict:
    return {"session_id": "5d3f", "transcript_path": str(path), "cwd": str(cwd),
            "permission_mode": "default", "hook_event_name": "PreCompact", "trigger": "auto",
            "custom_instructions": ""}  # fmt: skip


def hook(env: dict[str, str], data: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wukong_lint", "hook", *args],
                          input=json.dumps(data).encode(), capture_output=True, env=env,
                          timeout=60, check=False)  # fmt: skip


def test_precompact_reports_the_stage_and_the_error_classes(tmp_path, env):
    proc = hook(env, event(transcript(tmp_path), project(tmp_path)))
    assert proc.returncode == 0, proc.stderr
    message = json.loads(proc.stdout)["systemMessage"]
    assert "PreCompact auto" in message and "73 %" in message and "warning" in message
    assert "145,009 of 200,000 tokens" in message
    for kind in ("edit-failure ×1", "file-not-found ×1", "permission-denied ×1",
                 "tool-result-missing ×1"):  # fmt: skip
        assert kind in message
    assert "read the file before editing it again" in message
    assert SECRET_PATH not in message  # (no text of the transcript)


def test_without_usage_the_context_is_estimated(tmp_path, env):
    proc = hook(env, event(transcript(tmp_path, usage=False), project(tmp_path)))
    message = json.loads(proc.stdout)["systemMessage"]
    assert "context about 0 %" in message and ": normal, no action" in message


def test_precompact_is_off_unless_the_profile_turns_it_on(tmp_path, env):
    path = transcript(tmp_path)
    proc = hook(env, event(path, project(tmp_path, "stop: true")))
    assert proc.returncode == 0 and not proc.stdout
    exit_mode = hook(env, event(path, project(tmp_path)), "--mode", "exit")
    assert exit_mode.returncode == 0 and not exit_mode.stdout
    assert b"PreCompact auto" in exit_mode.stderr


@pytest.mark.parametrize(("tokens", "expected"), [
    (0, "normal"), (139_999, "normal"), (140_000, "warning"), (169_999, "warning"),
    (170_000, "preemptive"), (200_000, "emergency")])  # fmt: skip
def test_upstream_stages(tokens, expected):
    assert stage(tokens, 200_000) == expected


def test_a_1m_model_is_measured_against_its_window():
    records = [{"type": "assistant", "message": {"model": "claude-sonnet-4-5[1m]", "content": [],
                "usage": {"input_tokens": 500_000}}}]  # fmt: skip
    facts = session_facts(records)
    assert facts["window"] == 1_000_000 and "50 %" in render(facts, "manual")
