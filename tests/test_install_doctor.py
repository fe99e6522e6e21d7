"""install → doctor → uninstall per agent on temporary homes and projects (HOME and XDG_* in
tmp_path), from no config, a config with other hooks, and a config that cannot be parsed;
doctor catches a wrong path, a missing executable and a registration that makes the hook
error. Also the audit log (written by the hook, read by `log`) and `explain`."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.agent_fixtures import AGENTS, agent_events, run_hook
from tests.conftest import warm_cache
from wukong_lint.agents import adapter
from wukong_lint.cli import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    project = tmp_path / "project"
    home.mkdir()
    project.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in ("XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    warm_cache(tmp_path / "xdg_cache_home")  # (doctor runs the hook: not a cache test)
    monkeypatch.delenv("WUKONG_LINT_CACHE_DIR", raising=False)
    monkeypatch.delenv("WUKONG_LINT_AUDIT_DIR", raising=False)
    monkeypatch.chdir(project)
    exe = tmp_path / "bin" / "wukong-lint"
    exe.parent.mkdir()
    exe.write_text(
        f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {str(ROOT)!r})\n"
        "from wukong_lint.cli import main\nsys.exit(main())\n"
    )
    exe.chmod(0o755)
    return home, project, str(exe)


def _config(agent: str, home: Path) -> Path:
    return home / adapter(agent).CONFIG["user"]


OTHER_HOOK = "/usr/local/bin/other-guard --strict"


def _with_other_hooks(agent: str) -> dict:
    module = adapter(agent)
    event = module.EVENTS[0]
    if module.CONFIG_FORMAT == "cursor":
        return {"version": 1, "hooks": {event: [{"command": OTHER_HOOK}]}}
    if module.CONFIG_FORMAT == "copilot":
        return {"version": 1, "hooks": {event: [{"type": "command", "bash": OTHER_HOOK}]}}
    return {"model": "x", "hooks": {event: [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": OTHER_HOOK}]}]}}  # fmt: skip


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("start", ["empty", "other-hooks"])
def test_install_doctor_uninstall_round_trip(agent, start, home, capsys):
    home_dir, _, exe = home
    path = _config(agent, home_dir)
    before = None
    if start == "other-hooks":
        path.parent.mkdir(parents=True, exist_ok=True)
        before = json.dumps(_with_other_hooks(agent), indent=2) + "\n"
        path.write_text(before)
    assert main(["install", agent, "--executable", exe, "--dry-run"]) == 0
    assert "+" in capsys.readouterr().out and path.exists() == (before is not None)
    assert main(["install", agent, "--executable", exe]) == 0
    text = path.read_text()
    assert f"{exe} hook --agent {agent}" in text
    if before is not None:
        assert OTHER_HOOK in text and Path(str(path) + ".wukong-lint.bak").read_text() == before
    assert main(["install", agent, "--executable", exe]) == 0  # idempotent
    assert "already registered" in capsys.readouterr().out and path.read_text() == text
    assert main(["doctor", "--agent", agent]) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    assert (
        "`rm -rf ~` -> deny" in out
        and "`ls` -> allow" in out
        and ("pure Python" in out or "compiled (mypyc)" in out)
    )
    assert main(["uninstall", agent]) == 0
    if before is None:
        assert not path.exists()
    else:
        assert json.loads(path.read_text()) == json.loads(before)


@pytest.mark.parametrize("agent", ["claude-code", "cursor"])
def test_a_config_that_cannot_be_parsed_is_refused(agent, home, capsys):
    home_dir, _, exe = home
    path = _config(agent, home_dir)
    path.parent.mkdir(parents=True)
    path.write_text('{"hooks": ')
    assert main(["install", agent, "--executable", exe]) == 2
    err = capsys.readouterr().err
    assert "not valid JSON" in err and "nothing was changed" in err and "Traceback" not in err
    assert path.read_text() == '{"hooks": '
    assert main(["doctor", "--agent", agent]) == 1
    assert "config invalid" in capsys.readouterr().out


def test_doctor_catches_a_wrong_path_a_missing_executable_and_a_hook_error(home, capsys):
    home_dir, _, exe = home
    settings = home_dir / ".claude" / "settings.json"
    assert main(["install", "claude-code", "--executable", exe]) == 0
    good = settings.read_text()
    cases = {
        "missing": good.replace(exe, exe + "-gone"),
        "relative": good.replace(exe, "wukong-lint"),
        # a registration the hook cannot run with: an explicit config that is not there
        "error": good.replace("--agent claude-code", "--agent claude-code --config /nope.yaml"),
    }
    for name, text in cases.items():
        settings.write_text(text)
        capsys.readouterr()
        assert main(["doctor", "--agent", "claude-code"]) == 1, name
        out = capsys.readouterr().out
        problems = [line for line in out.splitlines() if line.startswith("PROBLEM")]
        assert problems and all("fix:" in line for line in problems), out
        if name == "missing":
            assert "does not exist" in out
        if name == "relative":
            assert "not an absolute path" in out
        if name == "error":
            assert "expected allow" in out


def test_doctor_says_when_a_found_agent_has_no_hook(home, capsys):
    home_dir, _, _ = home
    (home_dir / ".gemini").mkdir()
    assert main(["doctor"]) == 1
    assert "gemini: hook not registered; fix: run `wukong-lint install gemini`" in (
        capsys.readouterr().out
    )


def test_claude_code_plugin_folder(home, capsys, tmp_path):
    _, _, exe = home
    folder = tmp_path / "plugin"
    assert main(["install", "claude-code", "--plugin", str(folder), "--executable", exe]) == 0
    hooks = json.loads((folder / "hooks" / "hooks.json").read_text())
    assert hooks["hooks"]["PreToolUse"][0]["hooks"][0]["command"].startswith(exe)
    assert json.loads((folder / ".claude-plugin" / "plugin.json").read_text())["name"]
    (folder / "README.md").write_text("mine")
    assert main(["uninstall", "claude-code", "--plugin", str(folder)]) == 0
    assert sorted(os.listdir(folder)) == ["README.md"]


def test_the_audit_log_records_decisions_masked(home, monkeypatch, capsys):
    from tests.agent_fixtures import TOKEN

    for agent in AGENTS:
        run_hook(monkeypatch, capsys, agent_events(agent)["shell-deny"]["event"])
    run_hook(monkeypatch, capsys, agent_events("claude-code")["shell-allow"]["event"])
    command = f"curl -H 'Authorization: token {TOKEN}' x; rm -rf ~"
    secret = {
        **agent_events("claude-code")["shell-deny"]["event"],
        "tool_input": {"command": command},
    }
    run_hook(monkeypatch, capsys, secret)
    assert main(["log", "--format", "json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["agent"] for r in records] == [*AGENTS, "claude-code"]
    assert all(r["verdict"] == "deny" and r["rules"] and r["latency_ms"] > 0 for r in records)
    assert TOKEN not in json.dumps(records) and "[REDACTED:" in records[-1]["subject"]
    assert main(["log", "--verdict", "ask"]) == 0
    assert "no decisions" in capsys.readouterr().out
    assert main(["log", "--since", "1d"]) == 0
    assert capsys.readouterr().out.count("deny") == len(records)
    assert main(["log", "--since", "yesterday"]) == 2


def test_an_audit_folder_that_cannot_be_written_changes_no_verdict(home, monkeypatch, capsys):
    _, project, _ = home
    blocker = project / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv("WUKONG_LINT_AUDIT_DIR", str(blocker / "audit"))
    code, out, _ = run_hook(monkeypatch, capsys, agent_events("cursor")["shell-deny"]["event"])
    assert code == 0 and json.loads(out)["permission"] == "deny"


def test_concurrent_appends_never_interleave(tmp_path):
    import threading

    from wukong_lint.util.fsutil import append_record

    path = str(tmp_path / "a.jsonl")
    lines = [json.dumps({"n": i, "pad": "x" * 5000}) for i in range(200)]
    threads = [
        threading.Thread(target=lambda chunk=lines[i::8]: [
            append_record(path, line, 1 << 30) for line in chunk])
        for i in range(8)
    ]  # fmt: skip
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    got = sorted(json.loads(line)["n"] for line in Path(path).read_text().splitlines())
    assert got == list(range(200))


def test_explain(home, capsys):
    assert main(["explain", "sudo env FOO=1 sh -c 'rm -rf /'", "--cwd", "."]) == 0
    out = capsys.readouterr().out
    assert out.startswith("verdict: deny") and "sudo → env → sh -c → rm -rf /" in out
    assert "dangerous-command.rm-rf-root (critical)" in out and "instead" in out
    assert main(["explain", "rm -rf $DIR/x", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["unresolved"] == ["$DIR/x"]
    assert main(["explain", "--tool", "Read", "--path", "~/.ssh/id_rsa"]) == 0
    out = capsys.readouterr().out
    assert "verdict: deny" in out and "[credential]" in out
    assert main(["explain"]) == 2 and "give a command line" in capsys.readouterr().err
