"""The live hook's three verdicts on shell commands (issue 12): deny, ask, allow, in both hook
modes, with reasons that name the rule, the command that runs and the safer way. Run as
Claude Code runs it: a process fed a real PreToolUse event."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def _exit_mode(args: tuple[str, ...] | list[str]) -> list[str]:
    """The hook in exit mode unless the test picks one (the default is json since the ask
    tier must reach the user; these tests read exit codes)."""
    args = list(args)
    return args if any(a.startswith("--mode") for a in args) else ["--mode", "exit", *args]


def hook(command: str, *args: str, cwd: str = "/home/dev/project") -> subprocess.CompletedProcess:
    event = {
        "session_id": "s1",
        "transcript_path": "/nonexistent/s1.jsonl",
        "cwd": cwd,
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "x"},
    }
    return subprocess.run(
        [sys.executable, "-m", "wukong_lint", "hook", *_exit_mode(args)],
        input=json.dumps(event), capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def decision(proc: subprocess.CompletedProcess) -> dict:
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["hookSpecificOutput"] if proc.stdout else {}


def test_json_mode_denies_asks_and_allows():
    deny = decision(hook("python3 -c \"import shutil; shutil.rmtree('/')\"", "--mode", "json"))
    assert deny["permissionDecision"] == "deny"
    reason = deny["permissionDecisionReason"]
    assert "dangerous-command.rm-rf-root" in reason
    assert "runs `rm -rf / via python3`" in reason  # the command that really runs
    assert "inside the project" in reason  # the safer way
    ask = decision(hook("git push --force origin main", "--mode", "json"))
    assert ask["permissionDecision"] == "ask"
    assert "dangerous-command.git-push-force" in ask["permissionDecisionReason"]
    assert "--force-with-lease" in ask["permissionDecisionReason"]
    assert decision(hook("git push --force-with-lease", "--mode", "json")) == {}
    assert decision(hook('echo "rm -rf /"', "--mode", "json")) == {}


def test_exit_mode_reports_the_ask_tier_and_lets_it_run():
    proc = hook("terraform destroy -auto-approve")
    assert proc.returncode == 0 and proc.stdout == ""
    assert "asks for confirmation" in proc.stderr
    assert "dangerous-command.infrastructure-destroy" in proc.stderr
    blocked = hook("terraform destroy -auto-approve", "--fail-on", "medium")
    assert blocked.returncode == 2 and "Blocked by wukong-lint" in blocked.stderr
    denied = hook("cd .. && rm -rf build")
    assert denied.returncode == 2
    assert "dangerous-command.rm-rf-outside-project" in denied.stderr
    assert "in .." in denied.stderr  # the folder the cd moved to


def test_with_fail_on_medium_json_mode_denies_the_ask_tier():
    out = decision(hook("git reset --hard", "--mode", "json", "--fail-on", "medium"))
    assert out["permissionDecision"] == "deny"


@pytest.mark.parametrize(
    ("command", "verdict"),
    [("rm -rf /home/dev/project/build", None), ("rm -rf /home/dev/other-project", "deny"),
     ("rm -rf ~/project/node_modules", None), ("rm -rf ~/Documents", "deny"),
     ("rm -rf /home/dev/project", "deny"), ("rm /home/dev/project/src/app.py", "ask")],
)  # fmt: skip
def test_the_events_cwd_is_the_project(command, verdict):
    out = decision(hook(command, "--mode", "json", cwd="/home/dev/project"))
    assert out.get("permissionDecision") == verdict, out


def test_the_wukong_profile_denies_any_recursive_delete():
    out = decision(hook("rm -rf build", "--mode", "json", "--profile", "wukong"))
    assert out["permissionDecision"] == "deny"
    assert "dangerous-command.wukong-rm-recursive" in out["permissionDecisionReason"]
    out = decision(hook("rm build.log", "--mode", "json", "--profile", "wukong"))
    assert out["permissionDecision"] == "ask"
    assert decision(hook("rm -rf build", "--mode", "json", "--profile", "generic")) == {}
