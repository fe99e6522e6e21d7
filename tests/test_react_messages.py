"""Seed 002 E1's stored ReAct history (chat messages as JSONL, steps as `Thought/Action` text)
is read as a ReAct history, and the body-boundary rules (delegation) do not apply to its single
agent while the context rules do."""

from __future__ import annotations

import json
from pathlib import Path

from wukong_lint.cli import main
from wukong_lint.sources.transcripts.sniff import sniff_format


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


STEPS = [
    {"role": "user", "content": "登录逻辑在哪里？"},
    {"role": "assistant", "content": 'Action: Bash[{"command": "make test"}]',
     "metadata": {"step": 1}},
    {"role": "tool", "content": json.dumps({"status": "success", "data": "ok", "stats": {"ms": 3}}),
     "metadata": {"tool_name": "Bash", "step": 1}},
    {"role": "assistant", "content": "Thought: done\nAction: Finish[src/auth.py]"},
]  # fmt: skip


def test_message_history_is_react(tmp_path: Path) -> None:
    assert sniff_format(str(_write(tmp_path / "h.jsonl", STEPS))) == "react"
    calls = [
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": "Action: Read[x] is how ReAct writes it",
            "tool_calls": [],
        },
    ]
    assert sniff_format(str(_write(tmp_path / "c.jsonl", calls))) == "openai"


def test_context_rules_apply_body_rules_do_not(tmp_path: Path, capsys) -> None:
    path = _write(tmp_path / "h.jsonl", STEPS)
    code = main(["check", str(path), "--profile", "wukong", "--format", "json", "--exit-zero"])
    report = json.loads(capsys.readouterr().out)
    rules = {f["rule_id"] for f in report["findings"]}
    assert code == 0
    assert {"context.react-no-thought", "context.react-dropped-fields"} <= rules
    # no CHECKPOINT and a test run by the agent itself: nothing to delegate to in a ReAct agent
    assert not any(r.startswith("body-boundary.") for r in rules)
