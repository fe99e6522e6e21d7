"""Memory-bank gating in the live hook: real hook events on stdin, real session transcripts in
temporary repositories (issue 3)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from wukong_lint.sources.transcripts import current_turn_reads

CONTEXT_RULE = "body-boundary.memory-bank-context"
WRITER_RULE = "avatar-boundary.memory-bank-writer"


def _exit_mode(args: tuple[str, ...] | list[str]) -> list[str]:
    """The hook in exit mode unless the test picks one (the default is json since the ask
    tier must reach the user; these tests read exit codes)."""
    args = list(args)
    return args if any(a.startswith("--mode") for a in args) else ["--mode", "exit", *args]


def _prompt(text: str, **envelope: object) -> dict:
    return {"type": "user", "message": {"role": "user", "content": text}, **envelope}


def _call(tool: str, data: dict, call_id: str, **envelope: object) -> dict:
    block = {"type": "tool_use", "id": call_id, "name": tool, "input": data}
    return {"type": "assistant", "message": {"role": "assistant", "content": [block]}, **envelope}


def _result(call_id: str, text: str, **envelope: object) -> dict:
    block = {"type": "tool_result", "tool_use_id": call_id, "content": text}
    return {"type": "user", "message": {"role": "user", "content": [block]}, **envelope}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "memory-bank").mkdir(parents=True)
    (root / "memory-bank" / "MEMORY.md").write_text("# Memory\n")
    return root


def _session(folder: Path, records: list[dict], name: str = "session.jsonl") -> Path:
    path = folder / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def _hook(repo: Path, transcript: Path | None, tool: str, data: dict, *args: str, **extra):
    event = {
        "session_id": "s1",
        "cwd": str(repo),
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": data,
        "tool_use_id": "toolu_now",
        **extra,
    }
    if transcript is not None:
        event["transcript_path"] = str(transcript)
    return subprocess.run(
        [sys.executable, "-m", "wukong_lint", "hook", "--profile", "wukong", *_exit_mode(args)],
        input=json.dumps(event),
        capture_output=True,
        text=True,
        check=False,
        cwd=repo,
    )


AUTH_EDIT = {"file_path": "src/auth/login.ts", "old_string": "a", "new_string": "b"}


def test_high_risk_write_without_reading_the_memory_bank_is_blocked(repo, tmp_path):
    session = _session(tmp_path, [_prompt("Tighten the login checks")])
    proc = _hook(repo, session, "Edit", AUTH_EDIT, "--fail-on", "medium")
    assert proc.returncode == 2, proc.stderr
    assert CONTEXT_RULE in proc.stderr
    # high since v7.1: the default threshold (high) blocks it too
    assert _hook(repo, session, "Edit", AUTH_EDIT).returncode == 2


def test_reading_the_memory_bank_earlier_in_the_turn_allows_it(repo, tmp_path):
    read = _call("Read", {"file_path": str(repo / "memory-bank" / "patterns.md")}, "t1")
    session = _session(
        tmp_path, [_prompt("Tighten the login checks"), read, _result("t1", "# Patterns")]
    )
    proc = _hook(repo, session, "Edit", AUTH_EDIT, "--fail-on", "medium")
    assert proc.returncode == 0, proc.stderr
    # v7.1: MEMORY.md alone no longer counts for a high-risk write
    read = _call("Read", {"file_path": str(repo / "memory-bank" / "MEMORY.md")}, "t1")
    session = _session(tmp_path, [_prompt("Tighten the login"), read, _result("t1", "# M")])
    proc = _hook(repo, session, "Edit", AUTH_EDIT)
    assert proc.returncode == 2 and CONTEXT_RULE in proc.stderr
    # a shell read of patterns.md counts too, and so does a MultiEdit after it
    cat = _call("Bash", {"command": "cat memory-bank/patterns.md | head"}, "t2")
    session = _session(tmp_path, [_prompt("Refactor"), cat, _result("t2", "...")])
    multi = {"file_path": "src/a.py", "edits": [{"old_string": "a", "new_string": "b"}]}
    assert _hook(repo, session, "MultiEdit", multi, "--fail-on", "medium").returncode == 0


def test_a_read_in_an_earlier_turn_or_by_a_sub_agent_does_not_count(repo, tmp_path):
    read = _call("Read", {"file_path": "memory-bank/patterns.md"}, "t1")
    earlier = [_prompt("First task"), read, _result("t1", "# Memory"), _prompt("Second task")]
    session = _session(tmp_path, earlier)
    proc = _hook(repo, session, "Edit", AUTH_EDIT, "--fail-on", "medium")
    assert proc.returncode == 2 and CONTEXT_RULE in proc.stderr
    side = {"isSidechain": True, "agentId": "e1"}
    by_sub_agent = [
        _prompt("Task"),
        _prompt("Explore the auth code", parentUuid=None, **side),
        _call("Read", {"file_path": "memory-bank/patterns.md"}, "t1", **side),
        _result("t1", "# Memory", **side),
    ]
    session = _session(tmp_path, by_sub_agent)
    proc = _hook(repo, session, "Edit", AUTH_EDIT, "--fail-on", "medium")
    assert proc.returncode == 2 and CONTEXT_RULE in proc.stderr
    # ... but it does for that sub-agent's own call
    proc = _hook(repo, session, "Edit", AUTH_EDIT, "--fail-on", "medium",
                 agent_id="e1", agent_type="implementer")  # fmt: skip
    assert CONTEXT_RULE not in proc.stderr


def test_sub_agent_reads_come_from_its_own_file(repo, tmp_path):
    session = _session(tmp_path, [_prompt("Task")])
    folder = tmp_path / "session" / "subagents"
    folder.mkdir(parents=True)
    own = [_prompt("Fix login"), _call("Read", {"file_path": "memory-bank/patterns.md"}, "r1")]
    _session(folder, own, "agent-a7.jsonl")
    extra = {"agent_id": "a7", "agent_type": "implementer"}
    proc = _hook(repo, session, "Edit", AUTH_EDIT, "--fail-on", "medium", **extra)
    assert proc.returncode == 0, proc.stderr
    extra["agent_id"] = "b8"  # another sub-agent, with no reads anywhere
    proc = _hook(repo, session, "Edit", AUTH_EDIT, "--fail-on", "medium", **extra)
    assert proc.returncode == 2 and CONTEXT_RULE in proc.stderr


def test_only_the_writer_agent_writes_the_memory_bank(repo, tmp_path):
    session = _session(tmp_path, [_prompt("Record the decision")])
    write = {"file_path": str(repo / "memory-bank" / "MEMORY.md"), "content": "x\n"}
    proc = _hook(repo, session, "Write", write)
    assert proc.returncode == 2 and WRITER_RULE in proc.stderr
    proc = _hook(repo, session, "Bash", {"command": "echo '- X' >> memory-bank/decisions.md"})
    assert proc.returncode == 2 and WRITER_RULE in proc.stderr
    proc = _hook(repo, session, "Write", write, agent_id="w1", agent_type="memory-bank-writer")
    assert proc.returncode == 0, proc.stderr


def test_no_memory_bank_folder_no_gating(tmp_path):
    repo = tmp_path / "plain"
    repo.mkdir()
    session = _session(tmp_path, [_prompt("Tighten the login checks")])
    assert _hook(repo, session, "Edit", AUTH_EDIT, "--fail-on", "medium").returncode == 0
    write = {"file_path": "memory-bank/MEMORY.md", "content": "x"}
    assert _hook(repo, session, "Write", write).returncode == 0


def test_unreadable_transcript_is_said_and_never_guessed(repo, tmp_path):
    proc = _hook(repo, tmp_path / "missing.jsonl", "Edit", AUTH_EDIT, "--fail-on", "medium")
    assert proc.returncode == 0
    assert "cannot read the transcript" in proc.stderr and CONTEXT_RULE not in proc.stderr
    proc = _hook(repo, None, "Edit", AUTH_EDIT, "--fail-on", "medium")
    assert proc.returncode == 0 and "no transcript_path" in proc.stderr


def test_current_turn_is_read_backwards_within_a_limit(tmp_path):
    read = _call("Read", {"file_path": "/r/memory-bank/MEMORY.md"}, "t1")
    filler = _result("t0", "x" * 5000)
    records = [_prompt("old"), _prompt("new"), read, *[filler] * 200]
    path = _session(tmp_path, records)
    path.write_bytes(path.read_bytes() + b'{"type": "assistant", "mess')  # a line being written
    assert current_turn_reads(str(path)) == (("/r/memory-bank/MEMORY.md",), None)
    reads, note = current_turn_reads(str(path), limit=100_000)  # the read is further back
    assert reads == () and note is not None and "longer than" in note
    # a read in the same record block boundary: the 1 MB blocks split lines anywhere
    many = [_prompt("go"), read, *[filler] * 600]
    path = _session(tmp_path, many, "big.jsonl")
    assert current_turn_reads(str(path))[0] == ("/r/memory-bank/MEMORY.md",)


def test_guard_mode_off_warn_block(repo, tmp_path, monkeypatch):
    session = _session(tmp_path, [_prompt("Tighten the login checks")])
    for mode, code in (("block", 2), ("", 2), ("off", 0), ("warn", 0), ("WARN", 0)):
        monkeypatch.setenv("MEMORY_BANK_GUARD_MODE", mode)
        proc = _hook(repo, session, "Edit", AUTH_EDIT)
        assert proc.returncode == code, (mode, proc.stderr)
        if mode.lower() == "warn":
            assert "MEMORY_BANK_GUARD_MODE=warn" in proc.stderr and CONTEXT_RULE in proc.stderr
        if mode == "off":
            assert CONTEXT_RULE not in proc.stderr
    monkeypatch.setenv("MEMORY_BANK_GUARD_MODE", "strict")
    proc = _hook(repo, session, "Edit", AUTH_EDIT)
    assert proc.returncode == 2  # (the note on the value goes to hook.log: the call is blocked)
    proc = _hook(repo, session, "Read", {"file_path": "README.md"})
    assert proc.returncode == 0 and "not one of off, warn, block" in proc.stderr
    # the write protection holds whatever the mode
    monkeypatch.setenv("MEMORY_BANK_GUARD_MODE", "off")
    write = {"file_path": str(repo / "memory-bank" / "MEMORY.md"), "content": "x\n"}
    proc = _hook(repo, session, "Write", write)
    assert proc.returncode == 2 and WRITER_RULE in proc.stderr


def test_low_risk_write_without_context_is_a_low_warning(repo, tmp_path):
    session = _session(tmp_path, [_prompt("Fix the typo")])
    edit = {"file_path": "README.md", "old_string": "teh", "new_string": "the"}
    assert _hook(repo, session, "Edit", edit).returncode == 0  # low: below the threshold
    proc = _hook(repo, session, "Edit", edit, "--fail-on", "low")
    assert proc.returncode == 2 and "memory-bank-context-low" in proc.stderr
    read = _call("Read", {"file_path": "memory-bank/MEMORY.md"}, "t1")
    session = _session(tmp_path, [_prompt("Fix the typo"), read, _result("t1", "# M")])
    assert _hook(repo, session, "Edit", edit, "--fail-on", "low").returncode == 0


USER_BLOCK_RULE = "avatar-boundary.memory-bank-user-block"
ACTIVE = (
    "# Active context\n\n<!-- MACHINE_BLOCK_START -->\nfocus: login\n<!-- MACHINE_BLOCK_END -->\n"
    "\n<!-- USER_BLOCK_START -->\n## My notes\nkeep the old API until June\n"
    "<!-- USER_BLOCK_END -->\n"
)


def test_an_edit_inside_a_user_block_is_high(repo, tmp_path):
    path = repo / "memory-bank" / "activeContext.md"
    path.write_text(ACTIVE)
    session = _session(tmp_path, [_prompt("mb:write")])
    writer = {"agent_id": "w1", "agent_type": "memory-bank-writer"}
    inside = {"file_path": str(path), "old_string": "keep the old API until June",
              "new_string": "drop the old API"}  # fmt: skip
    proc = _hook(repo, session, "Edit", inside, **writer)
    assert proc.returncode == 2 and USER_BLOCK_RULE in proc.stderr
    outside = {"file_path": str(path), "old_string": "focus: login", "new_string": "focus: x"}
    proc = _hook(repo, session, "Edit", outside, **writer)
    assert proc.returncode == 0, proc.stderr
    rewrite = {"file_path": str(path), "content": ACTIVE.replace("June", "July")}
    proc = _hook(repo, session, "Write", rewrite, **writer)
    assert proc.returncode == 2 and USER_BLOCK_RULE in proc.stderr
    same_notes = {"file_path": str(path), "content": ACTIVE.replace("login", "signup")}
    assert _hook(repo, session, "Write", same_notes, **writer).returncode == 0


UNCONFIRMED_RULE = "avatar-boundary.memory-bank-unconfirmed-write"
SPAWN_WRITER = {"description": "record", "prompt": "Record D003",
                "subagent_type": "memory-bank-writer"}  # fmt: skip


def test_the_writer_needs_mb_write_in_the_turn(repo, tmp_path):
    for prompt, code in (("mb:write", 0), ("ok, MB:WRITE please", 0), ("continue", 2),
                         ("mb:write\nwait, mb:no", 2)):  # fmt: skip
        session = _session(tmp_path, [_prompt(prompt)])
        proc = _hook(repo, session, "Task", SPAWN_WRITER)
        assert proc.returncode == code, (prompt, proc.stderr)
        assert (UNCONFIRMED_RULE in proc.stderr) == bool(code)
    # a confirmation in an earlier turn does not carry over
    session = _session(tmp_path, [_prompt("mb:write"), _prompt("now the tests")])
    assert _hook(repo, session, "Task", SPAWN_WRITER).returncode == 2
    # unknown without a transcript: said, never guessed
    proc = _hook(repo, None, "Task", SPAWN_WRITER)
    assert proc.returncode == 0 and "unknown" in proc.stderr


V70_RULE = """id: team.memory-bank-context-v70
category: body-boundary
severity: high
kind: memory-gate
check: context
risky_paths: ['(^|/)src/auth/']
context_files: [memory-bank/MEMORY.md, memory-bank/patterns.md]
message: v7.0 gate
applies_to: [transcript]
docs: Seed 003 v7.0, kept by a team
examples:
  match:
    - '{"type":"user","message":{"role":"user","content":"x"}}

      {"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Edit","input":{"file_path":"src/auth/a.ts","old_string":"a","new_string":"b"}}]}}'
  no_match:
    - '{"type":"user","message":{"role":"user","content":"x"}}

      {"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t0","name":"Read","input":{"file_path":"memory-bank/MEMORY.md"}}]}}

      {"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Edit","input":{"file_path":"src/auth/a.ts","old_string":"a","new_string":"b"}}]}}'
"""


def test_a_rule_parameter_keeps_the_v70_gate(repo, tmp_path):
    rules = tmp_path / "team-rules"
    rules.mkdir()
    (rules / "v70.yaml").write_text(V70_RULE)
    cwd = {"cwd": str(repo)}
    records = [_prompt("Tighten login", **cwd),
               _call("Read", {"file_path": "memory-bank/MEMORY.md"}, "t0", **cwd),
               _result("t0", "# Memory", **cwd), _call("Edit", AUTH_EDIT, "t1", **cwd),
               _result("t1", "ok", **cwd)]  # fmt: skip
    session = _session(repo, records)
    proc = subprocess.run(
        [sys.executable, "-m", "wukong_lint", "check", "--profile", "wukong", "--rules",
         str(rules), "--format", "json", str(session)],
        capture_output=True, text=True, check=False, cwd=repo,
    )  # fmt: skip
    ids = {f["rule_id"] for f in json.loads(proc.stdout)["findings"]}
    assert CONTEXT_RULE in ids  # v7.1: MEMORY.md alone is not enough
    assert "team.memory-bank-context-v70" not in ids  # v7.0: it is


def test_user_block_edit_seen_after_the_fact(tmp_path):
    # a transcript read later: the file on disk already holds the edit's new text
    from wukong_lint.protocol.memory_gate import user_block_edit

    path = tmp_path / "memory-bank" / "activeContext.md"
    path.parent.mkdir()
    path.write_text(ACTIVE.replace("keep the old API until June", "drop the old API"))
    done = {
        "file_path": "memory-bank/activeContext.md",
        "old_string": "keep the old API until June",
        "new_string": "drop the old API",
    }
    assert "inside a USER_BLOCK" in (user_block_edit("Edit", done, str(tmp_path)) or "")
    outside = {"file_path": "memory-bank/activeContext.md", "old_string": "focus: x",
               "new_string": "focus: login"}  # fmt: skip
    assert user_block_edit("Edit", outside, str(tmp_path)) is None
    assert user_block_edit("Edit", {**done, "file_path": "notes.txt"}, str(tmp_path)) is None
