"""The versioned 戒 fixtures (tests/fixtures/protocol/versions, issue 27): sessions written from
the seeds (jie-2026-01) and from upstream at its current commits (jie-current), each listed in
INDEX.yaml with what it must give: a compliant session no finding above low (and none of the
rules annotated `ok:` on their lines), a planted violation a finding of the rule INDEX.yaml
names at the annotated line. Each setup folder stands for a project root (its
`.claude/agents/`, `memory-bank/`): it is scanned with the working directory set there, once
with the version detected (`auto`) and once with the fixture's version configured.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
import yaml

from wukong_lint.cli import main

HERE = Path(__file__).parent / "fixtures" / "protocol" / "versions"
CASES: list[dict[str, Any]] = yaml.safe_load((HERE / "INDEX.yaml").read_text(encoding="utf-8"))[
    "fixtures"
]
ABOVE_LOW = {"medium", "high", "critical"}
# Fixtures this change does not cover yet, with why (strict: a fix must take them off).
KNOWN_GAPS = {
}


def _folder(case: dict[str, Any]) -> Path:
    if case["kind"] == "file":
        parts = Path(case["file"]).parts
        return HERE / parts[0] / parts[1] / parts[2]  # <version>/files/<case>
    return (HERE / case["file"]).parent


def _scan(folder: Path, names: list[str], version: str, tmp: Path, monkeypatch: Any) -> list:
    monkeypatch.chdir(folder)
    out = tmp / f"report-{abs(hash((str(folder), version)))}.json"
    code = main(["check", "--profile", "wukong", "--format", "json", "--jobs", "1",
                 "--protocol-version", version, "-o", str(out), *names])  # fmt: skip
    assert code in (0, 1)
    return json.loads(out.read_text(encoding="utf-8"))["findings"]


def _run(mode: str, tmp: Path, monkeypatch: Any) -> dict[str, list[dict[str, Any]]]:
    """Fixture file (as INDEX.yaml names it) -> the findings on it and its sub-agent files:
    one scan per setup folder and version."""
    groups: dict[tuple[Path, str], list[dict[str, Any]]] = defaultdict(list)
    for case in CASES:
        groups[(_folder(case), case["version"])].append(case)
    found: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for (folder, version), cases in groups.items():
        names = []
        for case in cases:
            names.append(os.path.relpath(HERE / case["file"], folder))
            names += [os.path.relpath(HERE / e, folder) for e in case.get("extra_files", ())]
        names = list(dict.fromkeys(names))
        findings = _scan(folder, names, "auto" if mode == "auto" else version, tmp, monkeypatch)
        for case in cases:
            own = os.path.splitext(os.path.relpath(HERE / case["file"], folder))[0]
            extra = {os.path.relpath(HERE / e, folder) for e in case.get("extra_files", ())}
            for f in findings:
                path = f["path"].replace(os.sep, "/")
                if (
                    path == os.path.relpath(HERE / case["file"], folder)
                    or path in extra
                    or (case["kind"] == "transcript" and path.startswith(own + "/subagents/"))
                ):
                    found[case["file"]].append(f)
    return found


@pytest.fixture(scope="module")
def reports(tmp_path_factory: Any) -> dict[str, dict[str, list[dict[str, Any]]]]:
    monkeypatch = pytest.MonkeyPatch()
    # (the user's own ~/.claude/agents must not change what a fixture gives)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path_factory.mktemp("claude")))
    for name in ("MEMORY_BANK_GUARD_MODE", "MEMORY_BANK_DOC_FIRST_MODE"):
        monkeypatch.delenv(name, raising=False)
    try:
        tmp = tmp_path_factory.mktemp("reports")
        return {mode: _run(mode, tmp, monkeypatch) for mode in ("auto", "configured")}
    finally:
        monkeypatch.undo()


def _annotations(case: dict[str, Any]) -> list[tuple[str, int, str]]:
    """(file, line, rule) of the `ok:` annotations of a transcript fixture and its sub-agent
    files."""
    files = [case["file"], *case.get("extra_files", ())]
    stem = (HERE / case["file"]).with_suffix("")
    files += [str(p.relative_to(HERE)) for p in sorted((stem / "subagents").glob("*.jsonl"))]
    found = []
    for name in dict.fromkeys(files):
        pending: list[str] = []
        for number, line in enumerate((HERE / name).read_text(encoding="utf-8").splitlines(), 1):
            record = json.loads(line)
            if record.get("type") == "x-expect":
                if "ok" in record:
                    pending.append(record["ok"])
                continue
            found += [(name, number, rule) for rule in pending]
            pending = []
    return found


def _problems(case: dict[str, Any], findings: list[dict[str, Any]]) -> list[str]:
    if case["expect"] == "compliant":
        problems = [f"{f['rule_id']} ({f['severity']}) on line {f['line']}: {f['message'][:160]}"
                    for f in findings if f["severity"] in ABOVE_LOW]  # fmt: skip
        if case["kind"] == "transcript":
            for name, line, rule in _annotations(case):
                tail = Path(name).name
                problems += [f"{rule} on the look-alike of line {line} of {tail}"
                             for f in findings if f["rule_id"] == rule and f["line"] == line
                             and f["path"].endswith(tail)]  # fmt: skip
        return problems
    rule, line = case["expect"], case.get("line")
    in_file = Path(case.get("in_file", case["file"])).name
    hits = [f for f in findings if f["rule_id"] == rule]
    if not hits:
        got = sorted({f["rule_id"] for f in findings})
        return [f"{rule} not found (found: {', '.join(got) or 'nothing'})"]
    at_line = [f for f in hits if f["line"] == line and f["path"].endswith(in_file)]
    if line is not None and not at_line:
        return [f"{rule} found, but not on line {line} of {in_file}: {[f['line'] for f in hits]}"]
    return []


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["auto", "configured"])
@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_versioned_fixture(case: dict[str, Any], mode: str, reports: dict) -> None:
    problems = _problems(case, reports[mode][case["file"]])
    if case["file"] in KNOWN_GAPS:
        assert problems, f"{case['file']} passes now: take it off KNOWN_GAPS"
        pytest.xfail(KNOWN_GAPS[case["file"]])
    assert not problems, "\n".join(problems)


def test_the_targets_of_issue_27(reports: dict) -> None:
    """Per version: no compliant session with a finding above low, at least 95 % of the
    planted violations found by the rule that names them (auto detection)."""
    for version in ("jie-2026-01", "jie-current"):
        cases = [c for c in CASES if c["version"] == version and c["kind"] == "transcript"]
        compliant = [c for c in cases if c["expect"] == "compliant"]
        planted = [c for c in cases if c["expect"] != "compliant"]
        assert len(compliant) >= 40 and len(planted) >= 40
        flagged = [c["file"] for c in compliant if _problems(c, reports["auto"][c["file"]])]
        found = [c for c in planted if not _problems(c, reports["auto"][c["file"]])]
        assert flagged == [], version
        assert len(found) >= 0.95 * len(planted), (version, len(found), len(planted))


def test_a_version_judges_sessions_of_the_other_by_its_own_rules(tmp_path, monkeypatch) -> None:
    """Configured, a version holds every session to its facts: the current core rule's
    CHECKPOINT (no decision line) is incomplete for the seeds' version, and nose's Glob is
    forbidden there; detected, the same session is compliant."""
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path))
    folder = HERE / "jie-current" / "bare"
    names = ["tools-ok-nose-glob-bare.jsonl"]
    rules = {f["rule_id"] for f in _scan(folder, names, "jie-2026-01", tmp_path, monkeypatch)}
    assert {"body-boundary.checkpoint-incomplete", "avatar-boundary.forbidden-tool"} <= rules
    auto = _scan(folder, names, "auto", tmp_path, monkeypatch)
    assert not [f for f in auto if f["severity"] in ABOVE_LOW]


def test_parts_agree_with_a_whole_read(tmp_path, monkeypatch) -> None:
    """The version detected and the facts of the turns travel with the session state: a
    session read in parts on two processes (a part a line) reports what one read does."""
    from wukong_lint.sources import transcripts

    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path))
    folder = HERE / "jie-current" / "memory-bank"
    lines: list[str] = []
    for name in sorted(folder.glob("mb-*.jsonl"))[:8]:
        text = name.read_text(encoding="utf-8")
        lines += text.replace("toolu_", f"toolu_{len(lines)}_").splitlines()
    session = tmp_path / "all.jsonl"
    session.write_text("\n".join(lines) + "\n", encoding="utf-8")
    whole = _scan(folder, [str(session)], "auto", tmp_path, monkeypatch)
    monkeypatch.setattr(transcripts, "SPLIT_MIN", 0)
    monkeypatch.setattr(transcripts, "PART_MIN", 1)
    monkeypatch.setattr(transcripts, "PARTS_PER_WORKER", 500)
    monkeypatch.setattr(transcripts, "FOLLOW_COST", 0.0)
    out = tmp_path / "parts.json"
    assert main(["check", "--profile", "wukong", "--format", "json", "-o", str(out), "--jobs",
                 "2", str(session)]) in (0, 1)  # fmt: skip
    parts = json.loads(out.read_text(encoding="utf-8"))["findings"]
    key = lambda f: (f["line"], f["rule_id"], f["message"], f["severity"])  # noqa: E731
    assert sorted(map(key, parts)) == sorted(map(key, whole))
    assert whole  # (the memory-bank sessions do give findings)
