"""戒 Layer 1 in the live hook, on opt-in (`hook --profile wukong --checkpoint`): a main-agent
tool call of a user's task is denied until the turn has its CHECKPOINT, read from the real
session transcript file the event names (issue 16). Real event JSON, real JSONL files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CHECKPOINT = (
    "📋 TASK CHECKPOINT\nQ0. Skill 匹配？ 否\nQ1. 探索/研究？ 否\nQ2. 代码修改？ 是 预估 1 行\n"
    "Q3. 设计/架构？ 否\nQ4. 独立文件数？ 1 个\n⚡ 决策: 本体执行"
)
EXPLORE_SELF = CHECKPOINT.replace("Q1. 探索/研究？ 否", "Q1. 探索/研究？ 是")
INCOMPLETE = (
    "📋 TASK CHECKPOINT\nQ1. 探索/研究？ 否\nQ2. 代码修改？ [是/否] 预估 __ 行\n⚡ 决策: 本体执行"
)
TASK = "把登录页的 submit 按钮文案改成 Sign in"


def _exit_mode(args: tuple[str, ...] | list[str]) -> list[str]:
    """The hook in exit mode unless the test picks one (the default is json since the ask
    tier must reach the user; these tests read exit codes)."""
    args = list(args)
    return args if any(a.startswith("--mode") for a in args) else ["--mode", "exit", *args]


def user(text: str) -> dict:
    return {"type": "user", "message": {"role": "user", "content": text}}


def say(*texts: str, call: bool = False, sidechain: bool = False) -> dict:
    content: list[dict] = [{"type": "text", "text": t} for t in texts]
    if call:
        content.append({"type": "tool_use", "id": "toolu_0", "name": "Read",
                        "input": {"file_path": "src/login.tsx"}})  # fmt: skip
    record = {"type": "assistant", "message": {"role": "assistant", "content": content}}
    return {**record, "isSidechain": True} if sidechain else record


def result(text: str, error: bool = False) -> dict:
    block = {"type": "tool_result", "tool_use_id": "toolu_0", "content": text, "is_error": error}
    return {"type": "user", "message": {"role": "user", "content": [block]}}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    return root


def session(project: Path, *records: dict) -> Path:
    path = project.parent / "session.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return path


def edit_event(project: Path, transcript: Path | str, **extra: str) -> dict:
    return {
        "session_id": "s1",
        "transcript_path": str(transcript),
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": "Edit",
        "tool_input": {
            "file_path": str(project / "src/login.tsx"),
            "old_string": "Submit",
            "new_string": "Sign in",
        },
        "tool_use_id": "toolu_9",
        **extra,
    }


def hook(event: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "wukong_lint", "hook", *_exit_mode(args)],
        input=json.dumps(event).encode(), capture_output=True, timeout=60, check=False,
    )  # fmt: skip


OPT_IN = ("--profile", "wukong", "--checkpoint", "--mode", "json")


def decision(proc: subprocess.CompletedProcess) -> tuple[str, str]:
    """(permissionDecision or 'allow', its reason)."""
    assert proc.returncode == 0, proc.stderr
    if not proc.stdout.strip():
        return "allow", ""
    out = json.loads(proc.stdout)["hookSpecificOutput"]
    return out["permissionDecision"], out["permissionDecisionReason"]


def test_a_task_without_checkpoint_is_denied_only_when_opted_in(project: Path) -> None:
    transcript = session(project, user(TASK), say("好的，我来改。"))
    event = edit_event(project, transcript)
    assert decision(hook(event, "--profile", "wukong", "--mode", "json"))[0] == "allow"
    verdict, reason = decision(hook(event, *OPT_IN))
    assert verdict == "deny"
    assert "body-boundary.checkpoint-missing (critical)" in reason
    proc = hook(event, "--profile", "wukong", "--checkpoint")  # exit mode: exit 2, stderr
    assert proc.returncode == 2 and b"checkpoint-missing" in proc.stderr


def test_a_written_checkpoint_lets_the_calls_through(project: Path) -> None:
    transcript = session(project, user(TASK), say(CHECKPOINT), say(call=True),
                         result("export function Login() {}"), say("Now the edit."))  # fmt: skip
    assert decision(hook(edit_event(project, transcript), *OPT_IN))[0] == "allow"
    # a long turn: the CHECKPOINT written long before (many texts and calls since)
    work = [r for n in range(80) for r in (say(f"step {n}", call=True), result("x = 1\n" * 50))]
    transcript = session(project, user(TASK), say(CHECKPOINT), *work)
    assert decision(hook(edit_event(project, transcript), *OPT_IN))[0] == "allow"
    # the CHECKPOINT in the same message as the call, before it
    transcript = session(project, user(TASK), say(CHECKPOINT, call=True))
    assert decision(hook(edit_event(project, transcript), *OPT_IN))[0] == "allow"


def test_retrying_a_denied_call_is_denied_until_the_checkpoint_is_written(project: Path) -> None:
    denied = result("PreToolUse:Read hook error: Blocked by wukong-lint.", error=True)
    records = [user(TASK), say("Let me look.", call=True), denied]
    transcript = session(project, *records)
    verdict, reason = decision(hook(edit_event(project, transcript), *OPT_IN))
    assert verdict == "deny" and "checkpoint-missing" in reason
    transcript = session(project, *records, say(CHECKPOINT))
    assert decision(hook(edit_event(project, transcript), *OPT_IN))[0] == "allow"


def test_incomplete_and_contradicting_checkpoints_are_denied(project: Path) -> None:
    transcript = session(project, user(TASK), say(INCOMPLETE))
    verdict, reason = decision(hook(edit_event(project, transcript), *OPT_IN))
    assert verdict == "deny" and "checkpoint-incomplete (high)" in reason and "Q2" in reason
    transcript = session(project, user(TASK), say(EXPLORE_SELF))
    verdict, reason = decision(hook(edit_event(project, transcript), *OPT_IN))
    assert verdict == "deny" and "@眼" in reason
    # a corrected CHECKPOINT later in the turn is the one that counts
    transcript = session(project, user(TASK), say(EXPLORE_SELF), say(CHECKPOINT))
    assert decision(hook(edit_event(project, transcript), *OPT_IN))[0] == "allow"


def test_what_is_not_a_task_and_carried_checkpoints(project: Path) -> None:
    # a local-command echo does not start a turn: the task turn before it goes on
    transcript = session(project, user(TASK), say(CHECKPOINT), say(call=True), result("ok"),
                         user("<command-name>/cost</command-name>"))  # fmt: skip
    assert decision(hook(edit_event(project, transcript), *OPT_IN))[0] == "allow"
    # the agent asked to confirm its plan (no call); the user's "yes" carries it over
    transcript = session(project, user(TASK), say(CHECKPOINT, "确认后开始？"), user("好的，开始"))
    assert decision(hook(edit_event(project, transcript), *OPT_IN))[0] == "allow"
    # ... but not past a turn that made calls
    transcript = session(project, user(TASK), say(CHECKPOINT, call=True), result("ok"),
                         user("再把注册页也改了"))  # fmt: skip
    assert decision(hook(edit_event(project, transcript), *OPT_IN))[0] == "deny"
    # a sub-agent's text is not the main agent's CHECKPOINT; a sub-agent's call is not judged
    transcript = session(project, user(TASK), say(CHECKPOINT, sidechain=True))
    assert decision(hook(edit_event(project, transcript), *OPT_IN))[0] == "deny"
    sub = edit_event(project, transcript, agent_id="a1", agent_type="身")
    assert decision(hook(sub, *OPT_IN))[0] == "allow"


def test_a_transcript_that_cannot_tell_follows_on_error(project: Path) -> None:
    event = edit_event(project, project.parent / "missing.jsonl")
    proc = hook(event, *OPT_IN)  # (json mode: unknown is not safe, the user is asked)
    answer = json.loads(proc.stdout)["hookSpecificOutput"]
    assert proc.returncode == 0 and answer["permissionDecision"] == "ask"
    assert "--checkpoint: cannot read the transcript" in answer["permissionDecisionReason"]
    proc = hook(event, *OPT_IN, "--on-error", "allow")
    assert proc.returncode == 1 and b"--checkpoint: cannot read the transcript" in proc.stderr
    proc = hook(event, *OPT_IN, "--on-error", "block")
    assert proc.returncode == 2 and b"blocked (--on-error block)" in proc.stderr
    generic = hook(edit_event(project, project.parent / "missing.jsonl"), "--checkpoint")
    assert generic.returncode == 2 and b"--checkpoint needs the wukong profile" in generic.stderr
