"""身 reporting done without running tests, when its records are in a `subagents/` file (newer
Claude Code): the file is read after the session's, so the Task result is checked again once
the file shows no test command ran (found by the held-out protocol corpus,
bench/protocol_heldout.py). A real session folder, the real command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

CHECKPOINT = (
    "CHECKPOINT\nQ0 skill: no\nQ1 explore: no\nQ2 code change: yes, about 20 lines\n"
    "Q3 design: no\nQ4 files: 1\nDecision: summon @body (implementer)"
)
OUTPUT = json.dumps({"files_changed": ["src/a.py"], "summary": "guard added", "tests_run": True})


def _rec(kind: str, content: object, n: int, agent: str | None = None) -> dict[str, object]:
    rec: dict[str, object] = {
        "type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n else None,
        "sessionId": "s1", "cwd": "/tmp", "isSidechain": agent is not None,
        "message": {"role": kind, "content": content},
    }  # fmt: skip
    if agent:
        rec["agentId"] = agent
    return rec


def _session(tmp: Path, agent_calls: list[dict[str, object]]) -> Path:
    summons = {"description": "fix", "prompt": "fix a.py", "subagent_type": "body"}
    spawn = {"type": "tool_use", "id": "t1", "name": "Agent", "input": summons}
    result = {
        "type": "tool_result",
        "tool_use_id": "t1",
        # (Claude Code names the agent under its output: how its subagents/ file is found)
        "content": [{"type": "text", "text": OUTPUT}, {"type": "text", "text": "agentId: ab1"}],
    }
    main = [
        _rec("user", "fix the guard in a.py", 0),
        _rec("assistant", [{"type": "text", "text": CHECKPOINT}], 1),
        _rec("assistant", [spawn], 2),
        _rec("user", [result], 3),
        _rec("assistant", [{"type": "text", "text": "done"}], 4),
    ]
    path = tmp / "s1.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in main))
    sub = tmp / "s1" / "subagents"
    sub.mkdir(parents=True)
    recs = [_rec("user", "fix a.py", 0, "ab1")]
    for i, call in enumerate(agent_calls):
        recs.append(
            _rec("assistant", [{"type": "tool_use", "id": f"c{i}", **call}], 2 * i + 1, "ab1")
        )
        recs.append(
            _rec(
                "user",
                [{"type": "tool_result", "tool_use_id": f"c{i}", "content": "ok"}],
                2 * i + 2,
                "ab1",
            )
        )
    recs.append(_rec("assistant", [{"type": "text", "text": OUTPUT}], 99, "ab1"))
    (sub / "agent-ab1.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    (sub / "agent-ab1.meta.json").write_text(json.dumps({"agentType": "body", "toolUseId": "t1"}))
    return path


def untested(path: Path) -> list[tuple[str, int]]:
    proc = subprocess.run(
        [sys.executable, "-m", "wukong_lint", "check", str(path), "--profile", "wukong",
         "--format", "json", "--select", "avatar-boundary"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)["findings"]
    return [
        (f["path"], f["line"]) for f in report if f["rule_id"] == "avatar-boundary.body-untested"
    ]


EDIT = {
    "name": "Edit",
    "input": {"file_path": "/tmp/src/a.py", "old_string": "x", "new_string": "y"},
}


def test_body_whose_subagent_file_ran_no_test_is_reported_once(tmp_path: Path) -> None:
    path = _session(tmp_path, [EDIT])
    assert untested(path) == [(str(path), 4)]  # on the Task result, in the session file


def test_body_whose_subagent_file_ran_the_tests_is_fine(tmp_path: Path) -> None:
    path = _session(tmp_path, [EDIT, {"name": "Bash", "input": {"command": "pytest -q"}}])
    assert untested(path) == []
