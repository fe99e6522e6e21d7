"""`check --agent-history [claude-code|codex|gemini|all]` on a fake HOME holding all three
agents' layouts (and the env vars that move them), `--since`, the per-session notes."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from wukong_lint.cli import main
from wukong_lint.sources.agent_history import (
    history_roots,
    parse_since,
    recent,
    session_info,
    session_key,
)

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "history"
CLAUDE_SESSION = "73466258-c75c-47e7-8b1e-14f66314a443"
OLD_CODEX = "rollout-2025-10-14T09-12-03-83697d66-615d-4134-83e7-dd796e046412.jsonl"


@pytest.fixture
def home(tmp_path: Path, monkeypatch) -> Path:
    home = tmp_path / "home"
    shutil.copytree(FIXTURES / "claude", home / ".claude")
    shutil.copytree(FIXTURES / "codex", home / ".codex")
    shutil.copytree(FIXTURES / "gemini" / "tmp", home / ".gemini" / "tmp")
    monkeypatch.setenv("HOME", str(home))
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME"):
        monkeypatch.delenv(name, raising=False)
    return home


def run(capsys, *args: str) -> tuple[int, dict, str]:
    code = main(["check", "--format", "json", "-o", "-", "--jobs", "1", *args])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def agents_of(report: dict, home: Path) -> set[str]:
    return {Path(f["path"]).relative_to(home).parts[0] for f in report["findings"]}


def test_all_agents_histories_are_found_in_their_default_places(home: Path, capsys):
    code, report, err = run(capsys, "--agent-history")
    assert code == 1
    assert agents_of(report, home) == {".claude", ".codex", ".gemini"}
    # the Claude Code sub-agent file is read with its session (its findings are reported)
    assert any("/subagents/agent-" in f["path"] for f in report["findings"])
    assert "agent history: 1 claude-code session(s), 2 codex session(s)" in err
    assert f"session claude-code {CLAUDE_SESSION}  project /home/dev/acme-api" in err


@pytest.mark.parametrize(
    ("agent", "folder"), [("claude-code", ".claude"), ("codex", ".codex"), ("gemini", ".gemini")]
)
def test_one_agent(home: Path, capsys, agent: str, folder: str):
    _, report, _ = run(capsys, "--agent-history", agent)
    assert agents_of(report, home) == {folder}


def test_env_vars_move_the_histories(home: Path, tmp_path: Path, capsys, monkeypatch):
    moved = tmp_path / "moved"
    moved.mkdir()
    (home / ".claude").rename(moved / "claude")
    (home / ".codex").rename(moved / "codex")
    (moved / "gem").mkdir()
    (home / ".gemini").rename(moved / "gem" / ".gemini")
    code = main(["check", "--agent-history", "-q"])
    assert code == 2  # nothing where the defaults are
    capsys.readouterr()
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(moved / "claude"))
    monkeypatch.setenv("CODEX_HOME", str(moved / "codex"))
    monkeypatch.setenv("GEMINI_CLI_HOME", str(moved / "gem"))
    _, report, _ = run(capsys, "--agent-history", "all")
    assert {Path(f["path"]).relative_to(moved).parts[0] for f in report["findings"]} == {
        "claude",
        "codex",
        "gem",
    }


def test_since_keeps_the_recently_modified_sessions(home: Path, capsys):
    old = time.time() - 30 * 86400
    for path in (home / ".codex").rglob("*.jsonl"):
        if path.name == OLD_CODEX:
            os.utime(path, (old, old))
    _, report, err = run(capsys, "--agent-history", "codex", "--since", "7d")
    paths = {Path(f["path"]).name for f in report["findings"]}
    assert paths and OLD_CODEX not in paths
    assert "1 codex session(s)" in err
    # a Claude Code session is kept whole when only its sub-agent file is recent
    for path in (home / ".claude").rglob("*"):
        if path.is_file():
            os.utime(path, (old, old))
    (sub,) = (home / ".claude").rglob("agent-*.jsonl")
    os.utime(sub, None)
    _, report, _ = run(capsys, "--agent-history", "claude-code", "--since", "1d")
    assert any(f["path"].endswith(f"{CLAUDE_SESSION}.jsonl") for f in report["findings"])


def test_since_needs_a_duration_with_agent_history(home: Path, capsys):
    assert main(["check", "--agent-history", "--since", "yesterday"]) == 2
    assert "--since" in capsys.readouterr().err


def test_pure_helpers(tmp_path: Path):
    assert parse_since("7d") == 7 * 86400 and parse_since("12h") == 43200
    env = {"CODEX_HOME": str(tmp_path / "cx")}
    (tmp_path / "cx" / "sessions").mkdir(parents=True)
    assert history_roots("codex", env, str(tmp_path)) == [
        ("codex", str(tmp_path / "cx" / "sessions"))
    ]
    base = "/h/.claude/projects/-p/abc"
    assert session_key(f"{base}/subagents/agent-a1.jsonl") == base
    assert session_key(f"{base}.jsonl") == base
    assert recent([], 10) == []
    info = session_info("codex", "/x/rollout-2026-08-30T16-41-27-" + "a" * 8 + "-1111-2222-3333-"
                        + "4" * 12 + ".jsonl", b'{"payload":{"cwd":"/w"}}')  # fmt: skip
    assert (info.project, info.date) == ("/w", "2026-08-30 16:41")
