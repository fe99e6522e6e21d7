"""The agent adapters (wukong_lint/agents/): each agent's recorded events (tests/fixtures/
agents/) are detected as that agent, judged as their Claude Code equivalents, and answered in
the agent's own dialect with what it honours (an ask becomes --ask-fallback where the agent
cannot ask); the dangerous-command corpus goes through every adapter with the verdicts of the
Claude Code event."""

from __future__ import annotations

import json

import pytest

from tests.agent_fixtures import AGENTS, agent_events, claude_events, decision, run_hook
from wukong_lint.agents import NAMES, adapter, detect
from wukong_lint.agents.base import OTHER

CASES = [(agent, name) for agent in AGENTS for name in agent_events(agent)]


@pytest.fixture(autouse=True)
def _state(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def test_the_registry_names_every_adapter():
    assert set(NAMES) == set(AGENTS)
    for name in NAMES:
        module = adapter(name)
        assert name == module.NAME and module.BUILT_AGAINST and module.EVENTS


@pytest.mark.parametrize(("agent", "name"), CASES)
def test_an_event_is_told_by_its_shape(agent, name):
    assert detect(agent_events(agent)[name]["event"]) == agent


@pytest.mark.parametrize(("agent", "name"), CASES)
def test_every_event_is_judged_as_its_claude_code_equivalent(agent, name, monkeypatch, capsys):
    fixture = agent_events(agent)[name]
    mapped = adapter(agent).to_event(fixture["event"])
    reference = claude_events()[fixture["same_as"]]
    if mapped.event == OTHER:
        assert adapter("claude-code").to_event(reference).event == OTHER
        return
    expected = run_hook(monkeypatch, capsys, reference, "--agent", "claude-code")
    got = run_hook(monkeypatch, capsys, mapped.hook_data(), "--agent", "claude-code")
    assert decision("claude-code", *got[:2]) == decision("claude-code", *expected[:2]), got


def _expected_answer(agent: str, name: str, verdict: str) -> str:
    """What the agent is told, from the judge's verdict and what the agent honours."""
    module = adapter(agent)
    if name.startswith(("post-", "other")):
        return {"post_tool": {"block": verdict}}.get("post_tool", {}).get(
            module.CAPS.post_tool, "allow"
        )
    if name.startswith("prompt-"):
        return verdict if module.CAPS.prompt == "block" else "allow"
    if verdict == "ask" and (not module.CAPS.ask or (agent == "cursor" and "read" in name)):
        return "deny"  # (--ask-fallback deny)
    return verdict


@pytest.mark.parametrize(("agent", "name"), CASES)
def test_the_answer_is_in_the_agents_dialect(agent, name, monkeypatch, capsys):
    fixture = agent_events(agent)[name]
    reference = claude_events()[fixture["same_as"]]
    verdict = decision("claude-code", *run_hook(monkeypatch, capsys, reference)[:2])
    code, out, err = run_hook(monkeypatch, capsys, fixture["event"])  # (detected)
    assert code == 0, err
    assert decision(agent, code, out) == _expected_answer(agent, name, verdict), out
    if out.strip():
        answer = json.loads(out)
        if agent == "cursor" and name.startswith(("shell-deny", "read-deny")):
            assert answer["permission"] == "deny" and "wukong-lint" in answer["agent_message"]
        if agent == "gemini" and verdict != "allow":
            assert set(answer) == {"decision", "reason"}
        if agent == "copilot" and verdict != "allow":
            assert set(answer) == {"permissionDecision", "permissionDecisionReason"}


@pytest.mark.parametrize("agent", ["codex", "gemini"])
def test_an_ask_where_the_agent_cannot_ask(agent, monkeypatch, capsys):
    event = agent_events(agent)["shell-ask"]["event"]
    code, out, _ = run_hook(monkeypatch, capsys, event)
    assert decision(agent, code, out) == "deny"
    assert "cannot ask for confirmation" in out and "--ask-fallback allow" in out
    code, out, _ = run_hook(monkeypatch, capsys, event, "--ask-fallback", "allow")
    assert decision(agent, code, out) == "allow" and "would ask" in out


def test_an_event_of_an_unknown_shape_is_an_input_error(monkeypatch, capsys):
    code, out, err = run_hook(monkeypatch, capsys, {"hook_event_name": "beforeShellExecution"})
    assert code == 1 and "no command" in err and "Traceback" not in err
    code, out, err = run_hook(
        monkeypatch, capsys, {"x": 1}, "--agent", "gemini", "--on-error", "block"
    )
    assert code == 2 and "no hook_event_name" in err and out == ""
    code, out, err = run_hook(monkeypatch, capsys, "[1]", "--agent", "cursor")
    assert code == 1 and "not a JSON object" in err
    bad = dict(agent_events("copilot")["shell-deny"]["event"], toolArgs="{not json")
    code, out, err = run_hook(monkeypatch, capsys, bad, "--on-error", "block")
    assert code == 2 and "toolArgs is not valid JSON" in err


def test_exit_mode_blocks_with_exit_2_for_every_agent(monkeypatch, capsys):
    for agent in AGENTS:
        event = agent_events(agent)["shell-deny"]["event"]
        code, out, err = run_hook(monkeypatch, capsys, event, "--mode", "exit")
        assert (code, out) == (2, ""), agent
        assert "rm-rf" in err


def test_the_corpus_is_judged_the_same_through_every_adapter():
    """Every command of the dangerous-command corpus, as each agent's shell event: the
    adapters hand the judge the same call as Claude Code's Bash event, so the verdicts are
    the same; each distinct call the judge is handed is judged (in-process, once)."""
    from tests.command_corpus import PROJECT, load
    from wukong_lint.engine.loader import load_rules
    from wukong_lint.engine.scan import scan_unit
    from wukong_lint.model import Severity
    from wukong_lint.model.events import Context, call_event, make_unit

    templates = {
        "claude-code": lambda c: {**claude_events()["shell-allow"], "tool_input": {"command": c}},
        "codex": lambda c: {**agent_events("codex")["shell-deny"]["event"],
                            "tool_input": {"command": ["bash", "-lc", c]}},
        "cursor": lambda c: {**agent_events("cursor")["shell-allow"]["event"], "command": c},
        "copilot": lambda c: {**agent_events("copilot")["shell-allow"]["event"],
                              "toolArgs": json.dumps({"command": c})},
        "gemini": lambda c: {**agent_events("gemini")["shell-allow"]["event"],
                             "tool_input": {"command": c}},
    }  # fmt: skip
    ruleset = load_rules()
    ctx = Context("generic", False, {}, PROJECT)
    judged: dict[str, str] = {}

    def verdict(data):
        key = json.dumps([data["tool_name"], data["tool_input"]], sort_keys=True)
        if key not in judged:
            event, text = call_event(
                ctx, 1, data["tool_name"], data["tool_input"], None, "main", None, True
            )
            findings, _ = scan_unit(ruleset, make_unit("<corpus>", event, text))
            worst = max((f.severity for f in findings), default=Severity.LOW)
            judged[key] = (
                "deny" if worst >= Severity.HIGH else "ask" if worst == Severity.MEDIUM
                else "allow"
            )  # fmt: skip
        return judged[key]

    cases = load()
    assert len(cases) > 1000
    differ = []
    for case in cases:
        claude = adapter("claude-code").to_event(templates["claude-code"](case.command))
        expected = verdict(claude.hook_data())
        for agent in AGENTS[1:]:
            event = adapter(agent).to_event(templates[agent](case.command))
            data = event.hook_data()
            assert data["cwd"] == PROJECT, agent
            if verdict(data) != expected:
                differ.append((agent, case.command))
    assert not differ, differ[:20]
    assert len(judged) <= len(cases) + 5  # (the same call: judged once for every agent)
