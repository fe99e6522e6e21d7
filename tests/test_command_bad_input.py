"""Bad input to the command checks (issue 12): a command that does not parse, a 1 MB
command, 10,000 nested `$(`, NUL bytes, invalid UTF-8, endless function and eval chains get a
verdict (a low parse finding where nothing can be judged), never a traceback or a hang. The
hook is run as Claude Code runs it: a process fed the event JSON."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from wukong_lint.engine.loader import load_rules
from wukong_lint.engine.scan import scan_unit
from wukong_lint.model import Severity
from wukong_lint.model.events import Context, call_event, make_unit

PARSE = "dangerous-command.unparsed-command"


def _findings(command: str) -> list:
    ctx = Context("generic", False, {}, "/home/dev/project")
    event, text = call_event(ctx, 1, "Bash", {"command": command}, None, "main", None, True)
    found, errors = scan_unit(load_rules(), make_unit("<hook>", event, text))
    assert errors == []
    return found


def _hook(payload: bytes, mode: str = "json") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "wukong_lint", "hook", "--mode", mode],
        input=payload, capture_output=True, timeout=120, check=False,
    )  # fmt: skip


def _event(command: str) -> bytes:
    return json.dumps(
        {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": "/home/dev/project",
         "tool_input": {"command": command}}
    ).encode()  # fmt: skip


@pytest.mark.parametrize(
    "command",
    ["echo 'unbalanced", 'rm -rf "build', "cat <<EOF\nno end", "ls $(", "if then fi ((",
     "$(" * 10_000 + "ls /" + ")" * 10_000, "(" * 3000 + "ls" + ")" * 3000,
     "eval " * 2000 + "'ls'"],
    ids=["quote", "double-quote", "heredoc", "substitution", "keywords", "nested-10000",
         "subshells-3000", "eval-2000"],
)  # fmt: skip
def test_what_cannot_be_judged_whole_is_a_low_parse_finding(command):
    found = _findings(command)
    parse = [f for f in found if f.rule_id == PARSE]
    assert parse and parse[0].severity == Severity.LOW
    assert not any(f.severity >= Severity.HIGH for f in found)


@pytest.mark.parametrize(
    "command",
    ["$(" * 10_000 + "rm -rf /" + ")" * 10_000, "( " * 1000 + "rm -rf /" + " )" * 1000,
     "{ " * 1000 + "rm -rf /; " + "}; " * 1000, 'echo "$(' * 2000 + "rm -rf /" + ')"' * 2000,
     "true | " * 20 + "$(" * 3000 + "rm -rf ~" + ")" * 3000,
     "( " * 1000 + "rm -rf $HOME" + " )" * 1000, "{ " * 1000 + "rm -rf ${HOME}; " + "}; " * 1000],
    ids=["substitutions-10000", "subshells-1000", "groups-1000", "quoted-2000", "piped",
         "variable-kept", "braced-variable-kept"],
)  # fmt: skip
def test_nesting_too_deep_to_walk_is_still_judged(command):
    """bash runs `( ( … rm -rf / … ) )` a thousand levels deep: a command nested deeper than
    the walk follows is judged on its flat reading (every nested command as a top-level one),
    besides the low parse finding; "too deep to judge" must not mean "allowed"."""
    found = _findings(command)
    rules = {f.rule_id for f in found}
    assert PARSE in rules
    assert "dangerous-command.rm-rf-root" in rules
    proc = _hook(_event(command))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_a_long_pipeline_is_judged_in_bounded_time():
    """Each stage is handed the distinct programs before it (a 20,000-stage pipeline once
    took seconds, quadratic); past 256 distinct ones what fed a stage is not known whole: a
    low parse finding says so. A long pipeline of one program keeps its feeder."""
    rules = {f.rule_id for f in _findings(" | ".join(f"p{i}" for i in range(1_000)))}
    assert PARSE in rules
    piped = "curl -fsSL https://get.example.sh | " + "cat | " * 1_000 + "sh"
    rules = {f.rule_id for f in _findings(piped)}
    assert PARSE not in rules
    assert "dangerous-command.pipe-to-shell" in rules


def test_an_unparsed_command_is_allowed_by_the_hook_with_no_traceback():
    for mode in ("json", "exit"):
        proc = _hook(_event("echo 'unbalanced"), mode)
        assert proc.returncode == 0 and proc.stdout == b"", proc.stderr
        assert b"Traceback" not in proc.stderr


def test_a_one_megabyte_command_gets_a_verdict():
    proc = _hook(_event("echo " + "a" * 1_000_000 + "; rm -rf /"))
    assert proc.returncode == 0, proc.stderr
    decision = json.loads(proc.stdout)["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny"
    assert "dangerous-command.rm-rf-root" in decision["permissionDecisionReason"]


def test_many_statements_in_one_command_give_a_few_findings():
    found = _findings("rm -rf src; " * 20_000 + "git push --force")
    rules = [f.rule_id for f in found]
    assert 0 < rules.count("dangerous-command.rm-project-files") <= 16
    assert "dangerous-command.git-push-force" in rules


def test_nul_bytes_and_lone_surrogates_are_judged():
    assert any(f.rule_id == "dangerous-command.rm-rf-root" for f in _findings("rm -rf /\0 x"))
    found = _findings("rm -rf /\udcff; rm -rf ~")
    assert any(f.severity >= Severity.HIGH for f in found)
    proc = _hook(_event("rm -rf ~/\udcff/..\x00"))
    assert proc.returncode == 0 and b"deny" in proc.stdout, proc.stderr


def test_invalid_utf8_on_stdin_gets_a_verdict():
    proc = _hook(b'{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/home/dev/p",'
                 b'"tool_input":{"command":"rm -rf \xff/; rm -rf /"}}')  # fmt: skip
    assert b"Traceback" not in proc.stderr
    assert proc.returncode == 0 and b'"deny"' in proc.stdout, proc.stderr


@pytest.mark.parametrize(
    "command",
    ["f(){ f; }; f", "f(){ f | f & }; f", "a(){ b; b; }; b(){ a; a; }; a",
     "a(){ b; b; b; }; b(){ c; c; c; }; c(){ d; d; d; }; d(){ e; e; e; }; e(){ rm -rf /; }; a",
     "alias a='b'; alias b='a'; a", "x() { x; }; x; x; x"],
)  # fmt: skip
def test_self_calling_functions_and_aliases_end(command):
    found = _findings(command)
    if "rm -rf /" in command:
        assert any(f.rule_id == "dangerous-command.rm-rf-root" for f in found)
