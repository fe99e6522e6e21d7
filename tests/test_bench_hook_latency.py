"""bench/hook_latency.py --agent times each adapter on that agent's own event shapes: the
events it sends are the recorded fixtures of every tool kind, each told (by the hook's own
detection) as that agent's, and a short run prints one line per agent."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wukong_lint.agents import detect

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("hook_latency", ROOT / "bench" / "hook_latency.py")
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


@pytest.mark.parametrize("agent", bench.AGENTS)
def test_each_agent_is_timed_on_its_own_event_shapes(agent):
    events = [json.loads(e) for e in bench.agent_events(agent)]
    assert len(events) >= 8  # (shell deny/ask/allow, files, MCP or prompt, a tool result)
    assert {detect(e) for e in events} == {agent}
    assert not any("<GITHUB_TOKEN>" in json.dumps(e) for e in events)  # (filled in)


def test_a_short_run_prints_one_line_per_agent(tmp_path):
    exe = tmp_path / "wukong-lint"
    exe.write_text(f"#!/bin/sh\nexec {sys.executable} -m wukong_lint \"$@\"\n")
    exe.chmod(0o755)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, str(ROOT / "bench" / "hook_latency.py"), "--runs", "1",
               "--agent", "codex", "--exe", str(exe)]  # fmt: skip
    proc = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120,
                          check=True)  # fmt: skip
    (line,) = proc.stdout.splitlines()
    assert line.startswith("hook --agent codex --mode json: median ") and "over 1 events" in line
