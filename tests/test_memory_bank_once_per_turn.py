"""Seed 003's low-risk warning (a write before reading the memory bank) is reported once per
user turn, not once per write: in the live hook (real events, real session transcripts) and
in transcript scans. The high-risk gate still judges every write (each one is blocked)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_hook_memory_bank import _call, _hook, _prompt, _result, _session
from wukong_lint.cli import main

LOW = "body-boundary.memory-bank-context-low"
HIGH = "body-boundary.memory-bank-context"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A project with a memory bank (the gate applies only there)."""
    root = tmp_path / "repo"
    (root / "memory-bank").mkdir(parents=True)
    (root / "memory-bank" / "MEMORY.md").write_text("# Memory\n")
    return root


def edit(path: str, call_id: str) -> dict:
    return _call("Edit", {"file_path": path, "old_string": "a", "new_string": "b"}, call_id)


def test_the_hook_warns_once_per_turn(repo: Path, tmp_path: Path) -> None:
    now = {"file_path": "docs/b.md", "old_string": "a", "new_string": "b"}
    session = _session(tmp_path, [_prompt("Fix the typos")])
    first = _hook(repo, session, "Edit", now, "--fail-on", "low")
    assert first.returncode == 2 and LOW in first.stderr  # the turn's first write
    earlier = [_prompt("Fix the typos"), edit("docs/a.md", "t1"), _result("t1", "ok")]
    session = _session(tmp_path, earlier)
    again = _hook(repo, session, "Edit", now, "--fail-on", "low")
    assert again.returncode == 0 and LOW not in again.stderr, again.stderr
    # the call being judged may already stand in the transcript: it is not an earlier write
    session = _session(tmp_path, [_prompt("Fix the typos"), edit("docs/b.md", "toolu_now")])
    assert _hook(repo, session, "Edit", now, "--fail-on", "low").returncode == 2
    # earlier writes that are not low-risk ones (the memory bank's own file, a high-risk
    # path) do not count; a new turn warns again
    for records in (
        [_prompt("Fix"), edit("memory-bank/MEMORY.md", "t1"), _result("t1", "ok")],
        [_prompt("Fix"), edit("src/auth/login.ts", "t1"), _result("t1", "ok")],
        [*earlier, _prompt("And the other typos")],
    ):
        session = _session(tmp_path, records)
        proc = _hook(repo, session, "Edit", now, "--fail-on", "low")
        assert proc.returncode == 2 and LOW in proc.stderr, records


def test_high_risk_writes_are_each_blocked(repo: Path, tmp_path: Path) -> None:
    auth = {"file_path": "src/auth/login.ts", "old_string": "a", "new_string": "b"}
    earlier = [_prompt("Tighten the login"), edit("src/auth/session.ts", "t1"), _result("t1", "")]
    proc = _hook(repo, _session(tmp_path, earlier), "Edit", auth)
    assert proc.returncode == 2 and HIGH in proc.stderr


def test_transcript_scans_report_it_once_per_turn(
    repo: Path, tmp_path: Path, capsys, monkeypatch
) -> None:
    monkeypatch.chdir(repo)
    records = [_prompt("Fix the typos")]
    for n, path in enumerate(("README.md", "docs/a.md", "src/auth/x.ts", "docs/b.md")):
        records += [edit(path, f"t{n}"), _result(f"t{n}", "ok")]
    records += [_prompt("And the rest"), edit("memory-bank/notes.md", "m1"), _result("m1", "ok")]
    records += [edit("docs/c.md", "t8"), _result("t8", "ok"), edit("docs/d.md", "t9")]
    session = _session(tmp_path, records)
    code = main(["check", "--profile", "wukong", "--format", "json", "--jobs", "1",
                 "--select", "body-boundary", str(session)])  # fmt: skip
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert code == 1
    low = [f["line"] for f in findings if f["rule_id"] == LOW]
    assert low == [2, 13]  # the first low-risk write of each turn (not 4, 8, 15)
    assert [f["line"] for f in findings if f["rule_id"] == HIGH] == [6]
