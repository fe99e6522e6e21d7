"""Live hygiene (issue 29), the hook run as a process in a temporary HOME: a secret in a tool's
output is reported to the model (rotate it; the rule and where; never the value) and audited;
at SessionEnd (and Stop, on request) the session file the event names is cleaned in place,
opt-in by `--hygiene` or the config's `hygiene:`; `install --hygiene` registers the event.

Events are in the shapes of the agents' hook references (Claude Code: session_id,
transcript_path, cwd, permission_mode, hook_event_name, tool_name, tool_input, tool_response,
tool_use_id; SessionEnd with `reason`; Gemini CLI: the same base fields with `timestamp`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import warm_cache

# Built at run time: this file holds no secret.
TOKEN = "ghp_" + "Zq9Xw8Vu7Ts6Rq5Po4Nm" + "3Lk2Ji1Hg0Fe9DcB"
AWS = "AKIA" + "Q3HX7RZ2" + "LPMN4VBT"


@pytest.fixture
def home(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    home = tmp_path / "home"
    home.mkdir()
    moved = ("WUKONG_LINT_", "XDG_", "CLAUDE_", "CODEX_", "GEMINI_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(moved)}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(tmp_path / "cache"),
               XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))  # fmt: skip
    warm_cache(tmp_path / "cache")
    return home, env


def hook(env: dict[str, str], event: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "wukong_lint", "hook", *args],
        input=json.dumps(event).encode(), capture_output=True, env=env, timeout=60, check=False,
    )  # fmt: skip


def audit(env: dict[str, str]) -> list[dict]:
    folder = Path(env["XDG_STATE_HOME"]) / "wukong-lint" / "audit"
    if not folder.is_dir():
        return []
    return [json.loads(line) for path in sorted(folder.glob("*.jsonl"))
            for line in path.read_text().splitlines()]  # fmt: skip


def session(home: Path, project: str = "-work-app", sid: str = "5d3f2c1a") -> Path:
    """A Claude Code session (and one sub-agent file) with secrets in a tool result, its
    `toolUseResult` and the sub-agent's output."""
    folder = home / ".claude" / "projects" / project
    folder.mkdir(parents=True)
    path = folder / f"{sid}.jsonl"
    records = [
        {"type": "user", "uuid": "u1", "parentUuid": None, "sessionId": sid, "cwd": "/home/dev/app",
         "message": {"role": "user", "content": "show me the env"}},
        {"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": sid,
         "message": {"role": "assistant", "content": [
             {"type": "tool_use", "id": "toolu_1", "name": "Bash",
              "input": {"command": "cat .env"}}]}},
        {"type": "user", "uuid": "u2", "parentUuid": "a1", "sessionId": sid,
         "message": {"role": "user", "content": [
             {"type": "tool_result", "tool_use_id": "toolu_1",
              "content": f"GITHUB_TOKEN={TOKEN}\nDEBUG=1"}]},
         "toolUseResult": {"stdout": f"GITHUB_TOKEN={TOKEN}\nDEBUG=1", "stderr": "",
                           "interrupted": False}},
    ]  # fmt: skip
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    sub = folder / sid / "subagents"
    sub.mkdir(parents=True)
    (sub / "agent-a1b2c3.jsonl").write_text(json.dumps(
        {"type": "assistant", "uuid": "s1", "isSidechain": True, "agentId": "a1b2c3",
         "message": {"role": "assistant", "content": [
             {"type": "text", "text": f"found key {AWS} in config"}]}}) + "\n")  # fmt: skip
    return path


def session_end(path: Path, cwd: Path, name: str = "SessionEnd") -> dict:
    event = {"session_id": path.stem, "transcript_path": str(path), "cwd": str(cwd),
             "permission_mode": "default", "hook_event_name": name}  # fmt: skip
    if name == "SessionEnd":
        event["reason"] = "prompt_input_exit"
    else:
        event["stop_hook_active"] = False
    return event


def test_a_secret_in_a_tool_output_is_reported_without_its_value_and_audited(home):
    home_dir, env = home
    event = {
        "session_id": "5d3f2c1a", "transcript_path": str(home_dir / "t.jsonl"),
        "cwd": str(home_dir), "permission_mode": "default", "hook_event_name": "PostToolUse",
        "tool_name": "Bash", "tool_input": {"command": "cat .env", "description": "env"},
        "tool_response": {"stdout": f"DEBUG=1\nGITHUB_TOKEN={TOKEN}\n", "stderr": "",
                          "interrupted": False, "isImage": False},
        "tool_use_id": "toolu_01ABC",
    }  # fmt: skip
    proc = hook(env, event)
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout)
    reason = answer["reason"]
    assert answer["decision"] == "block"
    assert answer["hookSpecificOutput"]["additionalContext"] == reason
    assert "secret.github-pat" in reason and "stdout line 2" in reason
    assert "rotated" in reason and "Do not repeat" in reason and "`cat .env`" in reason
    assert TOKEN not in proc.stdout.decode() + proc.stderr.decode()
    records = audit(env)
    assert [(r["event"], r["verdict"], r["tool"]) for r in records] == [
        ("PostToolUse", "deny", "Bash")]
    assert "secret.github-pat" in records[0]["rules"] and TOKEN not in json.dumps(records)


def test_a_secret_in_the_command_is_masked_where_the_reason_names_the_call(home):
    home_dir, env = home
    event = {"session_id": "s", "transcript_path": "", "cwd": str(home_dir),
             "hook_event_name": "PostToolUse", "tool_name": "Bash",
             "tool_input": {"command": f"echo {TOKEN}"},
             "tool_response": {"stdout": TOKEN, "stderr": ""}}  # fmt: skip
    proc = hook(env, event)
    reason = json.loads(proc.stdout)["reason"]
    assert "echo [REDACTED:secret.github-pat]" in reason and TOKEN not in reason


def test_session_end_without_opt_in_touches_nothing(home):
    home_dir, env = home
    path = session(home_dir)
    before = path.read_bytes()
    proc = hook(env, session_end(path, home_dir))
    assert proc.returncode == 0 and not proc.stdout
    assert path.read_bytes() == before and audit(env) == []


def test_session_end_with_hygiene_cleans_the_session_and_its_subagents(home):
    home_dir, env = home
    path = session(home_dir)
    sub = path.parent / path.stem / "subagents" / "agent-a1b2c3.jsonl"
    os.chmod(path, 0o600)
    os.utime(path, (1_700_000_000, 1_700_000_000))
    ids = [json.loads(line)["uuid"] for line in path.read_text().splitlines()]
    proc = hook(env, session_end(path, home_dir), "--agent", "claude-code", "--hygiene")
    assert proc.returncode == 0 and not proc.stdout  # (SessionEnd: nothing to answer)
    text, sub_text = path.read_text(), sub.read_text()
    assert TOKEN not in text and AWS not in sub_text
    assert "[REDACTED:" in text and "[REDACTED:" in sub_text
    assert [json.loads(line)["uuid"] for line in text.splitlines()] == ids  # resumable
    assert os.stat(path).st_mode & 0o777 == 0o600 and os.stat(path).st_mtime == 1_700_000_000
    err = proc.stderr.decode()
    assert "session hygiene" in err and "rotate" in err and TOKEN not in err
    (record,) = audit(env)
    assert record["event"] == "SessionEnd" and record["verdict"] == "redact"
    assert record["rules"] and record["session"] == path.stem and TOKEN not in json.dumps(record)
    log = subprocess.run([sys.executable, "-m", "wukong_lint", "log", "--verdict", "redact"],
                         capture_output=True, text=True, env=env, timeout=60,
                         check=True)  # fmt: skip
    assert "redact" in log.stdout and str(path) in log.stdout
    again = hook(env, session_end(path, home_dir), "--hygiene")  # nothing left: no record
    assert again.returncode == 0 and b"masked" not in again.stderr and len(audit(env)) == 1


def test_the_config_turns_hygiene_on_per_event(home):
    home_dir, env = home
    config = Path(env["XDG_CONFIG_HOME"]) / "wukong-lint" / "config.yaml"
    config.parent.mkdir(parents=True)
    config.write_text("hygiene:\n  stop: true\n")
    path = session(home_dir)
    before = path.read_bytes()
    assert hook(env, session_end(path, home_dir)).returncode == 0
    assert path.read_bytes() == before  # session-end is not on: only stop is
    proc = hook(env, session_end(path, home_dir, "Stop"))
    assert proc.returncode == 0 and not proc.stdout  # (a Stop is not blocked by hygiene)
    assert TOKEN not in path.read_text()
    config.write_text("hygiene:\n  sesion-end: true\n")  # a typo switches nothing on
    other = session(home_dir, sid="77aa88bb", project="-work-other")
    before = other.read_bytes()
    assert hook(env, session_end(other, home_dir)).returncode == 0
    assert other.read_bytes() == before


def test_a_session_path_outside_the_agents_history_is_left_alone(home, tmp_path):
    home_dir, env = home
    elsewhere = tmp_path / "project" / "fixtures.jsonl"
    elsewhere.parent.mkdir()
    elsewhere.write_text(json.dumps({"token": TOKEN}) + "\n")
    proc = hook(env, session_end(elsewhere, home_dir), "--hygiene")
    assert proc.returncode == 0
    assert TOKEN in elsewhere.read_text()
    assert b"not under an agent's history folder" in proc.stderr


def test_a_gemini_session_end_cleans_its_chat_file(home):
    home_dir, env = home
    chats = home_dir / ".gemini" / "tmp" / "9f86d081884c7d65" / "chats"
    chats.mkdir(parents=True)
    path = chats / "session-2026-07-01T10-00-abc123.json"
    path.write_text(json.dumps({
        "sessionId": "abc123", "projectHash": "9f86d081884c7d65",
        "messages": [{"id": "m1", "type": "user", "content": "print the token"},
                     {"id": "m2", "type": "gemini", "content": f"It is {TOKEN}"}]},
        indent=2))  # fmt: skip
    event = {"session_id": "abc123", "transcript_path": str(path), "cwd": str(home_dir),
             "hook_event_name": "SessionEnd", "timestamp": "2026-07-01T10:05:00.000Z",
             "reason": "exit"}  # fmt: skip
    proc = hook(env, event, "--agent", "gemini", "--hygiene")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(path.read_text())
    assert [m["id"] for m in data["messages"]] == ["m1", "m2"] and TOKEN not in path.read_text()
    assert audit(env)[0]["agent"] == "gemini"


def test_install_hygiene_registers_the_session_end_event(tmp_path, monkeypatch, capsys):
    from wukong_lint.cli import main

    home_dir = tmp_path / "h"
    home_dir.mkdir()
    monkeypatch.setenv("HOME", str(home_dir))
    monkeypatch.chdir(tmp_path)
    exe = "/opt/wukong/bin/wukong-lint"
    assert main(["install", "claude-code", "--hygiene", "--executable", exe]) == 0
    settings = json.loads((home_dir / ".claude" / "settings.json").read_text())
    (group,) = settings["hooks"]["SessionEnd"]
    assert group["hooks"][0]["command"] == f"{exe} hook --agent claude-code --hygiene"
    assert "PreToolUse" in settings["hooks"]
    assert "SessionEnd" in capsys.readouterr().out
    assert main(["install", "codex", "--hygiene", "--executable", exe]) == 0
    codex = json.loads((home_dir / ".codex" / "hooks.json").read_text())
    assert "Stop" in codex["hooks"]  # (Codex has no session end: its Stop)
    assert main(["install", "copilot", "--hygiene", "--executable", exe]) == 2
    assert "names no session file" in capsys.readouterr().err
    assert main(["uninstall", "claude-code"]) == 0
    assert not (home_dir / ".claude" / "settings.json").exists() or "SessionEnd" not in (
        home_dir / ".claude" / "settings.json").read_text()  # fmt: skip


def test_a_codex_stop_and_a_cursor_session_end_clean_their_session_files(home):
    home_dir, env = home
    day = home_dir / ".codex" / "sessions" / "2026" / "07" / "01"
    day.mkdir(parents=True)
    rollout = day / "rollout-2026-07-01T10-00-00-0197a1b2-c3d4.jsonl"
    rollout.write_text(json.dumps(
        {"timestamp": "2026-07-01T10:00:01Z", "type": "response_item",
         "payload": {"type": "function_call_output", "call_id": "call_1",
                     "output": f"GITHUB_TOKEN={TOKEN}"}}) + "\n")  # fmt: skip
    stop = {"session_id": "0197a1b2-c3d4", "turn_id": "t-3", "transcript_path": str(rollout),
            "cwd": str(home_dir), "model": "gpt-5-codex", "hook_event_name": "Stop",
            "stop_hook_active": False, "last_assistant_message": "done"}  # fmt: skip
    assert hook(env, stop, "--agent", "codex", "--hygiene").returncode == 0
    assert TOKEN not in rollout.read_text() and "[REDACTED:" in rollout.read_text()
    folder = home_dir / ".cursor" / "projects" / "work-app" / "agent-transcripts"
    folder.mkdir(parents=True)
    transcript = folder / "8c2e9f10.jsonl"
    transcript.write_text(json.dumps({"role": "assistant", "message": {"content": [
        {"type": "text", "text": f"the token is {TOKEN}"}]}}) + "\n")  # fmt: skip
    end = {"conversation_id": "8c2e9f10", "generation_id": "g-2", "model": "auto",
           "hook_event_name": "sessionEnd", "cursor_version": "2.1.0",
           "workspace_roots": [str(home_dir)], "user_email": None,
           "transcript_path": str(transcript), "reason": "completed"}  # fmt: skip
    assert hook(env, end, "--agent", "cursor", "--hygiene").returncode == 0
    assert TOKEN not in transcript.read_text()
    assert [r["agent"] for r in audit(env)] == ["codex", "cursor"]


def test_install_hygiene_then_doctor_passes(tmp_path, home):
    home_dir, env = home
    exe = tmp_path / "bin" / "wukong-lint"
    exe.parent.mkdir()
    exe.write_text(f"#!/bin/sh\nexec {sys.executable} -m wukong_lint \"$@\"\n")
    exe.chmod(0o755)
    run = [sys.executable, "-m", "wukong_lint"]
    installed = subprocess.run([*run, "install", "claude-code", "--hygiene", "--executable",
                                str(exe)], capture_output=True, text=True, env=env,
                               cwd=tmp_path, timeout=60, check=False)  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    doctor = subprocess.run([*run, "doctor", "--agent", "claude-code"], capture_output=True,
                            text=True, env=env, cwd=tmp_path, timeout=120, check=False)  # fmt: skip
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    settings = json.loads((home_dir / ".claude" / "settings.json").read_text())
    assert settings["hooks"]["SessionEnd"][0]["hooks"][0]["command"].endswith("--hygiene")
