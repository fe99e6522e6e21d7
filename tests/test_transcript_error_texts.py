"""Transcript records whose meaning is not flagged: an OpenAI chat tool message whose text
is the failure ("Error: oldString and newString must be different", OpenCode's wording), and a
Codex rollout's `error` event ("token limit exceeded…"), a background agent's notification (not a
user task). Found by the held-out protocol corpus (bench/protocol_heldout.py). Real files, the
real command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import wukong_report


def findings(path: Path) -> list[tuple[str, str]]:
    report = wukong_report(path)
    # (the sessions skip their CHECKPOINT: only the error classes are looked at here)
    return [(f["rule_id"], f["message"]) for f in report if f["category"] == "transcript-integrity"]


def _chat(tool_text: str) -> list[dict[str, object]]:
    args = {"filePath": "src/retry.ts", "oldString": "N = 3", "newString": "N = 3"}
    call = {"id": "call_1", "type": "function",
            "function": {"name": "edit", "arguments": json.dumps(args)}}  # fmt: skip
    return [
        {"role": "user", "content": "keep the retry count at 3"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_1", "content": tool_text},
        {"role": "assistant", "content": "It is already 3."},
    ]


def test_openai_tool_message_starting_with_error_is_a_failed_call(tmp_path: Path) -> None:
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(_chat("Error: oldString and newString must be different")))
    found = findings(path)
    assert [r for r, _ in found] == ["transcript-integrity.edit-failure"]
    assert "oldString and newString must be different" in found[0][1]
    # the same words in a successful result (a file that handles the error) are no failure
    path.write_text(
        json.dumps(_chat('if (e.message === "oldString and newString must be different")'))
    )
    assert findings(path) == []
    path.write_text(json.dumps(_chat("errors.ts:3: oldString and newString must be different")))
    assert findings(path) == []


def _rollout(event: dict[str, object]) -> str:
    lines = [
        {"timestamp": "2026-11-24T10:00:00Z", "type": "session_meta",
         "payload": {"id": "s1", "cwd": "/tmp", "originator": "codex_cli_rs"}},
        {"timestamp": "2026-11-24T10:00:01Z", "type": "response_item",
         "payload": {"type": "message", "role": "user",
                     "content": [{"type": "input_text", "text": "summarise exports/"}]}},
        {"timestamp": "2026-11-24T10:00:02Z", "type": "event_msg", "payload": event},
    ]  # fmt: skip
    return "".join(json.dumps(x) + "\n" for x in lines)


def test_codex_error_event_is_classified(tmp_path: Path) -> None:
    path = tmp_path / "rollout-2026-11-24T10-00-00-x.jsonl"
    path.write_text(_rollout({"type": "error", "message": "token limit exceeded: 281093 > 272000"}))
    found = findings(path)
    assert [r for r, _ in found] == ["transcript-integrity.context-exceeded"]
    assert "token limit" in found[0][1]
    # an agent message that talks about the token limit is no error
    path.write_text(
        _rollout({"type": "agent_message", "message": "We stay under the token limit."})
    )
    assert findings(path) == []


def test_background_agent_notification_is_not_a_task(tmp_path: Path) -> None:
    """Claude Code tells the main agent a background avatar finished with a user message,
    `<agent-notification>` in older versions (`<task-notification>` now): the main agent's
    verification read after it belongs to the task that spawned the avatar, which had its
    CHECKPOINT (found by a post-run probe of the held-out protocol corpus)."""
    checkpoint = "CHECKPOINT\nQ1 explore: yes\nQ2 code: no\nQ3 design: no\nQ4 files: 1\n"
    checkpoint += "决策：召唤 @眼（后台）"
    spawn = {"description": "find", "prompt": "find callers", "subagent_type": "eye",
             "run_in_background": True}  # fmt: skip
    note = (
        "<agent-notification>\n<agent-id>a8caf00</agent-id>\n<status>completed</status>\n"
        '<summary>Agent "find callers" completed.</summary>\n</agent-notification>'
    )
    blocks = [
        ("user", "who still calls legacy_pay?"),
        ("assistant", [{"type": "text", "text": checkpoint}]),
        ("assistant", [{"type": "tool_use", "id": "t1", "name": "Agent", "input": spawn}]),
        ("user", [{"type": "tool_result", "tool_use_id": "t1",
                   "content": "Async agent launched successfully.\nagentId: a8caf00"}]),
        ("user", note),
        ("assistant", [{"type": "tool_use", "id": "t2", "name": "Read",
                        "input": {"file_path": "/tmp/src/pay.py"}}]),
        ("user", [{"type": "tool_result", "tool_use_id": "t2", "content": "def pay(): ..."}]),
    ]  # fmt: skip
    path = tmp_path / "s.jsonl"
    path.write_text("".join(
        json.dumps({"type": k, "uuid": f"u{i}", "parentUuid": f"u{i - 1}" if i else None,
                    "sessionId": "s", "cwd": "/tmp", "message": {"role": k, "content": c}}) + "\n"
        for i, (k, c) in enumerate(blocks)
    ))  # fmt: skip
    proc = subprocess.run(
        [sys.executable, "-m", "wukong_lint", "check", str(path), "--profile", "wukong",
         "--format", "json", "--select", "body-boundary"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout
    # the same read after a real user message is a new task without its CHECKPOINT
    path.write_text(path.read_text().replace(json.dumps(note)[1:-1], "now check pay.py"))
    proc = subprocess.run(
        [sys.executable, "-m", "wukong_lint", "check", str(path), "--profile", "wukong",
         "--format", "json", "--select", "body-boundary.checkpoint-missing"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 1 and "checkpoint-missing" in proc.stdout
