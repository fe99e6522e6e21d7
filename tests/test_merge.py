"""`wukong-lint merge REPORT...`: the shards' JSON or SARIF reports as one (findings
de-duplicated by fingerprint, stats summed, errors kept), failing closed on what does not
fit together, the SARIF it writes valid against the official 2.1.0 schema."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import jsonschema
import pytest

from wukong_lint.cli import main

SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text())
PREFIX = "ghp_" + "Q9wErTyUiOp8AsDfGhJkL7zXcVbNm6"
STRIPE = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"


def token(n: int) -> str:
    return f"{PREFIX}{n:06d}"


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    """A folder of files with findings (one suppressed inline, one name that needs quoting
    in a URI), scanned from its parent."""
    root = tmp_path / "project"
    for i in range(12):
        folder = root / f"pkg{i % 3}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"m{i}.py").write_text(f"T = '{token(i)}'\nimport os\nos.system('rm -rf /')\n")
    (root / "odd name %, ü.env").write_text(f"GH={token(77)}\n")
    (root / "ignored.py").write_text(f"K = '{STRIPE}'  # wukong-lint: ignore[secret]\n")
    monkeypatch.chdir(tmp_path)
    return root


def check(capsys, *args: str) -> tuple[int, str]:
    code = main(["check", "project", "--jobs", "1", *args])
    capsys.readouterr()
    return code, ""


def shard_reports(capsys, tmp_path: Path, fmt: str, count: int = 3) -> list[str]:
    paths = []
    for k in range(1, count + 1):
        out = str(tmp_path / f"shard{k}.{fmt}")
        main(["check", "project", "--jobs", "1", "--format", fmt, "-o", out,
              "--shard", f"{k}/{count}", "-q"])  # fmt: skip
        paths.append(out)
    capsys.readouterr()
    return paths


def merge(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["merge", *args])
    out, err = capsys.readouterr()
    return code, out, err


def keys(findings: list[dict]) -> Counter:
    return Counter((f["fingerprint"], f["path"], f["line"], f["rule_id"]) for f in findings)


def test_merged_json_equals_the_whole_scan(project, tmp_path, capsys):
    main(["check", "project", "--jobs", "1", "--format", "json", "-o", "whole.json", "-q"])
    whole = json.loads(Path("whole.json").read_text())
    capsys.readouterr()
    parts = shard_reports(capsys, tmp_path, "json")
    code, out, _ = merge(capsys, *parts)
    assert code == 1  # critical findings, the default --fail-on high
    merged = json.loads(out)
    assert keys(merged["findings"]) == keys(whole["findings"])
    for key in ("files", "bytes", "units", "suppressed", "skipped"):
        assert merged["stats"][key] == whole["stats"][key], key
    assert merged["shard"] == {"indexes": [1, 2, 3], "count": 3, "missing": []}
    seconds = sum(json.loads(Path(p).read_text())["stats"]["seconds"] for p in parts)
    assert merged["stats"]["seconds"] == pytest.approx(seconds, abs=1e-3)
    assert merged["stats"]["tool_errors"] == whole["stats"]["tool_errors"]
    # merging in any order gives the same document (findings sorted, stats summed)
    code, again, _ = merge(capsys, *reversed(parts))
    assert json.loads(again)["findings"] == merged["findings"]


def test_sarif_round_trip_is_valid_and_equals_the_whole_scan(project, tmp_path, capsys):
    main(["check", "project", "--jobs", "1", "--format", "sarif", "-o", "whole.sarif", "-q"])
    whole = json.loads(Path("whole.sarif").read_text())["runs"][0]
    capsys.readouterr()
    parts = shard_reports(capsys, tmp_path, "sarif")
    code, _, err = merge(capsys, *parts, "-o", "merged.sarif")
    assert code == 1 and "Report: merged.sarif" in err
    document = json.loads(Path("merged.sarif").read_text())
    jsonschema.Draft7Validator(SCHEMA).validate(document)
    run = document["runs"][0]

    def results(r: dict) -> list:
        return sorted(json.dumps({**x, "ruleIndex": 0}, sort_keys=True) for x in r["results"])

    assert results(run) == results(whole)  # locations, snippets, suppressions, properties
    # the rule descriptors the shards wrote, written again the same
    assert run["tool"]["driver"]["rules"] == whole["tool"]["driver"]["rules"]
    assert any(r.get("suppressions") for r in run["results"])  # (SARIF keeps suppressed ones)
    assert any("%25" in r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
               for r in run["results"])  # fmt: skip
    assert run["properties"]["shard"]["indexes"] == [1, 2, 3]
    # merged again (a merged report is a report of shards 1-3): the same results
    code, out, _ = merge(capsys, "merged.sarif", "--format", "json")
    assert keys(json.loads(out)["findings"]) == keys(
        json.loads(merge(capsys, *shard_reports(capsys, tmp_path, "json"))[1])["findings"]
    )


def test_json_reports_merged_into_sarif_are_valid(project, tmp_path, capsys):
    parts = shard_reports(capsys, tmp_path, "json", count=2)
    code, out, _ = merge(capsys, *parts, "--format", "sarif")
    assert code == 1
    document = json.loads(out)
    jsonschema.Draft7Validator(SCHEMA).validate(document)
    assert document["runs"][0]["results"]


def test_duplicates_are_removed_by_fingerprint_and_stats_summed(project, tmp_path, capsys):
    main(["check", "project/pkg0", "--jobs", "1", "--format", "json", "-o", "a.json", "-q"])
    main(["check", "project", "--jobs", "1", "--format", "json", "-o", "b.json", "-q"])
    a = json.loads(Path("a.json").read_text())
    b = json.loads(Path("b.json").read_text())
    capsys.readouterr()
    code, out, _ = merge(capsys, "a.json", "b.json")
    assert code == 1
    merged = json.loads(out)
    # a's findings (project/pkg0/...) are b's too, under the same fingerprints: kept once
    assert a["findings"] and len(a["findings"]) < len(b["findings"])
    assert keys(merged["findings"]) == keys(b["findings"])
    assert merged["stats"]["files"] == a["stats"]["files"] + b["stats"]["files"]
    code, out, _ = merge(capsys, "b.json", "b.json")
    assert code == 1
    twice = json.loads(out)
    assert keys(twice["findings"]) == keys(b["findings"])
    assert twice["stats"]["files"] == 2 * b["stats"]["files"]  # (stats are summed as given)
    assert "shard" not in twice


def _report(errors: list[dict], shard: dict | None = None, findings: list | None = None) -> str:
    document = {"version": 1, "tool": "wukong-lint", "findings": findings or [],
                "stats": {"files": 1, "bytes": 10, "units": 1, "seconds": 0.1,
                          "suppressed": 0, "skipped": 0}, "errors": errors}  # fmt: skip
    if shard:
        document["shard"] = shard
    return json.dumps(document)


def test_errors_are_kept_and_unscanned_inputs_fail_closed(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("1.json").write_text(_report([{"path": "a.bin", "message": "cannot read: gone"}],
                                      {"index": 1, "count": 2}))  # fmt: skip
    Path("2.json").write_text(_report([{"path": "b.py", "message": "archive member skipped"}],
                                      {"index": 2, "count": 2}))  # fmt: skip
    code, out, err = merge(capsys, "1.json", "2.json")
    assert code == 2 and "1 input(s) not scanned: unreadable" in err
    merged = json.loads(out)
    assert merged["errors"] == [
        {"path": "a.bin", "message": "cannot read: gone"},
        {"path": "b.py", "message": "archive member skipped"},
    ]
    assert merged["stats"]["files"] == 2
    assert merge(capsys, "1.json", "2.json", "--allow-skipped")[0] == 0
    Path("3.json").write_text(_report([{"path": "c.py", "message":
                                        "rule 'x' timed out after 5 s"}]))  # fmt: skip
    code, _, err = merge(capsys, "3.json")
    assert code == 2 and "time-out" in err
    assert merge(capsys, "3.json", "--allow-rule-timeouts")[0] == 0


def test_missing_shards_are_said_and_fail_unless_allowed(project, tmp_path, capsys):
    parts = shard_reports(capsys, tmp_path, "json")
    code, out, err = merge(capsys, parts[0], parts[2])
    assert code == 2
    assert "shard(s) 2/3 missing" in err and "--allow-partial" in err
    assert json.loads(out)["shard"] == {"indexes": [1, 3], "count": 3, "missing": [2]}
    code, _, err = merge(capsys, parts[0], parts[2], "--allow-partial")
    assert code == 1 and "warning: shard(s) 2/3 missing" in err
    code, _, err = merge(capsys, parts[0], parts[2], "--allow-partial", "-o", "m.txt")
    assert "(shard 1,3/3, 1 missing)" in err  # (the summary line)


def test_exit_code_follows_fail_on(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    high = {"rule_id": "x.y", "category": "secret", "severity": "high", "message": "m",
            "path": "a.py", "line": 1, "column": 1, "end_line": 1, "snippet": "",
            "fingerprint": "f1", "source": {"kind": "file"}}  # fmt: skip
    Path("r.json").write_text(_report([], findings=[high]))
    assert merge(capsys, "r.json")[0] == 1
    assert merge(capsys, "r.json", "--fail-on", "critical")[0] == 0
    assert merge(capsys, "r.json", "--exit-zero")[0] == 0


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"a.json": "{"}, "not a JSON document"),
        ({"a.json": "[]"}, "not a JSON or SARIF report"),
        ({"a.json": '{"tool": "other"}'}, "not a JSON or SARIF report"),
        ({"a.json": '{"version": 2, "tool": "wukong-lint", "findings": []}'}, "version 2"),
        ({"a.json": '{"version": 1, "tool": "wukong-lint", "findings": [{"x": 1}]}'},
         "not a readable"),
        ({"a.sarif": '{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "gitleaks"}}}]}'},
         "not of wukong-lint"),
        ({"a.json": _report([]), "b.sarif": json.dumps({"version": "2.1.0", "runs": [
            {"tool": {"driver": {"name": "wukong-lint"}}, "results": []}]})},
         "one format only"),
        ({"a.json": _report([], {"index": 1, "count": 2}),
          "b.json": _report([], {"index": 2, "count": 3})}, "different splits"),
        ({"a.json": _report([], {"index": 1, "count": 2}),
          "b.json": _report([], {"index": 1, "count": 2})}, "is in two reports"),
        ({"a.json": _report([], {"index": 1, "count": 2}), "b.json": _report([])},
         "no shard's report"),
        ({"a.json": _report([], {"index": 3, "count": 2})}, "must be 1 to its count"),
    ],
)  # fmt: skip
def test_bad_inputs_are_refused_with_exit_2(files, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for name, text in files.items():
        Path(name).write_text(text)
    code, out, err = merge(capsys, *files)
    assert code == 2, err
    assert message in err and "Traceback" not in err
    assert out == ""


def test_missing_report_and_overwriting_an_input_are_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, _, err = merge(capsys, "nope.json")
    assert code == 2 and "cannot read nope.json" in err
    Path("a.json").write_text(_report([]))
    before = Path("a.json").read_text()
    code, _, err = merge(capsys, "a.json", "-o", "a.json")
    assert code == 2 and "not overwriting" in err
    assert Path("a.json").read_text() == before
    code, _, _ = merge(capsys, "a.json", "-o", "out/merged.json")
    assert code == 2  # (no such folder: an error, not a traceback)
    assert merge(capsys, "a.json", "-o", "merged.json")[0] == 0
    assert json.loads(Path("merged.json").read_text())["stats"]["files"] == 1
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temp left
