"""The 戒 protocol fixtures (tests/fixtures/protocol, written by its build.py from the seeds'
wording and the upstream templates): annotation records `{"type": "x-expect", "ruleid": R}`
before a record that must have a finding of R, `{"type": "x-expect", "ok": R}` before a
compliant look-alike that must not; ReAct histories carry them in a `.expect` sidecar (`LINE
ruleid: R`). A finding of an annotated rule on a line without `ruleid:` fails too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wukong_lint.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "protocol"
SESSIONS = sorted(p.name for p in FIXTURES.iterdir() if p.suffix in (".jsonl", ".txt"))


def _expectations(path: Path) -> list[tuple[int, str, str]]:
    """(line, ruleid|ok, rule) for each annotation of a fixture."""
    found: list[tuple[int, str, str]] = []
    if path.suffix == ".txt":
        for raw in path.with_suffix(".expect").read_text(encoding="utf-8").splitlines():
            number, what = raw.split(" ", 1)
            kind, _, rules = what.partition(":")
            found += [(int(number), kind, r.strip()) for r in rules.split(",")]
        return found
    pending: list[tuple[str, str]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        record = json.loads(line)
        if record.get("type") == "x-expect":
            kind = "ruleid" if "ruleid" in record else "ok"
            pending.append((kind, record[kind]))
            continue
        found += [(number, kind, rule) for kind, rule in pending]
        pending = []
    return found


def _scan(path: Path, tmp_path: Path, *extra: str) -> list[dict]:
    out = tmp_path / "report.json"
    fmt = ["--transcript-format", "react"] if path.suffix == ".txt" else []
    code = main(["check", "--profile", "wukong", "--format", "json", "-o", str(out), "--jobs",
                 "1", *fmt, *extra, str(path)])  # fmt: skip
    assert code in (0, 1)
    return json.loads(out.read_text(encoding="utf-8"))["findings"]


def _problems(path: Path, findings: list[dict], display: str) -> list[str]:
    expectations = _expectations(path)
    rules = {rule for _, _, rule in expectations}
    at = {(f["rule_id"], f["line"]) for f in findings if f["path"].endswith(display)}
    wanted = {(rule, line) for line, kind, rule in expectations if kind == "ruleid"}
    problems = []
    for line, kind, rule in expectations:
        hit = (rule, line) in at
        if kind == "ruleid" and not hit:
            problems.append(f"{display}:{line}: expected {rule}, not found")
        if kind == "ok" and hit:
            problems.append(f"{display}:{line}: {rule} on a compliant look-alike")
    for rule, line in sorted(at):
        if rule in rules and (rule, line) not in wanted:
            problems.append(f"{display}:{line}: unexpected {rule}")
    return problems


@pytest.mark.parametrize("name", SESSIONS)
def test_protocol_fixture(name: str, tmp_path: Path) -> None:
    path = FIXTURES / name
    findings = _scan(path, tmp_path)
    problems = _problems(path, findings, name)
    sub = FIXTURES / path.stem / "subagents"
    if sub.is_dir():
        for agent in sorted(sub.glob("agent-*.jsonl")):
            display = f"{path.stem}/subagents/{agent.name}"
            problems += _problems(agent, findings, display)
    assert not problems, "\n".join(problems)


def test_enough_labelled_cases() -> None:
    """Issue 16: at least 40 planted violations and as many compliant look-alikes."""
    files = [FIXTURES / n for n in SESSIONS]
    files += sorted(FIXTURES.glob("*/subagents/agent-*.jsonl"))
    labels = [kind for f in files for _, kind, _ in _expectations(f)]
    assert labels.count("ruleid") >= 40
    assert labels.count("ok") >= labels.count("ruleid")


def test_generic_profile_reports_no_protocol_findings(tmp_path: Path) -> None:
    """The protocol is the `wukong` profile's: a generic scan of the same sessions is quiet."""
    protocol = ("body-boundary", "avatar-boundary", "context")
    for name in ("layer1.jsonl", "layer3.jsonl", "context.jsonl"):
        out = tmp_path / "r.json"
        assert main(["check", "--profile", "generic", "--format", "json", "-o", str(out),
                     str(FIXTURES / name)]) in (0, 1)  # fmt: skip
        found = json.loads(out.read_text(encoding="utf-8"))["findings"]
        assert not [f["rule_id"] for f in found if f["category"] in protocol]


def test_parts_report_what_a_whole_read_reports(tmp_path: Path, monkeypatch) -> None:
    """The protocol facts travel with the session state: a session read in parts on two
    processes (every line its own part) reports the same protocol findings as one read."""
    from wukong_lint.sources import transcripts

    session = tmp_path / "all.jsonl"
    lines: list[str] = []
    for name in ("layer1.jsonl", "layer2.jsonl", "layer3.jsonl", "contracts.jsonl",
                 "spawns.jsonl", "context.jsonl", "errors.jsonl"):  # fmt: skip
        text = (FIXTURES / name).read_text(encoding="utf-8")
        lines += text.replace("toolu_", f"toolu_{len(lines)}_").splitlines()  # ids stay unique
    session.write_text("\n".join(lines) + "\n", encoding="utf-8")
    whole = _scan(session, tmp_path)
    monkeypatch.setattr(transcripts, "SPLIT_MIN", 0)
    monkeypatch.setattr(transcripts, "PART_MIN", 1)
    monkeypatch.setattr(transcripts, "PARTS_PER_WORKER", 500)
    monkeypatch.setattr(transcripts, "FOLLOW_COST", 0.0)
    out = tmp_path / "parts.json"
    assert main(["check", "--profile", "wukong", "--format", "json", "-o", str(out), "--jobs",
                 "2", str(session)]) == 1  # fmt: skip
    parts = json.loads(out.read_text(encoding="utf-8"))["findings"]
    key = lambda f: (f["line"], f["rule_id"], f["message"])  # noqa: E731
    assert sorted(map(key, parts)) == sorted(map(key, whole))
    protocol = {"body-boundary", "avatar-boundary", "context"}
    assert protocol <= {f["category"] for f in whole}
