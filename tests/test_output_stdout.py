"""`-o -` means standard output for every command that takes `-o` (issue 29): never a file
named `-`."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_named_inputs import wukong
from tests.test_subagent_inputs import TOKEN, _session


def test_check_o_dash_writes_the_report_to_stdout(tmp_path: Path):
    (tmp_path / "a.py").write_text(f'T = "{TOKEN}"\n')
    proc = wukong("check", "a.py", "--format", "json", "-o", "-", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert [f["rule_id"] for f in json.loads(proc.stdout)["findings"]] == ["secret.github-pat"]
    assert not (tmp_path / "-").exists()
    assert TOKEN not in proc.stdout + proc.stderr


def test_baseline_o_dash_writes_the_baseline_to_stdout(tmp_path: Path):
    (tmp_path / "a.py").write_text(f'T = "{TOKEN}"\n')
    proc = wukong("baseline", "create", "a.py", "-o", "-", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)  # the baseline itself, its summary on stderr
    assert "1 finding recorded" in proc.stderr
    assert not (tmp_path / "-").exists()
    assert not (tmp_path / ".wukong-lint-baseline.json").exists()


def test_rules_docs_o_dash_writes_to_stdout(tmp_path: Path):
    proc = wukong("rules", "docs", "-o", "-", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("#") and not (tmp_path / "-").exists()


def test_redact_o_dash_and_a_session_s_subagent_files(tmp_path: Path):
    parent, sub = _session(tmp_path)
    proc = wukong("redact", str(parent), "-o", "-", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(line)["uuid"] for line in proc.stdout.splitlines()] == ["u1", "u2", "u3"]
    assert not (tmp_path / "-").exists()
    assert "1 sub-agent transcript(s)" in proc.stderr and "NOT redacted" in proc.stderr
    # -o FILE: the sub-agent files go to FILE's session folder, the originals untouched
    out = tmp_path / "clean.jsonl"
    proc = wukong("redact", str(parent), "-o", str(out), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    clean_sub = tmp_path / "clean" / "subagents" / sub.name
    assert TOKEN not in clean_sub.read_text() and "[REDACTED:" in clean_sub.read_text()
    assert TOKEN in sub.read_text()
    assert "with 1 sub-agent transcript(s)" in proc.stderr
    # an OUT without a suffix: beside it, in OUT.d
    proc = wukong("redact", str(parent), "-o", str(tmp_path / "out"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert TOKEN not in (tmp_path / "out.d" / "subagents" / sub.name).read_text()
    # --in-place: cleaned too
    proc = wukong("redact", str(parent), "--in-place", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert TOKEN not in sub.read_text()
    assert [json.loads(line)["uuid"] for line in sub.read_text().splitlines()] == [
        "s1", "s2", "s3"
    ]  # fmt: skip
    check = wukong("check", str(tmp_path / "proj"), "--format", "json", cwd=tmp_path)
    assert not [f for f in json.loads(check.stdout)["findings"] if "secret." in f["rule_id"]]


def test_redact_refuses_to_replace_the_subagent_files_through_o(tmp_path: Path):
    parent, _ = _session(tmp_path)
    proc = wukong("redact", str(parent), "-o", str(parent.with_suffix(".json")), cwd=tmp_path)
    assert proc.returncode == 2 and "sub-agent files" in proc.stderr
