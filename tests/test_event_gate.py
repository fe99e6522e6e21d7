"""engine/event_gate.py: the table that spares the hook importing rule kinds an event cannot
meet must never be stricter than the kinds' own tests, or rules would silently stop running.
Checked on every built-in rule over a grid of event signatures, against the real matchers."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from types import SimpleNamespace

import pytest

from wukong_lint.engine.event_gate import NEEDS, may_accept
from wukong_lint.engine.kinds import matcher_for
from wukong_lint.engine.loader import load_rules
from wukong_lint.model.events import SHELL_TOOLS, Event, call_event, make_unit

EVENT_KINDS = ("call", "result", "message", "integrity", "end", "context", "contract")
TOOLS = ("Bash", "bash", "exec_command", "Edit", "Write", "MultiEdit", "Read", "Glob", "Task",
         "Agent", "TodoWrite", "WebFetch", "mcp__shell__execute_command", "mcp__acme__frob",
         None)  # fmt: skip
PROFILES = ("generic", "wukong", None)


def _rules_by_kind() -> dict[str, list]:
    found: dict[str, list] = {}
    for rule in load_rules((), details=False).rules:
        found.setdefault(rule.kind, []).append(rule)
    return found


RULES = _rules_by_kind()


def _event(kind, tool, is_main, profile, memory_bank, problem):
    ctx = SimpleNamespace(profile=profile, memory_bank=memory_bank, cwd=None, agent_defs={},
                          contracts={}, seen_paths={})  # fmt: skip
    event = Event(kind, 1, ctx)  # type: ignore[arg-type]
    event.tool, event.is_main, event.problem = tool, is_main, problem
    return event


def test_every_kind_in_the_table_exists_and_has_built_in_rules_or_accepts():
    for kind in NEEDS:
        matcher = matcher_for(kind)  # a stale entry (renamed kind) fails here
        assert callable(matcher)


# (`command` goes further than its accepts: see the gate test below)
@pytest.mark.parametrize("kind", sorted(set(NEEDS) - {"command"}))
def test_the_table_is_implied_by_each_kinds_accepts(kind):
    matcher = matcher_for(kind)
    accepts = getattr(matcher, "accepts", None)
    rules = RULES.get(kind, [])
    if accepts is None or not rules:
        pytest.skip(f"{kind}: no accepts or no built-in rule")
    problems = sorted({r.params.get("problem") for r in rules if r.params} - {None})
    checked = 0
    for rule, kind_, tool, main, profile, bank, problem in itertools.product(
        rules, EVENT_KINDS, TOOLS, (True, False), PROFILES, (True, False),
        (None, "other", *problems[:2]),
    ):  # fmt: skip
        event = _event(kind_, tool, main, profile, bank, problem)
        if accepts(rule, event):
            checked += 1
            assert may_accept(kind, rule, event), (kind, rule.id, kind_, tool, main, profile)
    assert checked, f"{kind}: the grid never meets its rules (widen it)"


def test_the_command_entry_is_implied_by_the_command_gate():
    """The `command` entry goes further than its accepts (a call): a call without a shell
    command line never passes the kind's gate."""
    gate = matcher_for("command").gate
    for tool in (*TOOLS[:-1], *sorted(SHELL_TOOLS)):
        for data in ({"command": "rm -rf /"}, {"cmd": ["bash", "-c", "rm -rf /"]}, {}):
            ctx = SimpleNamespace(profile="generic", memory_bank=False, cwd=None,
                                  agent_defs={}, contracts={}, seen_paths={})  # fmt: skip
            event, text = call_event(ctx, 1, tool, data, None, "main", None, True)
            unit = make_unit("<hook>", event, text)
            if gate(unit):
                assert may_accept("command", RULES["command"][0], event), (tool, data)


def _modules_after_hook(event: dict, *args: str) -> tuple[dict, set[str]]:
    code = (
        "import io, json, sys\n"
        "from wukong_lint.cli import main\n"
        "out = io.StringIO(); real = sys.stdout; sys.stdout = out\n"
        "code = main(['hook', '--mode', 'json', *sys.argv[1:]])\n"
        "sys.stdout = real\n"
        "print(json.dumps([code, out.getvalue(), sorted(sys.modules)]))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, *args], input=json.dumps(event), capture_output=True,
        text=True, timeout=60, check=True,
    )  # fmt: skip
    exit_code, out, modules = json.loads(proc.stdout)
    assert exit_code == 0, proc.stderr
    return (json.loads(out) if out else {}), set(modules)


def _call(tool: str, tool_input: dict, cwd: str) -> dict:
    return {
        "session_id": "s",
        "transcript_path": "/nonexistent/s.jsonl",
        "cwd": cwd,
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
    }


def test_a_generic_bash_call_does_not_import_the_protocol_checks(tmp_path):
    verdict, modules = _modules_after_hook(_call("Bash", {"command": "rm -rf /"}, str(tmp_path)))
    assert verdict["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "wukong_lint.shell.commands" in modules
    for name in ("checkpoint", "contracts", "behaviour", "context_budget"):
        assert f"wukong_lint.protocol.{name}" not in modules, name


def test_the_wukong_profile_still_runs_the_protocol_checks_in_the_hook(tmp_path):
    _, modules = _modules_after_hook(
        _call("Bash", {"command": "ls"}, str(tmp_path)), "--profile", "wukong"
    )
    assert "wukong_lint.protocol.checkpoint" in modules
    assert "wukong_lint.protocol.behaviour" in modules


def test_an_edit_call_does_not_load_the_shell_parser(tmp_path):
    write = {"file_path": "/etc/passwd", "content": "root::0:0::/:/bin/sh\n"}
    verdict, modules = _modules_after_hook(_call("Write", write, str(tmp_path)))
    assert verdict["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "wukong_lint.shell.commands" not in modules
    assert "tree_sitter" not in modules
