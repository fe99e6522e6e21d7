"""Hostile transcripts (issue 7): each broken record gives a finding or a one-line message, the
right exit code, no traceback and no partial output file; the records around it are still read."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from wukong_lint.cli import main
from wukong_lint.sources import transcripts

# a realistic random token: it must be found after the hostile record, and never printed
TOKEN = "ghp_" + "Vb3Kx8Qm1Tz6Rw9Pn4Lc7Hd2Jf5Gs0Ya8Ue3"


def record(kind: str, content, **extra) -> str:
    message = {"role": kind, "content": content}
    return json.dumps({"type": kind, "uuid": "u", "sessionId": "s", "message": message, **extra})


def call(command: str, call_id: str | None = "toolu_1") -> str:
    block = {"type": "tool_use", "name": "Bash", "input": {"command": command}}
    if call_id is not None:
        block["id"] = call_id
    return record("assistant", [block])


def result(content, call_id: str | None = "toolu_1") -> str:
    block = {"type": "tool_result", "content": content}
    if call_id is not None:
        block["tool_use_id"] = call_id
    return record("user", [block])


HELLO = record("user", "hello")
LEAK = record("user", f"the token is {TOKEN}")
DEEP_ARRAY = "[" * 10000 + "]" * 10000
DEEP_OBJECT = '{"a":' * 10000 + "1" + "}" * 10000
# deep, but within what a JSON parser accepts: the scan walks it without recursion
DEEP_900 = '{"a":' * 900 + '"x"' + "}" * 900
DEEP_CALL = call("ls").replace('{"command": "ls"}', DEEP_900)

# name -> (lines of the transcript, findings (line, rule id) that must be reported)
CASES = {
    "truncated-last-line": (
        [HELLO, LEAK, call("ls"), result("ok"), call("rm -rf /", "toolu_2")[:-25]],
        {(2, "secret.github-pat"), (5, "transcript-integrity.malformed-record")},
    ),
    "non-json-line": (
        [HELLO, "this is not json {", LEAK],
        {(2, "transcript-integrity.malformed-record"), (3, "secret.github-pat")},
    ),
    "not-an-object": (
        [HELLO, "[1, 2, 3]", '"text"', "42", "null", "true", LEAK],
        {(n, "transcript-integrity.malformed-record") for n in (2, 3, 4, 5, 6)}
        | {(7, "secret.github-pat")},
    ),
    "deeply-nested-array": (
        [HELLO, DEEP_ARRAY, LEAK],
        {(2, "transcript-integrity.malformed-record"), (3, "secret.github-pat")},
    ),
    "deeply-nested-first-record": (
        [DEEP_OBJECT, HELLO, LEAK],
        {(1, "transcript-integrity.malformed-record"), (3, "secret.github-pat")},
    ),
    "deep-but-parseable": (
        [HELLO, DEEP_CALL, result("ok").replace('"ok"', DEEP_900), LEAK],
        {(4, "secret.github-pat")},
    ),
    "unknown-record-type": (
        [HELLO, json.dumps({"type": "brand-new-kind", "data": {"x": [1, {"y": "z"}]}}), LEAK],
        {(3, "secret.github-pat")},
    ),
    "tool-call-without-id": (
        [HELLO, call("rm -rf /", None), result("ok", None), LEAK],
        {
            (2, "dangerous-command.rm-rf-root"),
            (2, "transcript-integrity.missing-id"),
            (3, "transcript-integrity.missing-id"),
            (4, "secret.github-pat"),
        },
    ),
}


def found(report: dict) -> set[tuple[int, str]]:
    return {(f["line"], f["rule_id"]) for f in report["findings"]}


@pytest.fixture(params=["1", "2"])
def jobs(request, monkeypatch) -> str:
    """One process, or two with every line its own part (runner/offload.py)."""
    if request.param != "1":
        monkeypatch.setattr(transcripts, "SPLIT_MIN", 0)
        monkeypatch.setattr(transcripts, "PART_MIN", 1)
        monkeypatch.setattr(transcripts, "PARTS_PER_WORKER", 500)
        monkeypatch.setattr(transcripts, "FOLLOW_COST", 0.0)
    return request.param


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_record(name, jobs, tmp_path, capsys):
    lines, expected = CASES[name]
    path = tmp_path / f"{name}.jsonl"
    path.write_text("\n".join(lines) + ("" if name == "truncated-last-line" else "\n"))
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    out = out_dir / "report.json"
    code = main(["check", "--format", "json", "--jobs", jobs, "-o", str(out), str(path)])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and "internal error" not in captured.err
    report = json.loads(out.read_text())  # complete, valid JSON
    assert [p.name for p in out_dir.iterdir()] == ["report.json"]  # no temporary file left
    assert expected <= found(report), found(report)
    assert code == 1  # the secret (critical) fails the run
    assert TOKEN not in out.read_text() + captured.out + captured.err
    assert report["stats"]["bytes"] == path.stat().st_size


def test_twenty_megabyte_tool_result(jobs, tmp_path, capsys):
    big = "x" * (20 * 1024 * 1024)
    path = tmp_path / "big.jsonl"
    lines = [HELLO, call("cat dump"), result(f"{big} {TOKEN} {big[:1000]}"), call("ls", "t2")]
    path.write_text("\n".join(lines) + "\n")
    code = main(["check", "--format", "json", "--jobs", jobs, str(path)])
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert code == 1
    assert (3, "secret.github-pat") in found(report)
    assert (4, "transcript-integrity.tool-result-missing") in found(report)
    assert TOKEN not in captured.out and "Traceback" not in captured.err
    assert max(len(f["snippet"]) for f in report["findings"]) < 1000


def test_only_garbage_is_no_transcript_and_no_crash(tmp_path, capsys):
    path = tmp_path / "deep.jsonl"
    path.write_text(DEEP_OBJECT + "\n")
    code = main(["check", "--format", "json", "--jobs", "1", str(path)])
    captured = capsys.readouterr()
    assert code == 0 and json.loads(captured.out)["findings"] == []
    assert "Traceback" not in captured.err


def test_redact_of_deeply_nested_lines_keeps_them(tmp_path, capsys):
    source = tmp_path / "s.jsonl"
    source.write_text("\n".join([DEEP_ARRAY, DEEP_CALL, LEAK]) + "\n")
    target = tmp_path / "clean.jsonl"
    assert main(["redact", str(source), "-o", str(target)]) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    lines = target.read_text().splitlines()
    assert lines[0] == DEEP_ARRAY and TOKEN not in target.read_text()


def test_hook_with_deeply_nested_event_says_so():
    proc = subprocess.run(
        [sys.executable, "-m", "wukong_lint", "hook", "--mode", "exit"],
        input=DEEP_OBJECT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1 and "nested too deeply" in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_missing_transcript_is_a_one_line_input_error(tmp_path, capsys):
    out = tmp_path / "report.json"
    code = main(["check", "--jobs", "1", "-o", str(out), str(tmp_path / "nope.jsonl")])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []
