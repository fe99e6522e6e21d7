"""Seed 002 A3 keeps a Bash result as 摘要 + stderr 尾部 (its last 20 lines): histories name
that field `stderr_tail` as often as `stderr`, and the shell tool `Bash`, `shell` or
`terminal`. A longer tail under any of these names is reported (found by the held-out
protocol corpus, bench/protocol_heldout.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def history(tool: str, key: str, lines: int) -> str:
    tail = "\n".join(f"src/x{i}.c:{i}: error: unknown type name 'u8'" for i in range(lines))
    result = {"status": "error", "data": {"summary": "make: *** [build] Error 2", key: tail}}
    rows = [
        {"role": "user", "content": "why does the build fail?", "metadata": {}},
        {"role": "assistant", "content": f'Thought: run it.\nAction: {tool}[{{"command": "make"}}]',
         "metadata": {"step": 1}},
        {"role": "tool", "content": json.dumps(result), "metadata": {"tool_name": tool, "step": 1}},
        {"role": "assistant", "content": "Thought: typedef missing.\nAction: Finish[u8]",
         "metadata": {"step": 2}},
    ]  # fmt: skip
    return "".join(json.dumps(r) + "\n" for r in rows)


def oversized(path: Path) -> list[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "wukong_lint", "check", str(path), "--profile", "wukong",
         "--format", "json", "--select", "context.react-oversized-output"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr
    return [f["message"] for f in json.loads(proc.stdout)["findings"]]


@pytest.mark.parametrize(
    ("tool", "key"), [("Bash", "stderr_tail"), ("shell", "stderr"), ("terminal", "stderr_tail")]
)
def test_stderr_tail_over_twenty_lines(tmp_path: Path, tool: str, key: str) -> None:
    path = tmp_path / "history.jsonl"
    path.write_text(history(tool, key, 30))
    assert [m for m in oversized(path) if "stderr of 30 lines" in m]
    path.write_text(history(tool, key, 20))
    assert oversized(path) == []
