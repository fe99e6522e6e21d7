"""Every agent's session history as a source (issue 29): the Gemini CLI reader (session JSON
and JSONL, logs, checkpoints, stream-json), the current Codex rollout schema, and the
differential property of `check` and `redact` on generated sessions of all three agents:
every line `redact` changes holds a `check` secret finding, and every line holding one is
changed."""

from __future__ import annotations

import collections
import importlib
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from wukong_lint.cli import main
from wukong_lint.model.events import Context
from wukong_lint.sources.transcripts.gemini import gemini_units
from wukong_lint.sources.transcripts.session import Session
from wukong_lint.sources.transcripts.sniff import sniff_format

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "history"
GEMINI = FIXTURES / "gemini"
GEMINI_CHATS = GEMINI / "tmp" / "acme-api" / "chats"


def units(path: Path) -> list[Any]:
    session = Session(str(path), Context())
    found = [u for u in gemini_units(session, str(path)) if u is not None]
    found += [u for u in session.finish() if u is not None]
    return [u for u in found if hasattr(u, "event")]


def check_json(capsys, *args: str) -> dict[str, Any]:
    main(["check", "--format", "json", "-o", "-", "--exit-zero", "--jobs", "1", *args])
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "name",
    [
        "chats/session-2026-03-02T10-15-d0aa70c6.json",
        "chats/session-2026-08-28T14-02-c3abb0e4.jsonl",
        "chats/c3abb0e4-dcd7-4350-9dea-1b3f8434b930/01caf018-7d1e-42fe-ac38-8e1aef0c65dd.jsonl",
        "logs.json",
        "checkpoint-geocoder.json",
    ],
)
def test_gemini_files_are_sniffed_as_gemini(name: str):
    assert sniff_format(str(GEMINI / "tmp" / "acme-api" / name)) == "gemini"


def test_gemini_stream_json_is_sniffed_as_gemini():
    (stream,) = (GEMINI / "stream-json").glob("*.jsonl")
    assert sniff_format(str(stream)) == "gemini"


def test_gemini_session_json_calls_commands_and_outputs_have_their_own_lines():
    made = units(GEMINI_CHATS / "session-2026-03-02T10-15-d0aa70c6.json")
    calls = [u for u in made if u.event.kind == "call"]
    assert [u.event.tool for u in calls] == ["run_shell_command", "replace"]
    assert calls[0].event.command == "cat .env"
    results = [u for u in made if u.event.kind == "result"]
    assert [u.event.tool for u in results] == ["run_shell_command", "replace"]
    # the shell output stands on line 52 of the pretty file: each of its lines is placed there
    shell_output = results[0]
    assert "Output: DATABASE_URL=" in shell_output.text
    assert set(shell_output.line_numbers) == {52}
    api_error = [u for u in made if u.event.kind == "message" and "[API Error" in u.text]
    assert [u.line_numbers for u in api_error] == [(114,)]  # the `error` message's line


def test_gemini_jsonl_repeated_message_makes_its_call_once():
    made = units(GEMINI_CHATS / "session-2026-08-28T14-02-c3abb0e4.jsonl")
    calls = [(u.first_line, u.event.tool) for u in made if u.event.kind == "call"]
    tools = [tool for _, tool in calls]
    assert tools.count("run_shell_command") == 1
    assert "write_file" in tools and "web_fetch" in tools
    user = [u for u in made if u.event.kind == "message" and u.event.role == "user"]
    assert user and user[0].first_line == 2  # the prompt is read, not a malformed Claude record
    assert not [u for u in made if u.event.problem == "malformed-record"]


def test_gemini_stream_json_events():
    (stream,) = (GEMINI / "stream-json").glob("*.jsonl")
    made = units(stream)
    calls = [u for u in made if u.event.kind == "call"]
    assert [u.event.tool for u in calls] == ["read_file", "replace", "run_shell_command"]
    failed = [u for u in made if u.event.kind == "result" and u.event.is_error]
    assert [u.first_line for u in failed] == [9]


def _expected() -> list[tuple[str, int, str]]:
    data = yaml.safe_load((FIXTURES / "EXPECTED.yaml").read_text(encoding="utf-8"))
    return [
        (name, secret["line"], secret["rule"])
        for name, entry in data["files"].items()
        for secret in entry["secrets"]
    ]


def test_every_planted_fixture_secret_is_found_on_its_line_with_its_rule(capsys):
    report = check_json(capsys, str(FIXTURES / "claude"), str(FIXTURES / "codex"), str(GEMINI))
    found = {
        (Path(f["path"]).resolve().relative_to(FIXTURES).as_posix(), f["line"], f["rule_id"])
        for f in report["findings"]
    }
    lines = {(path, line) for path, line, _ in found}
    missing = [e for e in _expected() if (e[0], e[1]) not in lines]
    assert not missing
    assert not [f for f in report["findings"] if f["rule_id"].endswith("malformed-record")]


def _generate(out: Path, megabytes: float, seed: int) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        corpus = importlib.import_module("history_corpus")
        corpus.generate(str(out), megabytes, seed, ["claude", "codex", "gemini"], 0.02, False, 34)
    finally:
        sys.path.remove(str(ROOT / "bench"))


def _differences(capsys, root: Path, work: Path) -> tuple[list[str], int]:
    report = check_json(capsys, str(root))
    found: dict[str, set[int]] = collections.defaultdict(set)
    for finding in report["findings"]:
        if finding["category"] == "secret":
            found[str(Path(finding["path"]).resolve())].add(finding["line"])
    problems: list[str] = []
    changed_total = 0
    out = work / "clean.out"
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        if path.name.startswith("MANIFEST"):
            continue
        assert main(["redact", str(path), "-o", str(out)]) == 0
        capsys.readouterr()
        before = path.read_bytes().split(b"\n")
        after = out.read_bytes().split(b"\n")
        assert len(before) == len(after), path  # (redact keeps every line where it is)
        changed = {n for n, (a, b) in enumerate(zip(before, after, strict=True), 1) if a != b}
        changed_total += len(changed)
        for number in changed:  # every rewritten JSONL record still loads
            if path.suffix == ".jsonl":
                json.loads(after[number - 1])
        reported = found.get(str(path.resolve()), set())
        if changed != reported:
            problems.append(
                f"{path.relative_to(root)}: changed without a finding {sorted(changed - reported)}"
                f", a finding but unchanged {sorted(reported - changed)}"
            )
        shutil.rmtree(out.with_suffix(""), ignore_errors=True)  # (sub-agent copies)
    return problems, changed_total


def test_check_and_redact_agree_line_by_line_on_the_fixtures(tmp_path: Path, capsys):
    root = tmp_path / "history"
    for agent in ("claude", "codex", "gemini"):
        shutil.copytree(FIXTURES / agent, root / agent)
    problems, changed = _differences(capsys, root, tmp_path)
    assert not problems
    assert changed >= 70


@pytest.mark.slow
def test_check_and_redact_agree_line_by_line_on_generated_sessions(tmp_path: Path, capsys):
    root = tmp_path / "history"
    _generate(root, 3, 11)
    summary = json.loads((root / "MANIFEST.summary.json").read_text(encoding="utf-8"))
    assert {"claude-code", "codex", "gemini"} <= set(summary["sessions"])
    problems, changed = _differences(capsys, root, tmp_path)
    assert not problems
    assert changed >= summary["manifest_entries"] * 0.95


CODEX_0149 = sorted((FIXTURES / "codex" / "sessions" / "2026").rglob("rollout-*.jsonl"))[0]


def codex_units_of(path: Path) -> list[Any]:
    from wukong_lint.sources.transcripts.codex import codex_units

    session = Session(str(path), Context())
    found = [u for u in codex_units(session, str(path)) if u is not None]
    found += [u for u in session.finish() if u is not None]
    return [u for u in found if hasattr(u, "event")]


def test_codex_code_mode_exec_runs_its_nested_commands_as_calls():
    calls = [u for u in codex_units_of(CODEX_0149) if u.event.kind == "call"]
    nested = [u for u in calls if u.first_line == 12 and u.event.command]
    assert [u.event.command.split()[:2] for u in nested] == [["curl", "-sf"]]
    assert {u.event.tool for u in calls} >= {"exec_command", "exec", "wait"}


def test_codex_item_completed_command_is_a_call_when_no_response_item_made_it(tmp_path: Path):
    item = {"type": "CommandExecution", "id": "call_only_item", "command": ["/bin/bash", "-lc",
            "cat ~/.aws/credentials"], "cwd": "/w", "aggregated_output": "[default]\n",
            "exit_code": 1}  # fmt: skip
    record = {"timestamp": "2026-09-01T10:00:00.000Z", "type": "event_msg",
              "payload": {"type": "item_completed", "item": item}}  # fmt: skip
    path = tmp_path / "rollout-2026-09-01T10-00-00-paginated.jsonl"
    path.write_text(json.dumps({"type": "session_meta", "payload": {"id": "t"}}) + "\n"
                    + json.dumps(record) + "\n")  # fmt: skip
    made = codex_units_of(path)
    calls = [u for u in made if u.event.kind == "call"]
    assert [(u.first_line, u.event.command) for u in calls] == [(2, "cat ~/.aws/credentials")]
    results = [u for u in made if u.event.kind == "result"]
    assert results and results[0].event.is_error
