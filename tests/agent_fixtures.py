"""The recorded agent hook events (tests/fixtures/agents/) and an in-process hook runner."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures" / "agents"
# a made-up token of GitHub's shape, put together here: no token-shaped text is committed
TOKEN = "ghp_" + "Zq8sX2mVt7Lw3Nc9Hk4Rb6Jy1Pd5Fg0Ae7Ts"
AGENTS = ("claude-code", "codex", "cursor", "copilot", "gemini")


def _fill(value: Any) -> Any:
    return json.loads(json.dumps(value).replace("<GITHUB_TOKEN>", TOKEN))


def claude_events() -> dict[str, dict[str, Any]]:
    return _fill(json.loads((FIXTURES / "claude-code.json").read_text(encoding="utf-8")))


def agent_events(agent: str) -> dict[str, dict[str, Any]]:
    """name -> {"event": the agent's event, "same_as": the Claude Code event's name}."""
    if agent == "claude-code":
        return {name: {"event": event, "same_as": name} for name, event in claude_events().items()}
    return _fill(json.loads((FIXTURES / f"{agent}.json").read_text(encoding="utf-8")))


def run_hook(monkeypatch: Any, capsys: Any, event: Any, *options: str) -> tuple[int, str, str]:
    """`wukong-lint hook OPTIONS` in this process with `event` on stdin."""
    from wukong_lint.cli import main

    raw = event if isinstance(event, str) else json.dumps(event)
    stdin = type("Stdin", (), {"buffer": io.BytesIO(raw.encode("utf-8"))})()
    monkeypatch.setattr(sys, "stdin", stdin)
    capsys.readouterr()
    code = main(["hook", *options])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def decision(agent: str, code: int, out: str) -> str:
    """deny / ask / allow as the agent reads the hook's answer."""
    if code == 2:
        return "deny"
    answer = json.loads(out) if out.strip() else {}
    specific = answer.get("hookSpecificOutput") or {}
    for value in (
        specific.get("permissionDecision"),
        answer.get("permissionDecision"),
        answer.get("permission"),
    ):
        if value in ("deny", "ask", "allow"):
            return value
    if answer.get("decision") in ("deny", "block") or answer.get("continue") is False:
        return "deny"
    return "allow"
