"""`orphan-result` follows tool-use ids across the whole file, not line order (issue 29):
with parallel tool calls Claude Code may write a result's line before its call's line. A
result whose call never appears is still reported; a whole read and a read in parts agree."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_hostile_transcripts import HELLO, TOKEN, call, found, jobs, result
from wukong_lint.cli import main

__all__ = ["jobs"]  # (the fixture: one process, or two with every line its own part)

ORPHAN = "transcript-integrity.orphan-result"
MISSING = "transcript-integrity.tool-result-missing"


def _check(tmp_path: Path, lines: list[str], jobs: str, capsys) -> tuple[int, dict]:
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(lines) + "\n")
    code = main(["check", "--format", "json", "--jobs", jobs, str(path)])
    out = capsys.readouterr().out
    assert TOKEN not in out
    return code, json.loads(out)


def test_a_result_written_before_its_call_is_no_orphan(jobs, tmp_path, capsys):
    lines = [
        HELLO,
        call("ls", "toolu_a"),  # 2
        result(f"GH_TOKEN={TOKEN}", "toolu_b"),  # 3: the second call's result, first
        call("cat .env", "toolu_b"),  # 4
        result("README.md", "toolu_a"),  # 5
    ]
    code, report = _check(tmp_path, lines, jobs, capsys)
    got = found(report)
    assert not any(rule in (ORPHAN, MISSING) for _, rule in got), got
    assert (3, "secret.github-pat") in got  # the early result is still scanned, on its line
    assert code == 1


def test_a_result_whose_call_never_comes_is_still_an_orphan(jobs, tmp_path, capsys):
    lines = [HELLO, result("late output", "toolu_z"), call("ls", "toolu_a"),
             result("ok", "toolu_a")]  # fmt: skip
    _, report = _check(tmp_path, lines, jobs, capsys)
    got = found(report)
    assert (2, ORPHAN) in got
    assert not any(rule == MISSING for _, rule in got)


def test_the_history_fixture_s_parallel_calls_give_no_orphan(capsys):
    fixture = Path(__file__).parent / "fixtures" / "history" / "claude"
    main(["check", "--format", "json", str(fixture)])
    report = json.loads(capsys.readouterr().out)
    assert report["stats"]["units"] > 0
    assert not any(f["rule_id"] == ORPHAN for f in report["findings"])
