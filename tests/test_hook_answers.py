"""The hook's answers in its default set-up (issue 26, "ask reaches the user"): Claude Code's
JSON form, so that the confirm tier really asks; an event it cannot judge asks too; a broken
project config neither blocks every call nor switches the guard off; odd but well-formed
values are read, never an internal error. The hook runs as a process in a temporary HOME."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import warm_cache
from wukong_lint import cli


def _event(command: str, cwd: Path, **extra: object) -> dict:
    tool_input = {"command": command, **extra}
    return {"session_id": "s1", "transcript_path": str(cwd / "none.jsonl"), "cwd": str(cwd),
            "hook_event_name": "PreToolUse", "permission_mode": "default",
            "tool_name": "Bash", "tool_input": tool_input}  # fmt: skip


def _hook(tmp_path: Path, event: dict | str, *args: str) -> subprocess.CompletedProcess:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_STATE_HOME": str(home / ".state"),
    }
    env.pop("WUKONG_LINT_CACHE_DIR", None)
    warm_cache(home / ".cache")  # (a temporary HOME, not a cache test: a user's second call)
    payload = event if isinstance(event, str) else json.dumps(event)
    return subprocess.run(
        [sys.executable, "-m", "wukong_lint", "hook", *args], input=payload,
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60, check=False,
    )  # fmt: skip


def _decision(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 0, proc.stderr
    if not proc.stdout.strip():
        return "allow"
    answer = json.loads(proc.stdout).get("hookSpecificOutput", {})
    return answer.get("permissionDecision", "allow")  # (a systemMessage alone allows)


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    return project


def test_the_default_answer_is_json_and_the_confirm_tier_asks(tmp_path: Path) -> None:
    project = _project(tmp_path)
    asked = _hook(tmp_path, _event("git reset --hard HEAD~3", project))
    assert _decision(asked) == "ask"
    reason = json.loads(asked.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert "reset" in reason
    denied = _hook(tmp_path, _event("rm -rf ~", project))
    assert _decision(denied) == "deny"
    assert _decision(_hook(tmp_path, _event("ls -la", project))) == "allow"


def test_exit_mode_is_deny_only(tmp_path: Path) -> None:
    project = _project(tmp_path)
    asked = _hook(tmp_path, _event("git reset --hard HEAD~3", project), "--mode", "exit")
    assert asked.returncode == 0 and asked.stdout == ""
    assert "asks for confirmation" in asked.stderr
    assert _hook(tmp_path, _event("rm -rf ~", project), "--mode", "exit").returncode == 2


def test_a_broken_project_config_is_ignored_with_one_clear_reason(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / ".wukong-lint.yaml").write_text("ignroe: [dangerous-command]\n")
    listed = _hook(tmp_path, _event("ls", project))
    assert listed.returncode == 0, listed.stderr
    message = json.loads(listed.stdout)["systemMessage"]
    assert "project config is ignored" in message and "ignroe" in message
    # the guard is not off: the built-in policy judges
    assert _decision(_hook(tmp_path, _event("rm -rf ~", project))) == "deny"
    blocked = _hook(tmp_path, _event("ls", project), "--on-error", "block")
    assert blocked.returncode == 2 and "ignroe" in blocked.stderr


def test_a_broken_user_config_is_named_as_the_users(tmp_path: Path) -> None:
    """The reason names the file that is wrong: the user's config, not the project's."""
    project = _project(tmp_path)
    user = tmp_path / "home" / ".config" / "wukong-lint" / "config.yaml"
    user.parent.mkdir(parents=True)
    user.write_text("audit: sometimes\n", encoding="utf-8")
    message = json.loads(_hook(tmp_path, _event("ls", project)).stdout)["systemMessage"]
    assert "the user config is ignored" in message and "sometimes" in message
    assert _decision(_hook(tmp_path, _event("rm -rf ~", project))) == "deny"
    user.write_text("audit: off\n", encoding="utf-8")  # (as the docs write it: valid)
    assert "ignored" not in _hook(tmp_path, _event("ls", project)).stdout


def test_a_config_naming_no_rule_does_not_block_every_call(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / ".wukong-lint.yaml").write_text("ignore: [dangerous-comand]\n")
    listed = _hook(tmp_path, _event("ls", project))
    assert _decision(listed) == "allow" and "dangerous-comand" in listed.stdout
    assert _decision(_hook(tmp_path, _event("rm -rf ~", project))) == "deny"


def test_well_formed_odd_values_are_read(tmp_path: Path) -> None:
    project = _project(tmp_path)
    huge = "9" * 5000
    for command, expected in (("ls", "allow"), ("rm -rf ~", "deny")):
        raw = json.dumps(_event(command, project)).replace(
            '"tool_input": {', f'"tool_input": {{"timeout": {huge}, '
        )
        proc = _hook(tmp_path, raw)
        assert "internal error" not in proc.stderr
        assert _decision(proc) == expected


def test_unreadable_input_is_a_warning_not_a_silent_pass(tmp_path: Path) -> None:
    proc = _hook(tmp_path, "{not json")
    assert proc.returncode == 1 and "not valid JSON" in proc.stderr
    assert _hook(tmp_path, "{not json", "--on-error", "block").returncode == 2


def test_an_internal_error_asks_the_user(monkeypatch, capsys, tmp_path: Path) -> None:
    from wukong_lint.hook import judge

    def broken(*args: object, **kwargs: object) -> list:
        raise RuntimeError("boom")

    monkeypatch.setattr(judge, "event_units", broken)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    event = json.dumps(_event("ls", _project(tmp_path))).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(event)))
    assert cli.main(["hook"]) == 0
    answer = json.loads(capsys.readouterr().out)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "ask"
    assert "internal error (RuntimeError)" in answer["permissionDecisionReason"]


@pytest.mark.parametrize("mode", ["exit", "json"])
def test_on_error_allow_lets_the_call_run_with_a_warning(mode, monkeypatch, capsys, tmp_path):
    from wukong_lint.hook import judge

    monkeypatch.setattr(judge, "event_units", lambda *a, **k: 1 / 0)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    event = json.dumps(_event("ls", _project(tmp_path))).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(event)))
    assert cli.main(["hook", "--mode", mode, "--on-error", "allow"]) == 1
    out = capsys.readouterr()
    assert out.out == "" and "the call was not checked" in out.err
